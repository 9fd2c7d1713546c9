"""Orders read the way a GM reads them, eleventh pass (issue 19): corpus 18's rider misreads and
refusals. Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


@pytest.mark.parametrize("camp, player, text, canonical", [
    # misreads of the first reading
    # a correction takes back only the part it says again (it took back the move and the card too: 留まる)
    ("three", "北岡", "【行動】\n城戸さんに対して中距離へ移動します。\nシュートベントで蓮さんを撃ちます。\n"
     "相手が近寄ってくる時は阻止しないでおきます…\nいえ、やっぱり阻止します。\nこれで大丈夫でしょうか。",
     "中へ: 城戸 / シュートベント / 攻撃: 蓮"),
    # a 受動 card's condition in brackets after it (the bracket was passed over: 受動: ガードベント)
    ("three", "北岡", "【行動】遠へ(ナイト)・能:シュート・攻:ナイト,龍騎・受:GV(攻)",
     "遠へ: 蓮 / シュートベント / 受動: 攻撃ならガードベント / 攻撃: 蓮, 城戸"),
    # 庇 alone as 超回避's scope in brackets (it was passed over: 超回避 1 on every evasion)
    ("three", "蓮", "【行動】離:北岡 / GV / 庇:城戸 / 超回1(庇のみ)", "離れる: 北岡 / ガードベント / 超回避 1: 庇うときだけ / 庇う 城戸"),
    ("three", "蓮", "【行動】能：GV／庇：城戸／避：超1(庇のみ)", "ガードベント / 超回避 1: 庇うときだけ / 庇う 城戸"),
    # a name by its reading in brackets after the move is whom it is against (it was passed over)
    ("three", "北岡", "【行動】\n移動：中へ（内と）\n能動：シュトベント\n攻撃：内と、木戸", "中へ: 蓮 / シュートベント / 攻撃: 蓮, 城戸"),
    # staying where one is, said of the band (近距離のまま動きません was read 近へ), and 合っ is no アドベント
    ("rd", "刃", "【行動】\nアドベントでブレードウルフを呼びます。\n私は近距離のまま動きません。\n"
     "攻撃されたときは、ガードベントで防ごうと思います。", "アドベント / 受動: 攻撃ならガードベント"),
    # refusals of the first reading: the veteran's labels
    ("rd", "城戸", "【行動】移:近 能:SV 受:FV→RV 避:受け", "近へ / ソードベント / 受動: ファイナルベントならリフレクトベント / 受け"),
    ("rd", "刃", "【行動】能：FV／阻×／避：超2（5↑）", "阻止しない / ファイナルベント / 超回避 2: 達成値5以上なら"),
    ("rd", "刃", "【行動】\n近 / トリック / 受:GV(攻) / 超回1(本体のみ)",
     "近へ / トリックベント / 受動: 攻撃ならガードベント / 超回避 1: 本体の攻撃だけ"),
    ("rd", "城戸", "【行動】\n能：サバイブ\n受：FV→RV\n阻：近寄り×", "近寄るなら阻止しない / サバイブ / 受動: ファイナルベントならリフレクトベント"),
    ("rd", "刃", "【行動】攻×／受：FV→GV、攻→SV", "受動: ファイナルベントならガードベント / 受動: 攻撃ならソードベント / 攻撃しない"),
    ("rd", "刃", "【行動】\n移:留\u3000阻止:有\n能:なし\n受:GV(攻)\n攻:隙1", "受動: 攻撃ならガードベント / 隙狙い 1"),
    ("three", "城戸", "【行動】\n移：離れる(北岡)\n能：GV\n受：FV→RV\n避：超1(AV以外)",
     "離れる: 北岡 / ガードベント / 受動: ファイナルベントならリフレクトベント / 超回避 1: 本体の攻撃と庇うときだけ"),
    ("three", "蓮", "【行動】\n移：近寄る(北岡,城戸)\n能：SV\n攻：北岡,城戸\n受：FV→コンファイン",
     "近寄る: 北岡, 城戸 / ソードベント / 受動: ファイナルベントならコンファインベント / 攻撃: 北岡, 城戸"),
    # newcomers' sentences
    ("rd", "城戸", "【行動】\n受けで回避したいので、ソードベントを使います。近距離のままで大丈夫です。", "ソードベント / 受け"),
    ("rd", "城戸", "【行動】\n離れます。刃さんが近寄ってくるのも離れるのも、阻止しません。\nストライクベントを使います。",
     "離れる / 阻止しない / ストライクベント"),
    ("rd", "城戸", "【行動】\n今回は攻撃しないで、ガードベントで守りを固めます。\n攻撃されたときは、リフレクトベントを使います。",
     "ガードベント / 受動: 攻撃ならリフレクトベント / 攻撃しない"),
    ("three", "北岡", "【行動】\n移動はしないで、ガードベントを使います。城戸さんが攻撃されたら庇います。\n"
     "相手がファイナルベントを使ってきたら、受動カードでもう1枚のガードベントを使います。",
     "ガードベント / 受動: ファイナルベントならガードベント / 庇う 城戸"),
    ("three", "城戸", "【行動】\nガードベントで城戸を庇う\n超回避1は庇うときだけ".replace("城戸を", "蓮を"),
     "ガードベント / 超回避 1: 庇うときだけ / 庇う 蓮"),
    ("three", "城戸", "みなさんこんばんは！\nナイトとゾルダに挟まれてるの草\n【行動】\nサバイブ！！\n近寄る: 最も遠い相手\n攻撃はいちばん近い人で",
     "近寄る: 最も遠い相手 / サバイブ"),
    ("rd", "城戸", "近寄りは阻止しない", "近寄るなら阻止しない"),  # was read 近寄る / 阻止しない
    # the evasion's roll said as a declaration; an IME's 長回避 and 請け; 尤も for 最も; hold said twice
    ("rd", "城戸", "【行動】離れる／攻撃しない／回避判定：運動性／長回避３", "離れる / 攻撃しない / 回避: 運動性 / 超回避 3"),
    ("rd", "城戸", "【行動】\n離れる\nソードベント\n回避の判定は運動性でロールします。", "離れる / ソードベント / 回避: 運動性"),
    ("rd", "刃", "ちわっす\n【行動】中へ、ガードベント、回避判定は防御力で", "中へ / ガードベント / 回避: 防御力"),
    ("rd", "城戸", "【行動】\n離れる\nソードベント\n請け\n隙狙い１（攻撃力を２点マイナス）", "離れる / ソードベント / 隙狙い 1 / 受け"),
    ("three", "城戸", "【行動】尤も遠い相手に近寄る／アドベント", "近寄る: 最も遠い相手 / アドベント"),
    ("rd", "城戸", "koudou: move away, hold (no attack), evade roll: agility\nsuper evasion 3",
     "離れる / 攻撃しない / 回避: 運動性 / 超回避 3"),
    # a phone's kana run together, sound marks dropped: cut by the readings of the battle's words and names
    ("three", "北岡", "【行動】 いちはんちかいひとからはなれる ｼｭｰﾄ こうげき れん→きど", "離れる: 最も近い相手 / シュートベント / 攻撃: 蓮, 城戸"),
    ("three", "城戸", "【行動】がーど きたおかをかはう こうげきしない", "ガードベント / 攻撃しない / 庇う 北岡"),
    ("rd", "城戸", "【行動】こうげきしない かいひろーるはうんとうせい", "攻撃しない / 回避: 運動性"),
    ("rd", "刃", "【行動】 あとべんと ちょうかいひ2 たっせいち5いしょうなら", "アドベント / 超回避 2: 達成値5以上なら"),
    # English and romaji: the move toward whom after a comma or an arrow; a fallback said in English
    ("three", "蓮", "[action]\nmove: to near, Kitaoka\ncard: Sword Vent\ntarget: Kitaoka\npassive: Confine Vent if Advent",
     "近へ: 北岡 / ソードベント / 受動: アドベントならコンファインベント / 攻撃: 北岡"),
    ("three", "蓮", "order: chikayoru -> Kitaoka, sword vent, attack Kitaoka, then Kido if out of range",
     "近寄る: 北岡 / ソードベント / 攻撃: 北岡, 城戸"),
    ("rd", "城戸", "order: stay, no card this turn, allow if closer, attack normally", "近寄るなら阻止しない"),
    # an option said not taken is as if not written; the attack on whoever is near is the default
    ("three", "城戸", "【行動】\nファイナルベントを使います。\n狙うのは蓮さんで、届かない場合は北岡さんです。\n"
     "ファイナルベントは隙狙いができないそうなので、隙狙いはなしです。\n合っていますか？よろしくお願いします。",
     "ファイナルベント / 攻撃: 蓮, 北岡"),
    ("three", "蓮", "【行動】\n・移動は、一番遠い人に近づきます\n・カードはソードベントです\n・攻撃は近くにいる人に\n"
     "・ファイナルベントを使われたら、コンファインベントで打ち消します", "近寄る: 最も遠い相手 / ソードベント / 受動: ファイナルベントならコンファインベント"),
])
def test_corpus_18_rider(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


@pytest.mark.parametrize("camp, player, text, canonical, passed", [
    ("rd", "城戸", "おつです～(´・ω・`) 今日はダイス目腐ってるので守りで\n【行動】留まる・ガードベント・超回避1\n刃さんのFV来たら泣くｗ",
     "ガードベント / 超回避 1", "刃さんのFV来たら泣くｗ"),
    ("rd", "城戸", "【行動】離れる / 攻撃しない / 回避: 運動性\nってか刃さんのストライク痛すぎませんか（震え声）",
     "離れる / 攻撃しない / 回避: 運動性", "ってか刃さんのストライク痛すぎませんか（震え声）"),
    ("rd", "城戸", "【行動】遠へ / 阻止しない / 受動: ガードベント\n逃げの一手ですｗｗ 笑ってやってください",
     "遠へ / 阻止しない / 受動: ガードベント", "逃げの一手ですｗｗ 笑ってやってください"),
    ("rd", "刃", "【行動】\n1. 移動：近づきます\n2. カード：ストライクベントを使います\n3. 攻撃されたらガードベントを使います\n"
     "あと質問なのですが、ストライクとソードはどちらが強いのでしょうか？",
     "近寄る / ストライクベント / 受動: 攻撃ならガードベント", "ストライクとソードはどちらが強いのでしょうか"),
])
def test_a_line_that_is_no_order_is_passed_over_and_said(camps, camp, player, text, canonical, passed):
    """A later line that does not read as an order, corrects nothing and names nothing of the
    order but what the rest names — another fighter's card is theirs — or asks about the rules,
    is passed over with a warning that quotes it."""
    got, notes = read_for_check(camps[camp], player, text)
    assert got == canonical
    assert any(passed in (n.text or "") and n.severity == "warning" for n in notes)


@pytest.mark.parametrize("camp, player, text", [
    # a scope or a threshold on what the rest names may change it: never passed over
    ("rd", "刃", "トリックいっとこｗ\n【行動】トリックベント / HPを2点使って超回避\nあ、超回避は5以上のときだけね"),
    # romaji and shorthand read alone are no sure guide (ga-do bento is ガードベント in the post)
    ("rd", "城戸", "koudou:\ntooku e\nga-do bentoo ne\nkougeki shinai"),
    # a name among three may say whom
    ("three", "北岡", "【行動】遠へ(最寄り)\nSHV\n的 蓮>城戸ｗｗ"),
])
def test_a_line_that_may_change_the_order_is_never_passed_over(camps, camp, player, text):
    try:
        got, notes = read_for_check(camps[camp], player, text)
    except OrderError:
        return
    assert not any("行動ではない話" in n.message for n in notes), got


def test_the_attack_at_the_one_approached_is_said(camps):
    """Among three, an attack with no one named after a move against someone is at that one —
    said with a warning (the order language's default would be the nearest first)."""
    got, notes = read_for_check(camps["three"], "蓮", "【行動】\n城戸さんに近寄ります。アドベントでダークウイングに攻撃してもらいます。")
    assert got == "近寄る: 城戸 / アドベント / 攻撃: 城戸"
    assert any("移動の相手（城戸）を攻撃する" in n.message and n.severity == "warning" for n in notes)


def test_a_correction_that_says_something_new_adds_it(camps):
    """A correction of a part the post did not say before takes nothing back: it is read as
    written after the order, with a warning."""
    got, notes = read_for_check(camps["rd"], "城戸", "【行動】\n近寄ります。\nソードベントを使います。\nやっぱり超回避1も付けます。")
    assert got == "近寄る / ソードベント / 超回避 1"
    assert any("書き足した" in n.message for n in notes)


def test_a_kana_run_is_cut_only_one_way(camps):
    """The run is cut into the fewest pieces, and read only when every such cut means the same;
    the note names the pieces."""
    got, notes = read_for_check(camps["three"], "城戸", "【行動】がーど きたおかをかはう こうげきしない")
    assert any("「北岡・を・庇う」と区切って読みました" in n.message for n in notes)
