"""Alter EGO orders read the way a GM reads them, twelfth pass (issue 19), from a held-out corpus
(newcomers' slot lists, veterans' numpad and jargon, phone voice input, humble keigo, romaji with a
programmer's habits): an ordinal's digit is never a numpad card (4枚目); a line that names the
technique the symbols above make is their gloss; numbered slots (1: 2:, スロット1, いち に さん, a
markdown table) are which card each is; 5 is neutral in numpad notation; the games' jargon after the
plot; a technique said not to be meant reads the cards apart; keigo's まして・いたす・試みる; the
marker said before the order on a phone; an IME's run of a card's kanji; a quote under the order.
Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


def said(notes):
    return [n.format() for n in notes]


def test_an_ordinal_is_never_a_numpad_card(camps):
    """4枚目：弱 was read ← 弱 (4 is ← on the numpad): 弱弱弱←弱, a misread."""
    text = "【行動】\n1枚目：弱\n2枚目：弱\n3枚目：弱\n4枚目：弱\n連打で押し出したいです。"
    got, _notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == "弱弱弱弱"
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】\n1枚目：前進\n6枚目：弱")  # never → for 6
    assert "→→" not in got


def test_a_line_naming_the_technique_the_symbols_above_make_is_their_gloss(camps):
    """後ろジャンプで逃げ！ under ↑← says again what ↑← is: it was read ↑←↑←, a misread."""
    text = "【行動】↑←\n後ろジャンプで逃げ！\n>>20「美鈴は逃げない」って誰が決めたのｗ"
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == "↑←"
    assert any("上の行の記号の技の名前" in n for n in said(notes))
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】↑←\n前ジャンプで攻める")  # another technique: more cards
    assert got != "↑←"


@pytest.mark.parametrize("player, text, canonical", [
    ("美鈴", "はじめまして。\n【行動】\n1：前進\n2：前進\n3：投げ\nこれで合っていますか？", "→→弱強"),
    ("楓", "【行動】\n1:→ 2:↑ 3:弱\n旋風脚を出したいです。", "→↑弱"),
    ("楓", "【行動】1:→ 2:→ 3:弱 4:強", "→→弱強"),  # 4: is the fourth slot, not ←
    ("美鈴", "【行動】\nスロット1\u3000前ジャンプ\nスロット2\u3000強攻撃", "↑→強"),
    ("楓", "こうどう いち 前ジャンプ に 弱 さん 弱", "↑→弱弱"),  # a phone's voice input
    ("美鈴", "表で書きます。\n【行動】\n| 1 | 2 | 3 | 4 |\n|---|---|---|---|\n| 前進 | 前進 | 弱 | 弱 |", "→→弱弱"),
])
def test_numbered_slots_say_which_card_each_is(camps, player, text, canonical):
    got, _notes = read_for_check(camps["ae"], player, text)
    assert got == canonical


def test_slot_numbers_that_break_the_count_are_asked_as_before(camps):
    with pytest.raises(OrderError):
        read_for_check(camps["ae"], "美鈴", "【行動】1:→ 3:弱")


def test_five_is_neutral_in_numpad_notation(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】5L 5L 9L")
    assert got == "弱弱↑→弱"
    assert any("テンキーの5" in n for n in said(notes))
    with pytest.raises(OrderError):  # 5L alone: five lights, or a standing light?
        read_for_check(camps["ae"], "美鈴", "【行動】5L")


@pytest.mark.parametrize("player, text, canonical", [
    ("楓", "【行動】6 68L\u3000差し込み", "→→↑弱"),
    ("楓", "【行動】L×3\u3000暴れ", "弱弱弱"),
    ("美鈴", "【行動】L 4\u3000固め", "弱←"),
])
def test_the_games_jargon_after_the_plot_is_no_card(camps, player, text, canonical):
    got, notes = read_for_check(camps["ae"], player, text)
    assert got == canonical
    assert any("対戦用語" in n for n in said(notes))


def test_jargon_alone_is_no_plot(camps):
    with pytest.raises(OrderError):
        read_for_check(camps["ae"], "楓", "【行動】暴れ")


@pytest.mark.parametrize("text", [
    "[action]\n1: jump\n2: light\n(taikuu ja nakute, jump shite kara kuuchuu de jaku)",
    "【行動】ジャンプしてから、空中で弱攻撃を出したいです。対空技にはしないでください。",
])
def test_a_technique_said_not_to_be_meant_reads_the_cards_apart(camps, text):
    """The bracket's `taikuu ja nakute` had been passed over and the plot read ↑弱 (対空技)."""
    got, _notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == "↑|弱"


