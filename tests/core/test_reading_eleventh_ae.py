"""Alter EGO orders read the way a GM reads them, eleventh pass (issue 19), from a held-out corpus
(Kansai-ben, flip phones, IMEs): a condition or a purpose after the plot that only says again what
the plot holds is the player's explanation, no cards; a near miss is never taken on a verb cut
before its ending nor across を; small ゎ ゕ ゖ are the large kana; 着地したら after a jump is "then";
the technique aimed at before the plot that makes it; a question after the plot; romaji talk after
the order; で ええ; an IME's 若 against a technique; >> before a name; a long mark an IME dropped
(ガド); かーど warned (it is カード as written). Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


def said(notes):
    return [n.format() for n in notes]


@pytest.mark.parametrize("player, text, canonical", [
    ("楓", "行動：8弱\u3000飛んだら落とす、対空安定や", "↑弱"),  # was ↑弱↑↑弱: a misread
    ("美鈴", "【行動】9|弱弱\u3000キャノン化せんように割っとく", "↑→|弱弱"),  # was refused: 7 cards
])
def test_a_condition_or_a_purpose_after_the_plot_that_restates_it_is_no_card(camps, player, text, canonical):
    got, notes = read_for_check(camps["ae"], player, text)
    assert got == canonical
    assert any("行動の説明（条件や狙い）" in n for n in warned(notes))


def test_guard_with_its_condition_said_is_one_guard(camps):
    """In Alter EGO ← is guard when attacked and a step back otherwise: the condition restates it."""
    got, notes = read_for_check(camps["ae"], "楓", "行動：ガードします。もし攻撃が来なかったら下がる、で合っていますよね？")
    assert got == "←"
    assert any("行動の説明" in n for n in warned(notes))


@pytest.mark.parametrize("player, text, canonical", [
    ("楓", "【行動】前ジャンプして、着地したら弱攻撃を2回します", "↑→弱弱"),  # was refused at 着地
    ("楓", "【行動】ジャンプして、着地したら対空を出します。", "↑↑弱"),
    ("楓", "【行動】弱攻撃を出したら、すぐに後ろへ下がります。", "弱←"),
])
def test_a_clause_that_names_other_cards_is_still_the_plot(camps, player, text, canonical):
    """着地したら after a jump is "then"; a たら clause that names another card is read as the plot."""
    got, notes = read_for_check(camps["ae"], player, text)
    assert got == canonical
    assert not any("行動の説明" in n for n in said(notes))


def test_a_conditional_plot_with_other_cards_is_not_passed_over(camps):
    try:
        got, notes = read_for_check(camps["ae"], "美鈴", "【行動】相手が飛んだら耐空、飛ばなかったら若攻撃")
    except OrderError:
        return
    assert warned(notes), got


def test_a_verb_do_is_a_function_word_never_a_near_miss(camps):
    """「をやっ」 was read as 弱攻撃 (a near miss on the fragment of やって): →←強弱, a misread."""
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】彩光蓮華掌をやってみたいです。ゲージ0だと不発になるんでしょうか？")
    assert got == "→←強"
    assert not any("弱攻撃" in n for n in said(notes))
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】エナジーキャノンをやります")
    assert got == "↑→弱"


@pytest.mark.parametrize("text, canonical", [
    ("【行動】まえ よゎ よゎ", "→弱弱"),  # was → (ゎ よゎ passed over as chat): a misread
    ("【行動】よゎよゎよゎ", "弱弱弱"),  # was refused
])
def test_small_wa_is_the_large_kana(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical
    assert any("「よゎ」を「弱攻撃」と読みました" in n for n in said(notes))


def test_the_technique_aimed_at_before_the_plot_that_makes_it(camps):
    """投げを狙って、前に二歩進んでから投げます: the 投げ aimed at is the one thrown (it was 6 cards, refused)."""
    got, notes = read_for_check(camps["ae"], "楓", "【行動】投げを狙って、前に二歩進んでから投げます。")
    assert got == "→→弱強"
    assert any("行動の狙い" in n for n in said(notes))


def test_a_question_about_the_rules_after_the_plot_is_talk(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】強攻撃です。次のターンは何も出せないんですよね。")
    assert got == "強"
    assert any("次のターンは何も出せないんですよね" in n for n in said(notes))


def test_romaji_talk_after_the_order_is_passed_over_with_a_warning(camps):
    got, notes = read_for_check(camps["ae"], "楓", "koudou: nashi. pass this turn, shigoto busy yade")
    assert got == ""
    assert any("shigoto busy yade" in n for n in warned(notes))
    with pytest.raises(OrderError):  # one word after the order, a slip more likely: named as before
        read_for_check(camps["ae"], "楓", "koudou: jump, jmpp")


@pytest.mark.parametrize("text", ["order: oborozuki de ee", "【行動】朧月でええ"])
def test_de_ee_is_kansai_ben_for_is_fine(camps, text):
    got, _notes = read_for_check(camps["ae"], "楓", text)
    assert got == "←→強"


def test_an_ime_kanji_against_a_technique_is_its_card(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】エナジキャノン若")
    assert got == "↑→弱弱"
    assert any("「若」を「弱」と読みました" in n for n in said(notes))


def test_an_anchor_to_a_name_is_an_anchor(camps):
    """>>楓 on a talk line was read as two 前進 (→ or "then"?) and refused."""
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】対空\n>>楓 飛んできたら落としたるで〜")
    assert got == "↑弱"
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】>>弱")
    assert got == "→→弱"


def test_a_long_mark_an_ime_dropped(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】ガド")
    assert got == "←"
    assert any("「ガド」を「ガード」と読みました" in n for n in said(notes))


def test_kaado_is_read_as_guard_and_warned_for_it_is_card_as_written(camps):
    got, notes = read_for_check(camps["ae"], "楓", "【行動】かーど")
    assert got == "←"
    assert any("カード" in n for n in warned(notes))
    got, notes = read_for_check(camps["ae"], "楓", "【行動】がーと")  # no word as written: noted, as before
    assert got == "←"
    assert not warned(notes)
