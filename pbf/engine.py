"""One turn, from orders text to (state, events, post) — the core around a system's resolver."""

from __future__ import annotations

import difflib
from dataclasses import replace
from dataclasses import dataclass
from typing import Any

from . import render, yamlio
from .campaign import STATE_FILE, Campaign, TurnRecord, state_before
from .dice import Dice
from .errors import OrderError, PbfError, Problem
from .events import event_dicts
from .orders import OrderText, decode, split_orders


@dataclass
class ReadOrders:
    orders: dict[str, Any]  # player -> parsed order, None when missing
    texts: dict[str, OrderText]
    canonical: str


def canonical_orders(campaign: Campaign, orders: dict[str, Any]) -> str:
    """``NAME\\tORDER\\n`` per player, sorted by name; a missing order is empty (product.md)."""
    lines = []
    for name in sorted(campaign.ctx.players):
        order = orders.get(name)
        text = campaign.system.canonical_order(order) if order is not None else ""
        lines.append(f"{name}\t{text}\n")
    return "".join(lines)


def read_orders(campaign: Campaign, text: str, state: dict[str, Any] | None = None) -> ReadOrders:
    """Parse every player's order; all problems of the file are raised together."""
    state = campaign.state if state is None else state
    texts = split_orders(text, list(campaign.ctx.players))
    problems: list[Problem] = []
    orders: dict[str, Any] = {}
    for name in campaign.ctx.players:
        entry = texts.get(name)
        if entry is None:
            orders[name] = None
            continue
        try:
            orders[name] = campaign.system.parse_order(entry.text, name, state, campaign.ctx)
        except PbfError as exc:
            problems.extend(entry.place(p) for p in exc.problems)
    if problems:
        problems.sort(key=lambda p: (p.line or 0, p.column or 0))
        raise OrderError(problems)
    return ReadOrders(orders, texts, canonical_orders(campaign, orders))


def check_order(campaign: Campaign, player: str, text: str) -> Any:
    """``pbf check``: parse one order for one player against the current state."""
    from .orders import norm_name

    names = {norm_name(n): n for n in campaign.ctx.players}
    if norm_name(player) not in names:
        raise PbfError(
            Problem(
                f"このキャンペーンにいないプレイヤーです（参加者：{'、'.join(campaign.ctx.players)}）。 / unknown player",
                text=player,
            )
        )
    name = names[norm_name(player)]
    try:
        order = campaign.system.parse_order(text, name, campaign.state, campaign.ctx)
    except PbfError as exc:
        raise OrderError([p if p.player else replace(p, player=name) for p in exc.problems]) from None
    view = campaign.system.order_view(order, name, campaign.state, campaign.ctx)
    return render.render(campaign.system, "check.j2", campaign.path, player=name, view=view)


def run_turn(
    campaign: Campaign,
    orders_text: str,
    fixed: list[int] | None = None,
    draws: list[int] | None = None,
    state: dict[str, Any] | None = None,
) -> TurnRecord:
    """Resolve the next turn without writing anything."""
    state = campaign.state if state is None else state
    if state.get("winner") is not None:
        raise PbfError("このバトルはもう決着しています（pbf show で確認できます）。 / the battle is over")
    read = read_orders(campaign, orders_text, state)
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
    missing = [name for name, order in read.orders.items() if order is None]
    post = render.render(
        system,
        "post.j2",
        campaign.path,
        turn=turn,
        events=events,
        summary=system.summary(new_state, ctx),
        before=system.summary(state, ctx),
        missing=missing,
        orders={n: (system.canonical_order(o) if o is not None else None) for n, o in read.orders.items()},
        players=ctx.players,
        options=ctx.options,
    )
    notices = {
        name: render.render(system, "notice.j2", campaign.path, turn=turn, player=name, notice=notice)
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
    )


def replay(campaign: Campaign) -> list[str]:
    """Re-resolve every archived turn; the differences of the first turn that differs."""
    for turn in campaign.archived_turns():
        if turn == 0:
            continue
        folder = campaign.turn_dir(turn)
        before_text = state_before(campaign, turn)
        before_doc = yamlio.load(before_text, f"history/{folder.name}")
        dice_doc = yamlio.plain(yamlio.load((folder / "dice.yaml").read_text("utf-8"), "dice.yaml"))
        orders_text = (folder / "orders.txt").read_text("utf-8")
        record = run_turn(campaign, orders_text, draws=dice_doc.get("draws", []), state=yamlio.plain(before_doc))
        state_text = yamlio.dump(yamlio.merge_into(before_doc, record.state))
        for name, expected, actual in (
            (f"history/{folder.name}/{STATE_FILE}", (folder / STATE_FILE).read_text("utf-8"), state_text),
            (f"history/{folder.name}/post.txt", (folder / "post.txt").read_text("utf-8"), record.post),
        ):
            if expected != actual:
                diff = difflib.unified_diff(
                    expected.splitlines(), actual.splitlines(), f"{name}（記録）", f"{name}（再計算）", lineterm=""
                )
                return [f"第{turn}ターンが一致しません：{name}", *diff]
    return []


def decode_orders(raw: bytes, source: str) -> str:
    return decode(raw, source)


def verify(campaign: Campaign, seed: str | None = None) -> list[str]:
    """Check the seed against its commitment and recompute every archived die from it.

    Returns what was checked, one line a turn; raises PbfError at the first mismatch.
    """
    from .dice import hmac_draws, seed_commitment, sha256_hex, turn_key

    seed = campaign.seed if seed is None else seed
    if not seed:
        raise PbfError("シードがありません。--seed で公開されたシードを指定してください。 / no seed")
    zero = yamlio.plain(yamlio.load((campaign.turn_dir(0) / "dice.yaml").read_text("utf-8"), "dice.yaml"))
    committed = zero.get("seed_sha256")
    if committed != seed_commitment(seed):
        raise PbfError(
            f"シードがコミットメントと一致しません（記録：{committed}、計算：{seed_commitment(seed)}）。 / seed does not match the commitment"
        )
    lines = [f"シードはコミットメント {committed} と一致します。"]
    for turn in campaign.archived_turns():
        folder = campaign.turn_dir(turn)
        record = yamlio.plain(yamlio.load((folder / "dice.yaml").read_text("utf-8"), "dice.yaml"))
        canonical = record.get("orders_canonical", "")
        if turn > 0:
            before = yamlio.plain(yamlio.load(state_before(campaign, turn), "state.yaml"))
            orders_text = (folder / "orders.txt").read_text("utf-8")
            recomputed = read_orders(campaign, orders_text, before).canonical
            if recomputed != canonical:
                raise PbfError(f"第{turn}ターンの行動の正規形が記録と違います。 / canonical orders differ")
        if record.get("orders_sha256") != sha256_hex(canonical):
            raise PbfError(f"第{turn}ターンの行動のハッシュが記録と違います。 / orders hash differs")
        fixed = [face - 1 for face in record.get("fixed", [])]
        draws = record.get("draws", [])
        stream = hmac_draws(turn_key(seed, turn, canonical))
        expected = fixed[: len(draws)] + [next(stream) for _ in range(max(0, len(draws) - len(fixed)))]
        if draws != expected:
            bad = next(i for i, (a, b) in enumerate(zip(draws, expected)) if a != b) if len(draws) == len(expected) else len(expected)
            raise PbfError(f"第{turn}ターンの{bad + 1}個目のダイスがシードから計算した値と違います。 / die {bad + 1} differs")
        lines.append(f"第{turn}ターン：ダイス{len(draws)}個（うち指定{len(fixed)}個）を確認しました。")
    return lines
