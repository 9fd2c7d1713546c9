"""Alter EGO orders read the way a GM reads them, nineteenth pass, from a held-out corpus (a board of translators
with 注: footnotes and glosses; parents posting one-handed at night, interrupted posts, voice input): a romaji
phrase hyphenated (mae-janpu); a remark's してから between a plot's lines is no word of the order; a post said to
be sent mid-way, a card said to be wrong with no correction, another plot left open (もしくは), warned; one more
card added at the end (add one more light at the end), read and warned; a line that goes on with the order
(つきに, a dropped dakuten) read or refused, never dropped; a line that changes the plot (…にします) refused;
今日 first before a move asked (強 or today); a footnote (注：) or a question under the plot passed over, warned;
an IME's 参会 for 三回 and voice input's まる, noted. Each case goes through the reading ``pbf check`` makes; the
texts are variants, not the corpus's entries."""

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


@pytest.mark.parametrize("player, text, canonical", [
    ("楓", "order: mae-janpu, jaku", "↑→弱"),
    ("美鈴", "koudou: ushiro-janpu", "↑←"),
    ("楓", "koudou: kyou-kougeki", "強"),
])
def test_a_hyphenated_romaji_phrase_is_the_phrase(camps, player, text, canonical):
    got, _notes = read_for_check(camps["ae"], player, text)
    assert got == canonical


def test_a_remarks_then_between_the_lines_does_not_part_the_cards(camps):
    # the してから is the parent's (after swapping who holds the baby), not a word between the moves
    got, _notes = read_for_check(camps["ae"], "楓", "【行動】6\n（寝かしつけてから続き書きます）\n続き 8弱")
    assert got == "→↑弱"


@pytest.mark.parametrize("player, text, canonical, what", [
    ("美鈴", "【行動】44H\n途中で送っちゃった", "←←強", "は投稿が途中か、別の投稿の続きだと言っています"),
    ("楓", "【行動】うしろ よわ\nねこがきた　つつきあとで", "←弱", "は投稿が途中か、別の投稿の続きだと言っています"),
    ("楓", ">>7 の続きです！\n↑弱 で！", "↑弱", "は投稿が途中か、別の投稿の続きだと言っています"),
    ("楓", "【行動】弱攻撃　前進\n（すみません、二枚目が違いました）", "弱→", "はカードが違うと言っていますが、正しいカードが書かれていません"),
    ("美鈴", "【行動】↑↑（もしくは↑一枚）強", "↑↑強", "は別の行動も選べると言っています"),
])
def test_a_plot_said_to_be_open_is_warned(camps, player, text, canonical, what):
    got, notes = read_for_check(camps["ae"], player, text)
    assert got == canonical
    assert any(what in n for n in warned(notes))


def test_a_post_said_to_be_all_there_is_not_warned_as_open(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】↑← 弱\n途中送信かと思ったけどこれで全部です笑")
    assert got == "↑←弱"
    assert not any("投稿が途中" in n for n in said(notes))


def test_one_more_card_at_the_end_is_added_warned(camps):
    got, notes = read_for_check(camps["ae"], "楓", "order: forward, light\n\n(edit) sent too early, add one more heavy at the end")
    assert got == "→弱強"
    assert any("を、最後に「heavy」（強）を足すと読みました" in n for n in warned(notes))
    # with no place said, the card is not added: warned
    got, notes = read_for_check(camps["ae"], "楓", "order: forward, light\nadd one more heavy")
    assert got == "→弱"
    assert any("はカードを足すと言っていますが、行動には入れていません" in n for n in warned(notes))


def test_a_line_that_goes_on_with_the_order_is_read_or_refused(camps):
    got, notes = read_for_check(camps["ae"], "楓", "【行動】まえ\nつきに よわ")
    assert got == "→弱"
    assert any("を行動の続きとして読みました（弱）" in n for n in warned(notes))
    message = refused(camps, "【行動】うしろ\nつぎに ねます", "楓")
    assert "は行動の続きのようですが、カードとして読めませんでした" in message


def test_a_line_that_changes_the_plot_is_refused(camps):
    message = refused(camps, "【行動】ガードします。\nあ、投げにはガードが負けるんですね。では、ジャンプにします。")
    assert "は行動を変えると言っているようです" in message


@pytest.mark.parametrize("text", ["【行動】今日ジャンプ", "【行動】今日 前進 弱"])
def test_today_first_before_a_move_is_asked(camps, text):
    assert "は「強」（強攻撃のカード）とも「今日」とも読めます" in refused(camps, text, "楓")


@pytest.mark.parametrize("player, text, canonical, what", [
    ("美鈴", "【行動】↑→弱\n注：エナジーキャノン。前J（↑→）からの弱ではない。", "↑→弱", "は行動の下の注釈として読みませんでした"),
    ("楓", "【行動】→↑弱\n※注: 旋風脚（せんぷうきゃく）。ゲージは関係なし。", "→↑弱", "は行動の下の注釈として読みませんでした"),
    ("楓", "【行動】強攻撃をお願いします。\n前に出ないと当たらないでしょうか？", "強", "は行動の下の質問として読みませんでした"),
])
def test_a_footnote_or_a_question_under_the_plot_is_passed_over_warned(camps, player, text, canonical, what):
    got, notes = read_for_check(camps["ae"], player, text)
    assert got == canonical
    assert any(what in n for n in warned(notes))


def test_a_footnote_that_changes_the_plot_is_not_passed_over(camps):
    # not passed over as a footnote: the earlier passes' correction reads it, warned
    got, notes = read_for_check(camps["ae"], "楓", "【行動】←\n注：やっぱり強に変更します")
    assert got == "強"
    assert any("書き直しとして読まず" in n for n in warned(notes))


def test_an_imes_count_and_voice_inputs_full_stop_are_noted(camps):
    got, notes = read_for_check(camps["ae"], "楓", "【行動】強攻撃参会")
    assert got == "強強強"
    assert any("「参会」を「三回」と読みました" in n for n in said(notes))
    got, notes = read_for_check(camps["ae"], "楓", "【行動】後退 ジャンプ まる")
    assert got == "←↑"
    assert any("「まる」を音声入力の句点（。）として読みませんでした" in n for n in said(notes))


def test_a_move_said_to_be_coming_is_the_opponents(camps):
    # 投げが来そう: the opponent's move coming, no card of this plot (it had been read as 弱強)
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】ジャンプします。投げが来そうなので…")
    assert got == "↑"
    assert any("「投げが来そうなので…」は雑談として読みませんでした" in n for n in said(notes))
