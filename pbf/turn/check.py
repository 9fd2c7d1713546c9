"""``pbf check``: one player's order read against the current state, as text or as data."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .. import render
from ..errors import OrderError, PbfError, Problem
from ..board.orders import find_player
from ..record import record
from .orders import player_aliases

if TYPE_CHECKING:
    from typing import Any, Callable
    from ..campaign.layout import Campaign


# what pbf check says when a public export has no hands to check the order against
HIDDEN_HAND_NOTE = "（公開用の記録で手札が伏せてあるため、手札にそのカードがあるかは確かめていません。）\n"


@record
class Reading:
    """One player's order read for ``pbf check``: the order, how it reads (the system's view),
    and where the player's own text has each position (a whole post: after its marker line)."""

    name: str  # the player's name
    order: Any
    view: dict[str, Any]
    placed: Callable[[Problem], Problem]
    hidden: bool  # a public export: the hand was not there to check
    notes: tuple = ()  # what finding the order in the post and reading it passed over or corrected (placed)


def read_order(campaign: Campaign, player: str, text: str) -> Reading:
    """Read and check one player's order against the current state; OrderError (positions in
    the player's own text) when it is wrong."""
    from ..campaign.records import hands_redacted

    name = player_name(campaign, player)
    hidden = hands_redacted(campaign.path)  # a public export: hands are not there to check
    if hidden:
        campaign = without_hand_check(campaign)
    post = order_in_post(campaign, name, text)
    try:
        order = campaign.system.parse_order(post.text, name, campaign.state, campaign.ctx)
    except PbfError as exc:
        raise OrderError([post.place(p if p.player else replace(p, player=name)) for p in exc.problems]) from None
    view = campaign.system.order_view(order, name, campaign.state, campaign.ctx)
    notes = (*post.notes, *(post.place(n) for n in order_notes(order)))
    return Reading(name, order, view, post.place, hidden, notes)


def order_notes(order: Any) -> tuple[Problem, ...]:
    """What the reader passed over or corrected in an order (``notes``: Problems, positions in
    the order text); none from a reader that keeps no notes."""
    return tuple(getattr(order, "notes", None) or ())


def read_for_check(campaign: Campaign, player: str, text: str) -> tuple[str, tuple[Problem, ...]]:
    """The canonical order and the notes of ``text`` read as ``pbf check`` reads it (the natural
    order corpora, tests/corpus); OrderError when it is wrong."""
    read = read_order(campaign, player, text)
    return campaign.system.canonical_order(read.order), read.notes


def check_order(campaign: Campaign, player: str, text: str) -> str:
    """``pbf check``: how one order reads for one player against the current state."""
    read = read_order(campaign, player, text)
    out = render_reading(campaign, read.name, read.view, read.notes)
    if read.hidden:
        return out + HIDDEN_HAND_NOTE
    return out


def problem_data(problem: Problem, player: bool = True) -> dict[str, Any]:
    """A problem (or a reader's note) as plain data, for ``--json``."""
    out = {"message": problem.message, "line": problem.line, "column": problem.column, "text": problem.text,
           "hint": problem.hint, "severity": problem.severity}  # a note's: None, or "warning" (the other reading named)
    if player:
        out["player"] = problem.player
    return out


def check_data(campaign: Campaign, player: str, text: str) -> dict[str, Any]:
    """``pbf check --json``: the reading as data (docs/check.md). OrderError when the order is
    wrong (``check_failure`` makes its object)."""
    read = read_order(campaign, player, text)
    system, ctx = campaign.system, campaign.ctx

    def place(line: int | None, column: int | None) -> tuple[int | None, int | None]:
        moved = read.placed(Problem("", line=line, column=column))
        return moved.line, moved.column

    warnings = [{**w, "message": render.render(system, "warning.j2", campaign.path, warning=w).rstrip("\n")}
                for w in read.view.get("warnings", ())]
    if read.hidden:
        warnings.append({"kind": "hand_not_checked", "message": HIDDEN_HAND_NOTE.strip().strip("（）")})
    return {
        "player": read.name,
        "character": ctx.players[read.name].character,
        "system": system.name,
        "ok": True,
        "canonical": system.canonical_order(read.order),
        "order": system.order_data(read.order, read.name, campaign.state, ctx, place),
        "notes": [problem_data(n, player=False) for n in read.notes],
        "warnings": warnings,
        "problems": [],
    }


