"""One turn, from orders text to (state, events, post) — the core around a system's resolver."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import field, replace
from typing import Any, Callable

from . import render, yamlio
from .boardfit import board_safe, split_post
from .campaign import STATE_FILE, Campaign, board_charset, TurnRecord, archived, archived_meta, archived_yaml, at_turn, options_by_turn, state_before
from .dice import Dice, hmac_draws, seed_commitment, sha256_hex, turn_key
from .errors import OrderError, PbfError, Problem
from .events import event_dicts
from .lazy import lazy
from .orders import Aliases, find_player, split_orders
from .record import record


_markers = lazy("pbf.markers")  # the thread's markers: only where a post is finished or read


@record(frozen=True)
class OrderSource:
    """One player's order text and how to place a problem in it for the user."""

    player: str
    text: str
    place: Callable[[Problem], Problem]
    where: str | None = None  # the thread post it came from (">>12")
    # what leaves no order to read, found before the game reads it (an empty 【行動】), already
    # placed in the post: reported as the order's problems, and the text is not read
    problems: tuple[Problem, ...] = ()


@record
class OrderSources:
    """The turn's orders as written, by player, with the problems of the file itself
    (unknown players, two orders for one player, text before the first header)."""

    by_player: dict[str, OrderSource]
    problems: list[Problem] = field(default_factory=list)


@record
class ReadOrders:
    orders: dict[str, Any]  # player -> parsed order, None when missing
    canonical: str
    missing: list[str]  # no order: the game's empty order (未提出)
    repeated: list[str]  # missing = "repeat": last turn's order again (継続)


def player_aliases(campaign: Campaign) -> Aliases:
    """The names of each player's character (美鈴, ナイト, Knight): a header or --player may use
    them where only one player plays that character. Made once per context (its players and
    data do not change); the callers only read it."""
    ctx = campaign.ctx
    kept = _ALIASES.get(id(ctx))
    if kept is None or kept[0] is not ctx:
        names = _character_names(campaign)
        aliases = {name: list(names.get(p.character, [])) for name, p in ctx.players.items()}
        if len(_ALIASES) >= 16:
            _ALIASES.clear()
        kept = _ALIASES[id(ctx)] = (ctx, aliases)
    return kept[1]


_ALIASES: dict[int, tuple[Any, Aliases]] = {}


# id(data) -> (data, character id -> names): the names come from the data alone (a catalogue's
# ``names``), and building the whole catalogue for them on every turn cost more than the parsing.
_NAMES: dict[int, tuple[Any, dict[str, list[str]]]] = {}


def _character_names(campaign: Campaign) -> dict[str, list[str]]:
    data = campaign.ctx.data
    kept = _NAMES.get(id(data))
    if kept is None or kept[0] is not data:
        names = {
            entry["id"]: entry["names"]
            for entries in campaign.system.catalogue(data, campaign.ctx.options).values()
            for entry in entries
            if isinstance(entry, dict) and "names" in entry
        }
        if len(_NAMES) >= 16:
            _NAMES.clear()
        kept = _NAMES[id(data)] = (data, names)
    return kept[1]


def sources_from_file(campaign: Campaign, text: str) -> OrderSources:
    problems: list[Problem] = []
    found = split_orders(text, list(campaign.ctx.players), problems, player_aliases(campaign))
    return OrderSources({name: OrderSource(name, e.text, e.place) for name, e in found.items()}, problems)


def canonical_orders(campaign: Campaign, orders: dict[str, Any]) -> str:
    """``NAME\tORDER\n`` per player, sorted by name; a missing order is empty (product.md)."""
    return canonical_orders_of(campaign.system, campaign.ctx, orders)


def canonical_orders_of(system: Any, ctx: Any, orders: dict[str, Any]) -> str:
    lines = []
    for name in sorted(ctx.players):
        order = orders.get(name)
        text = system.canonical_order(order) if order is not None else ""
        lines.append(f"{name}\t{text}\n")
    return "".join(lines)


def previous_orders(campaign: Campaign, turn: int) -> dict[str, str]:
    """The canonical orders of an archived turn, by player."""
    if turn <= 0:
        return {}
    record = archived_yaml(campaign, turn, "dice.yaml")
    out = {}
    for line in str(record.get("orders_canonical", "")).split("\n"):
        name, tab, order = line.partition("\t")
        if tab and order:
            out[name] = order
    return out


