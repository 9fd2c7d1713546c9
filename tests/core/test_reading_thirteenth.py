"""Orders read the way a GM reads them, thirteenth pass (issue 19): corpus 20's rider misreads and
refusals. Each case goes through the reading ``pbf check`` makes; the phrases are variants of the
corpus's, not its entries."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


@pytest.mark.parametrize("camp, player, text, canonical", [
    # misreads of the first reading
    ("rd", "城戸", "【行動】\nこのまま中距離に留まって、ストライクベントで攻撃します。", "ストライクベント"),  # was 中へ
    ("rd", "刃", "【行動】近距離にとどまります / トリックベント", "トリックベント"),
    ("rd", "城戸", "【行動】遠キープ　ガードベント", "ガードベント"),
    ("rd", "刃", "【行動】中維持 / アドベント", "アドベント"),
    ("three", "北岡", "【行動】ムーブベントで蓮さんから遠へ。攻撃はなしでお願いします", "遠へ: 蓮 / ムーブベント / 攻撃しない"),  # はなし was 離れる
    ("rd", "城戸", "【行動】ソードベント、阻止はなし", "阻止しない / ソードベント"),
    ("three", "北岡", "【行動】れんからはなれる しゅーとべんと れんをうつ", "離れる: 蓮 / シュートベント / 攻撃: 蓮"),  # the target was lost
    # 庇う: the one said to be attacked, just before it
    ("three", "蓮", "【行動】\n城戸さんに近寄って、ソードベントで城戸さんを攻撃します。\n北岡さんが狙われたら庇いたいです。",
     "近寄る: 城戸 / ソードベント / 攻撃: 城戸 / 庇う 北岡"),
    ("three", "蓮", "【行動】城戸に近寄る ソードベント 城戸を攻撃 北岡を庇う", "近寄る: 城戸 / ソードベント / 攻撃: 城戸 / 庇う 北岡"),
    ("three", "蓮", "【行動】きどにちかよる そーどべんと きどこうげき きたおかかばう", "近寄る: 城戸 / ソードベント / 攻撃: 城戸 / 庇う 北岡"),
    ("three", "蓮", "【行動】\n城戸さんを守りたいので、ガードベントを使います。\n城戸さんが攻撃されたときは庇います。", "ガードベント / 庇う 城戸"),
    # an IME's kanji: a name with a verb's kana, a rule word, a band before its colon, 以上
    ("three", "蓮", "【行動】来た丘から離れる／ガードベント", "離れる: 北岡 / ガードベント"),
    ("three", "北岡", "【行動】最も遠い愛手に近寄る／シュートベント", "近寄る: 最も遠い相手 / シュートベント"),
    ("three", "城戸", "【行動】注へ：北岡／ストライクベント／攻撃：北岡", "中へ: 北岡 / ストライクベント / 攻撃: 北岡"),
    ("rd", "刃", "【行動】トリックベント／超回避１：達成値４異常なら", "トリックベント / 超回避 1: 達成値4以上なら"),
    # shorthand: a list of 受動 cards in brackets, 超 for 超回避, a phone's half-width scope
    ("rd", "城戸", "【行動】ストライク\n受:GV(攻)、RV(FV)", "ストライクベント / 受動: ファイナルベントならリフレクトベント / 受動: 攻撃ならガードベント"),
    ("rd", "城戸", "【行動】近 / GV / 避:運・超2", "近へ / ガードベント / 回避: 運動性 / 超回避 2"),
    ("rd", "刃", "【行動】ちかよる とりっく ﾁｮｳｶｲﾋ2 ﾎﾝﾀｲﾉﾐ", "近寄る / トリックベント / 超回避 2: 本体の攻撃だけ"),
    # a TRPG board: dice notation, the declaration's words, the page's form said after its word
    ("three", "北岡", "【行動】中へ：城戸　シュート(3b6)　攻：城戸", "中へ: 城戸 / シュートベント / 攻撃: 城戸"),
    ("rd", "刃", "【行動】ストライクベント\n判定前に隙狙い1を宣言します", "ストライクベント / 隙狙い 1"),
    ("rd", "刃", "【行動】\nストライクベントです。\n隙狙いを宣言します。攻撃力を2点マイナスして隙狙い、防御力1点無視で。",
     "ストライクベント / 隙狙い 1"),
    ("rd", "刃", "【行動】アドベント、阻止はしない方向で", "阻止しない / アドベント"),
    ("three", "北岡", "koudou: tooi e / Shoot Vent", "遠へ / シュートベント"),
    # lines under the order: a note, a remark to the opponent, a request to check
    ("rd", "城戸", "【行動】近へ / ソードベント\n※弟(9)の代筆です", "近へ / ソードベント"),
    ("rd", "刃", "【行動】近寄るなら阻止しない / アドベント\n城戸さん離れないでね♡", "近寄るなら阻止しない / アドベント"),
    ("rd", "城戸", "【行動】\n距離をとって、ガードベントを使います。\n※娘（5歳）の案です。間違っていたら教えてください。", "離れる / ガードベント"),
    # a correction of the evasion, and the one who attacks in a duel
    ("rd", "刃", "【行動】中へ / トリックベント\n攻撃されたら受けで\nいや、やっぱり超回避2で", "中へ / トリックベント / 超回避 2"),
    ("rd", "城戸", "【行動】\nソードベントを使います。\n刃さんに攻撃されたら受けで回避します。", "ソードベント / 受け"),
])
def test_corpus_20_rider(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


@pytest.mark.parametrize("camp, player, text, said", [
    ("rd", "城戸", "【行動】留まる ーどべんと", "ーどべんと"),  # a kana lost before it: ソード or ガード
    ("three", "城戸", "【行動】ソードベント\n蓮さんに攻撃されたら受け", "蓮"),  # by whom, among three: no order says it
])
def test_still_refused(camps, camp, player, text, said):
    with pytest.raises(OrderError) as caught:
        read_for_check(camps[camp], player, text)
    assert said in str(caught.value)


@pytest.mark.parametrize("camp, player, text, note", [
    ("rd", "城戸", "【行動】蝶回避２", "「蝶回避２」を「超回避 2」と読みました"),  # it was read silently
    ("three", "北岡", "【行動】中へ：城戸　シュート(3b6)　攻：城戸", "ダイスの式として読みませんでした"),
    ("rd", "城戸", "【行動】\nこのまま中距離に留まって、ストライクベントで攻撃します。", "「留まる」（今の距離のまま）と読みました"),
    ("rd", "城戸", "【行動】\nソードベントを使います。\n刃さんに攻撃されたら受けで回避します。", "攻撃してくる相手として読みました"),
])
def test_what_was_read_is_said(camps, camp, player, text, note):
    _got, notes = read_for_check(camps[camp], player, text)
    assert any(note in p.format() for p in notes), [p.format() for p in notes]


@pytest.mark.parametrize("camp, player, text, canonical, note", [
    # the player's own rider named as the sentence's subject: who does the order
    ("three", "北岡", "【行動】ぞるだは いちばんちかいひとから はなれる しゅーとべんと", "離れる: 最も近い相手 / シュートベント", "「ぞるだは」は自分のライダー"),
    ("three", "蓮", "【行動】\nナイトは北岡さんに近寄ります。ソードベントで北岡さんを攻撃。", "近寄る: 北岡 / ソードベント / 攻撃: 北岡", "「ナイトは」は自分のライダー"),
    # whom the 隙狙い is aimed at: the attack's target
    ("three", "城戸", "【行動】ストライク 蓮に隙狙い1", "ストライクベント / 攻撃: 蓮 / 隙狙い 1", "を攻撃の対象と読みました"),
])
def test_whose_and_at_whom(camps, camp, player, text, canonical, note):
    got, notes = read_for_check(camps[camp], player, text)
    assert got == canonical
    assert any(note in p.format() for p in notes), [p.format() for p in notes]


def test_another_riders_name_as_the_subject_is_not_passed_over(camps):
    """Only the player's own rider is the subject passed over: another's name before は is read (here, whom
    the move is against is then unclear, and refused), never dropped."""
    with pytest.raises(OrderError):
        read_for_check(camps["three"], "城戸", "【行動】ゾルダは蓮に近寄る / ストライクベント")


@pytest.mark.parametrize("camp, player, text, canonical", [
    # an analysis board: options weighed, then the order after 結論 (the lines before are reasoning)
    ("rd", "城戸", "S 41% EV2.4\nST 41% EV2.8\nFV 45% EV4.4 温存\n結論：ST", "ストライクベント"),
    ("rd", "刃", "【行動】\nAV EV2.9\nST EV2.8\n結論：ストライクベント／受:GV(攻)", "ストライクベント / 受動: 攻撃ならガードベント"),
    ("rd", "城戸", "すとらいく 2.8\nあどべんと 2.9\nけつろん あどべんと そししない", "阻止しない / アドベント"),
    ("three", "北岡", "move away: p 28%\nShoot Vent: EV 1.7\nketsuron: move away from the nearest / Shoot Vent", "離れる: 最も近い相手 / シュートベント"),
    ("three", "北岡", "【行動】遠へ / SH / 攻:城戸", "遠へ / シュートベント / 攻撃: 城戸"),
    # labels with none after them, a phone's name and particle before the move, a list's order in kana
    ("rd", "刃", "【行動】能:トリック／受:なし／避:超1", "トリックベント / 超回避 1"),
    ("three", "城戸", "【行動】移:遠へ(北岡)／能:GV／攻:×", "遠へ: 北岡 / ガードベント / 攻撃しない"),
    ("three", "蓮", "【行動】ｶﾞｰﾄﾞﾍﾞﾝﾄ\nきたおかから はなれる", "離れる: 北岡 / ガードベント"),
    ("three", "城戸", "【行動】ふぁいなるべんと きたおか れん のじゅん", "ファイナルベント / 攻撃: 北岡, 蓮"),
    # keigo of the letters, a number of an episode in an aside
    ("rd", "城戸", "【行動】\nソードベントでございます。\n相手のかたが離れていくのは阻止いたしません。", "離れるなら阻止しない / ソードベント"),
    ("three", "北岡", "【行動】\nいちばん遠いかたから離れまして、シュートベントで撃ちます。", "離れる: 最も遠い相手 / シュートベント"),
    ("rd", "城戸", "【行動】ちかよる\n(りゅうが かっこよかった 3話の)\nすとらいく", "近寄る / ストライクベント"),
    ("rd", "刃", "結論：トリックベント/超1:6以上", "トリックベント / 超回避 1: 達成値6以上なら"),  # 超 with a number, before its threshold
])
def test_corpus_21_rider(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


def test_s_alone_is_asked(camps):
    """S is Sword, Strike or Survive for 城戸: it is never guessed."""
    with pytest.raises(OrderError):
        read_for_check(camps["rd"], "城戸", "結論：S")


@pytest.mark.parametrize("player, text, warned", [
    ("北岡", "【行動】シュートベント / 庇う 城戸", True),  # the rule page: 庇う needs Sword or Guard Vent vented in
    ("蓮", "【行動】トリックベント / 庇う 城戸", True),
    ("蓮", "【行動】ガードベント / 庇う 城戸", False),
    ("蓮", "【行動】ソードベント / 庇う 城戸", False),
])
def test_a_cover_without_sword_or_guard_vent_is_warned(camps, player, text, warned):
    _got, notes = read_for_check(camps["three"], player, text)
    said = [p.format() for p in notes if p.severity == "warning" and "庇う" in p.format()]
    assert bool(said) == warned, said


def test_s_alone_names_the_cards_it_could_be(camps):
    """The refusal of a letter that begins several cards' names shows them (never a guess)."""
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["rd"], "城戸", "【行動】S / 受け")
    assert "ソードベント" in str(caught.value) and "ストライクベント" in str(caught.value)
