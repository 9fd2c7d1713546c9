"""Alter EGO orders read the way a GM reads them, tenth pass (issue 19), from a held-out corpus's
misreads: every card in brackets is the plot, no gloss; a line that starts with a step number is a
step of the order; N枚目 glosses read one after another; words joined across a space never swallow
a word of the game; a later line that corrects the order is read or refused, never passed over;
a technique's name after the symbols that make it is their gloss. Each case goes through the
reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


def said(notes):
    return [n.format() for n in notes]


@pytest.mark.parametrize("text, canonical", [
    ("【行動】（→）（→）（弱強）", "→→弱強"),  # was →→: the second bracket a gloss of the first
    ("【行動】(弱)(弱)", "弱弱"),
])
def test_every_card_in_brackets_is_the_plot_no_gloss(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical
    assert not warned(notes)


@pytest.mark.parametrize("text, canonical", [
    ("【行動】\n１．前進\n２．前進\n３．弱攻撃\n４．弱攻撃\n番号をつけて書いてみましたが、読めますでしょうか。", "→→弱弱"),
    ("【行動】\n①前進\n②前進\n③弱攻撃\n番号です", "→→弱"),
    ("【行動】\n1) 前進\n2) ガード", "→←"),
])
def test_a_line_that_starts_with_a_step_number_is_a_step_of_the_order(camps, text, canonical):
    """２．前進 under １．前進 was passed over as a sentence restating the order (→弱, a misread)."""
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical
    assert not warned(notes)


def test_ordinal_labels_and_their_glosses_one_after_another(camps):
    """1枚目：前進（→）\\n2枚目：前進（→）: each gloss is read without the ones before it
    (the first was read as a card once the second was blanked: →→→弱強, a misread)."""
    text = "【行動】\n1枚目：前進（→）\n2枚目：前進（→）\n3枚目：投げ（弱と強の2枚）\n合計4枚です。よろしくお願いします。"
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == "→→弱強"
    assert sum("直前の行動の説明" in n for n in said(notes)) == 2
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】ガード（←）、前進（→）")
    assert got == "←→"


@pytest.mark.parametrize("text", ["【行動】ﾏｴ ｴﾅｼｰｷｬﾉﾝ", "【行動】マエ\u3000エナシーキャノン"])
def test_words_joined_across_a_space_never_swallow_a_word_of_the_game(camps, text):
    """ﾏｴ (前) + ｴﾅｼｰｷｬﾉﾝ was joined into one near miss of エナジーキャノン (↑→弱, a misread)."""
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == "→↑→弱"
    assert any("エナジーキャノン" in n for n in said(notes))


def test_saikou_renge_shou_is_still_one_name_in_three(camps):
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】saikou renge shou")
    assert got == "→←強"


@pytest.mark.parametrize("text, canonical", [
    ("【行動】前進、エナジーキャノン\n↑間違え増した、前進は無しでエナジーキャノンだけです", "↑→弱"),
    ("【行動】前進、エナジーキャノン\n前進は無しで", "↑→弱"),
    ("【行動】よわよわ\nあ まちがい よわよわよわ で", "弱弱弱"),
])
def test_a_later_line_that_corrects_the_order_is_read(camps, text, canonical):
    """The correction line was passed over as chat (→↑→弱, a misread): it is read, warned."""
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical
    assert any("行動の直し" in n for n in warned(notes))


def test_a_correction_that_cannot_be_read_is_refused(camps):
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["ae"], "美鈴", "【行動】前進、エナジーキャノン\n↑間違え増した")
    assert "直す言葉" in str(caught.value)
    _got, notes = read_for_check(camps["ae"], "美鈴", "【行動】前進、エナジーキャノン\n↑間違えた")
    assert warned(notes)  # says it is wrong, says no fix: warned, as before


def test_a_line_asking_to_be_told_of_a_mistake_is_still_talk(camps):
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】弱弱\n間違っていたら教えてください")
    assert got == "弱弱"


@pytest.mark.parametrize("text, canonical", [
    ("【行動】8L\u3000対空置き", "↑弱"),  # was ↑弱↑弱, warned
    ("【行動】↑→弱 エナジーキャノン", "↑→弱"),
])
def test_a_technique_named_after_the_symbols_that_make_it_is_their_gloss(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical
    assert any("直前の記号の技の名前" in n for n in said(notes))


def test_a_technique_after_symbols_of_other_cards_is_read_and_warned_as_before(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】8H 対空")
    assert got == "↑強↑弱"
    assert warned(notes)