def read_orders(
    campaign: Campaign, sources: OrderSources, state: dict[str, Any] | None = None
) -> ReadOrders:
    """Parse every player's order; all problems are raised together."""
    state = campaign.state if state is None else state
    system, ctx = campaign.system, campaign.ctx
    problems = list(sources.problems)
    orders: dict[str, Any] = {}
    for name in ctx.players:
        source = sources.by_player.get(name)
        if source is None:
            orders[name] = None
            continue
        if source.problems:
            problems.extend(source.problems)
            orders[name] = None
            continue
        try:
            orders[name] = system.parse_order(source.text, name, state, ctx)
        except PbfError as exc:
            problems.extend(source.place(p) for p in exc.problems)
    if problems:
        problems.sort(key=lambda p: (p.source or "", p.line or 0, p.column or 0))
        raise OrderError(problems)
    repeated: list[str] = []
    if ctx.options.get("missing") == "repeat":
        last = previous_orders(campaign, int(state.get("turn", 0)))
        for name in ctx.players:
            if orders[name] is None and last.get(name):
                try:
                    orders[name] = system.parse_order(last[name], name, state, ctx)
                except PbfError:
                    continue  # last turn's order is no longer possible: the empty order
                repeated.append(name)
    missing = [name for name in ctx.players if orders[name] is None]
    return ReadOrders(orders, canonical_orders(campaign, orders), missing, repeated)


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
    from .campaign import hands_redacted

    name = player_name(campaign, player)
    hidden = hands_redacted(campaign.path)  # a public export: hands are not there to check
    if hidden:
        from . import export

        campaign = export.without_hand_check(campaign)
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
        from .export import HIDDEN_HAND_NOTE

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
        from .export import HIDDEN_HAND_NOTE

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
    from .markers import read_post  # the thread reader's own rules

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


def run_turn(
    campaign: Campaign,
    orders_text: str,
    fixed: list[int] | None = None,
    draws: list[int] | None = None,
    state: dict[str, Any] | None = None,
    sources: OrderSources | None = None,
    meta: dict[str, Any] | None = None,
    npc_archived: dict[str, Any] | None = None,
) -> TurnRecord:
    """Resolve the next turn without writing anything.

    ``orders_text`` is what the archive keeps (the orders file as given, or the orders taken
    from a thread); ``sources``, when given, are the same orders with their places in the thread.
    ``meta`` is what the archive's turn.yaml keeps besides (where the orders came from, the
    deadline, ``next_deadline`` for the post, the notes); the rules version is added here.
    """
    meta = {"rules_version": campaign.system.rules_version, **(meta or {})}
    if fixed:
        meta["gm_dice"] = len(fixed)
    state = campaign.state if state is None else state
    # a system with accepts_epilogue reads and resolves a turn after the end itself (the rider
    # game: the winners' イベントファイナル only); for the others the battle is simply over
    if state.get("winner") is not None and not getattr(campaign.system, "accepts_epilogue", False):
        raise PbfError("このバトルはもう決着しています（pbf show で確認できます）。 / the battle is over")
    if sources is None:
        sources = sources_from_file(campaign, orders_text)
    # the NPCs' orders: fixed from the state before the turn and the seed, before any order is read
    # (docs/npc.md); without the seed (a public export) the archived ones, their commitments checked
    live = draws is None  # a live turn reads pbf's cache; a replay (draws given) recomputes
    npc_found = _npc().npc_orders(campaign, state, campaign.seed, (npc_archived or {}).get("npc"), cache=live) \
        if _has_npc(campaign) else {}
    if npc_found:
        sources, dropped = _with_npc(sources, npc_found)
        if dropped:
            meta["notes"] = [*meta.get("notes", []), *(
                f"{name}はNPCです。pbf が行動を決めるため、{name}の名前で書かれた行動は読みませんでした。" for name in dropped)]
    read = read_orders(campaign, sources, state)
    # what the reading of each order passed over or corrected, kept with the turn (turn.yaml is
    # public: the notes name what was written, never a hand)
    reading_notes = [sources.by_player[name].place(replace(n, player=name)).format(public=True, japanese=True)
                     for name, order in read.orders.items() if order is not None and name in sources.by_player
                     for n in order_notes(order)]
    if reading_notes:
        meta["notes"] = [*meta.get("notes", []), *reading_notes]
    turn = int(state.get("turn", 0)) + 1
    if draws is not None:
        dice = Dice.replay(draws)
    elif not campaign.seed:
        raise PbfError("campaign.toml に seed がありません（公開用に消したフォルダではターンを進められません）。 / no seed")
    else:
        seeded = Dice.seeded(campaign.seed, turn, read.canonical)
        dice = Dice.fixed(fixed, then=seeded) if fixed else seeded
    system, ctx = campaign.system, campaign.ctx
    rules = int(meta["rules_version"])
    if rules != system.rules_version:  # a replay of a turn archived under other rules
        ctx = replace(ctx, rules_version=rules)
    new_state, events = system.resolve(state, read.orders, dice, ctx)
    events = event_dicts(events)
    public = system.public_summary(new_state, ctx)
    body = render.render(
        system,
        "post.j2",
        campaign.path,
        turn=turn,
        events=events,
        summary=public,
        before=system.public_summary(state, ctx),
        missing=read.missing,
        repeated=read.repeated,
        orders={n: (system.canonical_order(o) if o is not None else None) for n, o in read.orders.items()},
        players=ctx.players,
        options=ctx.options,
        rules_version=rules,
    )
    if npc_found:
        meta["npc"] = {name: d.record() for name, d in npc_found.items()}
    if _has_npc(campaign) and new_state.get("winner") is None:
        if campaign.seed:
            upcoming = _npc().next_entries(_npc().npc_orders(campaign, new_state, campaign.seed, cache=live))
        else:
            upcoming = list((npc_archived or {}).get("npc_next") or [])
        if upcoming:
            meta["npc_next"] = upcoming
    if npc_found or meta.get("npc_next"):
        explain = str(ctx.options.get("npc_explain", "on")) != "off"
        body = body.rstrip("\n") + "\n\n" + render.render(
            system, "common/npc.j2", campaign.path, options=ctx.options,
            revealed=_npc().reveal_entries(system, npc_found, explain), upcoming=meta.get("npc_next") or [],
            next_turn=turn + 1)
    if meta.get("not_taken"):  # only when there is something to list: older archives replay unchanged
        body = body.rstrip("\n") + "\n\n" + render.render(
            system, "common/not_taken.j2", campaign.path, entries=meta["not_taken"], options=ctx.options)
    footer = {
        "gm_dice": meta.get("gm_dice", 0),
        "early": deadline_text_label(campaign, meta.get("deadline")) if meta.get("early") else None,
        "next_deadline": deadline_text_label(campaign, meta.get("next_deadline")),
        "over": public.get("winner") is not None,
    }
    post, parts = finish_post(campaign, body, turn, read.canonical, **footer)
    encoding = board_charset(ctx.options)

    def notices() -> dict[str, str]:
        return {
            name: board_safe(render.render(system, "notice.j2", campaign.path, turn=turn, player=name, notice=notice), encoding)
            for name, notice in system.notices(new_state, ctx).items()
        }

    return TurnRecord(
        turn=turn,
        orders_text=orders_text,
        canonical=read.canonical,
        fixed=list(fixed or []),
        dice=dice,
        state=new_state,
        events=events,
        post=post,
        notices=Notices(notices),
        parts=parts,
        meta=meta,
    )


