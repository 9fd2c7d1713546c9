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


A_BULLET_IS_NO_HASHTAG = [
    # ＃ as a bullet before a label (an old terminal's list) is no hashtag: the label is read
    ("rd", "城戸", "【行動】＃受動：GV ＃能動：SV", "ソードベント / 受動: ガードベント"),
    ("rd", "城戸", "＃移動　接近\n＃能動　ソードベント", "近寄る / ソードベント"),
]


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


CORPUS_24_RIDER = [
    # corpus 24's rider misreads, as variants: 中 after a word is "during" (トリック中は), no band
    ("rd", "刃", "【行動】\nトリックベント\nHPを1点払って超回避\nトリック中は無敵のはず笑", "トリックベント / 超回避 1"),
    # イベントファイナルの… is talk about it (no colon): its free text is not the rest of the line
    ("rd", "城戸", "【行動】\nファイナルベント\nイベントファイナルのセリフは後で考えるｗ", "ファイナルベント"),
    # 北岡さんの盾になる covers 北岡 (it had been an attack on 北岡)
    ("three", "城戸", "【行動】\nガードベント\n北岡さんの盾になります\n攻撃はしません", "ガードベント / 攻撃しない / 庇う 北岡"),
    # 刃様の攻撃は…受け止めます: the opponent's attack, answered — no attack on 刃
    ("rd", "城戸", "【行動】\n中へ\nソードベント\n刃様の攻撃は剣で受け止めます", "中へ / ソードベント / 受け"),
    # 超回避's scope in brackets, in romaji and English
    ("rd", "城戸", "koudou: sword vent / chou kaihi 1 (hontai dake)", "ソードベント / 超回避 1: 本体の攻撃だけ"),
    ("rd", "城戸", "order: strike vent / super evasion 2 (except advent)", "ストライクベント / 超回避 2: 本体の攻撃と庇うときだけ"),
    # a name with its sound marks dropped, in a list after 攻撃 (きと had vanished without a word)
    ("three", "北岡", "【行動】\nしゅーとべんと\nこうけき れん きと", "シュートベント / 攻撃: 蓮, 城戸"),
    # the refusals: 攻撃：せず, a block only of one move, a bracket of whom after 後退, 歴史的仮名遣い
    ("rd", "城戸", "【行動】\nガードベント\n攻撃：せず", "ガードベント / 攻撃しない"),
    ("three", "北岡", "【行動】\n移動：後退（対象：蓮）\nシュートベント\n攻撃：蓮、城戸\n阻止：接近時のみ", "離れる: 蓮 / 離れるなら阻止しない / シュートベント / 攻撃: 蓮, 城戸"),
    ("rd", "城戸", "【行動】\nサバイブ\n阻止：後退時だけ", "近寄るなら阻止しない / サバイブ"),
    ("three", "城戸", "【行動】\nガードベントを使ひます\n庇ふ：北岡", "ガードベント / 庇う 北岡"),
    # 攻撃を受けたら: a 受動 card's condition; a card not used and the one used instead
    ("rd", "城戸", "【行動】ソードベント\n攻撃を受けたらガードベントで守ります", "ソードベント / 受動: 攻撃ならガードベント"),
    ("rd", "城戸", "【行動】\n離れます\nストライクベントは使わずに、アドベントにします", "離れる / アドベント"),
    ("rd", "城戸", "【行動】ソードベントではなくガードベントで", "ガードベント"),
    # the card answered, then the 受動 card that answers it; the rest of the attacks
    ("rd", "城戸", "【行動】\nサバイブ\nファイナルベントにはリフレクトベントで返す", "サバイブ / 受動: ファイナルベントならリフレクトベント"),
    ("three", "蓮", "【行動】\nトリックベント\nFVはコンファインで止める！", "トリックベント / 受動: ファイナルベントならコンファインベント"),
    ("rd", "城戸", "【行動】\n受動カードでリフレクトベントとガードベントを用意します。ファイナルベントにはリフレクトベント、ほかの攻撃にはガードベントです。",
     "受動: ファイナルベントならリフレクトベント / 受動: 攻撃ならガードベント"),
    # 回避 said with a space or as a verb, 超回避 declared after 避ける時には
    ("rd", "刃", "【行動】\nそーとべんと\nかいひ うけ", "ソードベント / 受け"),
    ("rd", "刃", "【行動】\nガードベント\n避けるのは防御力にて", "ガードベント / 回避: 防御力"),
    ("rd", "刃", "【行動】\nソードベント\n避ける時にはHPを1点払って超回避いたします", "ソードベント / 超回避 1"),
    # 行動 in kana as the marker: dakuten dropped, half-width, on its own line; half-width particles
    ("three", "北岡", "こうとう\nきたおかに ちかよる\nそーと\nこうけき きたおか".replace("きたおか", "れん"), "近寄る: 蓮 / ソードベント / 攻撃: 蓮"),
    ("three", "北岡", "ｺｳﾄﾞｳ\nﾑｰﾌﾞﾍﾞﾝﾄ\nﾚﾝﾆ ﾁｶﾖﾙ\nｺｳｹﾞｷ ﾚﾝ", "近寄る: 蓮 / ムーブベント / 攻撃: 蓮"),
]


