"""Orders read the way a GM reads them, third pass (issue 19): what a fifth corpus, written
without the code, found in the rider game — the battle's names written in kana where nothing
else is known (ないとにちかよる, ぞるだから), words written in kana by the reading of their kanji
(はなれる, いちばんちかいひと), a name that stands alone after a card as its target, evasion said
of being attacked (攻撃されたら受けで回避), the page's 隙狙い effect as its declaration, and
remarks in brackets that hold no order. Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.turn.check import read_for_check
from pbf.errors import OrderError


def read(camp, player, text):
    return read_for_check(camp, player, text)


def shown(notes):
    return " ".join(n.format() for n in notes)


@pytest.mark.parametrize("player, text, canonical", [
    ("城戸", "【行動】ないとにちかよる そーど こうげきないと", "近寄る: 蓮 / ソードベント / 攻撃: 蓮"),
    ("蓮", "【行動】ぞるだからはなれる\nなすてぃ\nこうげき:ぞるだ", "離れる: 北岡 / ナスティベント / 攻撃: 北岡"),
    ("北岡", "【行動】しゅーと すきねらい1 れん", "シュートベント / 攻撃: 蓮 / 隙狙い 1"),
    ("北岡", "【行動】ふぁいなる れん きど", "ファイナルベント / 攻撃: 蓮, 城戸"),
])
def test_a_name_in_kana_is_the_fighter_of_that_reading(camps, player, text, canonical):
    got, notes = read(camps["three"], player, text)
    assert got == canonical


def test_a_kana_name_is_never_taken_out_of_a_word():
    """ないと is ナイト only where the kana end or a particle follows: こうげきしないと is no name."""
    from pbf.systems.rider.data import load
    from pbf.systems.rider.rewrite import _NameSpellings

    names = _NameSpellings((("城戸", "ryuki"), ("蓮", "knight")), load())
    assert names("ナイト", 0) == 3
    assert names("ナイトニ", 0) == 3
    assert names("ナイトキ", 0) is None  # ないとき: "when not"
    assert names("レンゾク", 0) is None  # れんぞく: 連続
    assert names("ren", 0) == 3 and names("rend", 0) is None


@pytest.mark.parametrize("player, text, canonical", [
    ("北岡", "【行動】むーぶ いちばんちかいひとからはなれる", "離れる: 最も近い相手 / ムーブベント"),
    ("城戸", "【行動】いちばんとおいひとにちかよる\nあどべんと", "近寄る: 最も遠い相手 / アドベント"),
])
def test_a_word_written_in_kana_is_read_by_the_reading_of_its_kanji(camps, player, text, canonical):
    got, notes = read(camps["three"], player, text)
    assert got == canonical
    assert "を「離れる」と読みました" in shown(notes) or "を「近寄る」と読みました" in shown(notes)


@pytest.mark.parametrize("camp, player, text, canonical", [
    ("three", "北岡", "【行動】シュート 隙1 蓮", "シュートベント / 攻撃: 蓮 / 隙狙い 1"),
    ("three", "北岡", "【行動】ﾌｧｲﾅﾙ 北岡>城戸".replace("北岡>", "蓮>"), "ファイナルベント / 攻撃: 蓮, 城戸"),
    ("three", "蓮", "【行動】ﾌｧｲﾅﾙ 北岡>城戸", "ファイナルベント / 攻撃: 北岡, 城戸"),
    ("three", "北岡", "【行動】シュート ナイト", "シュートベント / 攻撃: 蓮"),
])
def test_a_name_alone_after_a_card_is_its_target_with_a_note(camps, camp, player, text, canonical):
    got, notes = read(camps[camp], player, text)
    assert got == canonical
    assert "を攻撃の対象と読みました" in shown(notes)


@pytest.mark.parametrize("player, text, canonical", [
    ("城戸", "【行動】近寄る 蓮 / SV", "近寄る: 蓮 / ソードベント"),  # right after a move: whom to move against
    ("北岡", "【行動】ムーブ 遠(vsナイト)", "遠へ: 蓮 / ムーブベント"),
    ("北岡", "【行動】ムーブ\u3000遠へ(蓮)", "遠へ: 蓮 / ムーブベント"),
    ("北岡", "【行動】ムーブベントを使って、蓮さんから遠くへ逃げます。", "遠へ: 蓮 / ムーブベント"),  # said of the move
])
def test_a_name_said_of_a_move_is_not_taken_for_the_attack(camps, player, text, canonical):
    got, _notes = read(camps["three"], player, text)
    assert got == canonical


def test_a_name_after_a_colon_of_no_target_is_still_refused(camps):
    with pytest.raises(OrderError):
        read(camps["three"], "城戸", "留まる: 蓮")


@pytest.mark.parametrize("text, canonical", [
    ("【行動】\nその場に留まります。\nソードベントを使って、攻撃されたら受けで回避します。", "ソードベント / 受け"),
    ("【行動】\n前に出て、アドベントでドラグレッダーに攻撃させます。\n攻撃されたら、HPを2点使って超回避します。",
     "近寄る / アドベント / 超回避 2"),
    ("【行動】\n今回は動かずに、アドベントでドラグレッダーに攻撃してもらいます。攻撃されたらガードベントを使います。",
     "アドベント / 受動: 攻撃ならガードベント"),
    ("【行動】\n近距離まで移動して、ストライクベントを使います。隙狙いで防御力を1点無視したいです。",
     "近へ / ストライクベント / 隙狙い 1"),
    ("【行動】close in w/ Sword Vent, parry", "近寄る / ソードベント / 受け"),
])
def test_newcomers_sentences(camps, text, canonical):
    got, _notes = read(camps["rd"], "城戸", text)
    assert got == canonical


@pytest.mark.parametrize("text, canonical, remark", [
    ("【行動】近へ！\u3000ストライクベント！\u3000（全力）", "近へ / ストライクベント", "（全力）"),
    ("【行動】：離れる／阻止しない（逃げの一手）", "離れる / 阻止しない", "（逃げの一手）"),
])
def test_a_remark_in_brackets_that_holds_no_order_is_passed_over(camps, text, canonical, remark):
    got, notes = read(camps["rd"], "城戸", text)
    assert got == canonical
    assert f"「{remark}」は注釈として読みませんでした" in shown(notes)


def test_a_bracket_that_qualifies_the_order_is_still_read(camps):
    got, _notes = read(camps["rd"], "城戸", "【行動】サバ　阻止なし(寄りのみ)")
    assert got == "近寄るなら阻止しない / サバイブ"


# -- Alter EGO --------------------------------------------------------------------------------------

@pytest.mark.parametrize("player, text, canonical, note", [
    ("美鈴", "【行動】6 6 H (dash heavy)", "→→強", "注釈として読みませんでした"),  # a gloss of the plot (dash names no number of steps)
    ("美鈴", "【行動】弱攻撃のあとに強攻撃をしたいので、弱攻撃｜強攻撃 でお願いします。", "弱|強", "行動の説明として読みませんでした"),
    ("美鈴", "【行動】move forward twice then energy cannon", "→→↑→弱", None),
    ("楓", "【行動】walk forward twice and throw", "→→弱強", None),
    ("美鈴", "【行動】Saikou Renge Shou", "→←強", "「彩光蓮華掌」と読みました"),  # romaji in three words
    ("楓", "【行動】Zenshin/Zenshin/Oboro-zuki", "→→←→強", "「朧月」と読みました"),
    ("美鈴", "【行動】ジャンプはせずに、前進して投げます。", "→弱強", "出さない動きとして読みました"),
    ("楓", "【行動】朧月をお願いします。ゲージが足りないかもしれませんが…", "←→強", "雑談として読みませんでした"),
])
def test_alter_ego_posts_read_as_a_gm_reads_them(camps, player, text, canonical, note):
    got, notes = read(camps["ae"], player, text)
    assert got == canonical
    if note:
        assert note in shown(notes)


def test_cards_in_brackets_that_differ_from_the_plot_are_warned_of(camps):
    got, notes = read(camps["ae"], "美鈴", "エナキャン撃ちたい！\n【行動】エナジーキャノン（↑→強）")
    assert got == "↑→弱"
    (warning,) = [n for n in notes if n.severity == "warning"]
    assert "↑→強" in warning.message


@pytest.mark.parametrize("text", [
    "【行動】ジャンプはしない",  # only what is not done
    "【行動】必殺技を出します",  # which one? chat with no plot is no empty plot
    "【行動】お任せします",
])
def test_a_post_with_no_card_left_is_refused_not_read_as_an_empty_plot(camps, text):
    with pytest.raises(OrderError):
        read(camps["ae"], "美鈴", text)


@pytest.mark.parametrize("text, canonical", [
    ("【行動】ジャンプして弱攻撃をお願いします", "↑|弱"),  # して: one move, then the next
    ("【行動】jump してから jaku", "↑|弱"),
    ("light then heavy", "弱|強"),  # a word of sequence between card words too
    ("light, heavy", "弱強"),  # cards laid out: the rules' 投げ
])
def test_a_word_of_sequence_between_two_moves_keeps_them_apart(camps, text, canonical):
    got, notes = read(camps["ae"], "美鈴", text)
    assert got == canonical
    if "|" in canonical:
        assert [n for n in notes if n.severity == "warning"]


def test_the_after_of_a_sequence_is_no_backward_card(camps):
    assert read(camps["ae"], "楓", "【行動】前進1回の後、旋風脚です。")[0] == "→→↑弱"  # の後 is "after", not 後ろ


@pytest.mark.parametrize("camp, player, text, canonical", [
    ("three", "城戸", "【行動】kabau Ren, guard vent", "ガードベント / 庇う 蓮"),  # 庇う takes one name
    ("three", "城戸", "【行動】蓮さんが狙われたら庇いたいので、ガードベントを使って蓮さんを庇います。", "ガードベント / 庇う 蓮"),
    ("rd", "刃", "【行動】近寄ってくる相手は止めません。トリックベントを使います。", "近寄るなら阻止しない / トリックベント"),
    ("rd", "刃", "おつかれさまです。\n【行動】近寄る、ソードベント、受け（ソードで受けます）", "近寄る / ソードベント / 受け"),
    ("rd", "刃", "【行動】ﾁｶﾖﾙ\u3000strike\u3000隙１ｗ", "近寄る / ストライクベント / 隙狙い 1"),
    ("rd", "刃", "【行動】naka e / advent", "中へ / アドベント"),
    ("three", "北岡", "【行動】シュートベント、攻撃は城戸君を先に、次に蓮君", "シュートベント / 攻撃: 城戸, 蓮"),
])
def test_rider_posts_read_as_a_gm_reads_them(camps, camp, player, text, canonical):
    assert read(camps[camp], player, text)[0] == canonical


def test_one_card_written_twice_is_read_once_with_a_warning(camps):
    got, notes = read(camps["rd"], "城戸", "【行動】ちかよる／ふぁいなるべんと／ふぁいなるべんと")
    assert got == "近寄る / ファイナルベント"
    assert any("同じカード" in n.message and n.severity == "warning" for n in notes)


@pytest.mark.parametrize("text, canonical", [
    ("【行動】交替交替", "←←"),  # one IME conversion of two words: 後退 後退
    ("【行動】全身全身弱", "→→弱"),
    ("お疲れ様です。\n【行動】↑←\nいったん様子見ｗ", "↑←"),  # "wait and see" said of the plot above
])
def test_more_alter_ego_slips_and_chat(camps, text, canonical):
    assert read(camps["ae"], "美鈴", text)[0] == canonical


@pytest.mark.parametrize("player, text, canonical", [
    ("楓", "【行動】相手の投げが怖いので、ジャンプでよけます。", "↑"),  # the opponent's move is theirs, not a card
    ("楓", "【行動】対空技を出します。相手のジャンプを狙っています。", "↑弱"),
    ("美鈴", "【行動】エナジーキャノンを撃ってから、念のため後ろにジャンプして離れます。", "↑→弱↑←"),  # 離れます says how
    ("美鈴", "【行動】後ろジャンプしてガードします", "↑←←"),  # ガード is a move of its own
    ("美鈴", "【行動】ジャンプで前に跳んでから、さらに前進します。", "↑→→"),
])
def test_alter_ego_sentences_about_the_plot(camps, player, text, canonical):
    assert read(camps["ae"], player, text)[0] == canonical


def test_a_condition_on_the_opponents_move_is_still_warned_or_refused(camps):
    try:
        _got, notes = read(camps["ae"], "美鈴", "【行動】相手がジャンプしてきたら対空を出したいです。")
    except OrderError:
        return
    assert [n for n in notes if n.severity == "warning"]


@pytest.mark.parametrize("text, canonical", [
    ("【行動】EC弱", "↑→弱弱"),  # a technique of her own by its English initials
    ("【行動】えねるぎーきゃのん", "↑→弱"),
    ("【行動】ー＞ー＞弱", "→→弱"),  # ー＞ from a phone keyboard is ->
    ("【行動】6️⃣6️⃣弱", "→→弱"),  # keycap digits are numpad digits
    ("【行動】前進、前進、投げ\n以上", "→→弱強"),
])
def test_alter_ego_shorthand_from_phones_and_boards(camps, text, canonical):
    assert read(camps["ae"], "美鈴", text)[0] == canonical


def test_initials_are_only_for_a_characters_own_techniques(camps):
    try:  # ja is no initials of jump ahead: じゃｋ is a half-typed じゃく, never 前ジャンプ
        got = read(camps["ae"], "美鈴", "前進 じゃｋ")[0]
    except OrderError:
        return
    assert got != "→↑→"


@pytest.mark.parametrize("player, text, canonical", [
    ("蓮", "【行動】ナスティベントを北岡さんに使います。", "ナスティベント / 攻撃: 北岡"),  # the card used on a name
    ("北岡", "【行動】シュートベントを蓮に撃つ", "シュートベント / 攻撃: 蓮"),
    ("城戸", "【行動】北岡さんに近寄る", "近寄る: 北岡"),  # に before a move: whom to move against
])
def test_a_card_used_on_a_name_is_its_target(camps, player, text, canonical):
    assert read(camps["three"], player, text)[0] == canonical
