"""One turn, from orders text to (state, events, post) — the core around a system's resolver."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from . import render, yamlio
from .boardfit import board_safe, split_post
from .campaign import STATE_FILE, Campaign, TurnRecord, archived, archived_yaml, state_before
from .dice import Dice, hmac_draws, seed_commitment, sha256_hex, turn_key
from .errors import OrderError, PbfError, Problem
from .events import event_dicts
from .orders import norm_name, split_orders, unknown_player


@dataclass(frozen=True)
class OrderSource:
    """One player's order text and how to place a problem in it for the user."""

    player: str
    text: str
    place: Callable[[Problem], Problem]
    where: str | None = None  # the thread post it came from (">>12")


@dataclass
class OrderSources:
    """The turn's orders as written, by player, with the problems of the file itself
    (unknown players, two orders for one player, text before the first header)."""

    by_player: dict[str, OrderSource]
    problems: list[Problem] = field(default_factory=list)


@dataclass
class ReadOrders:
    orders: dict[str, Any]  # player -> parsed order, None when missing
    canonical: str
    missing: list[str]  # no order: the game's empty order (未提出)
    repeated: list[str]  # missing = "repeat": last turn's order again (継続)


def sources_from_file(campaign: Campaign, text: str) -> OrderSources:
    problems: list[Problem] = []
    found = split_orders(text, list(campaign.ctx.players), problems)
    return OrderSources({name: OrderSource(name, e.text, e.place) for name, e in found.items()}, problems)


def canonical_orders(campaign: Campaign, orders: dict[str, Any]) -> str:
    """``NAME\tORDER\n`` per player, sorted by name; a missing order is empty (product.md)."""
    lines = []
    for name in sorted(campaign.ctx.players):
        order = orders.get(name)
        text = campaign.system.canonical_order(order) if order is not None else ""
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


def check_order(campaign: Campaign, player: str, text: str) -> str:
    """``pbf check``: how one order reads for one player against the current state."""
    name = player_name(campaign, player)
    try:
        order = campaign.system.parse_order(text, name, campaign.state, campaign.ctx)
    except PbfError as exc:
        raise OrderError([p if p.player else replace(p, player=name) for p in exc.problems]) from None
    return reading(campaign, name, order)


def reading(campaign: Campaign, name: str, order: Any) -> str:
    view = campaign.system.order_view(order, name, campaign.state, campaign.ctx)
    return render.render(campaign.system, "check.j2", campaign.path, player=name, view=view)


def player_name(campaign: Campaign, player: str) -> str:
    names = {norm_name(n): n for n in campaign.ctx.players}
    if norm_name(player) not in names:
        raise PbfError(unknown_player(player, list(campaign.ctx.players)))
    return names[norm_name(player)]


def run_turn(
    campaign: Campaign,
    orders_text: str,
    fixed: list[int] | None = None,
    draws: list[int] | None = None,
    state: dict[str, Any] | None = None,
    sources: OrderSources | None = None,
) -> TurnRecord:
    """Resolve the next turn without writing anything.

    ``orders_text`` is what the archive keeps (the orders file as given, or the orders taken
    from a thread); ``sources``, when given, are the same orders with their places in the thread.
    """
    state = campaign.state if state is None else state
    if state.get("winner") is not None:
        raise PbfError("このバトルはもう決着しています（pbf show で確認できます）。 / the battle is over")
    if sources is None:
        sources = sources_from_file(campaign, orders_text)
    read = read_orders(campaign, sources, state)
    turn = int(state.get("turn", 0)) + 1
    if draws is not None:
        dice = Dice.replay(draws)
    elif not campaign.seed:
        raise PbfError("campaign.toml に seed がありません（公開用に消したフォルダではターンを進められません）。 / no seed")
    else:
        seeded = Dice.seeded(campaign.seed, turn, read.canonical)
        dice = Dice.fixed(fixed, then=seeded) if fixed else seeded
    system, ctx = campaign.system, campaign.ctx
    new_state, events = system.resolve(state, read.orders, dice, ctx)
    events = event_dicts(events)
    body = render.render(
        system,
        "post.j2",
        campaign.path,
        turn=turn,
        events=events,
        summary=system.summary(new_state, ctx),
        before=system.summary(state, ctx),
        missing=read.missing,
        repeated=read.repeated,
        orders={n: (system.canonical_order(o) if o is not None else None) for n, o in read.orders.items()},
        players=ctx.players,
        options=ctx.options,
    )
    post, parts = finish_post(campaign, body, turn, read.canonical)
    encoding = ctx.options.get("encoding", "cp932")
    notices = {
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
        notices=notices,
        parts=parts,
    )


def finish_post(campaign: Campaign, body: str, turn: int, canonical: str) -> tuple[str, list[str]]:
    """The post with its verification footer and results marker, safe for the board's
    encoding, and split into parts that fit the board's limits (docs/forum.md)."""
    from .forum import results_marker_line

    options = campaign.ctx.options
    encoding = options.get("encoding", "cp932")
    footer = render.render(campaign.system, "common/footer.j2", campaign.path, turn=turn, orders_sha256=sha256_hex(canonical))
    marker = results_marker_line(turn)
    text = board_safe(body.rstrip("\n") + "\n\n" + footer.rstrip("\n"), encoding)
    steps = text.split("\n\n")
    blocks = [step + "\n" for step in steps[:-1]] + steps[-1:]
    whole = "\n".join(blocks) + "\n" + marker + "\n"
    parts = split_post(
        blocks,
        options.get("max_lines") or None,
        options.get("max_bytes") or None,
        encoding=encoding,
        footer=marker,
    )
    return whole, [part.rstrip("\n") + "\n" for part in parts]


