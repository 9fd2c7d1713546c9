"""A turn's orders from the campaign's thread (docs/forum.md): the window of posts to read, the
posts not taken, the receipts."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .. import render
from ..campaign.records import archived_meta
from ..errors import OrderError, PbfError, Problem
from .check import epilogue_words, order_notes, render_reading
from .orders import previous_orders
from .run import _has_npc, _npc, deadline_text_label, fit_post
from ..board.sources import OrderSource, OrderSources, ThreadOrders
from .zero import _locked_view

if TYPE_CHECKING:
    from typing import Any
    from ..campaign.layout import Campaign


def gm_identity(campaign: Campaign) -> tuple[str, str | None] | None:
    gm = str(campaign.ctx.options.get("gm", "") or "")
    if not gm:
        return None
    name, _, trip = gm.partition("◆")
    return name.strip(), (trip.strip() or None)


def turn_deadline(campaign: Campaign, given: str | None) -> str | None:
    """The deadline of the turn to come: ``--deadline`` when given, else the stored one."""
    from ..campaign.deadlines import current_deadline

    if given is not None:
        from ..board.forum import normalize_deadline  # pbf.forum only where a command needs it (start-up)

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
    from ..board.forum import collect_orders, parse_deadline
    from ..board.thread import load_thread, normalize_name

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
    from ..board.forum import is_late, parse_deadline

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
    from ..board.thread import normalize_name

    order = collected.orders.get(normalize_name(name)) or collected.orders.get(name)
    return list(order.superseded) if order is not None else []