_npc = lazy("pbf.npc.turns")  # only for a campaign with an NPC


def _has_npc(campaign: Campaign) -> bool:
    ctx = campaign.ctx
    return bool(ctx.options.get("npc")) or any(getattr(p, "npc", None) for p in ctx.players.values())


def _with_npc(sources: OrderSources, found: dict[str, Any]) -> tuple[OrderSources, list[str]]:
    """The turn's sources with each NPC's order in place of anything posted under its name."""
    by_player = dict(sources.by_player)
    dropped = [name for name in found if name in by_player]
    for name, d in found.items():
        by_player[name] = OrderSource(name, d.text, lambda p: p, "NPC")
    problems = [p for p in sources.problems if p.player not in found]
    return OrderSources(by_player, problems), dropped


class Notices(Mapping[str, str]):
    """A turn's private notices (player -> text), rendered the first time they are read.

    ``commit_turn`` writes them; a replay (which compares the state and the post) and a tool that
    only wants a turn's outcome never read them, and do not pay for their templates. ``pbf turn``
    reads them before anything else (a dry run too), so that a notice template that cannot be
    rendered is reported before the campaign's lock is taken or anything is written."""

    def __init__(self, make: Callable[[], dict[str, str]]):
        self._make: Callable[[], dict[str, str]] | None = make
        self._made: dict[str, str] = {}

    def _all(self) -> dict[str, str]:
        if self._make is not None:
            self._made, self._make = self._make(), None
        return self._made

    def __getitem__(self, name: str) -> str:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def deadline_text_label(campaign: Campaign, deadline: str | None) -> str | None:
    """``2026-12-05 22:00`` → ``12/5(土) 22:00`` in the campaign's zone (None stays None)."""
    return _label(campaign.ctx.options, deadline)