def replay(campaign: Campaign) -> list[str]:
    """Re-resolve every archived turn, in one pass; the differences of the first turn that differs.

    A turn starts from the state the turn before ended in, as just recomputed and found equal to
    its archive, unless the GM edited state.yaml in between (``before.yaml``)."""
    previous: tuple[int, str, dict[str, Any]] | None = None  # turn, state text, state
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
        record = run_turn(campaign, orders_text, draws=draws, state=before)
        state_text, state = yamlio.merge_text(before_text, before, record.state, f"history/{folder.name}")
        for name, expected, actual in (
            (f"history/{folder.name}/{STATE_FILE}", archived(campaign, turn, STATE_FILE), state_text),
            (f"history/{folder.name}/post.txt", archived(campaign, turn, "post.txt"), record.post),
        ):
            if expected != actual:
                import difflib

                diff = difflib.unified_diff(
                    expected.splitlines(), actual.splitlines(), f"{name}（記録）", f"{name}（再計算）", lineterm=""
                )
                return [f"第{turn}ターンが一致しません：{name}", *diff]
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
    for turn in campaign.archived_turns():
        record = archived_yaml(campaign, turn, "dice.yaml")
        canonical = record.get("orders_canonical", "")
        if turn > 0:
            before = yamlio.load_plain(state_before(campaign, turn), "state.yaml")
            orders_text = archived(campaign, turn, "orders.txt")
            recomputed = read_orders(campaign, sources_from_file(campaign, orders_text), before).canonical
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
        lines.append(f"第{turn}ターン：ダイス{len(draws)}個（うち指定{len(fixed)}個）を確認しました。")
    return lines


# -- orders from a forum thread (docs/forum.md) ----------------------------------------------------

@dataclass
class ThreadOrders:
    collected: Any  # pbf.forum.Collected
    orders_text: str  # what the archive keeps as orders.txt
    sources: OrderSources


def gm_identity(campaign: Campaign) -> tuple[str, str | None] | None:
    gm = str(campaign.ctx.options.get("gm", "") or "")
    if not gm:
        return None
    name, _, trip = gm.partition("◆")
    return name.strip(), (trip.strip() or None)


def thread_orders(campaign: Campaign, thread: Any, since: int | None = None, deadline: Any = None) -> ThreadOrders:
    """The turn's orders from a thread file (``.dat`` or a copied read.cgi page)."""
    from .forum import collect_orders
    from .thread import read_thread

    posts = read_thread(thread)
    options = campaign.ctx.options
    collected = collect_orders(
        posts,
        {p.name: p.trip for p in campaign.ctx.players.values()},
        marker=options.get("order_marker", "【行動】"),
        since=since,
        deadline=deadline,
        orders=options.get("orders", "plain"),
        gm=gm_identity(campaign),
    )
    if since is None and collected.results_turn is not None and collected.results_turn != campaign.turn:
        raise PbfError(
            f"スレッドの最後の結果は第{collected.results_turn}ターンですが、キャンペーンは第{campaign.turn}ターンまで"
            "進んでいます。--since で行動の始まる書き込み番号を指定してください。 / the thread's last results post is"
            " for another turn; use --since"
        )
    from .thread import normalize_name

    names = {normalize_name(name): name for name in campaign.ctx.players}
    sources = {}
    for player, submitted in collected.orders.items():
        name = names.get(player, player)
        sources[name] = OrderSource(name, submitted.text, submitted.locate, submitted.source)
    return ThreadOrders(collected, collected.to_orders_file(), OrderSources(sources))


def receipts(campaign: Campaign, found: ThreadOrders) -> str:
    """``pbf status``: for each player 受理 with how the order reads, the error, or 未提出."""
    entries = []
    last = previous_orders(campaign, campaign.turn) if campaign.ctx.options.get("missing") == "repeat" else {}
    for name in campaign.ctx.players:
        source = found.sources.by_player.get(name)
        entry: dict[str, Any] = {"player": name, "source": None, "reading": None, "problems": [],
                                 "notes": [p.format() for p in found.collected.notes(name)]}
        if source is None:
            entry["status"] = "repeat" if last.get(name) else "missing"
        else:
            entry["source"] = source.where
            try:
                order = campaign.system.parse_order(source.text, name, campaign.state, campaign.ctx)
            except PbfError as exc:
                entry["status"] = "error"
                entry["problems"] = [source.place(p).format() for p in exc.problems]
            else:
                entry["status"] = "accepted"
                entry["reading"] = reading(campaign, name, order).rstrip("\n")
        entries.append(entry)
    text = render.render(campaign.system, "common/receipts.j2", campaign.path, turn=campaign.turn + 1, entries=entries)
    return board_safe(text, campaign.ctx.options.get("encoding", "cp932"))
