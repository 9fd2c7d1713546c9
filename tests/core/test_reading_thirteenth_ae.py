"""Alter EGO orders read the way a GM reads them, thirteenth pass (issue 19), from a held-out corpus
(a board's veterans with signatures and sage, P： for the plot, numpad with a remark after it,
newcomers who name a technique and list its cards, phone input): a rule line begins the signature;
sage alone on a line is the mail field's; P： and 【P】 are the marker; words that talk after a plot in
notation and only say again its cards are its remark; a bare direction a space before jump is that
jump; に before 回 after a direction is asked; talk after なし; a technique named beside the words
that make it is one move; a card said not put in; a face said in kana with its bracket left open;
EC（９弱） is no cancel. Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


def said(notes):
    return [n.format() for n in notes]


@pytest.mark.parametrize("player, text, canonical", [
    ("美鈴", "【行動】６６強\n――――――――――\n　格ゲー歴１５年の古参◆Abc/123\n　対戦よろしく\n――――――――――", "→→強"),
    ("楓", "【行動】前進２回、ガード\n\n━━━━━━\n新参です（３０代）\n━━━━━━", "→→←"),
    ("美鈴", "order: L L H\n--\nKlaus from Wien / JIS nai", "弱弱強"),
    ("楓", "６６Ｌ\nsage", "→→弱"),
])
def test_a_signature_under_a_rule_line_and_sage_are_no_order(camps, player, text, canonical):
    got, notes = read_for_check(camps["ae"], player, text)
    assert got == canonical
    assert any("署名" in n or "sage" in n for n in said(notes))


def test_a_rule_line_before_anything_is_read_as_before(camps):
    with pytest.raises(OrderError):  # nothing above the line: no signature, the line is no card
        read_for_check(camps["ae"], "美鈴", "【行動】\n――――――――\n弱弱")


@pytest.mark.parametrize("text, canonical", [
    ("P: 44H", "←←強"),
    ("Ｐ：７\u3000Ｌ", "↑←弱"),
    ("【P】9LL", "↑→弱弱"),
])
def test_p_is_the_plot_marker(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical
    assert any("【行動】として読みました" in n for n in said(notes))


@pytest.mark.parametrize("player, text, canonical", [
    ("楓", "【行動】7 下がる", "↑←"),  # 下がる: the ← of 7
    ("美鈴", "【行動】9L 飛び込む", "↑→弱"),
    ("美鈴", "【行動】４４Ｌ\n下がって刻むぜ", "←←弱"),
    ("楓", "【行動】6 6H\n寄って強", "→→強"),
])
def test_talk_after_a_plot_in_notation_that_only_restates_it(camps, player, text, canonical):
    """7 逃げ was read ↑←← and 66弱\\n詰めるぜ〜 →→弱→: misreads, without a warning."""
    got, notes = read_for_check(camps["ae"], player, text)
    assert got == canonical
    assert any("前の記号のプロットの説明" in n for n in warned(notes))


@pytest.mark.parametrize("text, canonical", [
    ("【行動】↑→弱 じゃく", "↑→弱弱"),  # a card's own word: more cards, as before
    ("【行動】66\n前進", "→→→"),  # a move's name, no talk: as before
    ("【行動】6L\n投げます", "→弱弱強"),  # 投げ adds 強: as before
])
def test_words_after_notation_that_add_a_card_are_read_as_cards(camps, text, canonical):
    got, _notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical


@pytest.mark.parametrize("text, canonical", [
    ("【行動】うしろ　じゃんぷ", "↑←"),
    ("【行動】前 ジャンプ", "↑→"),
])
def test_a_bare_direction_a_space_before_jump_is_that_jump_warned(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical
    assert any("ジャンプなら" in n for n in warned(notes))
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】後退 ジャンプ")  # a move's own word: two cards
    assert got == "←↑"


def test_ni_before_kai_after_a_direction_is_asked(camps):
    with pytest.raises(OrderError):  # うしろに回: the に of うしろに, or 2?
        read_for_check(camps["ae"], "美鈴", "【行動】うしろに回　つよ")
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】前進に回 弱")  # after a move's name: 2回, as before
    assert got == "→→弱"


@pytest.mark.parametrize("text", [
    "【行動】なし　仕事で眠い",
    "【行動】なし。まったり観戦",
    "koudou: nashi. kyou wa mimamori desu",
])
def test_talk_after_nothing(camps, text):
    got, _notes = read_for_check(camps["ae"], "楓", text)
    assert got == ""


def test_a_card_after_nothing_is_warned(camps):
    got, notes = read_for_check(camps["ae"], "楓", "【行動】なし　弱")
    assert got == "弱"
    assert any("「なし」は読まず" in n for n in warned(notes))


@pytest.mark.parametrize("player, text, canonical", [
    ("楓", "【行動】前進、ジャンプ、弱攻撃の順番で旋風脚を撃ちます。", "→↑弱"),
    ("楓", "【行動】朧月にします。ガード、前進、強攻撃の順で。", "←→強"),
])
def test_a_technique_named_beside_the_words_that_make_it_is_one_move(camps, player, text, canonical):
    got, notes = read_for_check(camps["ae"], player, text)
    assert got == canonical
    assert any("技の名前として読みました" in n for n in said(notes))


def test_a_card_said_not_put_in(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】前進、前進。強攻撃は出しません。")
    assert got == "→→"
    assert any("入れないカード" in n for n in said(notes))
    with pytest.raises(OrderError):  # a card the plot holds said not put in: asked, as before
        read_for_check(camps["ae"], "美鈴", "【行動】弱弱。弱は出しません")


@pytest.mark.parametrize("player, text, canonical", [
    ("美鈴", "【行動】ＥＣ（９Ｌ）\u3000強", "↑→弱強"),  # EC's c and a bracket: no cancel
    ("楓", "【行動】→→←\nこれでFA", "→→←"),  # ← at a line's end points at nothing on the next line
    ("楓", "【行動】ガード\n待ちの作戦（ﾄﾞﾔｯ", "←"),
    ("美鈴", "【行動】４\u3000５Ｌ", "←弱"),  # 5 is neutral: 4 is a numpad key
    ("楓", "【行動】旋風脚ぶっぱ", "→↑弱"),
    ("美鈴", "【行動】44 #様子見", "←←"),
])
def test_more_of_a_boards_habits(camps, player, text, canonical):
    got, _notes = read_for_check(camps["ae"], player, text)
    assert got == canonical


def test_a_step_then_waiting_is_warned(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】下がって様子見")
    assert got == "←"
    assert any("ガード（←）のつもりかもしれません" in n for n in warned(notes))


@pytest.mark.parametrize("player, text, said_", [
    ("美鈴", "【行動】弱弱 強は出さない", "強は出さない"),  # a negation is never dropped: it had read 弱弱強
    ("楓", "強は出さない", "強は出さない"),
    ("美鈴", "こう ぜんしん", "こう"),  # こう is no 後J (↑←): it had read ↑←→ with a note only
])
def test_a_card_said_not_played_or_a_shorthand_by_its_reading_is_refused(camps, player, text, said_):
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["ae"], player, text)
    assert said_ in str(caught.value)


@pytest.mark.parametrize("text, canonical", [
    ("今回は何も出しません", ""),  # nothing played, said with 出す
    ("【行動】後J 弱", "↑←弱"),  # the shorthand as written
])
def test_nothing_and_a_shorthand_as_written_are_read(camps, text, canonical):
    got, _notes = read_for_check(camps["ae"], "美鈴", text)
    assert got == canonical
