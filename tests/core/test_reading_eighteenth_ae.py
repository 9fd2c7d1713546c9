"""Alter EGO orders read the way a GM reads them, eighteenth pass, from a held-out corpus (a shogi and go
club's board writing plots like 棋譜, a mobile-game guild): ▲/△ before each move and 同 for the same move
again; both marks before the moves asked (the △ may be the opponent's replies); a bare arrow after the word
jump read as the jump's way, warned; a move's word written against the jump (後退ジャンプ) refused, naming
both; × with no count refused; a one-kanji order word written against a kanji pbf does not know (投了) is
one word, refused; the name of a list's steps (Move 1:) passed over with its number; an English aside in
brackets after the plot (turtle up) passed over, warned; a number counting a thing in the talk after なし;
枚 as a count (ガードを2枚); which card of the plot (一枚目) and a face ending a line of talk under the plot.
Each case goes through the reading ``pbf check`` makes; the texts are variants, not the corpus's entries."""

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


@pytest.mark.parametrize("text, canonical, again", [
    ("【行動】▲強 ▲同", "強強", "「同」を前の手と同じ「強」（強）と読みました。"),
    ("【行動】▲後退 ▲同 ▲弱", "←←弱", "「同」を前の手と同じ「後退」（←）と読みました。"),
    ("【行動】△ジャンプ △同", "↑↑", "「同」を前の手と同じ「ジャンプ」（↑）と読みました。"),
    # a 同 after a 同 says the first move again, as written
    ("【行動】▲L ▲同 ▲同", "弱弱弱", "12文字目：「同」を前の手と同じ「L」（弱）と読みました。"),
])
def test_kifu_same_is_the_move_before_again(camps, text, canonical, again):
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical
    assert any(again in n for n in said(notes))