def check_failure(campaign: Campaign | None, player: str, error: PbfError) -> dict[str, Any]:
    """``pbf check --json`` for an order (or a campaign, a player's name) that is wrong: the
    same object as :func:`check_data`'s, with ``ok`` false and every problem."""
    name, character = player, None
    if campaign is not None:
        found = find_player(player, list(campaign.ctx.players), player_aliases(campaign))
        if not isinstance(found, Problem):
            name, character = found, campaign.ctx.players[found].character
    return {
        "player": name,
        "character": character,
        "system": campaign.system.name if campaign is not None else None,
        "ok": False,
        "canonical": None,
        "order": None,
        "notes": [],
        "warnings": [],
        "problems": [problem_data(p) for p in error.problems],
    }


@record(frozen=True)
class PostOrder:
    """The order in a pasted post (:func:`order_in_post`)."""

    text: str
    place: Callable[[Problem], Problem]  # a problem of the order → the post's own lines and columns
    notes: tuple[Problem, ...] = ()  # what was passed over or read in another shape, in the post's lines


def epilogue_words(campaign: Campaign, state: dict[str, Any] | None = None) -> tuple[str, ...]:
    """After the battle's end, the words whose line is an order without the marker (the rider
    game's イベントファイナル); none while the battle goes on, or for a game without an epilogue."""
    state = campaign.state if state is None else state
    if state.get("winner") is None:
        return ()
    return tuple(getattr(campaign.system, "epilogue_words", ()))


def order_in_post(campaign: Campaign, name: str, text: str) -> PostOrder:
    """The order in ``text``, taken as the thread reader takes a post (:func:`pbf.markers.read_post`,
    the same function), with a function that puts a problem of the order back in the post's own
    lines and columns and the notes on what was passed over.

    With the order marker (docs/forum.md, section 3), the order is what follows it; without one,
    the whole text is the order. A post the thread would not read as an order (the marker used
    as a word in a sentence, an empty marker) is refused with the thread's own reason."""
    from ..board.markers import read_post  # the thread reader's own rules

    marker = str(campaign.ctx.options.get("order_marker", "【行動】"))
    found = read_post(text, marker, epilogue_words(campaign))
    if found.found is None:
        if found.unread is not None:
            raise OrderError([replace(found.unread, player=name)])
        return PostOrder(text, lambda p: p)
    order = found.found
    if order.problems:
        raise OrderError([replace(p, player=name) for p in order.problems])
    line_no, column_shift = order.line, order.column_offset

    def placed(p: Problem) -> Problem:
        if p.line is None:
            return p
        column = p.column + column_shift if p.line == 1 and p.column is not None else p.column
        return replace(p, line=p.line + line_no - 1, column=column)

    return PostOrder(order.text, placed, order.notes)


def render_reading(campaign: Campaign, name: str, view: dict[str, Any], notes: Any = (), howto: bool = True) -> str:
    """How an order reads (``templates/<system>/check.j2``) from an order view, public or not;
    ``notes``: what the reader passed over or corrected (Problems, placed in the player's text);
    ``howto``: with the game's 「書き方：…」 help (the receipts show it once, not per player)."""
    return render.render(campaign.system, "check.j2", campaign.path, player=name, view=view, howto=howto,
                         notes=[{**problem_data(n, player=False), "shown": n.format(japanese=True)} for n in notes])


def player_name(campaign: Campaign, player: str) -> str:
    found = find_player(player, list(campaign.ctx.players), player_aliases(campaign))
    if isinstance(found, Problem):
        raise PbfError(found)
    return found


# -- check on a redacted export --------------------------------------------------------

def without_hand_check(c: Campaign) -> Campaign:
    """The campaign read as if hands were free: its orders are checked for everything but the hand."""
    ctx = replace(c.ctx, options={**c.ctx.options, "hands": "free"})
    return replace(c, ctx=ctx)
