"""The rider game's legal orders for the NPC (pbf/systems/rider/legal.py; docs/npc.md)."""

from __future__ import annotations

import pytest

from pbf import balance
from pbf.dice import Dice
from pbf.npc import decide
from pbf.npc.search import LEVELS
from pbf.systems.rider import SYSTEM
from pbf.systems.rider.legal import legal_orders
from pbf.systems.rider.orders import canonical

DATA = SYSTEM.load_data(None)


def states():
    for a, b in (("ryuki", "blade_wolf"), ("knight", "zolda"), ("theta", "jinshu")):
        ctx = balance.context(SYSTEM, DATA, a, b)
        st = SYSTEM.new_state(ctx, Dice.seeded("legal", 0, ""))
        yield ctx, st
        worn = SYSTEM.new_state(ctx, Dice.seeded("legal", 0, ""))  # cards spent, vented, low HP
        fa = worn["fighters"]["A"]
        fa["hp"] = 2
        fa["vent"] = "sword_vent"
        for card in list(fa["deck"])[:2]:
            fa["deck"][card] = 0
        yield ctx, worn


@pytest.mark.parametrize("case", range(6))
def test_every_enumerated_order_parses(case):
    ctx, st = list(states())[case]
    for who in ("A", "B"):
        found = legal_orders(st, who, DATA)
        assert found and len({canonical(o, DATA) for o in found}) == len(found)  # no order twice
        for order in found:
            text = canonical(order, DATA)
            parsed = SYSTEM.parse_order(text, who, st, ctx)  # raises when the order is not legal
            assert canonical(parsed, DATA) == text


def test_a_monster_plays_no_card_and_low_hp_pays_no_super_evasion():
    ctx, worn = list(states())[1]
    assert all(o.card is None and not o.passive for o in legal_orders(worn, "B", DATA))
    assert all(o.super_evasion < worn["fighters"]["A"]["hp"] for o in legal_orders(worn, "A", DATA))


def test_random_level_draws_from_the_whole_legal_set(monkeypatch):
    ctx, st = next(states())
    legal = {canonical(o, DATA) for o in legal_orders(st, "A", DATA)}
    seen = {decide(SYSTEM, ctx, st, f"seed{k}", "A", "random").text for k in range(60)}
    assert seen <= legal and len(seen) > 30


def test_normal_prefers_a_hit_to_doing_nothing(monkeypatch):
    """At 近 with a sword at hand, normal plays an order that deals damage on average."""
    monkeypatch.setitem(LEVELS, "normal", {**LEVELS["normal"], "scenarios": 4})
    ctx = balance.context(SYSTEM, DATA, "jinshu", "blade_wolf")
    st = SYSTEM.new_state(ctx, Dice.seeded("near", 0, ""))
    st["distance"] = "近"
    d = decide(SYSTEM, ctx, st, "near", "A", "normal")
    assert d.note["expected"] > 0
