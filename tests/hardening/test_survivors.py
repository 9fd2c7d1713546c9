"""Rules that no test exercised when bugs were planted one at a time (issue 12): each test here
fails on the planted bug it names."""

import sys
from pathlib import Path

import pytest

from pbf.errors import PbfError
from pbf.forum import collect_orders, commitment
from pbf.thread import parse_thread_text

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
