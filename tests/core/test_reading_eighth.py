"""Orders read the way a GM reads them, eighth pass (issue 19): a cheer under the order
(いけードラグレッダー！), an idiom of luck (あとは運に任せる！), and a line of talk that adds an option of
its own (隙狙い2もつけとくかな…) never passed over. Each case goes through the reading ``pbf check``
makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


def passed_over(notes):
    return [w for w in warned(notes) if "雑談として読みませんでした" in w]


@pytest.mark.parametrize("camp, player, text, canonical", [
    ("three", "城戸", ">>17 逃げんなｗ\n【行動】アドベント／攻撃：北岡、蓮\nいけードラグレッダー！", "アドベント / 攻撃: 北岡, 蓮"),
    ("three", "蓮", "締切前ギリギリｗ\n【行動】トリックベント／中へ：北岡／超回避１：本体の攻撃だけ\nあとは運に任せる！",
     "中へ: 北岡 / トリックベント / 超回避 1: 本体の攻撃だけ"),
])
def test_a_cheer_under_the_order_is_talk(camps, camp, player, text, canonical):
    got, notes = read_for_check(camps[camp], player, text)
    assert got == canonical
    assert len(passed_over(notes)) == 1


@pytest.mark.parametrize("text", [
    "【行動】近寄る／ソードベント\n隙狙い2もつけとくかな…",  # an option the rest does not name
    "【行動】近寄る／隙狙い1\n隙狙い2のほうがいいかな…",  # the same option with another number
    "【行動】近寄る／ソードベント\n超回避1も！",
])
def test_a_line_of_talk_that_adds_an_option_is_never_passed_over(camps, text):
    try:
        got, notes = read_for_check(camps["rd"], "城戸", text)
    except OrderError:
        return
    assert not passed_over(notes), got


@pytest.mark.parametrize("text", [
    "【行動】ガード、前進、強攻撃（朧月）",  # a gloss on its line
    "おつおつ\n【行動】ガード、前進、強\n（朧月のつもり）",  # what the plot is meant as, on the next line
])
def test_a_gloss_naming_the_technique_joins_the_words_named_apart(camps, text):
    """Words named apart are read apart (ガード、前進、強 is ←｜→強, with a warning): a bracket that
    names the technique they join into (朧月) says the player meant it — read as 朧月, no warning."""
    got, notes = read_for_check(camps["ae"], "楓", text)
    assert got == "←→強"
    assert not warned(notes)


def test_words_named_apart_without_a_gloss_stay_apart(camps):
    got, notes = read_for_check(camps["ae"], "楓", "【行動】ガード、前進、強")
    assert got == "←→|強" and any("別々の技" in w for w in warned(notes))


@pytest.mark.parametrize("camp, player, text, canonical, corrected", [
    ("ae", "美鈴", "【行動】がーと", "←", "「がーと」を「ガード」"),  # a long mark keeps the kana one word
    ("ae", "楓", "【行動】何も市内", "", "「何も市内」を「なし」"),  # an IME's conversion of a phrase
    ("three", "城戸", "【行動】一番地階人に近寄る／ソードベント", "近寄る: 最も近い相手 / ソードベント", "「一番地階人」"),
    ("ae", "楓", "【行動】前進二階、弱攻撃", "→→弱", "「階」を「回」"),
])
def test_slips_read_by_their_reading_with_a_note(camps, camp, player, text, canonical, corrected):
    got, notes = read_for_check(camps[camp], player, text)
    assert got == canonical
    assert any(corrected in n.format() for n in notes)


@pytest.mark.parametrize("text, canonical", [
    ("前進 2回、弱", "→→弱"),  # the count closes its clause: the word before (it read →弱弱)
    ("zenshin 2 kai, jaku", "→→弱"),
    ("zenshin 2kai jaku", "→→弱"),  # romaji: spaces between every word, the count after its word
    ("koudou: mae ni 1 masu, energy cannon", "→↑→弱"),
    ("forward 2 times, jaku", "→→弱"),
])
def test_a_count_of_times_goes_with_the_word_before_it(camps, text, canonical):
    got, _notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical


def test_a_count_apart_from_the_words_on_both_sides_is_asked(camps):
    with pytest.raises(OrderError) as refused:
        read_for_check(camps["ae"], "美鈴", "前進 2回 弱")
    assert "どちらの行動の数か決まりません" in refused.value.problems[0].format()
