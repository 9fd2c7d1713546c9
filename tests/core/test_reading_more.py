"""Orders read the way a GM reads them, second pass (issue 19): what a third corpus, written
without the code, found — names by their reading, IME slips by any reading of their kanji, card
names cut short, the sentence around an order passed over with a warning, a post that takes back
what it wrote, English targets, and the guesses that must be said (a move without its opponent
among three riders). Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations


import pytest

from pbf.turn.check import read_for_check
from pbf.errors import OrderError
from pbf.reader import kana


def read(camp, player, text):
    return read_for_check(camp, player, text)


def warnings(notes):
    return [n for n in notes if n.severity == "warning"]


def shown(notes):
    return " ".join(n.format() for n in notes)


# -- readings ---------------------------------------------------------------------------------------

def test_a_kanji_has_every_reading_its_dictionary_gives():
    assert {"レン", "ハス"} <= kana.readings("蓮")
    assert "キド" in kana.readings("城戸")
    assert kana.readings("レン") == frozenset({"レン"})


@pytest.mark.parametrize("player, text, canonical, name", [
    ("北岡", "【行動】ｼｭｰﾄ  攻撃:ﾚﾝ,ｷﾄﾞ", "シュートベント / 攻撃: 蓮, 城戸", "蓮"),  # by the reading, in kana
    ("北岡", "【行動】シュートベント／攻撃：連、城戸", "シュートベント / 攻撃: 蓮, 城戸", "蓮"),  # another kanji, same reading
    ("城戸", "guard vent, cover Ren", "ガードベント / 庇う 蓮", "蓮"),  # romaji
])
def test_a_name_written_by_its_reading_is_that_fighter_with_a_note(camps, player, text, canonical, name):
    got, notes = read(camps["three"], player, text)
    assert got == canonical
    assert f"「{name}（" in shown(notes)


@pytest.mark.parametrize("game, player, text, canonical, meant", [
    ("ae", "美鈴", "【行動】最高蓮華掌", "→←強", "彩光蓮華掌"),  # 最高 and 彩光 are both サイコウ
    ("ae", "美鈴", "【行動】全身 全身 弱", "→→弱", "前進"),
    ("rd", "城戸", "【行動】柔道：ファイナルベントならリフレクトベント", "受動: ファイナルベントならリフレクトベント", "受動"),
    ("rd", "刃", "【行動】ストライクベント／超回避２：達成地5以上なら", "ストライクベント / 超回避 2: 達成値5以上なら", None),
])
def test_an_ime_slip_is_read_by_the_reading_of_the_part_that_differs(camps, game, player, text, canonical, meant):
    got, notes = read(camps[game], player, text)
    assert got == canonical
    if meant:
        assert f"「{meant}" in shown(notes)


def test_a_word_and_a_name_written_against_it_are_no_slip_of_the_word(camps):
    # 狙い+蓮 is the attack label and a name, not a slip of the label (the name was lost)
    assert read(camps["three"], "北岡", "【行動】FV 狙い蓮・城戸")[0] == "ファイナルベント / 攻撃: 蓮, 城戸"


@pytest.mark.parametrize("text, canonical", [
    ("kōgeki: Kitaoka", "攻撃: 北岡"),  # a macron is the vowel twice
    ("torikku bento de chikayoru", "近寄る / トリックベント"),  # one name written in two, romaji particles
])
def test_romaji_as_players_type_it(camps, text, canonical):
    camp = camps["three"] if "Kitaoka" in text else camps["rd"]
    player = "城戸" if "Kitaoka" in text else "刃"
    assert read(camp, player, text)[0] == canonical


def test_an_ime_caught_mid_word_is_read_by_its_sound(camps):
    assert read(camps["ae"], "美鈴", "【行動】ｊゃく ｊゃく")[0] == "弱弱"


# -- card names cut short, the sentence around the order --------------------------------------------

@pytest.mark.parametrize("player, text, canonical", [
    ("城戸", "【行動】サバ", "サバイブ"),
    ("蓮", "【行動】ナス / 対象北岡 / 受動:FVならコンファ", "ナスティベント / 受動: ファイナルベントならコンファインベント / 攻撃: 北岡"),
    ("城戸", "【行動】近寄る　　ストライク　ベント", "近寄る / ストライクベント"),
])
def test_card_names_cut_short(camps, player, text, canonical):
    camp = camps["rd"] if text.endswith(("サバ", "ベント")) else camps["three"]
    got = read(camp, player, text)[0]
    assert sorted(got.split(" / ")) == sorted(canonical.split(" / "))


def test_move_alone_is_no_move_vent(camps):
    with pytest.raises(OrderError):
        read(camps["three"], "北岡", "move")  # a movement word, never ムーブベント by a guess


@pytest.mark.parametrize("game, player, text, canonical, passed", [
    ("ae", "美鈴", "【行動】真上にジャンプして、相手を見下ろします", "↑", "相手を見下ろ"),
    ("ae", "楓", "【行動】弱攻撃を出したら、すぐに後ろへ下がります。", "弱←", None),
])
def test_the_sentence_around_the_order_is_passed_over_with_a_warning(camps, game, player, text, canonical, passed):
    got, notes = read(camps[game], player, text)
    assert got == canonical
    if passed is None:
        return
    assert any(passed in (n.text or "") for n in warnings(notes))


@pytest.mark.parametrize("text", ["【行動】強攻撃のためがあるので、今回はなしです。", "【行動】全身　全身　若"])
def test_a_word_of_the_game_or_a_lone_kanji_is_never_passed_over(camps, text):
    try:
        got, _notes = read(camps["ae"], "美鈴", text)
    except OrderError:
        return
    assert got not in ("強", "→→")  # the charge is no flourish; 若 is no verb phrase


def test_a_condition_is_never_passed_over(camps):
    got, _ = read(camps["three"], "蓮", "【行動】：コンファインベントはファイナルベントが来たときだけ使います")
    assert got == "受動: ファイナルベントならコンファインベント"


@pytest.mark.parametrize("game, player, text, canonical", [
    ("ae", "楓", "【行動】旋風脚…いや、やっぱり朧月で", "←→強"),
    ("ae", "楓", "【行動】おぼろづき、じゃなくてせんぷうきゃく", "→↑弱"),
    ("ae", "美鈴", "【行動】ジャンプするかガードするか迷う…ガードで！", "←"),
])
def test_what_a_post_takes_back_is_not_read_and_is_said(camps, game, player, text, canonical):
    got, notes = read(camps[game], player, text)
    assert got == canonical
    assert any("書き直し" in n.message for n in warnings(notes))


@pytest.mark.parametrize("text", ["【行動】→弱強 よろしくです^^", "【行動】→→　投げ🙏"])
def test_a_face_or_an_emoji_after_the_order_is_no_card(camps, text):
    got, _ = read(camps["ae"], "美鈴", text)
    assert got in ("→弱強", "→→弱強")


def test_an_emoji_that_may_be_a_card_is_asked_about(camps):
    with pytest.raises(OrderError):
        read(camps["ae"], "美鈴", "➡️➡️👊")


@pytest.mark.parametrize("text, canonical", [
    ("【行動】弱攻撃を2回出してから、後ろに下がります。", "弱弱←"),
    ("【行動】前進２回 ｼﾞｬﾝﾌﾟ", "→→↑"),
    ("【行動】2マス前進", "→→"),
])
def test_a_count_goes_with_the_word_it_is_written_against(camps, text, canonical):
    assert read(camps["ae"], "美鈴", text)[0] == canonical


def test_today_is_no_heavy_attack(camps):
    assert read(camps["ae"], "美鈴", "【行動】きょうはまえにでてなげます")[0] == "→弱強"


# -- rider sentences ------------------------------------------------------------------------------

@pytest.mark.parametrize("player, text, canonical", [
    ("城戸", "【行動】移動：遠　受動：攻撃→GV", "遠へ / 受動: 攻撃ならガードベント"),
    ("城戸", "【行動】SV/受動:攻撃ならGV/超回避2(5↑)", "ソードベント / 受動: 攻撃ならガードベント / 超回避 2: 達成値5以上なら"),
    ("城戸", "super evasion 3 only if they roll 6 or more", "超回避 3: 達成値6以上なら"),
    ("城戸", "passive: reflect vent if they final vent", "受動: ファイナルベントならリフレクトベント"),
    ("城戸", "【行動】ﾘﾌﾚｸﾄﾍﾞﾝﾄ（ﾌｧｲﾅﾙﾍﾞﾝﾄが来たら）", "受動: ファイナルベントならリフレクトベント"),
    ("刃", "【行動】FV\u3000EF:狼の牙で終わらせる", "ファイナルベント / イベントファイナル: 狼の牙で終わらせる"),
    ("城戸", "【行動】今回は攻撃をしないで、様子を見ます。", "攻撃しない"),
    ("刃", "【行動】ADV→近寄", "近寄る / アドベント"),
    ("刃", "move to mid, no block if he closes", "中へ / 近寄るなら阻止しない"),
])
def test_rider_orders_as_players_write_them(camps, player, text, canonical):
    got = read(camps["rd"], player, text)[0]
    assert sorted(got.split(" / ")) == sorted(canonical.split(" / "))


@pytest.mark.parametrize("player, text, canonical", [
    ("蓮", "move closer to Zolda, sword vent, target Zolda then Ryuki", "近寄る: 北岡 / ソードベント / 攻撃: 北岡, 城戸"),
    ("蓮", "close in on Kitaoka, nasty vent on him", "近寄る: 北岡 / ナスティベント / 攻撃: 北岡"),
    ("蓮", "approach the farthest, sword vent", "近寄る: 最も遠い相手 / ソードベント"),
    ("北岡", "【行動】FV / 対象：蓮→城戸", "ファイナルベント / 攻撃: 蓮, 城戸"),
    ("城戸", "【行動】ゾルダに近寄る ストライクベント 攻撃ゾルダ", "近寄る: 北岡 / ストライクベント / 攻撃: 北岡"),
])
def test_whom_an_order_names_among_three(camps, player, text, canonical):
    got = read(camps["three"], player, text)[0]
    assert sorted(got.split(" / ")) == sorted(canonical.split(" / "))


@pytest.mark.parametrize("text, read_as, whom", [
    ("【行動】寄 / SV", "近寄る / ソードベント", "いちばん近い相手に近寄る"),
    ("【行動】近寄る／ＳＶ／攻撃：北岡", "近寄る / ソードベント / 攻撃: 北岡", "攻撃の対象「北岡」に近寄る"),
    ("【行動】ソードベント", "ソードベント", "近い相手から順に攻撃する"),
])
def test_a_move_or_an_attack_without_its_opponent_among_three_is_read_by_the_rule_and_warned(camps, text, read_as, whom):
    got, notes = read(camps["three"], "城戸", text)
    assert got == read_as
    assert any("相手が書かれていない" in n.message and whom in n.message for n in warnings(notes))


def test_a_move_without_its_opponent_in_a_duel_says_nothing(camps):
    _got, notes = read(camps["rd"], "城戸", "近寄る / ソードベント")
    assert not warnings(notes)


@pytest.mark.parametrize("text, read_as", [("【行動】エナジーキャノン→弱攻撃", "↑→弱→弱"), ("【行動】前ジャンプ→強", "↑→→強")])
def test_a_lone_arrow_against_a_technique_s_name_is_read_as_a_card_and_warned(camps, text, read_as):
    got, notes = read(camps["ae"], "美鈴", text)
    assert got == read_as
    assert any("前進（→）のカードとして読みました" in n.message for n in warnings(notes))


def test_a_run_of_arrows_is_cards_without_a_warning(camps):
    got, notes = read(camps["ae"], "美鈴", "弱→→弱強")
    assert got == "弱→→弱強" and not warnings(notes)


@pytest.mark.parametrize("player, text, canonical", [
    ("蓮", "【行動】ゾルダさんから離れたいです。攻撃は城戸さんを優先して、いなければ北岡さんを狙います。",
     "離れる: 北岡 / 攻撃: 城戸, 北岡"),
    ("城戸", "【行動】ナイトさんに近づいて、ソードベントで攻撃します。狙うのもナイトさんでお願いします。",
     "近寄る: 蓮 / ソードベント / 攻撃: 蓮"),
    ("蓮", "【行動】城戸さんが狙われたら、ソードベントで庇ってあげたいです。", "ソードベント / 庇う 城戸"),
])
def test_a_newcomer_s_sentences_name_whom(camps, player, text, canonical):
    got = read(camps["three"], player, text)[0]
    assert sorted(got.split(" / ")) == sorted(canonical.split(" / "))


def test_a_card_said_passive_and_then_when_is_one_passive_rule(camps):
    got, notes = read(camps["rd"], "刃", "【行動】ソードベントを能動で、ガードベントを受動で使います。攻撃されそうなときにガードベントです。")
    assert sorted(got.split(" / ")) == ["ソードベント", "受動: 攻撃ならガードベント"]
    assert any("後で書かれた条件" in n.message for n in notes)
