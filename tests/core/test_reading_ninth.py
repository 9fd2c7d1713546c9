"""Orders read the way a GM reads them, ninth pass (issue 19): corpus 15's rider misreads and
corpus 16's first reading. Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


@pytest.mark.parametrize("text", [
    "【行動】最も問い相手に近寄る / ソードベント",  # 遠い typed とい: 問い
    "【行動】一番と追い相手に近寄る / ソードベント",  # 遠い typed と+追い, across a particle
])
def test_an_ime_slip_of_a_phrase_before_its_particle_is_read_by_its_reading(camps, text):
    """The phrase an IME converted wrongly is read by its reading also when a particle ties it to
    the next word (に 近寄る): before, its kanji were passed over and the move went to the nearest
    fighter — the opposite of what was meant."""
    got, notes = read_for_check(camps["three"], "城戸", text)
    assert got == "近寄る: 最も遠い相手 / ソードベント"
    assert any("を「最も遠い相手」と読みました" in n.format() for n in notes)


@pytest.mark.parametrize("camp, player, text, canonical", [
    # the page's declaration forms, as players write them
    ("rd", "刃", "【行動】\nストライクベントを使って、隙狙いで防御力を1点無視して攻撃します。\n回避はＨＰ１点消費、回避達成値＋１点でお願いします。",
     "ストライクベント / 隙狙い 1 / 超回避 1"),
    ("rd", "城戸", "【行動】ｽﾄﾗｲｸﾍﾞﾝﾄ\nすきねらい1\nHP1てん消費で超回避", "ストライクベント / 隙狙い 1 / 超回避 1"),
    ("three", "蓮", "【行動】ガードベンド、木戸を庇う、HP１点消費、回避達成地＋１点：本体の攻撃と庇う時だけ",
     "ガードベント / 超回避 1: 本体の攻撃と庇うときだけ / 庇う 城戸"),
    ("three", "北岡", "【行動】\nシュートベントを使い、攻撃力を2点マイナスして隙狙いをします。防御力を1点無視します。狙うのは城戸さんです。",
     "シュートベント / 攻撃: 城戸 / 隙狙い 1"),
    ("rd", "城戸", "【行動】留まる、ソードベント、攻撃力を２点マイナスして好き狙い。防御力を１点無視します", "ソードベント / 隙狙い 1"),
    ("rd", "刃", "【行動】ストライクベント\n＜攻撃力＞を２点マイナスして隙狙い！＜防御力＞を１点無視します！", "ストライクベント / 隙狙い 1"),
    # a scope in brackets after 超回 N, and a scope said before the HP it costs
    ("rd", "城戸", "行動：StV / 隙1 / 超回2(本体のみ)", "ストライクベント / 隙狙い 1 / 超回避 2: 本体の攻撃だけ"),
    ("three", "蓮", "【行動】近:最遠 / トリック / 攻:北岡,城戸 / 超回1(AV以外)",
     "近寄る: 最も遠い相手 / トリックベント / 攻撃: 北岡, 城戸 / 超回避 1: 本体の攻撃と庇うときだけ"),
    ("three", "蓮", "【行動】\nソードベントを使用します。城戸さんを庇います。庇うときだけ、HPを1点使って超回避します。",
     "ソードベント / 超回避 1: 庇うときだけ / 庇う 城戸"),
    ("rd", "城戸", "【行動】\nソードベント\n本体の攻撃のときだけ、HPを2点使って超回避します。", "ソードベント / 超回避 2: 本体の攻撃だけ"),
    # where they are now, said as the reason: no move (近距離なので was read as 近へ, a misread)
    ("rd", "城戸", "【行動】\n近距離なので動かずに、ストライクベントで攻撃します。\n攻撃力を2点マイナスして隙狙い、防御力を1点無視します。",
     "ストライクベント / 隙狙い 1"),
    ("rd", "城戸", "【行動】\n遠距離なので近づいて、ストライクベントで攻撃します。", "近寄る / ストライクベント"),
    ("rd", "城戸", "【行動】\n今の近距離のまま留まって、ソードベントを使います。", "ソードベント"),
    # a band's move from someone, in English (Ren was read as whom to attack, a misread)
    ("three", "北岡", "koudou: Move Vent / tooku e (from Ren) / passive: guard vent if attack",
     "遠へ: 蓮 / ムーブベント / 受動: 攻撃ならガードベント"),
])
def test_corpus_16_rider(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


def test_the_band_said_as_a_reason_is_noted(camps):
    _got, notes = read_for_check(camps["rd"], "城戸", "【行動】今は中距離だから近寄る / ソードベント")
    assert [n.format() for n in notes if "今の距離の説明" in n.message] == \
        ["1行目 5文字目：「今は中距離だから」は今の距離の説明として読みました（移動ではありません）。"]


@pytest.mark.parametrize("camp, player, text, canonical", [
    # a marker at the end of a sentence, the order on the lines under it
    ("three", "蓮", "よろしくお願いします。三人でのバトルは初めてです。【行動】\n北岡さんに近寄って、ソードベントで北岡さんを攻撃します。",
     "近寄る: 北岡 / ソードベント / 攻撃: 北岡"),
    # the condition of the other's move on the line under a card and a name
    ("three", "蓮", "【行動】なすてぃ きど\nはなれるならそししない", "離れるなら阻止しない / ナスティベント / 攻撃: 城戸"),
    ("three", "蓮", "【行動】ナスティベント 城戸\n離れるなら阻止しない", "離れるなら阻止しない / ナスティベント / 攻撃: 城戸"),
    # an IME's 塔 (トウ) for 遠 (トオ)
    ("rd", "刃", "【行動】塔へ／アドベント", "遠へ / アドベント"),
    # a board's labels: 回:防, 能:なし
    ("rd", "城戸", "【行動】離 / 阻止× / GV / 回:防", "離れる / 阻止しない / ガードベント / 回避: 防御力"),
    ("rd", "城戸", "行動：移:遠 / 能:なし / 受:GV / 攻×", "遠へ / 受動: ガードベント / 攻撃しない"),
    # arrows at whom: a card's target, a priority list of names read by their readings
    ("three", "蓮", "【行動】ナスティ→北岡 / 離:城戸", "離れる: 城戸 / ナスティベント / 攻撃: 北岡"),
    ("three", "蓮", "【行動】ナスティベント→城戸さん / 攻撃: 城戸", "ナスティベント / 攻撃: 城戸"),
    ("three", "蓮", "【行動】ふぁいなるべんと ぞるだ＞りゅうき", "ファイナルベント / 攻撃: 北岡, 城戸"),
])
def test_corpus_16_rider_more(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


@pytest.mark.parametrize("text", [
    "次は【行動】\nソードベント",  # a marker inside a sentence, at its line's end: not read
    "【行動】ナスティベント 城戸 / 攻撃: 北岡",  # whom the card is for and whom to attack disagree
])
def test_still_refused(camps, text):
    with pytest.raises(OrderError):
        read_for_check(camps["three"], "蓮", text)


@pytest.mark.parametrize("camp, player, text, canonical", [
    # a line of talk that ends in です。 or a face in brackets, naming nothing the order does not
    ("rd", "城戸", "【行動】\nサバイブを使います！\nもし攻撃されたらガードベントで守ります。\n初めてのサバイブなのでドキドキです。",
     "サバイブ / 受動: 攻撃ならガードベント"),
    ("three", "北岡", "【行動】ガードベント / 防御力で回避 / 蓮さんを庇う / 攻撃しない\n今回は盾役で(｀・ω・´)",
     "ガードベント / 攻撃しない / 回避: 防御力 / 庇う 蓮"),
    # the opponent's card as the condition, though the same card is the active one
    ("rd", "城戸", "【行動】\nアドベントでドラグレッダーを呼びます。移動はしません。\n相手のアドベントにはガードベントで対応します。",
     "アドベント / 受動: アドベントならガードベント"),
    # the opponent's name with も as the subject of the condition; 身を守る is how, not whom
    ("rd", "刃", "【行動】\nファイナルベントを使います。\n城戸さんもファイナルベントを使ってきたら、ガードベントで身を守ります。",
     "ファイナルベント / 受動: ファイナルベントならガードベント"),
    # a fallback of the move that names the first one again; a rider's name and its player's
    ("three", "蓮", "【行動】\n北岡さんに近づきます。北岡さんに近づけなければ城戸さんに近づきます。\nソードベントを使います。",
     "近寄る: 北岡, 城戸 / ソードベント"),
    ("three", "蓮", "よろしくお願いします。\n【行動】\nゾルダさんに近づいて、ソードベントで攻撃します。狙うのは北岡さんで、届かない場合は城戸さんにします。",
     "近寄る: 北岡 / ソードベント / 攻撃: 北岡, 城戸"),
    # scopes of 超回避 in English after it, and in kana before it
    ("rd", "刃", "order: to mid / Sword Vent / passive: Guard Vent if Final Vent / super evasion 1: body only",
     "中へ / ソードベント / 受動: ファイナルベントならガードベント / 超回避 1: 本体の攻撃だけ"),
    ("three", "城戸", "【行動】 れんからはなれる ｶﾞｰﾄﾞ  ほんたいだけちょうかいひ1", "離れる: 蓮 / ガードベント / 超回避 1: 本体の攻撃だけ"),
    ("rd", "城戸", "【行動】ソードベント アドベント以外の超回避1", "ソードベント / 超回避 1: 本体の攻撃と庇うときだけ"),
])
def test_corpus_16_rider_sentences(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


def test_a_line_of_talk_naming_another_ability_is_never_passed_over(camps):
    """回避は防御力です under an order that evades with 運動性 is more of the order (here: 回避 said
    twice, refused), never talk."""
    with pytest.raises(OrderError):
        read_for_check(camps["rd"], "城戸", "【行動】ソードベント / 回避: 運動性\n回避は防御力です。")


def test_the_lines_of_the_order_are_put_back_before_talk_is_weighed(camps):
    """ソードベントを使います。 ends as talk may, but it is the order: the question under it, which names
    the same card, is talk against it — not refused because both were set aside at once."""
    got, notes = read_for_check(camps["three"], "城戸", "【行動】\n一番遠い人に近づきます。\nソードベントを使います。\n"
                                "北岡さんが狙われたら庇います。\n庇うのはソードベントでもできると読みましたが、大丈夫でしょうか。")
    assert got == "近寄る: 最も遠い相手 / ソードベント / 庇う 北岡"
    assert [n.line for n in notes if "雑談として読みませんでした" in n.message] == [5]


def test_the_marker_in_kana_without_a_colon(camps):
    got, _notes = read_for_check(camps["three"], "北岡", "ごめんおそくなった\nこうどう むーぶべんと きどからはなれる")
    assert got == "離れる: 城戸 / ムーブベント"
