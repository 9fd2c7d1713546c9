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


def test_with_thresholds_a_searching_level_pays_super_evasion_only_against_a_strong_attack(monkeypatch):
    """The setting ``rider.thresholds`` (tried, not kept: docs/npc.md): normal and hard choose from
    the legal orders with each 超回避 N given a threshold (the median of the fighter's own evasion
    roll, plus N − 1); every such order parses back, and random still draws from the legal orders
    as they are. Off, the searching levels choose from the legal orders themselves."""
    from pbf.npc import _model
    from pbf.odds import dice_math
    from pbf.systems.rider.npc import RiderModel

    ctx, st = next(states())
    assert _model(SYSTEM, ctx).own(st, "A") == legal_orders(st, "A", DATA)
    monkeypatch.setattr(RiderModel, "thresholds", True)

    assert [dice_math.pool(n, exact=True).median() for n in (1, 2, 3)] == [4, 5, 6]  # the median the threshold uses
    for ctx, st in states():
        model = _model(SYSTEM, ctx)
        for who in ("A", "B"):
            own = model.own(st, who)
            assert len(own) == len(legal_orders(st, who, DATA))
            for order in own:
                assert bool(order.super_threshold) == bool(order.super_evasion)
                text = canonical(order, DATA)
                assert canonical(SYSTEM.parse_order(text, who, st, ctx), DATA) == text
    ctx = balance.context(SYSTEM, DATA, "blade_wolf", "blade_wolf")  # 運動性 3: the median of 3 dice is 6
    st = SYSTEM.new_state(ctx, Dice.seeded("legal", 0, ""))
    texts = {canonical(o, DATA) for o in _model(SYSTEM, ctx).own(st, "A")}
    assert "超回避 1: 達成値6以上なら" in texts and "超回避 2: 達成値7以上なら" in texts
    drawn = {decide(SYSTEM, ctx, st, f"seed{k}", "A", "random").text for k in range(40)}
    assert not any("以上なら" in t for t in drawn) and any("超回避" in t for t in drawn)


def test_with_chase_the_fighter_acting_second_may_follow_an_opponent_who_got_away(monkeypatch):
    """In a duel at 近, 近寄る is pointless for the fighter who acts first (it rolls nothing); with
    the setting ``rider.chase`` (tried, not kept) the one acting second keeps it: the other's move
    may have opened the distance before its own. Off, neither has it."""
    from pbf.npc import _model
    from pbf.systems.rider.npc import RiderModel

    ctx = balance.context(SYSTEM, DATA, "blade_wolf", "blade_wolf")
    st = SYSTEM.new_state(ctx, Dice.seeded("legal", 0, ""))
    st["distance"], st["initiative"] = "近", ["A", "B"]
    assert {o.move for o in _model(SYSTEM, ctx).useful(st, "B")} == {"stay", "away"}
    monkeypatch.setattr(RiderModel, "chase", True)
    model = _model(SYSTEM, ctx)
    assert {o.move for o in model.useful(st, "A")} == {"stay", "away"}
    assert {o.move for o in model.useful(st, "B")} == {"stay", "closer", "away"}
    assert {o.move for o in model.coarse(st, "B")} == {"stay", "closer", "away"}
    st["distance"] = "遠"
    assert {o.move for o in model.coarse(st, "A")} == {"stay", "closer"}


def test_a_simulated_turn_draws_the_same_dice_for_a_check_whatever_else_is_rolled():
    """The search's dice (pbf/npc/search.py): SimDice draws what Dice over the same stream draws;
    KeyedDice gives each (fighter, purpose, k-th check) a stream of its own, so an attack of 2
    dice rolls the first two of the same attack of 4, and the other checks do not shift it."""
    from pbf.npc.search import KeyedDice, Rng, SimDice
    from pbf.systems.rider import dice as rd

    plain, fast = Dice(Rng(7).stream(), "npc"), SimDice(Rng(7))
    assert [plain.d6() for _ in range(50)] == [fast.d6() for _ in range(50)]
    one, other = KeyedDice(11), KeyedDice(11)
    rd.pool(other, "B", "evasion", 3)  # another check first
    four = rd.pool(one, "A", "attack", 4)
    two = rd.pool(other, "A", "attack", 2)
    assert two.groups == four.groups[:2]
    assert rd.pool(one, "A", "attack", 4).groups != four.groups  # the next attack is another roll


