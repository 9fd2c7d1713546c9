"""Behaviour the planted-bug audit of issue 21 found untested in the rider game (the rule cases for
超回避 after a reflection and a once-per-battle card within one turn are in cases/rules_*.yaml)."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.systems.rider import SYSTEM
from rider_support import context, state


@pytest.fixture
def duel():
    ctx = context({"城戸": "ryuki", "刃": "jinshu"})
    return ctx, state(ctx, {"turn": 1, "distance": "近", "initiative": ["城戸", "刃"]})


@pytest.mark.parametrize("text, card, canonical", [
    ("ｿｰﾄﾞﾍﾞﾝﾄ", "sword_vent", "ソードベント"),
    ("ｶﾞｰﾄﾞﾍﾞﾝﾄ　回避：防御力", "guard_vent", "ガードベント / 回避: 防御力"),
    ("ｻﾊﾞｲﾌﾞ", "survive", "サバイブ"),
    ("受動：ﾌｧｲﾅﾙﾍﾞﾝﾄならﾘﾌﾚｸﾄﾍﾞﾝﾄ", None, "受動: ファイナルベントならリフレクトベント"),
])
def test_half_width_kana_with_separate_sound_marks_read_as_the_card(duel, text, card, canonical):
    """ﾄﾞ is two characters (ﾄ and the sound mark ﾞ) that a phone keyboard writes for ド: the
    reader takes a half-width kana and its mark as one, so the card reads as written in full width."""
    ctx, st = duel
    assert "\uff9e" in text  # the sound mark is a character of its own
    order = SYSTEM.parse_order(text, "城戸", st, ctx)
    assert order.card == card
    assert SYSTEM.canonical_order(order) == canonical
    assert order.notes == ()  # read as written, not guessed at


def test_half_width_card_names_in_a_sentence_are_read_as_written_not_guessed(duel):
    ctx, st = duel
    order = SYSTEM.parse_order("ﾁｶﾖﾙ ｿｰﾄﾞﾍﾞﾝﾄ ﾁｮｳｶｲﾋ 2", "城戸", st, ctx)
    assert SYSTEM.canonical_order(order) == "近寄る / ソードベント / 超回避 2"
    # only the verb written in kana is a reading worth a note; ｿｰﾄﾞﾍﾞﾝﾄ is the card's own name
    assert [n.text for n in order.notes] == ["ﾁｶﾖﾙ"]


def test_a_problem_after_half_width_kana_points_at_the_player_s_own_column(duel):
    ctx, st = duel
    with pytest.raises(OrderError) as info:
        SYSTEM.parse_order("ｿｰﾄﾞﾍﾞﾝﾄ／ﾊﾞｶﾞ", "城戸", st, ctx)
    (problem,) = info.value.problems
    assert (problem.line, problem.column) == (1, 10)  # ｿｰﾄﾞﾍﾞﾝﾄ is eight characters as written
    assert problem.text == "バガ"  # ﾊﾞ and ｶﾞ each one letter, not a letter and a loose combining mark