@pytest.mark.parametrize("player, text, canonical", [
    ("楓", "【行動】\n前進を２回いたしまして、投げを行います。\nこれで宜しいでしょうか。", "→→弱強"),
    ("美鈴", "【行動】エナジーキャノンを一発撃ちまして、その後ガードをいたします。", "↑→弱←"),
    ("楓", "【行動】ジャンプいたしまして、弱攻撃を２回。", "↑|弱弱"),
    ("美鈴", "【行動】弱攻撃をいたしまして、その後に投げを試みます。", "弱弱強"),
])
def test_humble_keigo(camps, player, text, canonical):
    got, _notes = read_for_check(camps["ae"], player, text)
    assert got == canonical


@pytest.mark.parametrize("player, text, canonical", [
    ("美鈴", "こうどう 全身 全身 投げ", "→→弱強"),
    ("美鈴", "ｺｳﾄﾞｳ ｴﾅｼﾞｰｷｬﾉﾝ ｼﾞｬｸ", "↑→弱弱"),
    ("楓", "音声入力なので変だったらごめん 行動 全身 滞空", "→|↑弱"),
    ("楓", "行動 弱攻撃 さんかい", "弱弱弱"),
    ("美鈴", "【行動】全身全身若強", "→→弱強"),
    ("楓", "【行動】全身\u3000全身\u3000若若", "→→弱弱"),
])
def test_a_phones_voice_input_and_an_imes_run(camps, player, text, canonical):
    got, _notes = read_for_check(camps["ae"], player, text)
    assert got == canonical


def test_talk_before_the_marker_is_noted(camps):
    _got, notes = read_for_check(camps["ae"], "楓", "音声入力なので変だったらごめん 行動 全身 滞空")
    assert any("行動の目印）の前の雑談" in n for n in said(notes))
    got, notes = read_for_check(camps["ae"], "楓", "ﾊﾞｽの中から 行動 ﾅｼ")  # バス, a near miss of パス, in a sentence
    assert got == ""
    assert any("バス" in n for n in warned(notes))


@pytest.mark.parametrize("text, canonical", [
    ('order: ["^", "->", "L"]  # python no list de kaita', "↑→弱"),
    ("order: L L L L L  // 5 renda", "弱弱弱弱弱"),
])
def test_a_programmers_list_and_comment(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical
    assert any("コメント" in n for n in said(notes))


def test_romaji_kara_is_then(camps):
    got, _notes = read_for_check(camps["ae"], "楓", "Hello everyone! This is my first time here.\nkoudou: janpu shite kara jaku kougeki")
    assert got == "↑|弱"


def test_a_quote_under_the_order_is_no_card(camps):
    text = "こんばんは！\n行動：ガード\nいや「ガード読みの投げ」来そうだけど、来たら来たで笑う"
    got, notes = read_for_check(camps["ae"], "楓", text)
    assert got == "←"
    assert any("引用" in n for n in warned(notes))


@pytest.mark.parametrize("text", [
    "【行動】様子見",  # なし, or a guard?
    "【行動】↑>弱",  # > after a jump: 前進 (EC) or "then"?
    "order: L > L > H",
    "【行動】弱攻撃いっぱい！",  # how many?
    "【行動】前進前進な",  # な: なし? 投げ? cut off
])
def test_what_a_gm_would_ask_is_asked(camps, text):
    with pytest.raises(OrderError):
        read_for_check(camps["ae"], "美鈴", text)

