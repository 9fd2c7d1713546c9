"""The dice stream as product.md specifies it, checked against an independent computation."""

import hashlib
import hmac

import pytest
from hypothesis import given, strategies as st

from pbf.dice import Dice, DiceExhausted, parse_dice_list, seed_commitment, turn_key
from pbf.errors import PbfError


def reference_draws(seed: str, turn: int, orders: str, count: int) -> list[int]:
    # Written from product.md's words, not from pbf.dice.
    key = hmac.new(
        seed.encode(), f"{turn}\n".encode() + hashlib.sha256(orders.encode()).hexdigest().encode(), hashlib.sha256
    ).digest()
    return [
        int.from_bytes(hmac.new(key, k.to_bytes(8, "big"), hashlib.sha256).digest()[:8], "big")
        for k in range(count)
    ]


def test_seeded_stream_matches_the_spec():
    orders = "名無し\t弱弱\n美鈴\t↑→弱\n"
    dice = Dice.seeded("secret", 3, orders)
    faces = [dice.d6() for _ in range(20)]
    expected = reference_draws("secret", 3, orders, 20)
    assert dice.draws == expected
    assert faces == [1 + u % 6 for u in expected]


def test_turn_key_depends_on_turn_and_orders():
    assert turn_key("s", 1, "a") != turn_key("s", 2, "a")
    assert turn_key("s", 1, "a") != turn_key("s", 1, "b")
    assert turn_key("s", 1, "a") != turn_key("t", 1, "a")


def test_shuffle_is_fisher_yates_from_the_last_index():
    items = list(range(10))
    dice = Dice.seeded("s", 0, "")
    dice.shuffle(items)
    draws = reference_draws("s", 0, "", 9)
    expected = list(range(10))
    for n, i in enumerate(range(9, 0, -1)):
        j = draws[n] % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected


def test_commitment_is_sha256_of_the_seed():
    assert seed_commitment("abc") == hashlib.sha256(b"abc").hexdigest()


def test_fixed_faces_come_first_then_the_fallback():
    fallback = Dice.seeded("s", 1, "")
    dice = Dice.fixed([4, 1, 1, 5], then=fallback)
    assert [dice.d6() for _ in range(4)] == [4, 1, 1, 5]
    assert dice.d6() == 1 + reference_draws("s", 1, "", 1)[0] % 6


def test_fixed_faces_without_fallback_run_out_with_a_clear_error():
    dice = Dice.fixed([6])
    assert dice.d6() == 6
    with pytest.raises(DiceExhausted, match="ダイスが足りません"):
        dice.d6()


@given(st.lists(st.integers(min_value=0, max_value=2**64 - 1), max_size=30))
def test_replay_gives_back_every_draw(draws):
    dice = Dice.replay(draws)
    assert [dice.draw() for _ in draws] == draws
    assert dice.draws == draws


def test_parse_dice_list_accepts_commas_spaces_and_full_width():
    assert parse_dice_list("4,1,1,5,4,4") == [4, 1, 1, 5, 4, 4]
    assert parse_dice_list("４、１ 6") == [4, 1, 6]


@pytest.mark.parametrize("bad", ["0", "7", "4,x", "", "1,,9"])
def test_parse_dice_list_rejects_faces_outside_1_to_6(bad):
    with pytest.raises(PbfError):
        parse_dice_list(bad)


def test_the_ten_lines_in_docs_dice_md_give_pbfs_dice(capsys):
    """docs/dice.md tells players how to check the dice; its snippet must agree with pbf."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "dice.md").read_text("utf-8")
    snippet = doc.split("```python\n")[1].split("```")[0]
    assert len(snippet.strip().splitlines()) <= 10
    snippet = snippet.replace('"the commitment posted in the thread"', f'"{seed_commitment("the revealed seed")}"')
    exec(compile(snippet, "docs/dice.md", "exec"), {})
    printed = capsys.readouterr().out.strip()
    dice = Dice.seeded("the revealed seed", 3, "名無し\t弱弱\n美鈴\t↑→弱\n")
    assert printed == str([dice.d6() for _ in range(10)])
