"""Orders read the way a GM reads them (issue 19, docs/reading.md): the five misreads of the
player run, the misleading hints, and each ruling of "never a wrong guess", through ``pbf check``
as a player runs it."""

from __future__ import annotations

import json

import pytest

from pbf.turn.check import check_order, read_for_check
from pbf.errors import OrderError


def read(camp, player, text):
    return read_for_check(camp, player, text)


def refused(camp, player, text):
    with pytest.raises(OrderError) as info:
        read(camp, player, text)
    return info.value.problems


# -- the five misreads of the player run ----------------------------------------------------------

@pytest.mark.parametrize("text", ["back jump, guard", "backjump guard"])
def test_back_jump_then_guard_is_not_three_cards_of_arrows(camps, text):
    canonical, _notes = read(camps["ae"], "美鈴", text)
    assert canonical == "↑←←"  # 後ろジャンプ (↑←), then ガード (←); not ←↑←


def test_mae_janpu_kyou_is_a_forward_jump_then_heavy(camps):
    assert read(camps["ae"], "美鈴", "mae janpu kyou")[0] == "↑→強"  # not →↑強


def test_a_list_under_the_passive_label_is_passive_cards(camps):
    canonical, _ = read(camps["rd"], "城戸", "受動：リフレクトベント、ガードベント")
    assert canonical == "受動: リフレクトベント / 受動: ガードベント"  # no 能動 ガードベント


@pytest.mark.parametrize("text, read_as, joined, other", [
    ("弱攻撃 強攻撃", "弱|強", "投げ（弱強）", "弱強"),
    ("ジャンプ 弱", "↑|弱", "対空技（↑弱）", "↑弱"),
    ("ジャンプしてから前進し、投げをお願いします。", "↑|→弱強", "前ジャンプ（↑→）", "↑→"),  # as few ｜ as keep each move
])
def test_moves_named_apart_that_would_join_are_read_apart_with_a_warning(camps, text, read_as, joined, other):
    """The misreads of the issue: two moves the player named are the moves named, not the
    technique their cards would make; the warning says what that technique is and how to write it."""
    canonical, notes = read(camps["ae"], "美鈴", text)
    assert canonical == read_as
    (warning,) = [n for n in notes if n.severity == "warning"]
    assert joined in warning.message and f"「{other}」" in warning.hint
    assert not [n for n in read(camps["ae"], "美鈴", other)[1] if n.severity == "warning"]


@pytest.mark.parametrize("text, canonical, hint", [
    ("ジャンプ←強", "↑←強", "ジャンプ｜←"),  # written against each other: the cards' technique, as the rules give
    ("前J弱", "↑→弱", "前J｜弱"),
])
def test_words_written_against_each_other_join_as_the_rules_give_with_a_warning(camps, text, canonical, hint):
    got, notes = read(camps["ae"], "美鈴", text)
    assert got == canonical
    (warning,) = [n for n in notes if n.severity == "warning"]
    assert "になります" in warning.message and hint in warning.hint


def test_cards_written_apart_join_as_the_rules_give(camps):
    assert read(camps["ae"], "美鈴", "弱 強")[0] == "弱強"  # symbols are cards: 投げ
    assert read(camps["ae"], "美鈴", "9弱弱") == ("↑→弱弱", read(camps["ae"], "美鈴", "9弱弱")[1])
    assert not [n for n in read(camps["ae"], "美鈴", "9弱弱")[1] if n.severity == "warning"]  # 9 is a numpad card


def test_the_split_keeps_two_techniques_apart_in_the_reading(camps):
    out = check_order(camps["ae"], "美鈴", "弱攻撃｜強攻撃")
    assert "１．弱攻撃（弱）" in out and "２．強攻撃（強）" in out and "投げ" not in out.split("書き方")[0]


@pytest.mark.parametrize("text", ["ソードベントは使わない", "ジャンプはしない"])
def test_a_negation_is_never_dropped(camps, text):
    camp, player = (camps["rd"], "城戸") if "ベント" in text else (camps["ae"], "美鈴")
    assert refused(camp, player, text)


def test_negations_the_game_has_are_read(camps):
    assert read(camps["rd"], "城戸", "阻止はしません")[0] == "阻止しない"
    assert read(camps["rd"], "城戸", "攻撃なし")[0] == "攻撃しない"


# -- guesses without a word -------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["↑→弱>弱", "弱<強"])
def test_an_angle_bracket_after_an_attack_is_asked_about(camps, text):
    (problem,) = refused(camps["ae"], "美鈴", text)
    assert "次に" in problem.message and "→" in problem.hint


