"""Alter EGO orders read the way a GM reads them, fourteenth pass, from a held-out corpus (players
writing Japanese as a second language, in traditional or simplified Chinese characters, with Chinese
particles and pinyin; a fan board's sentence-ending quirks): a kanji in Chinese script is the same
kanji (輕→軽, 击→撃, 进→進); 軽攻撃・重攻撃・跳躍・後跳・投技 and their pinyin are the techniques'
words; 〜でござる・〜なのら・〜っす・〜ぺこ・〜にぇ and 吧・喔・啦・的・哈哈 are endings, no card; a
line of talk that says again the plot's cards with such an ending is passed over (守る吧 under ガード);
a laugh and a space end a sentence; a sentence after the plot that places its cards in it (その前に)
is never passed over as talk. Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.reader.text import Text
from pbf.turn.check import read_for_check


def said(notes):
    return [n.format() for n in notes]


@pytest.mark.parametrize("written, japanese", [
    ("輕攻擊", "軽攻撃"),
    ("轻攻击", "軽攻撃"),
    ("前进", "前進"),
    ("对空", "対空"),
    ("强", "強"),
])
def test_chinese_script_folds_to_the_japanese_kanji(written, japanese):
    text = Text(written)
    assert text.norm == japanese
    assert text.where(0, len(text.norm))[2] == written  # a note shows what was written


@pytest.mark.parametrize("player, text, canonical", [
    ("美鈴", "【行動】轻攻击 轻攻击 重攻击", "弱弱|強"),
    ("楓", "【行動】重ねて弱", None),  # 重 alone is no card: 重ねて is a Japanese word (not 強弱)
    ("美鈴", "【行動】前进 前进 投技", "→→弱強"),
    ("楓", "【行動】6 對空", "→|↑弱"),
    ("美鈴", "【行動】44重攻擊", "←←強"),
    ("楓", "【行動】軽く前進", None),
    ("楓", "【行動】跳躍 轻攻击", "↑|弱"),
    ("美鈴", "【行動】后跳", "↑←"),
    ("楓", "koudou: qianjin, qianjin, zhong gongji", "→→強"),
    ("美鈴", "[action] houtiao then qing gongji", "↑←弱"),
])
def test_chinese_words_and_scripts_of_the_techniques(camps, player, text, canonical):
    if canonical is None:
        with pytest.raises(OrderError):
            read_for_check(camps["ae"], player, text)
        return
    got, _notes = read_for_check(camps["ae"], player, text)
    assert got == canonical


@pytest.mark.parametrize("text, canonical", [
    ("【行動】前進、強攻撃でござる", "→強"),
    ("【行動】ガードを3回でござる。", "←←←"),
    ("【行動】前前弱なのら", "→→弱"),
    ("【行動】まえ よわ っす", "→弱"),
    ("【行動】9LL ぺこ", "↑→弱弱"),
    ("【行動】弱弱 吧", "弱弱"),
    ("【行動】ｶﾞｰﾄﾞ 前進啦", "←→"),
    ("koudou: mae jaku nanora", "→弱"),
])
def test_sentence_endings_are_no_card(camps, text, canonical):
    got, _notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical


@pytest.mark.parametrize("text, canonical", [
    ("【行動】前ジャンプ\n近づく吧～", "↑→"),  # 近づく: the → of 前ジャンプ, said again
    ("【行動】ガード ガードｗ 守る的", "←←"),  # a laugh and a space end the plot's sentence
    ("【行動】なし\n様子見ぺこ", ""),
])
def test_talk_with_an_ending_that_restates_the_plot(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "楓", text)
    assert got == canonical
    assert any("読みませんでした" in n for n in said(notes))


def test_a_sentence_that_places_cards_in_the_plot_is_not_talk(camps):
    """投げるでござる。…その前に前進を2回入れます had been read 弱強 (the sentence passed over)."""
    text = "【行動】投げでござる。間合いが遠いので、その前に前進を入れます。"
    try:
        got, _notes = read_for_check(camps["ae"], "美鈴", text)
    except OrderError:
        return  # refused: the player is asked to write the order in its order
    assert got != "弱強"