def finish_post(
    campaign: Campaign, body: str, turn: int, canonical: str, **footer: Any
) -> tuple[str, list[str]]:
    """The post with its verification footer and results marker, safe for the board's
    encoding, and split into parts that fit the board's limits (docs/forum.md). ``footer``:
    ``gm_dice`` (faces the GM supplied), ``early`` (taken before this deadline, its label: pbf
    turn --early), ``next_deadline`` (its label), ``over``."""
    footer_text = render.render(
        campaign.system, "common/footer.j2", campaign.path, turn=turn, orders_sha256=sha256_hex(canonical),
        gm_dice=footer.get("gm_dice", 0), next_deadline=footer.get("next_deadline"), over=footer.get("over", False),
        early=footer.get("early"),
    )
    return fit_post(campaign.ctx.options, body.rstrip("\n") + "\n\n" + footer_text, _markers().results_marker_line(turn))


def fit_post(options: dict[str, Any], text: str, marker: str | None) -> tuple[str, list[str]]:
    """Any post for the thread: safe for the board's encoding, split at blank lines into parts
    that fit the board's limits, each ending with ``marker`` (when given)."""
    encoding = board_charset(options)
    text = board_safe(text.rstrip("\n"), encoding)
    steps = text.split("\n\n")
    blocks = [step + "\n" for step in steps[:-1]] + steps[-1:]
    whole = "\n".join(blocks) + "\n" + (marker + "\n" if marker else "")
    max_lines, max_bytes = options.get("max_lines") or None, options.get("max_bytes") or None
    if max_lines is None and max_bytes is None:  # no limits: one part (the text is board-safe already)
        return whole, [whole]
    parts = split_post(blocks, max_lines, max_bytes, encoding=encoding, footer=marker)
    return whole, [part.rstrip("\n") + "\n" for part in parts]


def replay(campaign: Campaign) -> list[str]:
    """Re-resolve every archived turn, in one pass; the differences of the first turn that differs.

    A turn starts from the state the turn before ended in, as just recomputed and found equal to
    its archive, unless the GM edited state.yaml in between (``before.yaml``). A public export
    whose hands are hidden cannot be re-resolved: what its record allows is checked instead."""
    from .campaign import check_archive, hands_redacted

    check_archive(campaign)  # a turn folder or file missing, a record malformed: refused by name
    if hands_redacted(campaign.path):
        from . import export

        return export.public_replay(campaign)[0]
    previous: tuple[int, str, dict[str, Any]] | None = None  # turn, state text, state
    options = options_by_turn(campaign)
    for turn in campaign.archived_turns():
        if turn == 0:
            continue
        folder = campaign.turn_dir(turn)
        if previous is not None and previous[0] == turn - 1 and not (folder / "before.yaml").exists():
            _, before_text, before = previous
        else:
            before_text = state_before(campaign, turn)
            before = yamlio.load_plain(before_text, f"history/{folder.name}")
        draws = archived_yaml(campaign, turn, "dice.yaml").get("draws", [])
        orders_text = archived(campaign, turn, "orders.txt")
        meta = archived_meta(campaign, turn)
        # with the options the turn had (pbf set may have changed them since), under the rules it
        # was archived with (a turn.yaml without rules_version is from rules version 1)
        kept = {k: meta[k] for k in ("next_deadline", "gm_dice", "early", "deadline", "not_taken") if meta.get(k)}
        try:
            record = run_turn(at_turn(campaign, options[turn]), orders_text, draws=draws, state=before,
                              meta={"rules_version": int(meta.get("rules_version", 1)), **kept}, npc_archived=meta)
            if campaign.seed and (record.meta.get("npc") or meta.get("npc")):
                _npc().check_same(turn, record.meta.get("npc") or {}, meta.get("npc"))
        except PbfError as exc:
            if "NPC" not in str(exc):
                raise
            return [f"第{turn}ターンが一致しません：history/{folder.name}/turn.yaml", str(exc)]
        state_text, state = yamlio.merge_text(before_text, before, record.state, f"history/{folder.name}")
        for name, expected, actual in (
            (f"history/{folder.name}/{STATE_FILE}", archived(campaign, turn, STATE_FILE), state_text),
            (f"history/{folder.name}/post.txt", archived(campaign, turn, "post.txt"), record.post),
            (f"history/{folder.name}/events.yaml", archived(campaign, turn, "events.yaml"), yamlio.dump_data(record.events)),
        ):
            if expected != actual:
                import difflib

                diff = difflib.unified_diff(
                    expected.splitlines(), actual.splitlines(), f"{name}（記録）", f"{name}（再計算）", lineterm=""
                )
                head = [f"第{turn}ターンが一致しません：{name}"]
                from .versions import describe, differences

                head += describe(differences(meta.get("made_with")))
                archived_rules = int(meta.get("rules_version", 1))
                if archived_rules != campaign.system.rules_version:
                    head.append(
                        f"このターンはルール版 {archived_rules} で処理されましたが、今の pbf はルール版"
                        f" {campaign.system.rules_version} です。ルールの変更（裁定の修正）によって結果が変わりました。"
                        "記録はそのときのルールで正しく処理されたものです。"
                    )
                return head + list(diff)
        previous = (turn, state_text, state)
    return []


