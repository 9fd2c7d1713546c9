"""pbf odds for the rider game (pbf/odds/rider.py, docs/odds.md): the exact figures against an
independent brute-force enumeration of the real resolver's dice for small pools, and against
sampling the real seeded Dice for large ones."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import pytest

from pbf.dice import Dice
from pbf.odds import dice_math as dm
from pbf.odds import rider as odds_rider
from pbf.systems.rider import SYSTEM

from rider_support import context, state

# A branch of the enumeration below this probability is left out and its mass counted (about 4% of a
# turn with four dice: the sequences with three or more 1s). That bound is one-sided and small next
# to what a wrong ruling moves (a tie going to the attacker moves about 15%); the dice arithmetic
# itself is checked to 1e-6 by test_cover_takes_one_off_and_both_are_hit's full enumeration.
CUTOFF = Fraction(1, 10**5)


class _Need(Exception):
    pass


def enumerate_turn(ctx, st, texts):
    """Every sequence of dice the real resolver asks for, with its probability (a die 1/6 a face):
    [(p, new state, events)] and the probability left out below CUTOFF."""
    orders = {n: (None if texts.get(n) is None else SYSTEM.parse_order(texts[n], n, st, ctx)) for n in st["fighters"]}
    done, pruned = [], Fraction(0)
    stack = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()

        def source(prefix=prefix):
            yield from (f - 1 for f in prefix)
            raise _Need

        try:
            new, events = SYSTEM.resolve(st, orders, Dice(source()), ctx)
        except _Need:
            if p / 6 < CUTOFF:
                pruned += p
                continue
            stack.extend((prefix + (f,), p / 6) for f in range(1, 7))
            continue
        done.append((p, new, events))
    return done, pruned, orders


def _duel(patch, setup, first="城戸"):
    ctx = context({"城戸": "ryuki", "蓮": "knight"}, data_patch={"riders": patch})
    st = state(ctx, {"initiative": [first, "蓮" if first == "城戸" else "城戸"], **setup})
    return ctx, st


def _damage_of(events, source, target):
    return sum(e.amount for e in events if type(e).__name__ == "Damaged" and e.actor == source and e.target == target)


def _close(a, b, slack):
    assert abs(Fraction(a) - Fraction(b)) <= slack, (float(a), float(b), float(slack))


def _within(exact, brute, pruned):
    """P(E) = P(E, enumerated) + P(E, left out): the exact figure lies between the enumerated sum
    and that sum plus the mass left out (and the 1e-12 truncation of the exact sums)."""
    eps = Fraction(1, 10**9)
    assert Fraction(brute) - eps <= Fraction(exact) <= Fraction(brute) + pruned + eps, (
        float(exact), float(brute), float(pruned))


def test_an_exploding_die_and_a_pool_match_counting_faces():
    """dice_math against counting: every face sequence of up to seven 1s (all of them, up to 8)."""
    brute = {}
    for ones in range(0, 8):
        for last in range(2, 7):
            brute[ones + last] = brute.get(ones + last, 0) + Fraction(1, 6 ** (ones + 1))
    die = dm.damage_die(exact=True)
    for v in range(2, 9):  # a value v has at most v - 2 ones
        assert die[v] == brute[v]
    assert die.mean() == pytest.approx(4.2, abs=1e-9)  # E = 20/6 + (1 + E)/6
    two = dm.pool(2, 1, exact=True)
    # P(max of two <= 4) = P(one <= 4)^2; with the +1 bonus that is P(achievement <= 5)
    one = sum(p for v, p in brute.items() if v <= 4)
    assert sum(p for v, p in two.items() if v <= 5) == one * one
    assert dm.pool(6).lost < 1e-12 and abs(sum(dm.pool(6).values()) - 1) < 1e-12


def test_the_attack_matches_the_resolver_enumerated_small_pools():
    """城戸 (攻撃力2, スイングベント: 近〜中, +1) attacks 蓮 (運動性1) at 中; 蓮 cannot answer."""
    ctx, st = _duel({"ryuki": {"attack": 2}, "knight": {"mobility": 1}},
                    {"distance": "中", "fighters": {"城戸": {"vent": "swing_vent"}}})
    order = SYSTEM.parse_order("留まる", "城戸", st, ctx)
    got = odds_rider.odds(st, ctx, "城戸", order, exact=True)
    done, pruned, _ = enumerate_turn(ctx, st, {"城戸": "留まる"})
    hit = sum(p for p, _, ev in done if any(type(e).__name__ == "Hit" and e.actor == "城戸" for e in ev))
    assert pruned < Fraction(1, 20)
    (attack,) = got["attacks"]
    assert attack["target"] == "蓮" and attack["rows"][0][1]["dice"] == 2
    _within(attack["hit"], hit, pruned)
    for amount in range(0, 12):
        brute = sum(p for p, _, ev in done if _damage_of(ev, "城戸", "蓮") == amount)
        _within(attack["damage"].get(amount, 0), brute, pruned)
    assert 0.2 < float(hit) < 0.8


def test_aim_trick_and_unarmed_match_the_resolver():
    """隙狙い 1 (two dice fewer, 1 defence ignored), トリックベント +1, 無手 −1 (no visor, no vent)."""
    ctx, st = _duel({"ryuki": {"attack": 3, "visor": None}, "knight": {"mobility": 1}},
                    {"distance": "近", "fighters": {"城戸": {"trick": {"attack": 1, "evasion": 1}}}}, first="蓮")
    text = "留まる / 隙狙い 1"
    order = SYSTEM.parse_order(text, "城戸", st, ctx)
    got = odds_rider.odds(st, ctx, "城戸", order, exact=True)
    row = got["attacks"][0]["rows"][0][1]
    assert (row["weapon_kind"], row["dice"], row["modifier"], row["aim"]) == ("unarmed", 1, 0, 1)
    ctx2, st2 = _duel({"ryuki": {"attack": 3, "visor": None}, "knight": {"mobility": 1, "attack": 1}},
                      {"distance": "近", "fighters": {"城戸": {"trick": {"attack": 1, "evasion": 1}}}})
    got = odds_rider.odds(st2, ctx2, "城戸", SYSTEM.parse_order(text, "城戸", st2, ctx2), exact=True)
    done, pruned, _ = enumerate_turn(ctx2, st2, {"城戸": text, "蓮": "攻撃しない"})
    assert pruned < Fraction(1, 20)
    attack = got["attacks"][0]
    hit = sum(p for p, _, ev in done if any(type(e).__name__ == "Hit" and e.actor == "城戸" for e in ev))
    _within(attack["hit"], hit, pruned)
    for amount in range(0, 10):
        brute = sum(p for p, _, ev in done if _damage_of(ev, "城戸", "蓮") == amount)
        _within(attack["damage"].get(amount, 0), brute, pruned)
    # the 隙狙い table's row 1 is the order's own figure; row 0 rolls three dice
    table = {r["aim"]: r for r in got["aim_table"]}
    assert table[1]["hit"] == attack["hit"] and table[0]["hit"] > table[1]["hit"]


@pytest.mark.parametrize("text, first", [("攻撃しない / 超回避 1: 達成値4以上なら", "城戸"), ("攻撃しない / 超回避 2", "城戸"),
                                         ("攻撃しない / 受け", "城戸"), ("攻撃しない / ガードベント / 回避: 防御力", "城戸"),
                                         ("攻撃しない / ガードベント / 回避: 防御力", "蓮")])
def test_the_defence_matches_the_resolver(text, first):
    """蓮 (攻撃力2, ソードベント) attacks 城戸, who answers with 超回避 (a threshold), 受け, or a
    ガードベント played this turn (防御力 to evade with: only when 城戸 acts first)."""
    ctx, st = _duel({"ryuki": {"mobility": 1, "attack": 1, "defense": 1}, "knight": {"attack": 2}},
                    {"distance": "近", "fighters": {"蓮": {"vent": "sword_vent"}, "城戸": {"vent": "sword_vent"}}},
                    first=first)
    order = SYSTEM.parse_order(text, "城戸", st, ctx)
    got = odds_rider.odds(st, ctx, "城戸", order, exact=True)
    done, pruned, _ = enumerate_turn(ctx, st, {"城戸": text})
    assert pruned < Fraction(1, 20)
    (defence,) = got["defense"]
    hit = sum(p for p, _, ev in done if any(type(e).__name__ == "Hit" and e.actor == "蓮" for e in ev))
    paid = sum(p * _damage_of(ev, "城戸", "城戸") for p, _, ev in done)
    _within(defence["hit"], hit, pruned)
    _within(defence["paid"], paid, pruned * 3)  # at most 3 HP is paid in a turn
    for amount in range(0, 12):
        brute = sum(p for p, _, ev in done if _damage_of(ev, "蓮", "城戸") == amount)
        _within(defence["damage"].get(amount, 0), brute, pruned)
    if "ガードベント" in text:
        assert defence["rows"][0][1]["evasion"] == ("defense" if first == "城戸" else "mobility")
    elif "受け" in text:
        assert defence["rows"][0][1]["evasion"] == "attack" and not got["super_table"]
    else:
        rows = {r["super"]: r for r in got["super_table"]}
        assert set(rows) == {0, 1, 2, 3} and rows[0]["paid"] == 0
        assert rows[3]["hit"] < rows[1]["hit"] < rows[0]["hit"]


@pytest.mark.parametrize("traits", [[], ["flying"]])
def test_the_move_matches_the_resolver_with_and_without_the_star_rule(traits):
    """城戸 (運動性2) moves closer from 遠 against 蓮 (運動性1), who blocks; 飛行 gives 蓮 the ☆ bonus."""
    ctx, st = _duel({"ryuki": {"mobility": 2}, "knight": {"mobility": 1, "traits": traits}},
                    {"distance": "遠"}, first="蓮")
    text = "近寄る / 攻撃しない"
    got = odds_rider.odds(st, ctx, "城戸", SYSTEM.parse_order(text, "城戸", st, ctx), exact=True)
    done, pruned, _ = enumerate_turn(ctx, st, {"城戸": text, "蓮": "攻撃しない"})
    assert pruned < Fraction(1, 20)
    move = got["move"]
    assert move["star"] is bool(traits)
    for band in ("近", "中", "遠"):
        brute = sum(p for p, new, _ in done if new["distance"] == band)
        _within(move["bands"].get(band, 0), brute, pruned)


def test_cover_takes_one_off_and_both_are_hit():
    """庇う: the coverer's evasion −1; one roll's damage to both, each less their own 防御力 —
    against an enumeration of the attack, evasion and damage dice."""
    got = odds_rider.strike(2, 0, 1, -1, 2, 2, 20, exact=True, second_defense=3, second_hp=20)
    faces = {}
    for ones in range(0, 10):
        for last in range(2, 7):
            faces[ones + last] = faces.get(ones + last, 0) + Fraction(1, 6 ** (ones + 1))
    hit = Fraction(0)
    both = {}
    for (a1, p1), (a2, p2) in product(faces.items(), repeat=2):
        a = max(a1, a2)
        for e, pe in faces.items():
            if a > e - 1:
                p = p1 * p2 * pe
                hit += p
                for d, pd in faces.items():
                    raw = a - (e - 1) + d + 2
                    key = (max(0, raw - 2), max(0, raw - 3))
                    both[key] = both.get(key, 0) + p * pd
    slack = Fraction(1, 10**6)  # the enumeration stops at nine 1s a die (6**-10 left out per die)
    _close(got["hit"], hit, slack)
    for amount in range(1, 8):
        _close(got["damage"].get(amount, 0), sum(p for k, p in both.items() if k[0] == amount), slack)
        _close(got["second"].get(amount, 0), sum(p for k, p in both.items() if k[1] == amount), slack)


def test_large_pools_match_sampling_the_real_dice():
    """攻撃力6 against 運動性5, 2000 turns with the real seeded Dice. Each figure is within 4.5
    standard errors of its sample mean (sd from the exact distribution): a false failure has a
    chance below 1e-5 per figure, and the seeds are fixed, so the test is repeatable."""
    ctx, st = _duel({"ryuki": {"attack": 6}, "knight": {"mobility": 5}},
                    {"distance": "近", "fighters": {"城戸": {"vent": "strike_vent"}}})
    order = SYSTEM.parse_order("留まる", "城戸", st, ctx)
    none = SYSTEM.parse_order("攻撃しない", "蓮", st, ctx)
    got = odds_rider.odds(st, ctx, "城戸", order)
    attack = got["attacks"][0]
    n = 2000
    hits = damage = 0
    for i in range(n):
        _, events = SYSTEM.resolve(st, {"城戸": order, "蓮": none}, Dice.seeded("odds-test", i, ""), ctx)
        hits += any(type(e).__name__ == "Hit" and e.actor == "城戸" for e in events)
        damage += _damage_of(events, "城戸", "蓮")
    p = attack["hit"]
    assert abs(hits / n - p) <= 4.5 * math.sqrt(p * (1 - p) / n)
    dist = attack["damage"]
    sd = math.sqrt(sum(v * v * q for v, q in dist.items()) - dist.mean() ** 2)
    assert abs(damage / n - dist.mean()) <= 4.5 * sd / math.sqrt(n)


def test_odds_never_reads_the_opponents_order():
    """The opponents' orders are the defaults: odds takes no orders but the player's own."""
    ctx, st = _duel({}, {"distance": "近", "fighters": {"蓮": {"vent": "sword_vent"}}})
    order = SYSTEM.parse_order("留まる", "城戸", st, ctx)
    a = odds_rider.odds(st, ctx, "城戸", order)
    b = odds_rider.odds(st, ctx, "城戸", order)
    assert a["defense"][0]["hit"] == b["defense"][0]["hit"] > 0


def test_three_or_more_listed_targets_first_and_cover_at_minus_one():
    ctx = context({"城戸": "ryuki@東", "蓮": "knight@東", "北岡": "zolda@西", "刃": "jinshu@西"})
    st = state(ctx, {"initiative": ["城戸", "蓮", "北岡", "刃"], "fighters": {"城戸": {"vent": "sword_vent"}}})
    text = "攻撃: 北岡, 刃 / 庇う 蓮"
    got = odds_rider.odds(st, ctx, "城戸", SYSTEM.parse_order(text, "城戸", st, ctx))
    assert got["multi"] and [a["target"] for a in got["attacks"]] == ["北岡", "刃"]
    assert got["aim_table"][0]["target"] == "北岡"
    assert list(got["bands"].values()) == pytest.approx([1 / 3] * 3)
    covers = {c["attacker"]: (p, c) for p, c in got["cover"]}
    assert set(covers) == {"北岡", "刃"}
    share, row = covers["刃"]
    assert share == pytest.approx(1 / 3) and row["evasion"] == "attack"  # 受け with the sword, never 運動性
    # 刃's visor attack (攻撃力 from the sheet) against 城戸's 受け (攻撃力3) at −1
    sheet = ctx.data.riders["jinshu"]
    expected = odds_rider.strike(sheet["attack"], 0, 3, -1, int(sheet["visor"]["damage"]), 2, 20,
                                 second_defense=ctx.data.riders["knight"]["defense"], second_hp=20)
    assert row["hit"] == pytest.approx(expected["hit"], abs=1e-12)
    assert row["hit"] > odds_rider.strike(sheet["attack"], 0, 3, 0, 0, 2, 20)["hit"]
