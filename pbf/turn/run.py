"""One turn, from orders text to (state, events, post) — the core around a system's resolver."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from .. import render
from ..board.boardfit import board_safe, split_post
from ..campaign.options import board_charset
from ..campaign.records import TurnRecord, archived
from ..dice import Dice, sha256_hex
from ..errors import PbfError, Problem
from ..events import event_dicts
from ..lazy import lazy
from .check import order_notes
from .orders import read_orders, sources_from_file
from ..board.sources import OrderSource, OrderSources

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, Callable
    from ..campaign.layout import Campaign


_markers = lazy("pbf.board.markers")  # the thread's markers: only where a post is finished or read


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
        if campaign.seed and not _npc().older_search((npc_archived or {}).get("npc")):
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


def _label(options: dict[str, Any], deadline: str | None) -> str | None:
    if not deadline:
        return None
    from ..board.forum import deadline_label, parse_deadline

    return deadline_label(parse_deadline(deadline), options.get("timezone", "JST"))


def post_parts(campaign: Campaign, turn: int) -> list[str]:
    """``pbf log --turn N``: the turn's post as posted, in its board-fitted parts."""
    from ..campaign.layout import turn_dir_name

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