def verify(campaign: Campaign, seed: str | None = None) -> list[str]:
    """Check the seed against its commitment and recompute every archived die from it.

    Returns what was checked, one line a turn; raises PbfError at the first mismatch.
    """
    seed = campaign.seed if seed is None else seed
    if not seed:
        raise PbfError("シードがありません。--seed で公開されたシードを指定してください。 / no seed")
    zero = archived_yaml(campaign, 0, "dice.yaml")
    committed = zero.get("seed_sha256")
    if committed != seed_commitment(seed):
        raise PbfError(
            f"シードがコミットメントと一致しません（記録：{committed}、計算：{seed_commitment(seed)}）。 / seed does not match the commitment"
        )
    lines = [f"シードはコミットメント {committed} と一致します。"]
    options = options_by_turn(campaign)
    for turn in campaign.archived_turns():
        record = archived_yaml(campaign, turn, "dice.yaml")
        canonical = record.get("orders_canonical", "")
        if turn > 0:
            before = yamlio.load_plain(state_before(campaign, turn), "state.yaml")
            orders_text = archived(campaign, turn, "orders.txt")
            then = at_turn(campaign, options[turn])
            sources = sources_from_file(then, orders_text)
            if _has_npc(then) and before.get("winner") is None:
                found = _npc().npc_orders(then, before, seed)
                _npc().check_same(turn, {n: d.record() for n, d in found.items()},
                                  archived_meta(campaign, turn).get("npc"))
                sources = _with_npc(sources, found)[0]
            recomputed = read_orders(then, sources, before).canonical
            if recomputed != canonical:
                raise PbfError(f"第{turn}ターンの行動の正規形が記録と違います。 / canonical orders differ")
        if record.get("orders_sha256") != sha256_hex(canonical):
            raise PbfError(f"第{turn}ターンの行動のハッシュが記録と違います。 / orders hash differs")
        fixed = [face - 1 for face in record.get("fixed", [])]
        draws = record.get("draws", [])
        stream = hmac_draws(turn_key(seed, turn, canonical))
        expected = fixed[: len(draws)] + [next(stream) for _ in range(max(0, len(draws) - len(fixed)))]
        if draws != expected:
            bad = next(i for i, (a, b) in enumerate(zip(draws, expected)) if a != b)
            raise PbfError(f"第{turn}ターンの{bad + 1}個目のダイスがシードから計算した値と違います。 / die {bad + 1} differs")
        # a draw is a die or one step of a shuffle; turn 0 draws only the first hands (product.md)
        if turn == 0 and draws:
            lines.append(f"開始時：最初の手札のシャッフルの乱数{len(draws)}個を確認しました。")
        elif turn > 0:
            given = f"（うち指定{len(fixed)}個）" if fixed else ""
            lines.append(f"第{turn}ターン：乱数{len(draws)}個{given}を確認しました。")
            for name in archived_meta(campaign, turn).get("npc") or {}:
                lines.append(f"第{turn}ターン：NPC（{name}）の行動を、前の状態とシードから計算し直して確かめました。")
    return lines


# -- orders from a forum thread (docs/forum.md) ----------------------------------------------------

@record
class ThreadOrders:
    collected: Any  # pbf.forum.Collected
    orders_text: str  # what the archive keeps as orders.txt
    sources: OrderSources
    meta: dict[str, Any] = field(default_factory=dict)  # turn.yaml: the thread, the window, the posts read
    notes: list[Problem] = field(default_factory=list)  # everything worth a word, for the receipts and stderr
    read_upto: int | None = None  # the last post the previous turn read, when it read this thread
    deadline: str | None = None  # "YYYY-MM-DD HH:MM", the deadline the window was read with


def gm_identity(campaign: Campaign) -> tuple[str, str | None] | None:
    gm = str(campaign.ctx.options.get("gm", "") or "")
    if not gm:
        return None
    name, _, trip = gm.partition("◆")
    return name.strip(), (trip.strip() or None)


