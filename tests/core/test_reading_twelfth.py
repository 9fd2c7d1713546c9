"""Orders read the way a GM reads them, twelfth pass (issue 19): corpus 19's rider misreads and
refusals. Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


@pytest.mark.parametrize("camp, player, text, canonical", [
    # misreads of the first reading
    ("rd", "刃", "【行動】AV・隙1・超避1(本体のみ)", "アドベント / 隙狙い 1 / 超回避 1: 本体の攻撃だけ"),  # the scope was passed over
    ("rd", "刃", "【行動】\nこのまま近距離にいます。\nアドベントを使って、ブレードウルフにも攻撃してもらいます。\nよろしくお願いします。",
     "アドベント"),  # was 近へ
    ("three", "北岡", "【行動】\n１．能動：ムーブベント\n２．移動：離れる（対象：城戸、蓮の順）\n３．受動：FVならGV",
     "離れる: 城戸, 蓮 / ムーブベント / 受動: ファイナルベントならガードベント"),  # the list was read as the attack's
    # TRPG declarations: the numbers of the steps at the lines' starts
    ("rd", "刃", "【行動】\n宣言１：移動\u3000遠ざかる。阻止は不要\n宣言２：能動カード\u3000なし\n宣言３：ＨＰ１点消費、回避達成値＋１点",
     "離れる / 阻止しない / 超回避 1"),
    ("rd", "城戸", "【行動】\n一、移動せず\n二、ソードベント\n三、受け\n四、受動：FVならRV",
     "ソードベント / 受動: ファイナルベントならリフレクトベント / 受け"),
    ("rd", "刃", "【行動】\n1 移動 中\n2 能動 トリック\n3 受動 攻撃ならSV\n4 攻撃力を2点マイナスして隙狙い。防御力を1点無視します",
     "中へ / トリックベント / 受動: 攻撃ならソードベント / 隙狙い 1"),
    ("rd", "刃", "【行動】\n宣言一\u3000移動：遠へ\n宣言二\u3000能動カード：なし\n宣言三\u3000攻撃しない\n宣言四\u3000ＨＰ２点消費、回避達成値＋２点",
     "遠へ / 攻撃しない / 超回避 2"),
    ("rd", "刃", "【行動】\n一．留まる\n二．アドベント\n三．受動：攻撃ならガードベント\n四．回避：運動性",
     "アドベント / 受動: 攻撃ならガードベント / 回避: 運動性"),
    ("three", "蓮", "【行動】\n宣言：最も遠い相手に近寄る\n宣言：ソードベント\n宣言：城戸を庇う\n宣言：受け",
     "近寄る: 最も遠い相手 / ソードベント / 受け / 庇う 城戸"),
    # newcomers' sentences
    ("three", "城戸", "【行動】\n一番遠い人に近づきます。\nストライクベントを使います。\nリフレクトベントは、ファイナルベントを使われたときだけ使います。",
     "近寄る: 最も遠い相手 / ストライクベント / 受動: ファイナルベントならリフレクトベント"),
    ("three", "北岡", "【行動】\nファイナルベントを使います。狙う順番は、ナイトさん、龍騎さんです。\n動きません。",
     "ファイナルベント / 攻撃: 蓮, 城戸"),
    ("three", "蓮", "【行動】\n北岡さんに近寄ります。北岡さんに近寄れなければ城戸さんに近寄ります。\nソードベントを使います。\n受動カードは使いません。",
     "近寄る: 北岡, 城戸 / ソードベント"),
    ("rd", "城戸", "【行動】\n留まります。\nカードは今回は使いません。\n攻撃されたら、HPを1点使って超回避します。アドベントの攻撃には使いません。",
     "超回避 1: 本体の攻撃と庇うときだけ"),
    # romaji labels, a phone's spaces, net slang
    ("rd", "刃", "koudou: tomaru\nnoudou: advent\njudou: kougeki nara guard vent\nkaihi: undousei",
     "アドベント / 受動: 攻撃ならガードベント / 回避: 運動性"),
    ("rd", "城戸", "はなれる そし しない かーとべんと", "離れる / 阻止しない / ガードベント"),
    ("rd", "刃", "【行動】はなれる じゃましない ﾄﾘｯｸ", "離れる / 阻止しない / トリックベント"),
    ("rd", "城戸", ">>40 ｗｗｗ\nサバイブｋｔｋｒ\n【行動】サバイブ / FVならRVでおｋ", "サバイブ / 受動: ファイナルベントならリフレクトベント"),
    # an IME's 超会費 and 口撃 (the readings of 超回避 and 攻撃)
    ("three", "蓮", "【行動】トリックベンド／木戸から放れる／超会費１：本体の口撃だけ", "離れる: 城戸 / トリックベント / 超回避 1: 本体の攻撃だけ"),
])
def test_corpus_19_rider(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


def test_a_lone_number_at_one_line_start_is_no_step(camps):
    """A step's number is passed over only in a list (two lines or more start with one): a number
    alone at a line's start is still named, never passed over."""
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["rd"], "刃", "【行動】ソードベント\n隙狙い\n1")
    assert "数だけでは何の数か分かりません" in str(caught.value)


@pytest.mark.parametrize("camp, player, text, canonical", [
    ("three", "蓮", "【行動】\n北岡さんに近寄ります。北岡さんは運動性が2なので、阻止されても勝てると思いました。\nソードベントを使います。\n"
     "北岡さんを攻撃します。届かなければ城戸さんを攻撃します。", "近寄る: 北岡 / ソードベント / 攻撃: 北岡, 城戸"),
    ("rd", "刃", "【行動】\n刃襲は攻撃力が4あるので、隙狙いを使っても大丈夫だと考えました（1点無視するごとにダイスが2個減るので、2個残ります）。\n"
     "ソードベントを使って、隙狙い 1で攻撃します。移動はしません。", "ソードベント / 隙狙い 1"),
])
def test_a_sentence_of_what_the_player_thought_is_passed_over(camps, camp, player, text, canonical):
    """A sentence that says what the player thought (…と思いました, …と考えました), naming only what
    the order names (a stat said of a fighter, a word in the passive — the opponent's — aside), is
    passed over with a warning."""
    got, notes = read_for_check(camps[camp], player, text)
    assert got == canonical
    assert any("考えを述べた文" in n.message and n.severity == "warning" for n in notes)


def test_an_intention_is_never_passed_over_as_a_thought(camps):
    """使おうと思いました says what the player will do: it is the order, never a thought passed over."""
    got, notes = read_for_check(camps["rd"], "城戸", "【行動】\n離れます。\nストライクベントを使おうと思いました。")
    assert "ストライクベント" in got
    assert not any("考えを述べた文" in n.message for n in notes)