@pytest.mark.parametrize("camp, player, text, note", [
    ("rd", "城戸", "【行動】\n離れます\nストライクベントは使わずに、アドベントにします", "「ストライクベント」は使わないカードとして読み、アドベントを使うと読みました"),
    ("three", "北岡", "ｺｳﾄﾞｳ\nﾑｰﾌﾞﾍﾞﾝﾄ\nﾚﾝﾆ ﾁｶﾖﾙ", "「ｺｳﾄﾞｳ」を行動の目印（【行動】）として読みました"),
    ("three", "城戸", "【行動】\nソードベント\n北岡さんの攻撃は受けで", "「北岡さんの」を「相手の」と読みました（受けや受動カードには相手を選べない"),
])
def test_what_was_read_is_said_24(camps, camp, player, text, note):
    _got, notes = read_for_check(camps[camp], player, text)
    assert any(note in p.format() for p in notes), [p.format() for p in notes]


WHAT_STAYS_24 = [
    # a band's 中 stays the band; a card above 受動カードで… on its own line is no 受動 card; ガードベントを受動で is one
    ("rd", "城戸", "【行動】移:中 / SV", "中へ / ソードベント"),
    ("rd", "城戸", "【行動】SV\n受動カードでリフレクトベントを用意します。ファイナルベントならリフレクトベント",
     "ソードベント / 受動: ファイナルベントならリフレクトベント"),
    ("rd", "城戸", "【行動】SV、GVは受動で", "ソードベント / 受動: ガードベント"),
    ("rd", "城戸", "【行動】FV\nイベントファイナル: 炎の一撃", "ファイナルベント / イベントファイナル: 炎の一撃"),
]


def test_a_word_like_a_name_with_small_kana_is_no_name(camps):
    """きっと is no 城戸 with its marks dropped: its small っ is written (refused, named)."""
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["three"], "北岡", "【行動】\nしゅーとべんと\nこうけき きっと")
    assert "きっ" in str(caught.value)