@pytest.mark.parametrize("text", ["【行動】前回と同じで", "いい感じに動きます", "。", "！？"])
def test_a_post_with_no_order_word_is_never_an_empty_order(camps, text):
    camp, player = (camps["rd"], "城戸") if "動き" in text else (camps["ae"], "美鈴")
    assert refused(camp, player, text)


def test_an_empty_text_is_still_the_empty_plot(camps):
    assert read(camps["ae"], "美鈴", "")[0] == "" and read(camps["ae"], "美鈴", "なし")[0] == ""


def test_a_number_alone_is_refused(camps):
    assert refused(camps["rd"], "城戸", "2点で")
    assert refused(camps["ae"], "美鈴", "3")


@pytest.mark.parametrize("text", ["殴る", "攻撃します"])
def test_an_attack_that_names_no_card_is_asked_about(camps, text):
    (problem,) = refused(camps["ae"], "美鈴", text)
    assert "弱攻撃" in problem.hint and "強攻撃" in problem.hint


# -- near misses: read when they can mean one thing, with a note -------------------------------------

@pytest.mark.parametrize("player, text, canonical, word", [
    ("美鈴", "採光蓮華掌", "→←強", "彩光蓮華掌"),
    ("美鈴", "シャンプ強", "↑強", "ジャンプ"),
    ("美鈴", "ガート", "←", "ガード"),
    ("楓", "扇風脚でお願いします", "→↑弱", "旋風脚"),
    ("楓", "おぼろずき", "←→強", "朧月"),
])
def test_alterego_near_misses_are_read_with_a_note(camps, player, text, canonical, word):
    read_as, notes = read(camps["ae"], player, text)
    assert read_as == canonical
    assert any(word in n.message for n in notes), notes


@pytest.mark.parametrize("text, canonical", [
    ("ソードベンド", "ソードベント"),
    ("ガドベント", "ガードベント"),
    ("近ずく", "近寄る"),
    ("阻止しなし", "阻止しない"),
])
def test_rider_near_misses_are_read_with_a_note(camps, text, canonical):
    read_as, notes = read(camps["rd"], "城戸", text)
    assert read_as == canonical and notes


def test_a_correction_never_becomes_the_opposite(camps):
    # ちかよる must never become 離れる/遠ざかる; 阻止する never 阻止しない
    assert read(camps["rd"], "城戸", "ちかよる")[0] == "近寄る"
    assert read(camps["rd"], "城戸", "とおざかる")[0] == "離れる"
    assert read(camps["rd"], "城戸", "阻止する")[0] == ""


def test_names_written_loosely_are_the_one_fighter_they_are_close_to(camps):
    canonical, notes = read(camps["three"], "城戸", "ゾルタに近寄る / ストライク")
    assert canonical == "近寄る: 北岡 / ストライクベント" and any("北岡" in n.message for n in notes)
    assert read(camps["three"], "城戸", "攻撃：ナイトさん / ソードベント")[0] == "ソードベント / 攻撃: 蓮"
    assert refused(camps["three"], "城戸", "攻撃：名無し4号 / ソードベント")


# -- sentences, labels, the post around the order -----------------------------------------------------

@pytest.mark.parametrize("text, canonical", [
    ("近づいてソードベントで斬りかかります", "近寄る / ソードベント"),
    ("移動：近\n能動：ソード\n受動：ガード", "近へ / ソードベント / 受動: ガードベント"),
    ("攻撃されたらガードベントを使います", "受動: 攻撃ならガードベント"),
    ("FVならRV", "受動: ファイナルベントならリフレクトベント"),
    ("ＨＰ１点消費、回避達成値＋１点", "超回避 1"),
    ("攻撃力を2点マイナスして隙狙い", "隙狙い 1"),
])
def test_rider_sentences_and_labels(camps, text, canonical):
    assert read(camps["rd"], "城戸", text)[0] == canonical


@pytest.mark.parametrize("text, canonical", [
    ("ガードします。", "←"),
    ("【行動】なしで", ""),
    ("旋風脚でお願いします", "→↑弱"),
    ("弱→→弱強（投げ狙いです）", "弱→→弱強"),
    ("↑→弱弱 ←これでどうだ", "↑→弱弱"),
    ("【行動】↑→弱弱\nよろしく", "↑→弱弱"),
    (">>12\n【行動】弱弱", "弱弱"),
    ("⬆️➡️弱", "↑→弱"),
    ("弱×3", "弱弱弱"),
    ("→x2", "→→"),
    ("2マス前進", "→→"),
    ("66弱", "→→弱"),
    ("前J 強", "↑→強"),
])
def test_alterego_posts_as_players_write_them(camps, text, canonical):
    player = "楓" if "旋風" in text else "美鈴"
    assert read(camps["ae"], player, text)[0] == canonical