def turn_deadline(campaign: Campaign, given: str | None) -> str | None:
    """The deadline of the turn to come: ``--deadline`` when given, else the stored one."""
    from .campaign import current_deadline

    if given is not None:
        from .forum import normalize_deadline  # pbf.forum only where a command needs it (start-up)

        return normalize_deadline(given)
    return current_deadline(campaign)


def _same_thread(previous: dict[str, Any], thread: Any) -> bool:
    if previous.get("title") and previous.get("title") == thread.title:
        return True
    return bool(previous.get("fingerprint")) and previous.get("fingerprint") == thread.fingerprint()


def thread_orders(
    campaign: Campaign, thread: Any, since: int | None = None, deadline: str | None = None,
    encoding: str | None = None,
) -> ThreadOrders:
    """The turn's orders from a thread file (``.dat``, したらば dat or a copied read.cgi page).

    The window starts after the posts the previous turn read, when it read this thread (the
    archive's turn.yaml says which), and after the previous turn's results post."""
    from .forum import collect_orders, parse_deadline
    from .thread import load_thread, normalize_name

    read = load_thread(thread, encoding)
    options = campaign.ctx.options
    previous = archived_meta(campaign, campaign.turn).get("thread") if campaign.turn > 0 else None
    same = bool(previous) and _same_thread(previous, read)
    upto = int(previous["last_post"]) if same else None  # the posts the previous turn already read
    collected = collect_orders(
        read.posts,
        {p.name: p.trip for p in campaign.ctx.players.values()},
        marker=options.get("order_marker", "【行動】"),
        since=since,
        deadline=parse_deadline(deadline) if deadline else None,
        orders=options.get("orders", "plain"),
        gm=gm_identity(campaign),
        after=upto,
        current_turn=campaign.turn,
        epilogue=epilogue_words(campaign),
    )
    if since is None and not same and collected.results_turn is not None and collected.results_turn != campaign.turn:
        raise PbfError(
            f"スレッドの最後の結果は第{collected.results_turn}ターンですが、キャンペーンは第{campaign.turn}ターンまで"
            "進んでいます。--since で行動の始まる書き込み番号を指定してください。 / the thread's last results post is"
            " for another turn; use --since"
        )
    names = {normalize_name(name): name for name in campaign.ctx.players}
    sources = {}
    for player, submitted in collected.orders.items():
        name = names.get(player, player)
        sources[name] = OrderSource(name, submitted.text, submitted.locate, submitted.source, tuple(submitted.problems))
    meta = {
        "orders_from": "thread",
        "thread": {
            "title": read.title,
            "fingerprint": read.fingerprint(),
            "format": read.format,
            "encoding": read.encoding,
            "first_post": collected.window_start,
            "last_post": max(collected.window_end, collected.window_start - 1),
        },
        "order_posts": {names.get(p, p): o.post for p, o in collected.orders.items()},
    }
    if deadline:
        meta["deadline"] = deadline
    not_taken = posts_not_taken(collected, names)
    if not_taken:  # the results post's short public section (docs/forum.md, "What the post says")
        meta["not_taken"] = not_taken
    notes = [replace(w, source=f"{w.line}行目" if w.line else None, line=None) for w in read.warnings]
    notes += collected.notes()
    if notes:
        meta["notes"] = [n.format(public=True, japanese=True) for n in notes]
    return ThreadOrders(collected, collected.to_orders_file(), OrderSources(sources), meta, notes, upto, deadline)


def posts_not_taken(collected: Any, names: dict[str, str]) -> list[dict[str, Any]]:
    """The order posts of the window that pbf did not take, and why, for the results post: late
    (遅刻), under a player's name with the wrong trip (なりすまし), replaced by a later post of the
    same player (superseded). Public things only: the post, the player, the reason, which post
    ran instead, the late post's time, the trip the impostor showed; in commit–reveal also a 【公開】
    that matched no commitment (mismatch) or came without one (no_commit). In post order."""
    out: list[dict[str, Any]] = []
    ran = {names.get(p, p): order.post for p, order in collected.orders.items()}
    for late in collected.late:
        player = names.get(late.player, late.player)
        entry: dict[str, Any] = {"post": late.post, "player": player, "reason": "late", "kind": late.kind,
                                 "posted_at": late.posted_at.strftime("%Y-%m-%d %H:%M:%S") if late.posted_at else None}
        if player in ran:
            entry["instead"] = ran[player]
        out.append(entry)
    for imp in collected.impersonations:
        if imp.has_order:  # chat under a player's name was never a candidate
            out.append({"post": imp.post, "player": names.get(imp.player, imp.player), "reason": "impersonation",
                        "trip": imp.trip})
    for player, order in collected.orders.items():
        for post in order.superseded:
            out.append({"post": post, "player": names.get(player, player), "reason": "superseded", "by": order.post})
    for issue in collected.commit_issues:  # commit–reveal: a reveal that left the player without an order
        if issue.reason in ("mismatch", "no_commit") and issue.post:
            out.append({"post": issue.post, "player": names.get(issue.player, issue.player), "reason": issue.reason})
    out.sort(key=lambda e: e["post"])
    return out