CORPUS_24_RIDER_MORE = [
    # kana typed apart by single spaces, read joined by its reading
    ("rd", "城戸", "【行動】 そ ー ど べ ん と\nこうけき しない", "ソードベント / 攻撃しない"),
    ("three", "城戸", "【行動】\nいちばん ちかいやつに ちかよる\nすとらいく", "近寄る: 最も近い相手 / ストライクベント"),
    # 隙狙い declared with when it applies said first, or its number in kanji and 落として
    ("rd", "刃", "【行動】\nトリックベント\n攻撃するときは、攻撃力を2点マイナスして隙狙いにします", "トリックベント / 隙狙い 1"),
    ("rd", "刃", "【行動】\nトリックベント\n攻撃力を二つ落として隙狙い", "トリックベント / 隙狙い 1"),
    # 超回避's scope said as the attacks it is not paid for
    ("rd", "城戸", "【行動】\nソードベント\n超回避１：アドベントの時は払わない", "ソードベント / 超回避 1: 本体の攻撃と庇うときだけ"),
    # a line of romaji talk under the order: its "no" is the particle
    ("rd", "城戸", "koudou: naka e / advent\nDragreder no kaen wa naka made todoku hazu.", "中へ / アドベント"),
    # a shout to the monster ending in an emoji is talk
    ("three", "蓮", "【行動】\nアドベント\nダークウイングいけー🦇", "アドベント"),
]


@pytest.mark.parametrize("camp, player, text, said", [
    # a vent named by no card: which one is asked (it had been passed over as chat)
    ("rd", "城戸", "【行動】\nちかよる\nべんと", "「べんと」だけでは、どのベント（カード）か分かりません"),
    # a part left to the GM: asked, never decided for the player
    ("rd", "刃", "【行動】\nソードベント\n移動はＧＭ様にお任せいたします", "は決めずに任されていますが、pbf は代わりに決めません"),
    ("rd", "城戸", "【行動】SV / 攻撃はおまかせで", "「攻撃はおまかせ」は決めずに任されています"),
])
def test_what_is_asked_24(camps, camp, player, text, said):
    with pytest.raises(OrderError) as caught:
        read_for_check(camps[camp], player, text)
    assert said in str(caught.value)


def test_the_monsters_attack_given_to_it_is_no_choice_left_open(camps):
    """ドラグレッダーに攻撃を任せる names no GM and says no お任せ: not asked as a choice left open."""
    got, _notes = read_for_check(camps["rd"], "城戸", "【行動】アドベントでドラグレッダーに攻撃を任せる")
    assert got == "アドベント"


CORPUS_24_RIDER_LETTERS = [
    # a postscript after the letter's closing is no order; 届きそうなら is a 受動 card's condition; だけ with its dakuten dropped
    ("three", "北岡", "拝啓\n【行動】\nムーブベントで城戸さんから離れます\n攻撃は城戸さんに\n敬具\n追伸　ムーブベントでは武器がないのでしょうか。",
     "離れる: 城戸 / ムーブベント / 攻撃: 城戸"),
    ("rd", "城戸", "【行動】ソードベント\n相手の攻撃が届きそうならガードベントを使います", "ソードベント / 受動: 攻撃ならガードベント"),
    ("rd", "城戸", "【行動】\nあどべんと\nちょうかいひ1 ほんたいたけ", "アドベント / 超回避 1: 本体の攻撃だけ"),
]


def test_out_of_range_says_the_next_one(camps):
    """射程外なら (out of range) says the next name is the one attacked when the first cannot be."""
    got, _notes = read_for_check(camps["three"], "蓮", "【行動】SV / 攻撃は北岡さん、射程外なら城戸さん")
    assert got == "ソードベント / 攻撃: 北岡, 城戸"


CORPUS_25_FIRST_FIXES = [
    # a memo app's ▶ before each line of a list is a bullet, not → (▶弱 alone may be → and 弱: left as it was)
    ("ae", "美鈴", "【行動】\n▶前進\n▶前進\n▶強攻撃", "→→強"),
    ("ae", "美鈴", "【行動】▶弱", "→弱"),
    # 私が庇います after the condition on the one covered; a face with its arms (٩( 'ω' )و) ending a line of talk
    ("three", "城戸", "【行動】\nガードベント\n蓮さんが狙われたときは、僕が庇います。", "ガードベント / 庇う 蓮"),
    ("three", "城戸", "【行動】\nソードベント\nドラグセイバーで斬る！٩( 'ω' )و", "ソードベント"),
    # talk of a later turn names cards that are not this turn's order
    ("rd", "城戸", "【行動】近寄る / ソードベント\nサバイブは次のターンかな〜ｗ", "近寄る / ソードベント"),
]


