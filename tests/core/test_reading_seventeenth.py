"""Orders read the way a GM reads them, seventeenth pass (issue 19): corpus 24 (a thread bridged
from X, a ニコニコ-comment board, a thread bridged from a LINE group, パソコン通信-era veterans).
Each case goes through the reading ``pbf check`` makes; the phrases are variants of the corpus's,
not its entries."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


@pytest.mark.parametrize("camp, player, text, canonical, note", [
    # what a post bridged from X carries: hashtags, mentions, links — passed over, each said
    ("ae", "楓", "【行動】→→弱強 #オルタリゴ #PBF", "→→弱強", "「#オルタリゴ」はハッシュタグとして読みませんでした"),
    ("ae", "美鈴", "order: jump, light #alterego", "↑弱", "「#alterego」はハッシュタグとして読みませんでした"),
    ("ae", "美鈴", "【行動】←←弱 https://t.co/AbC123xyz", "←←弱", "「https://t.co/AbC123xyz」はリンクとして読みませんでした"),
    ("rd", "城戸", "【行動】近寄る / SV #ライダーバトル @kido_pbf", "近寄る / ソードベント", "「@kido_pbf」は宛先（@）として読みませんでした"),
    # a quote-post's line above the order is chat; the arrow before a hashtag is a card, not a pointer
    ("ae", "美鈴", "QT @GM_kamome 第1ターン受付開始\n【行動】↑弱 ← #オルタリゴ", "↑弱←", "「#オルタリゴ」はハッシュタグ"),
])
def test_a_bridged_posts_tags_are_passed_over(camps, camp, player, text, canonical, note):
    got, notes = read_for_check(camps[camp], player, text)
    assert got == canonical
    assert any(note in p.format() for p in notes), [p.format() for p in notes]


@pytest.mark.parametrize("camp, player, text, canonical", [
    # ＃ as a bullet before a label (an old terminal's list) is no hashtag: the label is read
    ("rd", "城戸", "【行動】＃受動：GV ＃能動：SV", "ソードベント / 受動: ガードベント"),
    ("rd", "城戸", "＃移動　接近\n＃能動　ソードベント", "近寄る / ソードベント"),
])
def test_a_bullet_is_no_hashtag(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


def test_a_retweet_is_not_the_players_order(camps):
    """RT @name: passes on another's post: its 【行動】 is theirs, not this player's (refused, said why)."""
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["ae"], "美鈴", "RT @kaede_pbf: 【行動】→→弱強")
    assert "他の人の投稿の引用（リツイート）" in str(caught.value)


@pytest.mark.parametrize("text, canonical", [
    # a jump back is a move away (the rider game has no jump): read, as the move it is
    ("【行動】後ろへ跳んで間合いを取る / SV", "離れる / ソードベント"),
    ("（SVを構え、後ろへ跳んで間合いを取る）\n受:GV", "離れる / ソードベント / 受動: ガードベント"),
    ("【行動】バックステップ、ガードベント", "離れる / ガードベント"),
    ("【行動】飛び退いてストライクベント", "離れる / ストライクベント"),
])
def test_a_jump_back_is_a_move_away(camps, text, canonical):
    got, _notes = read_for_check(camps["rd"], "城戸", text)
    assert got == canonical


@pytest.mark.parametrize("text, said", [
    # a verb's て-form before a move is no one to move from (it had been 「移動の相手「跳ん」はこの戦闘にいません」)
    ("【行動】跳んで間合いを取る", "1行目 5文字目：「跳ん"),
    # the order language lost its place at 受 of 受:GV: the GM's reading names the word it could not read
    ("SVを構え、踊って間合いを取る\n受:GV", "1行目 7文字目：「踊っ」"),
])
def test_the_word_not_read_is_the_one_named(camps, text, said):
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["rd"], "城戸", text)
    assert said in str(caught.value)
    assert "移動の相手" not in str(caught.value)


@pytest.mark.parametrize("camp, player, text, canonical, note", [
    # a signature under the order: a rule with the name on its line (mail's "-- "), a letter's closing
    ("rd", "城戸", "【行動】\nソードベント\n受動：攻撃ならガードベント\n――森", "ソードベント / 受動: 攻撃ならガードベント",
     "「――森」（区切り線）から後ろは署名として読みませんでした"),
    ("rd", "刃", "koudou: sword vent / aim 1\n-- M. Okochi (ex-NIFTY PXB01234)", "ソードベント / 隙狙い 1", "（区切り線）から後ろは署名"),
    ("rd", "城戸", "Dear all,\n[action]\nmove away\nGuard Vent\nRegards, Makoto", "離れる / ガードベント",
     "「Regards, Makoto」（手紙の結び）から後ろは署名として読みませんでした"),
    ("ae", "美鈴", "【行動】→→弱強\nKeigu.", "→→弱強", "（手紙の結び）"),
    ("ae", "楓", "【行動】←→強\n-- kaede", "←→強", "（区切り線）"),
])
def test_a_signature_is_cut_off(camps, camp, player, text, canonical, note):
    got, notes = read_for_check(camps[camp], player, text)
    assert got == canonical
    assert any(note in p.format() for p in notes), [p.format() for p in notes]


def test_a_rule_line_before_the_order_is_no_signature(camps):
    """Only what is under a rule with something above it is a signature: a rule that opens the post is decoration."""
    got, _notes = read_for_check(camps["rd"], "城戸", "――――\n【行動】近寄る / ソードベント")
    assert got == "近寄る / ソードベント"
