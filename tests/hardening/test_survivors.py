"""Rules that no test exercised when bugs were planted one at a time (issue 12): each test here
fails on the planted bug it names."""

import sys
from pathlib import Path

import pytest

from pbf.errors import PbfError
from pbf.board.forum import collect_orders, commitment
from pbf.board.thread import parse_thread_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rider"))
from rider_support import SYSTEM, context, state, turn  # noqa: E402


def test_aim_that_leaves_exactly_zero_attack_dice_is_refused():
    """隙狙い: −2 attack dice per point, never to 0 dice (刃襲 攻撃力4, 隙狙い2 = 0 dice: the boundary)."""
    ctx = context({"刃": "jinshu", "龍": "ryuki"})
    st = state(ctx, {"turn": 1, "distance": "近", "initiative": ["刃", "龍"]})
    with pytest.raises(PbfError, match="0以下"):
        SYSTEM.parse_order("隙狙い 2", "刃", st, ctx)
    SYSTEM.parse_order("隙狙い 1", "刃", st, ctx)  # 2 dice left: allowed


def test_aim_beyond_the_targets_defence_adds_no_damage():
    """隙狙い ignores defence points; ignoring more than the target has is not extra damage."""
    ctx = context({"刃": "jinshu", "龍": "ryuki"},
                  data_patch={"riders": {"jinshu": {"attack": 8}, "ryuki": {"defense": 1}}})
    st = state(ctx, {"turn": 1, "distance": "近", "initiative": ["刃", "龍"]})
    after, events, _ = turn(ctx, st, {"刃": "隙狙い 2", "龍": "攻撃しない"}, [6, 6, 6, 6, 2, 2, 2, 3])
    hit = next(e for e in events if e["type"] == "hit")
    # defence 1, 2 points ignored: nothing is left to subtract, and nothing is added
    assert hit["defense"] == 1 and hit["ignored"] == 1
    assert hit["amount"] == hit["attack"] - hit["evasion"] + hit["roll"] + hit["bonus"]
    assert after["fighters"]["龍"]["hp"] == 20 - hit["amount"]


def commit_thread(digest, order, salt):
    line = "{name}<>sage<>2026/11/29(日) 21:00:0{i}.00 ID:X{i}<>{body}<>"
    return parse_thread_text("\n".join([
        line.format(name="A", i=1, body="【コミット】" + digest),
        line.format(name="A", i=2, body=f"【公開】{order} {salt}"),
    ]) + "\n")


def test_a_commitment_in_upper_case_hex_is_the_same_commitment():
    digest = commitment("弱弱", "salt1")
    assert digest == digest.lower()  # pbf writes lower case, as sha256sum does
    for written in (digest, digest.upper()):
        found = collect_orders(commit_thread(written, "弱弱", "salt1"), {"A": None}, orders="commit")
        assert "A" in found.orders and found.orders["A"].text == "弱弱"


def test_everyone_fallen_at_once_is_a_draw():
    """The battle ends when one side remains; when no side remains (all fallen at once), a draw."""
    from pbf.dice import Dice
    from pbf.systems.rider.resolver import Battle

    ctx = context({"刃": "jinshu", "龍": "ryuki"})
    st = state(ctx, {"turn": 1, "distance": "近", "initiative": ["刃", "龍"]})
    for fighter in st["fighters"].values():
        fighter["hp"], fighter["alive"] = 0, False
    battle = Battle(st=st, data=ctx.data, orders={}, dice=Dice.fixed([]))
    battle.check_end()
    assert st["winner"] == "draw"
    assert [e.type for e in battle.events] == ["winner"]
    one_left = state(ctx, {"turn": 1, "distance": "近", "initiative": ["刃", "龍"]})
    one_left["fighters"]["龍"]["hp"], one_left["fighters"]["龍"]["alive"] = 0, False
    Battle(st=one_left, data=ctx.data, orders={}, dice=Dice.fixed([])).check_end()
    assert one_left["winner"] == "刃"


def test_a_failed_cover_that_fells_both_ends_the_battle_once():
    """庇う fails and both the coverer and the target fall in the same hit: both are dead and the
    attacker's team wins (check_end after both, not after the first)."""
    ctx = context({"刃": "jinshu@B", "ナ": "knight@A", "ゾ": "zolda@A", "龍": "ryuki@B"})
    st = state(ctx, {"turn": 1, "initiative": ["刃", "ナ", "ゾ", "龍"],
                     "fighters": {"刃": {"vent": "sword_vent"}, "ナ": {"vent": "guard_vent", "hp": 7}, "ゾ": {"hp": 7}}})
    # the coverer stands at 近 with its target, in the sword's range (rules version 4: a coverer out of range cannot 庇う)
    after, events, _ = turn(ctx, st, {"刃": "攻撃: ゾ", "ナ": "庇う ゾ / 攻撃しない", "ゾ": "攻撃しない", "龍": "攻撃しない"},
                            [1, 1, 6, 5, 3, 3, 3, 2, 2, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6])
    assert any(e["type"] == "cover" for e in events)
    assert not after["fighters"]["ナ"]["alive"] and not after["fighters"]["ゾ"]["alive"]
    assert after["winner"] == "B"
    assert [e["type"] for e in events].count("winner") == 1


def test_super_evasion_never_takes_a_rider_hurt_earlier_in_the_turn_to_0_hp():
    """超回避: never to 0 HP — counted from the HP left now, not from the turn's start (刃's アドベント
    makes two attacks on 龍 in one turn; the first 超回避 2 leaves 龍 at HP 2)."""
    ctx = context({"刃": "jinshu", "龍": "ryuki"})
    st = state(ctx, {"turn": 1, "distance": "近", "initiative": ["刃", "龍"], "fighters": {"龍": {"hp": 4}}})
    after, events, _ = turn(ctx, st, {"刃": "アドベント", "龍": "攻撃しない / 超回避 2"}, [3] * 40)
    paid = [e["super_evasion"] for e in events if e["type"] == "evasion" and e["actor"] == "龍"]
    assert paid[0] == 2 and len(paid) == 2 and paid[1] < 2
    assert after["fighters"]["龍"]["hp"] == 4 - sum(paid) >= 1