CORPUS_25_RIDER = [
    # a card and its condition in brackets without the label, beside the card used
    ("rd", "刃", "【行動】\nトリックベント\nガード(攻撃)", "トリックベント / 受動: 攻撃ならガードベント"),
    ("rd", "刃", "【行動】\nｽﾄﾗｲｸ\nｶﾞｰﾄﾞ(ｺｳｹﾞｷ)", "ストライクベント / 受動: 攻撃ならガードベント"),
    # English: whoever's, charge at; a line of English talk whose words the order holds
    ("three", "北岡", "order: get away from whoever's nearest / Shoot Vent", "離れる: 最も近い相手 / シュートベント"),
    ("three", "城戸", "order: charge at whoever's farthest / sword vent", "近寄る: 最も遠い相手 / ソードベント"),
    ("three", "北岡", "order: stay / Final Vent / target Kido\nbig burst this turn, FV ready", "ファイナルベント / 攻撃: 城戸"),
    # an option not used, its reason between; an IME's 位置 for いち after 隙狙い (noted); a rider's weapon as the card
    ("rd", "城戸", "【行動】\nソードベント\n隙狙いはよく分からないので使いません", "ソードベント"),
    ("rd", "刃", "【行動】\nソードベント\n隙狙い位置", "ソードベント / 隙狙い 1"),
    ("rd", "城戸", "【行動】\nソードベントを使います。\n相手の攻撃はドラグセイバーで受けます。", "ソードベント / 受け"),
]


def test_an_imes_number_is_said(camps):
    _got, notes = read_for_check(camps["rd"], "刃", "【行動】\nソードベント\n隙狙い位置")
    assert any("「位置」を数の1と読みました" in p.format() for p in notes)


def test_a_block_cut_off_is_asked(camps):
    """そしし at the line's end is 阻止し… cut off: 阻止する or 阻止しない — asked (it had been read 阻止する, noted only)."""
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["three"], "北岡", "【行動】\nしゅーとべんと\nこうげき れん\nそしし")
    assert "「阻止する」か「阻止しない」か決まりません" in str(caught.value)


def test_the_list_names_each_riders_weapons(tmp_path):
    """pbf list shows what a card brings out by name, so a player knows ドラグセイバー is the sword vent."""
    from pbf.systems.rider.catalogue import catalogue
    from pbf.systems.rider.data import load

    ryuki = next(r for r in catalogue(load(None), 20)["riders"] if r["id"] == "ryuki")
    assert {"id": "sword_vent", "card": "ソードベント", "names": ["ドラグセイバー", "Drag Saber"]} in ryuki["weapons"]