def test_kifu_same_of_more_than_one_card_is_warned(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】▲弱強 ▲同")
    assert got == "弱強弱強"
    assert any("「同」を前の手と同じ「弱 強」（弱強）と読みました（最後のカードだけなら" in n for n in warned(notes))


def test_kifu_same_with_no_move_before_is_not_read(camps):
    assert "「同」カードとして読めない語です" in refused(camps, "【行動】▲同 ▲弱")
    assert "「同じ」カードとして読めない語です" in refused(camps, "【行動】▲弱 ▲同じ")


def test_both_marks_before_the_moves_are_asked(camps):
    message = refused(camps, "【行動】▲弱 △強 ▲前進")
    assert "「△」と▲が両方、手の前にあります（△は相手の手の読みかもしれません）" in message
    # the 読み筋 line (a remark) may hold both: the order line has ▲ alone
    got, _notes = read_for_check(camps["ae"], "楓", "読み筋：△後退 ▲前進\n【行動】▲前進 ▲弱")
    assert got == "→弱"


@pytest.mark.parametrize("player, text, canonical, said_as", [
    ("楓", "【行動】じゃんぷ ← つよ", "↑←強", "「じゃんぷ ←」を「後ろジャンプ」（↑←）と読みました（ジャンプの後に←のカードなら「じゃんぷ｜←」"),
    ("美鈴", "【行動】ｼﾞｬﾝﾌﾟ ←　よわ", "↑←弱", "「ｼﾞｬﾝﾌﾟ ←」を「後ろジャンプ」（↑←）と読みました"),
    ("楓", "【行動】前進 ジャンプ →", "→↑→", "「ジャンプ →」を「前ジャンプ」（↑→）と読みました"),
])
def test_a_bare_arrow_after_the_jump_is_its_way_warned(camps, player, text, canonical, said_as):
    got, notes = read_for_check(camps["ae"], player, text)
    assert got == canonical
    assert any(said_as in n for n in warned(notes))


def test_an_arrow_after_the_jump_in_a_list_is_a_card_of_its_own(camps):
    # ジャンプ、←: the comma lists two moves — read apart, as before (warned with the joined reading)
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】ジャンプ、← 強")
    assert got == "↑|←強"
    assert any("後ろジャンプのつもりなら「↑←」" in n for n in said(notes))


@pytest.mark.parametrize("text, both", [
    ("【行動】こうたいジャンプ", "「こうたいジャンプ」は後ろジャンプ（↑←）とも、こうたいしてからジャンプ（←↑）とも読めます。"),
    ("【行動】前進ジャンプ 弱", "「前進ジャンプ」は前ジャンプ（↑→）とも、前進してからジャンプ（→↑）とも読めます。"),
])
def test_a_move_written_against_the_jump_is_refused_naming_both(camps, text, both):
    assert both in refused(camps, text)


def test_a_move_then_the_jump_said_as_verbs_is_read(camps):
    assert read_for_check(camps["ae"], "美鈴", "後退してジャンプします")[0] == "←↑"
    assert read_for_check(camps["ae"], "美鈴", "【行動】後退 ジャンプ")[0] == "←↑"


@pytest.mark.parametrize("text", ["【行動】つよ×", "【行動】前進 弱×", "【行動】弱×、強"])
def test_times_with_no_count_is_refused(camps, text):
    assert "「×」の後に回数がありません（何回出すのか分かりません）" in refused(camps, text)


def test_times_with_its_count_is_read(camps):
    assert read_for_check(camps["ae"], "美鈴", "【行動】つよ×2")[0] == "強強"


@pytest.mark.parametrize("text", ["【行動】投了します", "【行動】投了です笑", "【行動】弱 投了ｗ"])
def test_a_kanji_word_that_begins_with_an_order_kanji_is_one_word(camps, text):
    assert "「投了」は一つの語で、カードとして読めません（「投」と「了」には分けて読みません）" in refused(camps, text)


def test_the_one_kanji_order_word_alone_is_read(camps):
    assert read_for_check(camps["ae"], "美鈴", "【行動】前進 投")[0] == "→弱強"


def test_the_name_of_the_steps_is_passed_over_with_its_number(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "Step 1: back\nStep 2: light\nStep 3: light")
    assert got == "←弱弱"
    assert "1行目 1文字目：「Step 1」は注釈として読みませんでした。" in said(notes)
    # a word that differs from line to line is no name of the steps
    assert "「Move」カードとして読めない語です" in refused(camps, "Move 1: forward\nStep 2: forward")


def test_an_english_aside_in_brackets_after_the_plot_is_passed_over_warned(camps):
    got, notes = read_for_check(camps["ae"], "楓", "koudou: 4 (turtle up lol)")
    assert got == "←"
    assert any("「(turtle up lol)」は行動の後ろの注釈として読みませんでした（「up」は行動に入れていません）" in n for n in warned(notes))
    # a word near a word of the game (buckle: back?) may be a slip: refused, as before
    assert "もしかして「back」" in refused(camps, "[action] 4 4 (buckle up)", player="楓")


def test_a_number_counting_a_thing_in_talk_after_nothing(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "pass. lost 2 matches today, tired")
    assert got == ""
    assert any("「lost 2 matches today, tired」は行動の後ろの雑談として読みませんでした（「なし」の後です）（「2」は行動に入れていません）" in n
               for n in warned(notes))
    # cards after なし are still read, warned
    got, notes = read_for_check(camps["ae"], "美鈴", "pass. 6 6")
    assert got == "→→"
    assert any("「なし」は読まず" in n for n in warned(notes))


@pytest.mark.parametrize("text, canonical", [
    ("【行動】弱を三枚出します", "弱弱弱"),
    ("【行動】前進を2枚、ガード", "→→←"),
    ("【行動】ガード2枚", "←←"),
])
def test_mai_counts_the_cards_of_the_word(camps, text, canonical):
    assert read_for_check(camps["ae"], "楓", text)[0] == canonical


def test_mai_in_a_post_that_says_card_is_asked(camps):
    # カード is a near miss of ガード: which cards does 枚 count? — refused, as before 枚 was a count
    assert "「2」数だけでは何のカードか分かりません" in refused(camps, "【行動】後退のカード（左の矢印）を2枚出します。")


def test_which_card_of_the_plot_in_talk_under_it(camps):
    got, notes = read_for_check(camps["ae"], "楓", "【行動】ガード ガード\n二枚目で何か来なかったら下がるだけだと思います。")
    assert got == "←←"
    assert any("は行動の後の文として読みませんでした（「下がる」は上の行動のカードと同じです）" in n for n in warned(notes))


def test_a_face_ends_a_line_of_talk_under_the_plot(camps):
    got, notes = read_for_check(camps["ae"], "楓", "【行動】ジャンプ、強攻撃\n上から殴り倒す(｀・ω・´)")
    assert got == "↑強"
    assert any("は行動の後の文として読みませんでした（「上」「殴り」は上の行動のカードと同じです）" in n for n in warned(notes))
    # with no attack in the plot, the attack is still asked
    assert "どのカードのことか決まらない語です" in refused(camps, "【行動】ジャンプ\n上から殴り倒す(｀・ω・´)", player="楓")