def test_chat_after_the_order_is_named_in_a_note(camps):
    _canonical, notes = read(camps["ae"], "美鈴", "【行動】↑→弱弱\nよろしく")
    (note,) = notes
    assert (note.line, note.text) == (2, "よろしく") and "雑談" in note.message


# -- the misleading hints -----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["エネルギーキャノン", "旋風キック", "下がる", "前に出る", "行動：←強"])
def test_no_chat_hint_for_an_order_without_chat(camps, text):
    try:
        read(camps["ae"], "美鈴", text)
    except OrderError as exc:
        assert all("雑談" not in (p.hint or "") for p in exc.problems), [p.format() for p in exc.problems]


def test_the_reading_that_got_furthest_says_what_is_wrong(camps):
    """ストライクベントで攻撃、回避は防御力 reads (the GM's reading); what is wrong is that 防御力
    evasion needs a ガードベント — said at once, not 「は防御力」 as an unknown word first."""
    (problem,) = refused(camps["rd"], "城戸", "ストライクベントで攻撃、回避は防御力")
    assert "ガードベント" in problem.message and "知らない語" not in problem.message


def test_check_json_carries_the_notes(camps, pbf):
    code, out, _err = pbf("check", camps["ae"].path, "--player", "美鈴", "採光蓮華掌", "--json")
    data = json.loads(out)
    assert code == 0 and data["canonical"] == "→←強"
    (note,) = data["notes"]
    assert note["text"] == "採光蓮華掌" and "彩光蓮華掌" in note["message"] and note["severity"] is None


def test_the_turn_keeps_what_its_reading_passed_over(tmp_path, pbf):
    """turn.yaml (public) keeps each order's notes: a correction is part of the history."""
    camp = tmp_path / "ae"
    assert pbf("new", camp, "--system", "alterego", "--player", "美鈴=meiling", "--player", "楓=kaede",
               "--set", "hands=free", "--seed", "s")[0] == 0
    orders = tmp_path / "o.txt"
    orders.write_text("[美鈴] 採光蓮華掌\nよろしく\n[楓] なし\n", encoding="utf-8")
    code, _out, err = pbf("turn", camp, "--orders", orders)
    assert code == 0, err
    turn = (camp / "history" / "0001" / "turn.yaml").read_text("utf-8")
    assert "「採光蓮華掌」を「彩光蓮華掌」と読みました" in turn and "「よろしく」は雑談として読みませんでした" in turn
    assert pbf("replay", camp)[0] == 0


@pytest.mark.parametrize("player, text, canonical, remark", [
    ("美鈴", "【行動】弱→→弱強\n投げまで届くといいな", "弱→→弱強", "投げまで届くといいな"),
    ("美鈴", "→→弱強 ←投げ", "→→弱強", "←投げ"),
    ("美鈴", "6弱強 (前進投げ)", "→弱強", "(前進投げ)"),
    ("楓", "←→強 ←朧月いきます", "←→強", "←朧月いきます"),
])
def test_a_remark_that_restates_the_plot_is_read_past_when_the_plot_would_not_fit(camps, player, text, canonical, remark):
    """Read as cards, the remark makes the plot longer than a turn allows: the one reading that can
    be played is the plot before it, with a note (docs/reading.md)."""
    read_as, notes = read(camps["ae"], player, text)
    assert read_as == canonical
    assert any(n.text == remark and "説明" in n.message for n in notes), notes


def test_more_cards_than_a_turn_allows_is_still_refused(camps):
    (problem,) = refused(camps["ae"], "美鈴", "弱弱弱弱弱弱")
    assert "5枚まで" in problem.message
    got, notes = read(camps["ae"], "楓", "→↑弱（旋風脚）弱")  # the bracket names the cards before it: a gloss
    assert got == "→↑弱弱" and any("説明" in n.message for n in notes)


def test_two_cards_with_or_are_asked_about(camps):
    (problem,) = refused(camps["rd"], "城戸", "攻撃されたらソードベントかガードベントで！")
    assert "どちらのカード" in problem.message


def test_aim_without_an_attack_is_refused(camps):
    (problem,) = refused(camps["rd"], "城戸", "ソードベント / 攻撃しない / 隙狙い 1")
    assert "攻撃しない" in problem.message and "隙狙い" in problem.message