CORPUS_26_RIDER = [
    # a phone's katakana particle after a name in katakana says whom the move is from (it had been the attack's)
    ("three", "北岡", "【行動】ﾚﾝｶﾗ ﾄｵﾍ ｶﾞｰﾄﾞﾍﾞﾝﾄ", "遠へ: 蓮 / ガードベント"),
    # a name with its sound marks dropped after a move (ちかよる きと: whom to approach — it had been lost)
    ("three", "北岡", "【行動】\nちかよる きと\nそーと", "近寄る: 城戸 / ソードベント"),
    # 超回避's scope said as whom it is not paid for, in brackets after its label (契約獣: the monster, the advent's)
    ("three", "北岡", "【行動】\n能：AV\n避：超1（契約獣の牙には払わず）", "アドベント / 超回避 1: 本体の攻撃と庇うときだけ"),
    # an attack said as the condition of a cover is the attacker's: no attack on them (it had been read, silently)
    ("three", "城戸", "【行動】\nガードベント\n北岡さんが蓮さんを狙ったら、蓮さんを庇います。", "ガードベント / 庇う 蓮"),
    ("three", "城戸", "【行動】\nガードベント\n北岡さんを狙います", "ガードベント / 攻撃: 北岡"),
    # a correction that chooses between the cards its line before hesitated over takes back only the other
    # (the active card before and the 受動 label stay; it had taken back the ソードベント line and made ガード active)
    ("three", "城戸", "【行動】\n近寄る: 蓮\nソードベント\n攻撃: 蓮\n受動: ガードベント…あ、でもリフレクトも捨てがたい(´・ω・｀)\nやっぱりガードで！",
     "近寄る: 蓮 / ソードベント / 受動: ガードベント / 攻撃: 蓮"),
    ("three", "城戸", "【行動】近寄る / ソードベントかストライクベントか\nいや、やっぱりソード！ 攻撃: 蓮", "近寄る / ソードベント / 攻撃: 蓮"),
    ("three", "城戸", "【行動】近寄る: 蓮 / ソードベント、ストライクベント…\nやっぱりストライクで", "近寄る: 蓮 / ストライクベント"),
    # a correction of the 受動 card under its label takes back the 受動 line only (the label's concept is 受動:
    # with its colon; it had been taken for a card and the active ソードベント taken back too)
    ("three", "城戸", "【行動】\n近寄る: 蓮\nソードベント\n受動: ガードベント\nいや、やっぱり受動: リフレクトベント",
     "近寄る: 蓮 / ソードベント / 受動: リフレクトベント"),
]


def test_a_choice_between_hesitated_words_is_warned(camps):
    """The correction that chooses says which line it chose in, and an order word between the two is no choice."""
    got, notes = read_for_check(camps["three"], "城戸", "【行動】近寄る: 蓮 / ソードベント、ストライクベント…\nやっぱりストライクで")
    assert any("で迷った語のうち、後で選んだ「ストライク」を読みました" in n.format() for n in notes)
    got, notes = read_for_check(camps["three"], "城戸", "【行動】受動: 攻撃ならガードベント、アドベントならリフレクトベント\nやっぱりガードベント")
    assert not any("迷った語" in n.format() for n in notes)


@pytest.mark.parametrize("camp, player, text, canonical", CORPUS_26_RIDER + A_BULLET_IS_NO_HASHTAG + CORPUS_24_RIDER + WHAT_STAYS_24 + CORPUS_24_RIDER_MORE + CORPUS_24_RIDER_LETTERS + CORPUS_25_FIRST_FIXES + CORPUS_25_RIDER)
def test_read_as_a_gm_reads_it(camps, camp, player, text, canonical):
    """Every case above that is read as its canonical order (the lists say what each is about)."""
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


def test_a_vent_described_is_asked(camps):
    """いつものベント names no card: asked (a line of talk that says it is passed over with a warning, at most)."""
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["rd"], "城戸", "【行動】SV\nいつものベントで")
    assert "「いつものベント」は名前のないベントです" in str(caught.value)


