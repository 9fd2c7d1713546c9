"""Orders read the way a GM reads them, tenth pass (issue 19): corpus 17's rider misreads and
refusals. Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.turn.check import read_for_check


@pytest.mark.parametrize("camp, player, text, canonical", [
    # misreads of the first reading
    ("rd", "城戸", "行動：AV／近寄りは通す", "近寄るなら阻止しない / アドベント"),  # 通す: let through
    ("three", "城戸", "離:蓮／受:FVならRV、GV", "離れる: 蓮 / 受動: ファイナルベントならリフレクトベント / 受動: ガードベント"),
    ("rd", "城戸", "行動：遠へ／近寄るなら阻止しない／授動：リフレクトベンと、ガドベント",
     "遠へ / 近寄るなら阻止しない / 受動: リフレクトベント / 受動: ガードベント"),
    ("rd", "城戸", "【行動】\n今回は守りに徹します。刃さんのファイナルベントにはリフレクトベント、それ以外の攻撃にはガードベントを使います。\n"
     "回避は運動性で振ります。", "受動: ファイナルベントならリフレクトベント / 受動: 攻撃ならガードベント / 回避: 運動性"),
    ("three", "蓮", "【行動】ﾅｽﾃｨ ぞるだにちかよる だめならりゅうき\nふぁいなるきたらこんふぁいん",
     "近寄る: 北岡, 城戸 / ナスティベント / 受動: ファイナルベントならコンファインベント"),
    ("rd", "城戸", "【行動】\nソードベントを使います。攻撃されたら、ソードベントの受けで回避したいです。", "ソードベント / 受け"),
    # the one approached is whom to attack, and so is the next one approached if the first cannot be
    ("three", "城戸", "【行動】\n蓮さんに近づきます。蓮さんに近寄れないときは北岡さんに近寄ります。\nソードベントで斬りかかります。",
     "近寄る: 蓮, 北岡 / ソードベント / 攻撃: 蓮, 北岡"),
    # refusals of the first reading
    ("rd", "刃", "【行動】あとべんと ちかよるならそししない", "近寄るなら阻止しない / アドベント"),
    ("rd", "刃", "【行動】離／GV／避:運", "離れる / ガードベント / 回避: 運動性"),
    ("rd", "刃", "【行動】\n距離は今の近距離のままにします。\nストライクベントで攻撃します。\n攻撃が来たら、ガードベントで守ります。",
     "ストライクベント / 受動: 攻撃ならガードベント"),
    ("three", "北岡", "【行動】\nいちばん近くにいる人から離れます。\nシュートベントを使います。\n狙うのは蓮さんで、届かない場合は城戸さんにします。",
     "離れる: 最も近い相手 / シュートベント / 攻撃: 蓮, 城戸"),
    ("three", "城戸", "【行動】\nいちばん遠くにいる人に近づきます。\nストライクベントを使います。\n超回避は、ライダー本人の攻撃のときだけ1点使います。",
     "近寄る: 最も遠い相手 / ストライクベント / 超回避 1: 本体の攻撃だけ"),
    ("three", "北岡", "【行動】シュートベント／攻撃：蓮、城戸／超回避１：アドベンド以外",
     "シュートベント / 攻撃: 蓮, 城戸 / 超回避 1: 本体の攻撃と庇うときだけ"),
    ("three", "蓮", "【行動】\n北岡さんとの距離を中距離にします。\nナスティベントを使います。\nどなたかがファイナルベントを使ったら、コンファインベントで打ち消します。",
     "中へ: 北岡 / ナスティベント / 受動: ファイナルベントならコンファインベント"),
])
def test_corpus_17_rider(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


@pytest.mark.parametrize("text, canonical", [
    ("order: guard vent / kabau Kitaoka / choukaihi 1: cover only / hold", "ガードベント / 攻撃しない / 超回避 1: 庇うときだけ / 庇う 北岡"),
    ("【行動】ガードベント 庇う北岡 庇うときだけ超回避1", "ガードベント / 超回避 1: 庇うときだけ / 庇う 北岡"),
])
def test_the_scope_of_cover_in_romaji_and_before_the_number(camps, text, canonical):
    got, _notes = read_for_check(camps["three"], "蓮", text)
    assert got == canonical