def test_the_solved_duel_matches_the_resolver_and_the_table_setting_is_off_by_default(monkeypatch):
    """pbf/systems/rider/mdp.py (docs/npc.md, "The ceiling against random"): an action of the
    model is a distribution (it sums to 1) and its chance of a hit at 近 is the real resolver's
    (1,500 sampled actions, within 4 standard errors); the setting ``rider.table`` (tried, not
    kept) plays the solved order, a legal one; off, the search chooses as before."""
    from pbf.systems.rider.mdp import BANDS, Fighter, Solved
    from pbf.systems.rider.npc import RiderModel
    from pbf.systems.rider.orders import RiderOrder
    from pbf.systems.rider.resolver import Battle

    hawk = Fighter(DATA, "theta_hawk")
    solved = Solved(hawk, Fighter(DATA, "theta_hawk"))
    assert 0.5 < solved.start() < 1.0
    rows = solved.mine[("stay", 0, 0)]
    assert all(abs(sum(p for _, _, p in row) - 1.0) < 1e-9 for row in rows)
    hit = sum(p for _, loss, p in rows[0] if loss > 0)
    ctx = balance.context(SYSTEM, DATA, "theta_hawk", "theta_hawk")
    st0 = SYSTEM.new_state(ctx, Dice.seeded("mdp", 0, ""))
    n, hits = 1500, 0
    for k in range(n):
        st = {**st0, "fighters": {name: dict(f) for name, f in st0["fighters"].items()}, "distance": BANDS[0]}
        Battle(st, DATA, {"A": RiderOrder(), "B": RiderOrder()}, Dice.seeded("mdp", k, ""), {}).action("A", "B", True)
        hits += st["fighters"]["B"]["hp"] < st0["fighters"]["B"]["hp"]
    assert abs(hits / n - hit) < 4 * (hit * (1 - hit) / n) ** 0.5
    st0["distance"] = "近"
    off = decide(SYSTEM, ctx, st0, "mdp", "A", "normal").order
    monkeypatch.setattr(RiderModel, "table", True)
    from pbf.npc import _MODELS

    _MODELS.clear()
    on = decide(SYSTEM, ctx, st0, "mdp", "A", "normal").order
    assert on in legal_orders(st0, "A", DATA)
    first = 0 if st0["initiative"][0] == "A" else 1
    assert (on.move, on.aim, on.super_evasion) == solved.order(0, first, hawk.hp, hawk.hp, 0)
    monkeypatch.setattr(RiderModel, "table", False)
    _MODELS.clear()
    assert decide(SYSTEM, ctx, st0, "mdp", "A", "normal").order == off


def test_a_rider_without_cards_is_the_models_fighter():
    """pbf/systems/rider/mdp.py's rider_without_cards (the riders' mirror with both decks empty,
    benchmarks/ceiling_riders.py): the rider's legal orders are the model's (move, 隙狙い, 超回避 in
    the same order), and one action of the model — 刃襲 at 近, staying, 隙狙い 1, against 超回避 1 —
    is the real resolver's (visor, evasion by 運動性): each HP loss's chance within 4.5 standard
    errors of 2,000 sampled actions."""
    from pbf.systems.rider.mdp import BANDS, rider_without_cards, Solved
    from pbf.systems.rider.orders import RiderOrder
    from pbf.systems.rider.resolver import Battle

    ctx = balance.context(SYSTEM, DATA, "jinshu", "jinshu")
    st0 = SYSTEM.new_state(ctx, Dice.seeded("cardless", 0, ""))
    for f in st0["fighters"].values():
        f["deck"] = {c: 0 for c in f["deck"]}
        f["vent"] = None
    me = rider_without_cards(DATA, "jinshu", st0["fighters"]["A"]["hp"])
    for hp in (1, 2, 20):
        st0["fighters"]["B"]["hp"] = hp
        assert [(o.move, o.aim, o.super_evasion) for o in legal_orders(st0, "B", DATA)] == me.orders(hp)
    solved = Solved(me, rider_without_cards(DATA, "jinshu", me.hp))
    model = {loss: 0.0 for loss in range(solved.cap + 1)}
    for band, loss, p in solved.mine[("stay", 1, 1)][0]:
        assert band == 0
        model[loss] += p
    n, seen = 2000, {loss: 0 for loss in model}
    for k in range(n):
        st = {**st0, "fighters": {name: dict(f) for name, f in st0["fighters"].items()}, "distance": BANDS[0]}
        st["fighters"]["B"]["hp"] = 99
        orders = {"A": RiderOrder(aim=1), "B": RiderOrder(super_evasion=1)}
        Battle(st, DATA, orders, Dice.seeded("cardless", k, ""), {}).action("A", "B", True)
        seen[min(solved.cap, 99 - st["fighters"]["B"]["hp"])] += 1
    for loss, p in model.items():
        assert abs(seen[loss] / n - p) <= 4.5 * (max(p * (1 - p), 1 / n) / n) ** 0.5, (loss, p, seen[loss] / n)