CORPUS_27_RIDER = [
    # a name with its sound marks dropped after any move (遠へ・中へ too), or standing apart after a card (the grammar
    # had taken きと for 来+と and dropped it, silently)
    ("three", "北岡", "【行動】\nなかへ きと\nしゅーと", "中へ: 城戸 / シュートベント"),
    ("three", "北岡", "【行動】\nしゅーと れん", "シュートベント / 攻撃: 蓮"),
    ("three", "北岡", "【行動】\nしゅーと きと", "シュートベント / 攻撃: 城戸"),
    # staying said with the band and an ending, or with the card next (it had been read as a move to 近)
    ("rd", "城戸", "【行動】\nガードベント\n中距離のまま動かないね", "ガードベント"),
    ("rd", "城戸", "【行動】\n近距離のままSVで斬る", "ソードベント"),
    # a label with none: the move's, the card's, the 阻止's (移:なし, 能：無し, 阻止:×)
    ("three", "城戸", "【行動】移:なし / 能:SV / 攻:蓮", "ソードベント / 攻撃: 蓮"),
    ("three", "城戸", "【行動】移動：無し / 能動:なし / 受:GV", "受動: ガードベント"),
    ("rd", "城戸", "【行動】近寄る / 阻止:× / SV", "近寄る / 阻止しない / ソードベント"),
    # 超回避 declared as wanting the evasion raised
    ("rd", "城戸", "【行動】SV\n攻撃されたら、HPを2点使って回避をアップしたいです", "ソードベント / 超回避 2"),
    # every opponent named before 近い方・遠い方: the nearest (the farthest) of them
    ("three", "城戸", "【行動】ナイトさんとゾルダさんの遠い方から離れる\nSV", "離れる: 最も遠い相手 / ソードベント"),
    ("three", "蓮", "【行動】北岡さんか城戸さん、近いほうに近寄ります / SV", "近寄る: 最も近い相手 / ソードベント"),
    # an opponent named as the subject of an attack that is the condition (攻撃してきたら: their act; it had been
    # refused, the attack not counted as one); an attack done to them stays whom to cover
    ("rd", "城戸", "【行動】\n留まる\n刃さんが攻撃してきた時は、ガードベントで守ります", "受動: 攻撃ならガードベント"),
    ("three", "城戸", "【行動】\nガードベント\n蓮さんが攻撃されたら、私が庇います", "ガードベント / 庇う 蓮"),
    # a weapon by its English name, and by its katakana with the last long mark missed
    ("rd", "城戸", "move: stay / Drag Shield", "ガードベント"),
    ("three", "蓮", "【行動】ウイングランサ / 攻撃: 北岡", "ソードベント / 攻撃: 北岡"),
    # かーど alone on its line is ガード with its sound mark dropped (カード there says nothing)
    ("rd", "城戸", "【行動】\nはなれる\nかーど", "離れる / ガードベント"),
    # しゅとう: as close to 受動 (its marks dropped) as to シュート (its long vowel moved) — the condition and the card
    # after it say the label (it had been read as シュートベント, a second active card)
    ("three", "蓮", "【行動】\nとりっく\nしゅとう あどべんとならこんふぁいん", "トリックベント / 受動: アドベントならコンファインベント"),
    # ない after a verb no order has negates talk, not the order (it had been refused as a negation); a sentence
    # that says so of a card is talk (the card is not read)
    ("rd", "城戸", "【行動】サバイブ\nサバイブのポーズはまだ練習してないけど", "サバイブ"),
    ("three", "北岡", "【行動】シュートベント / 攻撃: 蓮\nリフレクトベントは持ってないので。", "シュートベント / 攻撃: 蓮"),
    # a verb of the attack said roughly (ぶん殴る, 叩き込む)
    ("rd", "刃", "【行動】ストライクベントで城戸さんをぶん殴ります！", "ストライクベント / 攻撃: 城戸"),
    # a band taken (中距離をとります, 遠距離とって) is the move to it; a card cut to two kana with a verb's ending written on
    # (とります) is the verb's stem — it had been トリックベント, silently
    ("three", "蓮", "【行動】\n北岡さんに対して中距離をとります。\nアドベント", "中へ: 北岡 / アドベント"),
    ("rd", "城戸", "【行動】遠距離とってストライクベント", "遠へ / ストライクベント"),
    ("three", "蓮", "【行動】\nとり / 攻撃: 北岡", "トリックベント / 攻撃: 北岡"),
    # names in order before the move are its priority list (蓮、北岡の順で近寄る had read 近寄る: 北岡 and an attack on 蓮)
    ("three", "城戸", "【行動】\n蓮さん、北岡さんの順で近寄ります\nSV", "近寄る: 蓮, 北岡 / ソードベント"),
    ("three", "城戸", "【行動】\n北丘、連の順に離れる\nSV", "離れる: 北岡, 蓮 / ソードベント"),
    # what was written said to be untrue, or apologised for, is a correction (…はウソで、 …失礼しました、)
    ("three", "城戸", "【行動】蓮さんに近寄る…はウソで、北岡さんに近寄る！SV", "近寄る: 北岡 / ソードベント"),
    # a correction of a 受動 rule said as the opponent's card and one's own takes back that rule only (相手のXにはY:
    # a 受動 rule — it had been taken for the active card, and the サバイブ before taken back with it)
    ("rd", "城戸", "【行動】サバイブ！\n相手のストライク…失礼しました、刃さんのファイナルベントにはリフレクトベントで返します。",
     "サバイブ / 受動: ファイナルベントならリフレクトベント"),
    # neither move blocked, said of the riders who make them (人も・方も), or with 止め・邪魔
    ("three", "蓮", "【行動】\n近寄ってくる人も離れていく人も阻止しません。\nSV", "阻止しない / ソードベント"),
    ("three", "蓮", "【行動】\n離れる方も近寄る方も止めません / SV", "阻止しない / ソードベント"),
]


