"""The legal rider orders an NPC chooses from (docs/npc.md, "The rider game's orders").

Legal is what ``RiderSystem.parse_order`` accepts (``checks.validate``); the test
``tests/rider/test_rider_npc.py::test_every_enumerated_order_parses`` reads every enumerated order's
canonical text back through the parser. The space is the part of the order language that
changes what happens in a battle, with everything else at its default:

* the move: 留まる, 近寄る, 離れる (the default target; 阻止 left at its default, 阻止する);
* the 能動 card: none, or any card held that may be played in the 能動 phase;
* at most one 受動 card (always played when its moment comes), held, other than the 能動 card
  unless two are held;
* 隙狙い 0–3 when the attack keeps at least 1 die (never with ファイナルベント);
* the evasion: the default (the larger pool), 受け (with a sword vented in or played),
  回避: 防御力 (with a guard vent), or 超回避 1–2 (HP left ≥ 1).

攻撃しない, 超回避's threshold, 庇う and the explicit targets of a battle of three are never chosen
(in a battle of three the defaults choose the targets); a searching level may give 超回避 a
threshold of its own (``threshold``; the setting ``RiderModel.thresholds``, off). Orders come out in a fixed order, so the
same state always gives the same list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import cards as fx
from .data import RiderData
from .orders import PassiveRule, RiderOrder

MOVES = ("stay", "closer", "away")


def legal_orders(state: dict[str, Any], fighter: str, data: RiderData,
                 threshold: Callable[[str | None, int], int] | None = None) -> list[RiderOrder]:
    """Every order of the space above that ``fighter`` may give in ``state``. ``threshold``
    (the searching levels', pbf/systems/rider/npc.py): 超回避 N's threshold for the evasion
    chosen (None: the larger pool, or "defense") — 超回避 N paid only against an attack of at
    least that achievement (the same orders, each 超回避 with its 達成値T以上なら)."""
    f = state["fighters"][fighter]
    if not f.get("alive", True) or state.get("winner") is not None:
        return [RiderOrder()]
    monster = f.get("kind") == "monster"
    deck = {c: n for c, n in (f.get("deck") or {}).items() if n > 0}
    used = set(f.get("used_once") or [])
    held = [c for c in deck if c not in used and c in data.cards]
    actives: list[str | None] = [None]
    passives: list[str | None] = [None]
    if not monster:
        actives += [c for c in held if fx.phase_ok(data, c, "active")]
        passives += [c for c in held if fx.phase_ok(data, c, "passive")]
    attack = fx.stat(data, f, "attack")
    hp = int(f["hp"])
    out: list[RiderOrder] = []
    for move in MOVES:
        for card in actives:
            final = card is not None and fx.has(data, card, "final")
            vent_after = card if card is not None and data.cards.get(card, {}).get("vent") else f.get("vent")
            aims = [0] if final else [a for a in range(0, 4) if a == 0 or attack - 2 * a >= 1]
            for passive in passives:
                if passive is not None and passive == card and deck.get(card, 0) < 2:
                    continue
                rules = () if passive is None else (PassiveRule(passive, None),)
                parry_ok = fx.has(data, vent_after, "parry") or (passive is not None and fx.has(data, passive, "parry"))
                guard_ok = fx.has(data, vent_after, "guard") or (passive is not None and fx.has(data, passive, "guard"))
                evasions: list[dict[str, Any]] = [{}]
                if parry_ok:
                    evasions.append({"parry": True})
                if guard_ok:
                    evasions.append({"evasion": "defense"})
                evasions += [{"super_evasion": n} for n in (1, 2) if hp - n >= 1]
                if threshold is not None:
                    evasions = [{**e, "super_threshold": threshold(e.get("evasion"), e["super_evasion"])}
                                if e.get("super_evasion") else e for e in evasions]
                for aim in aims:
                    for evasion in evasions:
                        out.append(RiderOrder(move=move, card=card, passive=rules, aim=aim, **evasion))
    return out
