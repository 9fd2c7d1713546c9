"""Orders read the way a GM reads them, fifteenth pass (issue 19): corpus 22's rider misreads and
refusals (a regional board's dialects, a high-school board). Each case goes through the reading
``pbf check`` makes; the phrases are variants of the corpus's, not its entries."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


@pytest.mark.parametrize("camp, player, text, canonical", [
    # misreads: a list's second name after その次に, 移動はなし (はなし had been 離れる), Hakata's ken (had been 剣)
    ("three", "北岡", "【行動】\nファイナルベントを使います。狙いは蓮さん、その次に城戸さんです。", "ファイナルベント / 攻撃: 蓮, 城戸"),
    ("rd", "城戸", "【行動】ストライクベント、移動はなしで", "ストライクベント"),
    ("rd", "刃", "【行動】アドベント、移動もなし", "アドベント"),
    ("rd", "刃", "koudou: todomaru ken / kougeki shinai", "攻撃しない"),
    ("three", "蓮", "【行動】\n狙う順番は北岡さん、城戸さんです。\nソードベントで攻撃します。", "ソードベント / 攻撃: 北岡, 城戸"),
    ("three", "北岡", "【行動】シュートベントで撃ちます。狙いは、城戸さん、蓮さんです。", "シュートベント / 攻撃: 城戸, 蓮"),  # a comma after the label
    # dialect endings and intensifiers, after a verb or as the sentence's end
    ("rd", "城戸", "【行動】SV なまら斬るべ", "ソードベント"),
    ("rd", "城戸", "【行動】\n近づいて、ストライクベントで攻撃するっぺ。", "近寄る / ストライクベント"),
    ("rd", "刃", "【行動】すとらいく とどまる こうげきされたらがーどべんと じゃけぇ", "ストライクベント / 受動: 攻撃ならガードベント"),
    ("rd", "刃", "【行動】留まる／トリックベント／攻撃されたらガードベント使うさー", "トリックベント / 受動: 攻撃ならガードベント"),
    ("rd", "城戸", "[action] Guard Vent de iku ken / allow if away", "離れるなら阻止しない / ガードベント"),
    # a romaji line of talk under the order
    ("rd", "刃", "koudou: advent / stay\nkyou wa machi no taisen ken", "アドベント"),
    ("three", "蓮", "order: stay / Guard Vent / cover Kido\nKido-san wa ore ga mamoru ken", "ガードベント / 庇う 城戸"),
    # the block label with its move and when, 超 with its threshold in brackets, イベファ
    ("rd", "刃", "【行動】中へ/阻:寄り時×/能:GV", "中へ / 近寄るなら阻止しない / ガードベント"),
    ("rd", "城戸", "【行動】阻:離×/能:SV", "離れるなら阻止しない / ソードベント"),
    ("rd", "城戸", "【行動】能:GV/避:防/超2(4↑)", "ガードベント / 回避: 防御力 / 超回避 2: 達成値4以上なら"),
    ("rd", "刃", "【行動】FV\nイベファ:夜の帳、一閃", "ファイナルベント / イベントファイナル: 夜の帳、一閃"),
    # a move's fighters in brackets, whatever the writing of the move
    ("three", "北岡", "【行動】\n移:近(城戸,蓮)\n能:SH\n攻:城戸,蓮", "近寄る: 城戸, 蓮 / シュートベント / 攻撃: 城戸, 蓮"),
    ("three", "城戸", "koudou: hanareru (Ren, Kitaoka) / guard vent", "離れる: 蓮, 北岡 / ガードベント"),
    ("three", "城戸", "【行動】ちかよる(れん、きたおか) すとらいく", "近寄る: 蓮, 北岡 / ストライクベント"),
    ("three", "蓮", "koudou: to mid (Kido) / Sword Vent / target Kido", "中へ: 城戸 / ソードベント / 攻撃: 城戸"),
    # a phone's word with its particle's kana, the page's threshold in romaji, a passive said with 備える
    ("three", "蓮", "【行動】きどにちかよる そーと きどこうげき", "近寄る: 城戸 / ソードベント / 攻撃: 城戸"),
    ("rd", "城戸", "koudou: strike vent / chou kaihi 1: tasseichi 6 ijou nara", "ストライクベント / 超回避 1: 達成値6以上なら"),
    ("rd", "城戸", "【行動】\nソードベントを使います。\n相手の攻撃にはガードベントで備えます。", "ソードベント / 受動: 攻撃ならガードベント"),
    ("three", "蓮", "【行動】\n城戸さんがアドベントを使ったときのために、コンファインベントを構えておきます。",
     "受動: アドベントならコンファインベント"),
    # a reason from the stats, the scope said with ライダー本体, 超回避 said with its HP
    ("three", "北岡", "【行動】\nゾルダは防御力が高いので、ガードベントで耐えます。超回避はHP2点で、ライダー本体の攻撃のときだけにします。",
     "ガードベント / 超回避 2: 本体の攻撃だけ"),
    # lines under the order: an anchor before a remark, a request to whoever it is said to
    ("rd", "城戸", "【行動】ガードベント / 受動: ファイナルベントならリフレクトベント\n>>35 刃さんのFV来たら泣くｗ", "ガードベント / 受動: ファイナルベントならリフレクトベント"),
    ("three", "北岡", "【行動】ムーブベント／城戸くんに近寄る／攻撃：城戸くん\n逃げないでよ？ｗ", "近寄る: 城戸 / ムーブベント / 攻撃: 城戸"),
])
def test_corpus_22_rider(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


@pytest.mark.parametrize("camp, player, text, note", [
    ("three", "城戸", "【行動】ちかよる(れん、きたおか) すとらいく", "「ちかよる」を「近寄る」と読みました"),
    ("three", "北岡", "【行動】\n移:近(城戸,蓮)\n能:SH", "「近」を「近寄る」（その相手に向かって）と読みました"),
    ("three", "北岡", "【行動】\nゾルダは防御力が高いので、ガードベントで耐えます。", "は理由の説明として読みませんでした"),
    ("three", "蓮", "【行動】きどにちかよる そーと きどこうげき", "「そーと」を「ソードベント」と読みました"),
    ("rd", "城戸", "【行動】ガードベント / 受動: ファイナルベントならリフレクトベント\n>>35 刃さんのFV来たら泣くｗ", "行動ではない話"),
])
def test_what_was_read_is_said(camps, camp, player, text, note):
    _got, notes = read_for_check(camps[camp], player, text)
    assert any(note in p.format() for p in notes), [p.format() for p in notes]


@pytest.mark.parametrize("camp, player, text, canonical", [
    # けん is a sword where a sword is said: after の, before で (a child's words)
    ("rd", "城戸", "【行動】留まる / ストライクベント\n（つよいほうのけん）", "ストライクベント"),
    # 超回避's scope in brackets is a scope, not a threshold
    ("rd", "城戸", "【行動】GV/超1(本体のみ)", "ガードベント / 超回避 1: 本体の攻撃だけ"),
    # 移動はなし says no move; はなれる is still a move
    ("rd", "城戸", "【行動】はなれる そーどべんと", "離れる / ソードベント"),
])
def test_what_stays_as_it_was(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


@pytest.mark.parametrize("camp, player, text, said", [
    ("rd", "城戸", "【行動】けんでたたかう", "けん"),  # still refused: a child's sentence (a sword, said so)
    ("three", "蓮", "【行動】北岡さんに近づく / ソードベント\nバイザーで斬るべ", "バイザー"),  # a card reader, no card
])
def test_still_refused(camps, camp, player, text, said):
    with pytest.raises(OrderError) as caught:
        read_for_check(camps[camp], player, text)
    assert said in str(caught.value)


@pytest.mark.parametrize("text, name, column", [
    ("【行動】ちかよる(れん、きたおか) すとらいく", "きたおか", 13),
    ("【行動】chikayoru (Ren, Kitaoka)", "Kitaoka", 21),
    ("【行動】近寄る(蓮,北岡)", "北岡", 11),
])
def test_a_name_in_the_bracket_is_said_where_it_is(camps, text, name, column):
    """A problem with one of a move's names in brackets gives that name's own column (it had been the move's)."""
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["three"], "北岡", text)
    assert f"1行目 {column}文字目：「{name}」" in str(caught.value)