def test_a_long_vowel_moved_is_no_very_reading():
    """The very reading (ranked before every other near miss) keeps where the long vowels are:
    しゅとう is not シュート (シュ-ー-ト), so it is as near 受動 as シュート — asked alone; がど (ー dropped) is ガード."""
    from pbf.reader import kana
    from pbf.systems.rider.data import load
    from pbf.systems.rider.rewrite import lexicon

    assert not kana.same_lengths("しゅとう", "シュート") and kana.same_lengths("がど", "ガード") and kana.same_lengths("ガアド", "ガード")
    word, near = lexicon(load(None)).correction("しゅとう")
    assert word is None and {str(w.concept) for w in near} == {"card:shoot_vent", "keyword:受動:"}


@pytest.mark.parametrize("camp, player, text, canonical", CORPUS_27_RIDER)
def test_corpus_27s_readings(camps, camp, player, text, canonical):
    got, _notes = read_for_check(camps[camp], player, text)
    assert got == canonical


def test_a_verb_stem_is_no_card(camps):
    """とります is 取ります: never トリックベント (a line of it under the order is talk, warned)."""
    got, notes = read_for_check(camps["three"], "蓮", "【行動】\nソードベント\n北岡さんの分までとります")
    assert got == "ソードベント" and any("は雑談として読みませんでした" in n.format() and n.severity == "warning" for n in notes)


def test_ones_own_name_is_no_opponent(camps):
    """城戸 writing 城戸さんのファイナルベント never reads it as 相手の (the opponent's)."""
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["rd"], "城戸", "【行動】SV\n城戸さんのファイナルベントにはリフレクトベント")
    assert "相手の" not in str(caught.value)


def test_a_card_in_a_sentence_is_no_guard(camps):
    """カード in a sentence stays a mention (only a line of it alone is read as ガード, warned)."""
    got, notes = read_for_check(camps["rd"], "城戸", "【行動】\nはなれる\nかーど")
    assert any("（濁点なし）と読み、ガードベントとしました" in n.format() for n in notes)
    got, _notes = read_for_check(camps["rd"], "城戸", "【行動】\n離れる\nカードは使いません")
    assert got == "離れる"


def test_some_of_the_opponents_nearer_is_asked(tmp_path):
    """In a battle of four, two of the three opponents' 近い方 cannot be said: asked, naming the names."""
    import contextlib
    import io

    from pbf.campaign.folder import load
    from pbf.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["new", str(tmp_path / "four"), "--system", "rider", "--player", "城戸=ryuki", "--player", "蓮=knight",
                     "--player", "北岡=zolda", "--player", "手塚=theta", "--seed", "t"]) == 0
    with pytest.raises(OrderError) as caught:
        read_for_check(load(tmp_path / "four"), "城戸", "【行動】蓮さんと北岡さん、近い方に近寄る / SV")
    assert "のうちの近い方・遠い方は書けません" in str(caught.value)