def refuse_taken_window(campaign: Campaign, found: ThreadOrders) -> None:
    """A second ``pbf turn`` on the same posts: the previous turn read this thread and no new
    order post has come since (docs/forum.md, "A turn is taken once")."""
    c = found.collected
    if found.read_upto is None or c.orders or c.late or c.commit_issues or c.committed:
        return
    window = found.meta["thread"]
    raise PbfError(
        Problem(
            f"第{campaign.turn}ターンはすでに処理済みです（>>{found.read_upto}までの書き込みを読みました）。"
            f"その後の書き込み（>>{window['first_post']}〜）に新しい行動はありません。",
            hint=f"結果をもう一度表示するには：pbf log {campaign.path} --turn {campaign.turn}"
            "　／　やり直すなら pbf undo の後にもう一度 pbf turn",
        )
    )


def receipts(campaign: Campaign, found: ThreadOrders, now: Any = None) -> tuple[list[str], list[str]]:
    """``pbf status``: for each player 受理 with how the order reads, the error, 未提出 or
    (commit–reveal) コミット済み — rendered from public things only, in parts that fit the board.

    Returns (parts for the thread, private details for the GM alone, e.g. which card a hand lacks)."""
    options = campaign.ctx.options
    system, ctx = campaign.system, campaign.ctx
    entries = []
    private: list[str] = []
    last = previous_orders(campaign, campaign.turn) if options.get("missing") == "repeat" else {}
    committed = found.collected.committed
    deadline = found.deadline
    # past the deadline: by the clock (``now``, board time); without a clock (the demo), when a
    # post is already stamped after it. A post stamped late while the clock is before the
    # deadline is 遅刻 in its receipt, and the others may still write (pbf status warns the GM).
    from .forum import is_late, parse_deadline

    if now is not None:
        after = bool(deadline) and is_late(now, parse_deadline(deadline))
    else:
        after = bool(found.collected.late)
    npc_next = _npc_commitments(campaign) if _has_npc(campaign) else {}
    for name in ctx.players:
        if name in npc_next:  # pbf plays this fighter: its order is fixed and committed (docs/npc.md)
            entries.append({"player": name, "source": None, "reading": None, "problems": [], "notes": [],
                            "superseded": [], "status": "npc", **npc_next[name]})
            continue
        source = found.sources.by_player.get(name)
        notes = found.collected.notes(name, reveals_pending=not after)
        entry: dict[str, Any] = {"player": name, "source": None, "reading": None, "problems": [],
                                 "notes": [p.format(japanese=True) for p in notes],
                                 "superseded": _superseded(found.collected, name)}
        if source is None:
            if name in committed:
                entry["status"], entry["source"] = "committed", f">>{committed[name]}"
            elif (view := _locked_view(system, name, campaign.state, ctx)) is not None:
                # nothing to write this turn (Alter EGO's guard stance or a charged 強): not 未提出
                entry["status"] = "locked"
                entry["reading"] = render_reading(campaign, name, view, howto=False).rstrip("\n")
            else:
                entry["status"] = "repeat" if last.get(name) else "missing"
        else:
            entry["source"] = source.where
            try:
                if source.problems:  # nothing to read (an empty 【行動】): placed already
                    raise OrderError(list(source.problems))
                order = system.parse_order(source.text, name, campaign.state, ctx)
            except PbfError as exc:
                entry["status"] = "error"
                placed = list(source.problems) or [source.place(p) for p in exc.problems]
                entry["problems"] = [p.format(public=True, japanese=True) for p in placed]
                private += [p.format() for p in placed if p.private]
            else:
                entry["status"] = "accepted"
                view = system.public_order_view(order, name, campaign.state, ctx)
                notes = [source.place(n) for n in order_notes(order)]
                entry["reading"] = render_reading(campaign, name, view, notes, howto=False).rstrip("\n")
        entries.append(entry)
    general = [p.format(japanese=True) for p in found.notes if p.player is None]
    text = render.render(
        system, "common/receipts.j2", campaign.path,
        turn=campaign.turn + 1, entries=entries, general=general,
        deadline=deadline_text_label(campaign, deadline), after_deadline=after,
        mode=options.get("orders", "plain"), marker=options.get("order_marker", "【行動】"),
        system_name=system.name,
    )
    _whole, parts = fit_post(options, text, None)
    return parts, private


