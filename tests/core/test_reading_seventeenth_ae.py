"""Alter EGO orders read the way a GM reads them, seventeenth pass, from a held-out corpus (a thread
bridged from X, a ニコニコ comment board): a line of talk under a complete plot whose order words say
again what the plot holds — a verb of attack that names no card, a count, a number said of another
word, a question to the GM — is passed over, warned; an IME's katakana ニ for 二, 若 cut from 攻撃, the
kanji of the very reading named as the word typed (交代: 後退); kana each alone between spaces read
joined; a word of function kana that is an order word with its marks off (なくる) asked; a count left
open (2回か3回) refused, naming both; 888 alone warned (numpad ↑↑↑ or applause); (1/2) with no later
part warned; another character's technique alone on a line refused, saying whose. Each case goes
through the reading ``pbf check`` makes; the texts are variants, not the corpus's entries."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def said(notes):
    return [n.format() for n in notes]


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


def refused(camps, text, player="美鈴"):
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["ae"], player, text)
    return str(caught.value)


@pytest.mark.parametrize("text, canonical, words", [
    # a verb of attack in talk under a plot with an attack (it refused the post: 弱 or 強?)
    ("【行動】前ジャンプ 弱 弱\n跳んでから殴りにいくｗ", "↑→|弱弱", "「跳んで」「殴り」"),
    ("【行動】対空、ガード\n飛んできたら蹴り落とすｗ", "↑弱←", "「飛んでき」「蹴り」"),
    # a question to the GM under the plot, the plot said again
    ("【行動】弱 ガード\n蹴ってから守るのってアリですか？", "弱←", "「蹴って」「守る」"),
    ("【行動】前進 前進 強攻撃\nこれで2マス詰めてから強攻撃になりますか？", "→→強", "「詰めて」「強攻撃」"),
    # a number said of a word pbf does not know (リーチが1), and a count the plot holds
    ("【行動】前進、弱攻撃\nリーチが1だから、近づいて当てるつもりです。", "→弱", "「近づいて」"),
    ("【行動】後退 後退\n打たれそうなら2マス下がると聞いたので、下がってみます。", "←←", "「下がる」「下がって」"),
    # a sentence that says where the moves above go
    ("【行動】後退\n画面端まで下がります", "←", "「下がります」"),
])
def test_talk_under_the_plot_that_says_it_again_is_passed_over_warned(camps, text, canonical, words):
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical
    assert any(f"は行動の後の文として読みませんでした（{words}は上の行動のカードと同じです）" in n for n in warned(notes))


def test_talk_that_adds_a_card_is_still_asked(camps):
    # no attack in the plot above: 殴り is an attack of its own, 弱 or 強 — asked, as before
    assert "「殴り」どのカードのことか決まらない語です" in refused(camps, "【行動】前進\n殴りにいくｗ")
    # a move the plot does not hold: more of the order, not talk
    assert "決まらない語です" in refused(camps, "【行動】弱\n前進してから殴るｗ")
    # a line that goes on with the order (それから, 次に): more of it, asked
    assert "「殴ります」どのカードのことか決まらない語です" in refused(camps, "【行動】前進 弱\nそれから殴りますｗ")
    # a count the plot does not hold (2マス under one 後退): not said again
    with pytest.raises(OrderError):
        read_for_check(camps["ae"], "美鈴", "【行動】後退\n打たれそうなら2マス下がると聞いたので、下がってみます。")


def test_katakana_ni_before_kai_is_two(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】後退ニ回")
    assert got == "←←"
    assert "1行目 7文字目：「ニ回」を「2回」と読みました。" in said(notes)
    assert read_for_check(camps["ae"], "楓", "【行動】弱ニ回 強")[0] == "弱弱強"


def test_an_imes_kanji_of_the_attack_cut_from_it(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】前進若攻撃")
    assert got == "→弱"
    assert any("「若攻撃」を「弱攻撃」と読みました" in n for n in said(notes))
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】全身全身若攻撃")
    assert got == "→→弱"


def test_an_imes_kanji_of_the_very_reading_names_the_word_typed(camps):
    # it had said 「交代」を「ガード」と読みました — the card's name, as if a guess
    got, notes = read_for_check(camps["ae"], "楓", "【行動】交代 弱")
    assert got == "←弱"
    assert "1行目 5文字目：「交代」を「後退」と読みました。" in said(notes)


def test_kana_each_alone_between_spaces_are_one_word(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】つ よ つ よ")
    assert got == "強強"
    assert "1行目 5文字目：「つ よ つ よ」を、字の間の空白を詰めて「つよつよ」と読みました。" in said(notes)
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】ぜんしん じ ゃ ん ぷ")
    assert got == "→↑"
    # ま え に す す む: one move (it had read two: まえ, すすむ)
    assert read_for_check(camps["ae"], "美鈴", "【行動】ま え に す す む")[0] == "→"
    # two kana apart are not joined: words of one kana stay words
    assert read_for_check(camps["ae"], "美鈴", "【行動】弱 と 強")[0] == "弱強"


def test_function_kana_that_are_an_order_word_with_its_marks_off(camps):
    # な+くる had been passed over unsaid: なぐる (殴る), 弱 or 強 — asked
    message = refused(camps, "【行動】ガード なくる")
    assert "1行目 9文字目：「なくる」どのカードのことか決まらない語です。" in message
    assert "弱攻撃（弱）・強攻撃（強）のどれかを書いてください" in message
    # なので is no 投げて (distance 1): as before
    assert read_for_check(camps["ae"], "美鈴", "【行動】弱")[0] == "弱"


@pytest.mark.parametrize("text, written, both", [
    ("【行動】前進を1回か2回", "1回か2回", "1回か2回"),
    ("【行動】強攻撃2か3回", "2か3回", "2回か3回"),
    ("【行動】弱を2〜3回", "2〜3回", "2回か3回"),
])
def test_a_count_left_open_is_refused_naming_both(camps, text, written, both):
    # 弱攻撃を2回か3回 had read 弱弱弱弱 (a wrong count, unsaid)
    message = refused(camps, text)
    assert f"「{written}」は回数が一つに決まっていません（{both}）。" in message
    assert "出す回数を一つだけ書いてください" in message


def test_eights_alone_are_numpad_or_applause(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "キター\n【行動】8888")
    assert got == "↑↑↑↑"
    assert any("「8888」をテンキーの↑↑↑↑（垂直ジャンプ4回）と読みました。ニコニコの拍手（8888）のつもりかもしれません。" in n
               for n in warned(notes))
    # apart, or inside a plot of digits: numpad only
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】8 8 8")
    assert got == "↑↑↑" and not warned(notes)
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】6888")
    assert got == "→↑↑↑" and not warned(notes)


def test_a_first_part_with_no_later_part_is_warned(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】弱 強 （1/3）")
    assert got == "弱強"
    assert any("とありますが、続き（2/3）がこの投稿にありません。行動が途中までかもしれません。" in n for n in warned(notes))
    # both parts in the post: whole
    got, notes = read_for_check(camps["ae"], "楓", "(1/2) 今回は攻める\n(2/2)【行動】6 L")
    assert got == "→弱"
    assert not any("続き" in n for n in said(notes))


@pytest.mark.parametrize("text, player, whose", [
    ("【行動】強\n旋風脚でお願いします", "美鈴", "旋風脚は楓の技です（美鈴にはありません）。同じカードを出すなら「→↑弱」"),
    ("【行動】\n弱\nせんぷうきゃく！", "美鈴", "旋風脚は楓の技です（美鈴にはありません）"),
    ("【行動】ガード\nエナジーキャノン", "楓", "エナジーキャノンは美鈴の技です（楓にはありません）。同じカードを出すなら「↑→弱」"),
])
def test_another_characters_technique_alone_on_a_line_is_refused(camps, text, player, whose):
    # it had been passed over as chat: the move meant, unplayed, unsaid
    assert whose in refused(camps, text, player)


def test_another_characters_technique_in_talk_stays_talk(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】弱\n相手の旋風脚が怖い")
    assert got == "弱"
    # the player's own technique under its cards is the earlier rule's
    got, _notes = read_for_check(camps["ae"], "楓", "【行動】→↑弱\n旋風脚")
    assert got == "→↑弱"