@pytest.mark.parametrize("camp, player, text, canonical", [
    # corpus 23 (a なりきり board, a board of working adults): a line of roleplay under the order
    ("rd", "城戸", "【行動】SV／受:GV(攻)\n「いくぜ！」＊ドラグセイバーを構える＊", "ソードベント / 受動: 攻撃ならガードベント"),
    ("rd", "刃", "koudou: advent / allow\n*Blade Wolf ga hoeru* \"Ike!\"", "阻止しない / アドベント"),
    ("three", "蓮", "order: sword vent / target Kido\n\"Kido... omae no ken wa osoi.\"", "ソードベント / 攻撃: 城戸"),
    # allow ends in w, which is no laugh: the line is the order's
    ("rd", "城戸", "order:\nstay\nallow\nStrike Vent", "阻止しない / ストライクベント"),
    # an IME's 内 for ない, the verbs of a roll and of a way of doing, a priority said
    ("rd", "刃", "【行動】留まる／トリックベント／攻撃し内", "トリックベント / 攻撃しない"),
    ("rd", "城戸", "【行動】\nガードベントを使います。\n回避は防御力で行います。", "ガードベント / 回避: 防御力"),
    ("rd", "城戸", "【行動】ストライクベント。回避は運動性で振りたいです。", "ストライクベント / 回避: 運動性"),
    ("rd", "刃", "【行動】\nストライクベントを使います。\n私自身も、攻撃力を2点マイナスして隙狙いをいたします。", "ストライクベント / 隙狙い 1"),
    ("rd", "刃", "【行動】とりっく そしし ない", "阻止しない / トリックベント"),
])
def test_corpus_23_rider(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


def test_an_imes_not_is_said(camps):
    _got, notes = read_for_check(camps["rd"], "刃", "【行動】留まる／トリックベント／攻撃し内")
    assert any("「攻撃し内」を「攻撃しない」と読みました" in p.format() for p in notes)


def test_a_move_told_as_a_deed_is_asked(camps):
    """A narration that tells of a move no move word says (じりじりと間合いを測る) in an order that orders no
    move had been passed over with a warning, the move lost: the post is refused, naming it. (後ろへ跳んで
    間合いを外す, corpus 23's, is a move away since corpus 24: test_reading_seventeenth.py.)"""
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["rd"], "城戸", "（SVを抜いて、じりじりと間合いを測る）\n受:GV")
    assert "「じりじりと間合いを測る」は移動のようにも読めますが" in str(caught.value)


def test_the_event_finals_text_may_tell_a_move(camps):
    got, _notes = read_for_check(camps["rd"], "城戸", "【行動】\nファイナルベントを使います。\nイベントファイナル: 炎をまとい、跳び蹴りを叩き込む")
    assert got == "ファイナルベント / イベントファイナル: 炎をまとい、跳び蹴りを叩き込む"