def _npc_commitments(campaign: Campaign) -> dict[str, dict[str, Any]]:
    """The NPCs' commitments for the turn to come: from the seed, or (a public export) as the
    last results post printed them."""
    if campaign.state.get("winner") is not None:
        return {}
    if campaign.seed:
        entries = _npc().next_entries(_npc().npc_orders(campaign, campaign.state, campaign.seed, cache=True))
    else:
        entries = archived_meta(campaign, campaign.turn).get("npc_next") or []
    return {e["player"]: {"level": e["level"], "commitment": e["commitment"]} for e in entries}


def _superseded(collected: Any, name: str) -> list[int]:
    """The earlier order posts of ``name`` in the window, replaced by the one that counts."""
    from .thread import normalize_name

    order = collected.orders.get(normalize_name(name)) or collected.orders.get(name)
    return list(order.superseded) if order is not None else []


def _locked_view(system: Any, name: str, state: dict[str, Any], ctx: Any) -> dict[str, Any] | None:
    """The public reading of the empty order when the player can write nothing this turn."""
    try:
        view = system.public_order_view(system.parse_order("", name, state, ctx), name, state, ctx)
    except PbfError:
        return None
    return view if view.get("locked") else None


# -- turn 0 (pbf new) -------------------------------------------------------------------------------

def turn_zero(system: Any, ctx: Any, state: dict[str, Any], seed: str, templates: Any, deadline: str | None) -> dict[str, str]:
    """The files of ``history/0000/`` besides the state and the dice: the opening post for the
    thread (``post.txt``, and ``post-N.txt`` when it must be split), each player's private
    notice (their first hand) and turn.yaml."""
    from .campaign import post_files, safe_filename

    options = ctx.options
    public = system.public_summary(state, ctx)
    opening = system.opening(state, ctx) if hasattr(system, "opening") else {}
    body = render.render(
        system, "common/opening.j2", templates,
        system_name=system.name, summary=public, players=ctx.players, options=options, opening=opening,
        commitment=seed_commitment(seed), deadline=_label(options, deadline),
    )
    upcoming = []
    if any(getattr(p, "npc", None) for p in ctx.players.values()) or options.get("npc"):
        from .npc import decisions
        from .npc.turns import next_entries

        upcoming = next_entries(decisions(system, ctx, state, seed))  # turn 1's NPC orders, committed now
        body = body.rstrip("\n") + "\n\n" + render.render(system, "common/npc.j2", templates, options=options,
                                                            revealed=[], upcoming=upcoming, next_turn=1)
    from .markers import opening_marker_line

    files = post_files(*fit_post(options, body, opening_marker_line()))
    encoding = board_charset(options)
    for name, notice in system.notices(state, ctx).items():
        files[f"notices/{safe_filename(name)}.txt"] = board_safe(
            render.render(system, "notice.j2", templates, turn=0, player=name, notice=notice), encoding
        )
    meta: dict[str, Any] = {"rules_version": system.rules_version}
    if deadline:
        meta["next_deadline"] = deadline
    if upcoming:
        meta["npc_next"] = upcoming
    files["turn.yaml"] = yamlio.dump_data(meta)
    return files


def _label(options: dict[str, Any], deadline: str | None) -> str | None:
    if not deadline:
        return None
    from .forum import deadline_label, parse_deadline

    return deadline_label(parse_deadline(deadline), options.get("timezone", "JST"))


def post_parts(campaign: Campaign, turn: int) -> list[str]:
    """``pbf log --turn N``: the turn's post as posted, in its board-fitted parts."""
    from .campaign import turn_dir_name

    done = campaign.archived_turns()
    if turn not in done:
        raise PbfError(
            Problem(
                f"第{turn}ターンの記録はありません（記録があるのは第{done[0]}〜{done[-1]}ターン）。 / no such turn"
                if done else f"第{turn}ターンの記録はありません。 / no such turn",
                text=str(turn),
            )
        )
    folder = campaign.turn_dir(turn)
    parts = sorted(folder.glob("post-*.txt"), key=lambda p: int(p.stem.split("-")[1]))
    if parts:
        return [archived(campaign, turn, p.name) for p in parts]
    if not (folder / "post.txt").exists():
        raise PbfError(f"history/{turn_dir_name(turn)} に結果の投稿がありません（古い pbf で作ったキャンペーンの第0ターン）。 / no post")
    return [archived(campaign, turn, "post.txt")]
