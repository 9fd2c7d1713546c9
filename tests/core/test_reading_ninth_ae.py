"""Alter EGO orders read the way a GM reads them, ninth pass (issue 19), from a held-out corpus:
a card in brackets before the word that is that very card (（←）ガード) is a gloss of that word;
a negation never reaches across a line break; L/H directly before a cancel's C( are cards; a lone
kanji that reads なし (梨) as the whole order; かーど (がーど with its sound mark dropped); a word
of talk after the complete order on its line (なし　ねむい). Each case goes through the reading
``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


def said(notes):
    return [n.format() for n in notes]


def test_a_card_in_brackets_before_the_word_that_is_that_card_is_its_gloss(camps):
    """（←）ガード、（→）前進、（弱）弱攻撃: each bracket says which card the word after it is —
    a gloss, as a bracket after the plot is; it was read as more cards (←←→→弱, a misread)."""
    text = ("ガードして、攻撃が来なかったら後退になると読みました。そのあと前進して、弱攻撃を出します。\n"
            "【行動】（←）ガード、（→）前進、（弱）弱攻撃")
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == "←→弱"
    assert sum("直後の語の説明" in n for n in said(notes)) == 3
    assert not warned(notes)


@pytest.mark.parametrize("text, canonical", [
    ("【行動】（←）ガード", "←"),
    ("【行動】ガード（←）、前進", "←→"),  # after its word: the gloss of the plot before, as before
    ("【行動】弱攻撃、(→)前進", "弱→"),
])
def test_a_gloss_before_or_after_its_word(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical
    assert not warned(notes)


def test_a_bracket_of_other_cards_before_a_word_is_read_as_before(camps):
    """（弱）前進: the bracket's card is neither the word after it nor the plot before — as before
    (a bracket that opens the order is read as cards)."""
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】（弱）前進")
    assert got == "弱→"


def test_a_cancel_s_discards_are_no_gloss_of_the_card_after_them(camps):
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】弱C(弱←)弱←")
    assert got == "弱C(弱←)弱←"


def test_a_negation_never_reaches_across_a_line_break(camps):
    """エナジーキャノン\\nゲージない…: the ない of the next line was joined to the card above it
    (「カードを打ち消す語があります」); the next line is talk."""
    text = "【行動】弱C(弱←)エナジーキャノン\nゲージないからキャンセル失敗するの知ってるｗ練習ｗ"
    try:
        got, notes = read_for_check(camps["ae"], "美鈴", text)
    except OrderError as refused:
        assert all(p.line == 2 for p in refused.value.problems), [p.format() for p in refused.value.problems]
        return
    assert got == "弱C(弱←)↑→弱"


@pytest.mark.parametrize("text", [
    "【行動】エナジーキャノン\nジャンプはしない",  # a negation on its own line is still read
    "【行動】ジャンプはしないで前進",
])
def test_a_negation_on_its_line_is_still_read(camps, text):
    try:
        got, notes = read_for_check(camps["ae"], "美鈴", text)
    except OrderError:
        return
    assert "↑" not in got.replace("↑→弱", "")


def test_card_letters_right_before_a_cancel_are_cards(camps):
    """LC(L4)旋風: L, then the cancel C(L4) — the letters before C( are cards (it was refused at LC)."""
    got, notes = read_for_check(camps["ae"], "楓", "【行動】LC(L4)旋風\n※ゲージ0なのでC不発込み")
    assert got == "弱C(弱←)→↑弱"


@pytest.mark.parametrize("text", ["【行動】梨", "梨", "【行動】梨ｗ"])
def test_a_lone_kanji_that_reads_nashi_is_the_empty_plot(camps, text):
    """梨: an IME's なし as the whole order (it was refused); 無し is a word of the lexicon already."""
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == ""
    assert any("「梨」を「なし」と読みました" in n for n in said(notes))


def test_nashi_by_its_reading_only_as_the_whole_order(camps):
    with pytest.raises(OrderError):
        read_for_check(camps["ae"], "美鈴", "【行動】前進 梨")


def test_kado_with_its_sound_mark_dropped_is_guard(camps):
    """かーど: がーど typed on a phone without its dakuten (it was 「行動として読める語がありません」)."""
    try:
        got, notes = read_for_check(camps["ae"], "美鈴", "かーど")
    except OrderError as refused:
        assert any("ガード" in (p.hint or "") for p in refused.value.problems)
        return
    assert got == "←"
    assert any("「ガード」と読みました" in n for n in said(notes))


def test_a_word_of_talk_after_the_whole_order_on_its_line(camps):
    """なし　ねむい: the ね of ねむい was read as a particle and むい refused. One word of kana after
    the order on its line, near no word of the game, is talk: passed over, warned."""
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】なし　ねむい")
    assert got == ""
    assert any("「ねむい」は行動の後ろの雑談" in w for w in warned(notes))


@pytest.mark.parametrize("text, word", [
    ("前進 ねむい 弱", "ねむい"),  # not the end of its line: named, as a whole word
    ("なし　ねむ", "ねむ"),  # two kana: too short to tell
])
def test_a_word_of_kana_inside_the_order_is_still_named_whole(camps, text, word):
    with pytest.raises(OrderError) as refused:
        read_for_check(camps["ae"], "美鈴", text)
    assert any(p.text == word for p in refused.value.problems)


def test_the_marker_written_in_kana_before_a_colon(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "こうどう：じゃくじゃく")
    assert got == "弱弱"
    assert any("行動の目印" in n for n in said(notes))


def test_the_marker_in_kana_only_at_the_start_of_a_line(camps):
    with pytest.raises(OrderError):
        read_for_check(camps["ae"], "美鈴", "前進 こうどう：弱")


def test_a_romaji_gloss_after_the_plot(camps):
    got, _notes = read_for_check(camps["ae"], "美鈴", "koudou: 4 6 H  (oborozuki test)")
    assert got == "←→強"
