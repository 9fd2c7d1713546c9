"""Orders read the way a GM reads them, seventh pass (issue 19): a later line of talk that holds an
order word (初手から殴りにいきますｗ under the order) passed over with a warning when the post reads
without it, and 超回避 said in a newcomer's words (回避のときはHPを1点使って…, ただ、アドベントの攻撃には
使わないでください). Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def read(camp, player, text):
    return read_for_check(camp, player, text)


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


@pytest.mark.parametrize("text, canonical", [
    ("【行動】ストライクベントで隙狙い1\n初手から殴りにいきますｗ", "ストライクベント / 隙狙い 1"),
    ("【行動】\n留まる\nガードベント\n\nあ、今回はFVまだ温存で。あとでドカンといきます", "ガードベント"),
    ("【行動】ソードベント/受け\n【GMさんへ】受けの判定よろしくです～", "ソードベント / 受け"),
    ("【行動】アドベント / 受動: 攻撃ならソードベント / 受け\n受けはそのソードでやります", "アドベント / 受動: 攻撃ならソードベント / 受け"),
])
def test_a_later_line_of_talk_is_passed_over_with_a_warning(camps, text, canonical):
    got, notes = read(camps["rd"], "城戸" if "FV" in text or "アドベント" in text else "刃", text)
    assert got == canonical
    talk = [w for w in warned(notes) if "雑談として読みませんでした" in w]
    assert len(talk) == 1 and "行動として読めないので" in talk[0]


@pytest.mark.parametrize("text", [
    "【行動】ソードベント\nやっぱりストライクにするわｗ",  # a correction
    "【行動】ソードベント\n阻止しないのは近づく時だけね",  # a condition
    "【行動】ソードベント\n今回は攻撃なしでｗ",  # a negation
])
def test_a_later_line_that_may_change_the_order_is_never_passed_over(camps, text):
    """What a line of talk may hold that changes the order above: a correction, a condition or a
    scope, a negation. Such a line is read or refused, never passed over as chat."""
    try:
        got, notes = read(camps["rd"], "城戸", text)
    except OrderError:
        return
    assert not any("行動として読めないので" in n.format() for n in notes), got


def test_among_three_a_line_of_talk_that_names_a_fighter_is_not_passed_over(camps):
    """Among three or more a name may say whom the order is against: such a line is no talk."""
    text = "【行動】ソードベント\n北岡優先でいくぜ…"
    try:
        got, notes = read(camps["three"], "城戸", text)
    except OrderError:
        return
    assert not any("行動として読めないので" in n.format() for n in notes), got


@pytest.mark.parametrize("text, canonical", [
    ("【行動】トリックベントを使います。回避のときはHPを1点使って超回避します。", "トリックベント / 超回避 1"),
    ("【行動】回避のときにHPを2点使います。", "超回避 2"),
    ("【行動】\nその場に留まって、ストライクベントを使います。\n隙狙いで相手の防御力を1点無視したいです。", "ストライクベント / 隙狙い 1"),
    ("【行動】\n回避のときはHPを2点使って超回避します。ただ、アドベントの攻撃には使わないでください。",
     "超回避 2: 本体の攻撃と庇うときだけ"),
    ("【行動】ソードベント\n超回避は2点でお願いします。ただ、アドベントの攻撃には使わないでください。",
     "ソードベント / 超回避 2: 本体の攻撃と庇うときだけ"),
])
def test_super_evasion_and_aim_in_a_newcomers_words(camps, text, canonical):
    got, _notes = read(camps["rd"], "城戸" if "ストライク" in text or "ソード" in text or "HPを2" in text else "刃", text)
    assert got == canonical


def test_a_band_read_by_its_reading_keeps_its_line_an_order(camps):
    """城戸から十へ: 十へ is 遠へ by its reading, so the line is a move from 城戸 — never a line of
    chat that happens to name a fighter (which dropped the move)."""
    got, _notes = read(camps["three"], "北岡", "【行動】\n城戸から十へ\nシュートベント\n攻撃：城戸、蓮")
    assert got == "遠へ: 城戸 / シュートベント / 攻撃: 城戸, 蓮"


def test_a_question_in_brackets_is_an_aside_even_of_known_words(camps):
    """（受けってソードベント中だけだよね？）: its 中 was read as 中へ."""
    got, notes = read(camps["rd"], "城戸", "【行動】\n留まる\nソードベント\n受け\n（受けってソードベント中だけだよね？）")
    assert got == "ソードベント / 受け"
    assert any("括弧の外" in w for w in warned(notes))


def test_romaji_particles_after_a_name(camps):
    got, _notes = read(camps["three"], "北岡", "koudou: Move Vent / Ren kara tooku e / judou: kougeki nara Guard Vent")
    assert got == "遠へ: 蓮 / ムーブベント / 受動: 攻撃ならガードベント"
    got, _notes = read(camps["three"], "北岡", "Ren ni chikayoru / Sword Vent")
    assert got.startswith("近寄る: 蓮 / ソードベント")


@pytest.mark.parametrize("camp, player, text, canonical", [
    ("rd", "刃", "sorry, no IME on this PC\n[koudou]\ntomaru / sword vent / judou: kougeki nara guard vent",
     "ソードベント / 受動: 攻撃ならガードベント"),
    ("ae", "美鈴", "Hi all, first time here. Typing from the office, sorry.\nkoudou: energy cannon", "↑→弱"),
    ("ae", "美鈴", "dist 2 and heavy has reach 2, so\norder: heavy", "強"),
    ("ae", "美鈴", "[Action] L L", "弱弱"),
])
def test_the_marker_typed_without_an_ime(camps, camp, player, text, canonical):
    """koudou:, [action], order: at the start of a line are the marker: the chat before is passed over."""
    got, notes = read(camps[camp], player, text)
    assert got == canonical
    assert any("として読みました（目印は【行動】です）" in n.format() for n in notes)


def test_the_marker_typed_in_a_sentence_is_not_one(camps):
    with pytest.raises(OrderError):
        read(camps["ae"], "美鈴", "I gave an order: no idea")


def test_a_count_in_kana_before_its_counter(camps):
    """前進に回して投げ: an IME left 2 as に — read as 2回, noted; a 回 with no number is asked."""
    got, notes = read(camps["ae"], "美鈴", "【行動】前進に回して投げ")
    assert got == "→→弱強"
    assert any("「2回」と読みました" in n.format() for n in notes)
    with pytest.raises(OrderError, match="数が書かれていません"):
        read(camps["ae"], "美鈴", "【行動】前進回して投げ")


def test_a_kana_alone_at_the_end_is_a_word_cut_short(camps):
    """ぜんしん　ぜんしん　な: the な was passed over as a particle; a post sent half-typed is asked."""
    with pytest.raises(OrderError, match="途中で切れている"):
        read(camps["ae"], "美鈴", "【行動】ぜんしん　ぜんしん　な")
    assert read(camps["ae"], "美鈴", "【行動】弱弱で")[0] == "弱弱"


def test_a_greater_than_between_words_is_asked(camps):
    """jump > light: > may be the → card (↑→弱) or "then" (↑弱): asked, as after an attack."""
    with pytest.raises(OrderError, match="とも「次に」とも読めます"):
        read(camps["ae"], "美鈴", "【行動】jump > light")


@pytest.mark.parametrize("text, canonical", [
    ("【行動】\n北岡さんに近づきます。\nソードベントを使って、北岡さんを攻撃します。\n北岡さんが近くにいなければ城戸さんを攻撃します。",
     "近寄る: 北岡 / ソードベント / 攻撃: 北岡, 城戸"),
    ("【行動】\n城戸さんに近寄ります。\nソードベントで攻撃します。\n城戸さんに届かなければ北岡さんを攻撃します。",
     "近寄る: 城戸 / ソードベント / 攻撃: 城戸, 北岡"),
    ("【行動】\n北岡さんに近寄ります。近寄れなければ城戸さんに近寄ります。\nトリックベントを使います。",
     "近寄る: 北岡, 城戸 / トリックベント"),
])
def test_the_next_target_said_as_a_second_clause_after_a_fallback(camps, text, canonical):
    """A second 攻撃 (or the same move) after 届かなければ / いなければ / 近寄れなければ is the next in the list
    (it was refused as 「攻撃対象」が2回; 近くにいなければ was read as a move 近へ)."""
    assert read(camps["three"], "蓮", text)[0] == canonical


def test_two_targets_without_a_fallback_are_still_refused(camps):
    with pytest.raises(OrderError, match="2回書かれています"):
        read(camps["three"], "蓮", "【行動】ソードベント\n攻撃：北岡\n攻撃：城戸")


def test_what_the_opponent_does_ends_with_its_sentence(camps):
    """相手の移動は阻止しません。\\nガードベントを使います: the card was read as the opponent's (受動: ガードベントなら)."""
    assert read(camps["rd"], "城戸", "【行動】\n相手の移動は阻止しません。\nガードベントを使います。")[0] == "阻止しない / ガードベント"


def test_the_opponents_name_and_no_in_a_duel(camps):
    got, notes = read(camps["rd"], "城戸", "【行動】\n刃さんの移動は阻止しません。\nガードベントを使います。\n回避は防御力でお願いします。")
    assert got == "阻止しない / ガードベント / 回避: 防御力"
    assert any("「相手の」と読みました" in n.format() for n in notes)
    got, _notes = read(camps["rd"], "城戸", "【行動】\nサバイブを使います。\n刃さんのファイナルベントにはリフレクトベントで返します。")
    assert got == "サバイブ / 受動: ファイナルベントならリフレクトベント"


@pytest.mark.parametrize("text", ["【行動】\n近距離のまま留まります。\nサバイブを使います。",
                                  "【行動】\n距離は近いままで、サバイブを使います。"])
def test_at_a_band_as_it_is_is_staying(camps, text):
    """近距離のまま was read as 近へ (a move); where they are is no move."""
    got, notes = read(camps["rd"], "城戸", text)
    assert got == "サバイブ"
    assert any("「留まる」（今の距離のまま）" in n.format() for n in notes)


def test_a_monsters_weapon_is_its_advent(camps):
    got, _notes = read(camps["rd"], "城戸", "【行動】\n中距離まで離れます。\nアドベントで、ドラグレッダーに火炎弾を撃ってもらいます。")
    assert got == "中へ / アドベント"


@pytest.mark.parametrize("text, clause", [
    ("【行動】シュートベント\nHPを1点使って超回避しますが、本体の攻撃のときだけにしてください。", "超回避 1: 本体の攻撃だけ"),
    ("【行動】アドベント\n超回避はHPを1点使いますが、本体の攻撃のときだけにします。", "超回避 1: 本体の攻撃だけ"),
    ("【行動】ストライクベント\nHPを2点使って超回避します。ただし相手の達成値が5以上のときだけにします。", "超回避 2: 達成値5以上なら"),
])
def test_super_evasions_scope_and_threshold_said_in_a_sentence(camps, text, clause):
    got, notes = read(camps["three"], "北岡" if "シュート" in text else "城戸", text)
    assert clause in got.split(" / ")
    assert not any("だけにし" in n.format() for n in notes)  # read whole, never passed over in part


@pytest.mark.parametrize("text, clause", [
    ("【行動】SV\n超回1:AV以外", "超回避 1: 本体の攻撃と庇うときだけ"),
    ("【行動】SV\n超回避１：アドベント意外", "超回避 1: 本体の攻撃と庇うときだけ"),
    ("【行動】GV / kaihi: bougyoryoku / chou kaihi 2: hontai no kougeki dake", "超回避 2: 本体の攻撃だけ"),
    ("【行動】すとらいく すきねらい1 ちょうかいひ1 ほんたいだけ", "超回避 1: 本体の攻撃だけ"),
])
def test_super_evasions_scope_as_phones_and_boards_write_it(camps, text, clause):
    """AV for アドベント, 意外 (an IME's 以外, noted), ほんたい, romaji (its "no" is の, not a negation)."""
    got, notes = read(camps["rd"], "城戸", text)
    assert clause in got.split(" / ")
    if "意外" in text:
        assert any("を「以外」と読みました" in n.format() for n in notes)


def test_a_later_line_saying_the_technique_again_is_not_a_second_card(camps):
    """ジャンプ\\nとりあえずジャンプだけしておきます。…: the jump was read twice (↑↑)."""
    got, _notes = read(camps["ae"], "美鈴", "【行動】ジャンプ\nとりあえずジャンプだけしておきます。空中では攻撃をかわせると聞きましたので。")
    assert got == "↑"


@pytest.mark.parametrize("text, canonical", [
    ("【行動】↑→弱\nキャノン撃ちまーす", "↑→弱"),
    ("あ、行動は弱弱でおねがいしまーす！", "弱弱"),
])
def test_an_ending_drawn_out_and_an_interjection(camps, text, canonical):
    assert read(camps["ae"], "美鈴", text)[0] == canonical


def test_a_joke_after_the_order_is_warned(camps):
    """対空\\nなんちゃって: just kidding — the order is read, with a warning that it may be taken back."""
    got, notes = read(camps["ae"], "美鈴", "【行動】対空\nなんちゃって")
    assert got == "↑弱"
    assert any("冗談" in w for w in warned(notes))


@pytest.mark.parametrize("player, text, canonical", [
    ("蓮", "【行動】アドベント\nガードベントは攻撃されたときに使います。", "アドベント / 受動: 攻撃ならガードベント"),
    ("北岡", "【行動】離:最近／MV／受:攻撃ならGV", "離れる: 最も近い相手 / ムーブベント / 受動: 攻撃ならガードベント"),
    ("蓮", "【行動】\nトリックベントを使います。\n移動はしないで、近くにいる人を攻撃します。", "トリックベント"),
    ("蓮", "【行動】ソードベント\n攻撃：最も近い相手", "ソードベント"),
])
def test_a_passive_card_then_its_condition_the_nearest_and_no_move(camps, player, text, canonical):
    """The 受動 card before the attack it answers; 最近 beside 最遠; 移動はしないで as staying; the nearest
    as whom to attack is the attack's own default."""
    assert read(camps["three"], player, text)[0] == canonical


@pytest.mark.parametrize("text, card", [("【行動】 とりっく べんと  すきねらい１", "トリックベント"),
                                        ("【行動】すとらいく べんと", "ストライクベント")])
def test_a_card_typed_in_kana_with_a_space_inside(camps, text, card):
    """とりっく + べん+と: the scanner read the と as a particle, so the two halves were never joined."""
    got, notes = read(camps["rd"], "刃", text)
    assert got.split(" / ")[0] == card
    assert any(f"を「{card}」と読みました" in n.format() for n in notes)


@pytest.mark.parametrize("text, canonical", [
    ("[action] mae jump, jaku, jaku", "↑→|弱弱"),  # the words named apart: two techniques (the ruling of jump forward, light)
    ("koudou: ushiro jump, energy cannon", "↑←|↑→弱"),
    ("【行動】前ジャンプ凶攻撃", "↑→強"),
    ("GMさんいつもありがとうございます🙏\n【行動】ジャンプ\n（何もしないジャンプ）ｗ", "↑"),
    ("今回の行動は、前ジャンプのあと強攻撃にします。強攻撃の後ろは書かない方がいいと読みましたので、これだけです。", "↑→強"),
])
def test_corpus_thirteens_misreads(camps, text, canonical):
    """Corpus 13's first reading: mae jump (romaji and English) was → then ↑; 前ジャンプ凶攻撃 was corrected
    to 前ジャンプ, its 凶攻撃 dropped; a line in brackets under the plot and a later sentence that names
    the plot's technique again were read as more cards."""
    got, _notes = read(camps["ae"], "美鈴", text)
    assert got.replace("|", "") == canonical.replace("|", "")


def test_a_weapons_reach_is_no_move(camps):
    """火炎弾は中距離まで届くので: 中距離まで was read as the move 中へ."""
    got, notes = read(camps["three"], "城戸", "【行動】\nアドベントを使います。ドラグレッダーの火炎弾は中距離まで届くので、移動はしません。\n攻撃は北岡さんを狙います。")
    assert got == "アドベント / 攻撃: 北岡"
    assert any("中距離まで届くので" in w for w in warned(notes))


def test_whom_a_move_is_against_said_in_brackets(camps):
    """中距離に行きます（相手は北岡さんです）: the remark was passed over, and the move had no one."""
    got, _notes = read(camps["three"], "蓮", "【行動】\n中距離に行きます（相手は北岡さんです）。\nアドベントを使います。")
    assert got.startswith("中へ: 北岡 / アドベント")


@pytest.mark.parametrize("text, canonical", [
    ("【行動】4（離）／GV／受:FV→RV／阻止×", "離れる / 阻止しない / ガードベント / 受動: ファイナルベントならリフレクトベント"),
    ("【行動】移動5\u3000AV\u3000受:攻→SV", "アドベント / 受動: 攻撃ならソードベント"),
    ("【行動】5(留)／ストライク", "ストライクベント"),
])
def test_a_numpad_move_said_with_its_word_or_label(camps, text, canonical):
    """A fighting game's numpad (4 back, 5 neutral, 6 forward), only with the move in brackets after
    it or after 移動 (a digit alone is a count): noted."""
    got, notes = read(camps["rd"], "城戸", text)
    assert got == canonical
    assert any("テンキーの" in n.format() for n in notes)


def test_a_numpad_digit_whose_word_disagrees_is_not_a_move(camps):
    with pytest.raises(OrderError):
        read(camps["rd"], "城戸", "【行動】4（近）／ソードベント")


def test_the_passive_of_an_attack_verb_is_the_condition(camps):
    assert read(camps["rd"], "城戸", "【行動】留／GV／受:殴られたらRV")[0] == "ガードベント / 受動: 攻撃ならリフレクトベント"


def test_an_imes_kanji_between_card_symbols(camps):
    got, notes = read(camps["ae"], "美鈴", "【行動】↑→若")
    assert got == "↑→弱"
    assert any("「若」を「弱」と読みました" in n.format() for n in notes)


def test_a_line_of_talk_that_names_a_card_of_its_own_is_never_passed_over(camps):
    """ストライクベントで殴りかかりまーす under the order names a card the rest does not: it may be
    more of the order, so it is read or refused, never passed over as talk."""
    try:
        got, notes = read(camps["rd"], "城戸", "【行動】近寄る\n隙狙い位置\nストライクベントで殴りかかりまーす")
    except OrderError:
        return
    assert "ストライクベント" in got, got


def test_among_three_talk_about_a_fighters_thing_is_talk(camps):
    """城戸さんの足止めしとくわｗ: 城戸さんの says whose, not whom — passed over as talk, warned."""
    got, notes = read(camps["three"], "蓮", "【行動】ナスティベント／攻撃：城戸\n城戸さんの足止めしとくわｗ")
    assert got == "ナスティベント / 攻撃: 城戸"
    assert any("行動として読めないので" in w for w in warned(notes))


@pytest.mark.parametrize("player, text, clause", [
    ("蓮", "【行動】トリックベントを使います。\n超回避は本体の攻撃のときだけ、1点使います。", "超回避 1: 本体の攻撃だけ"),
    ("城戸", "【行動】ストライクベント\n超回避は、相手の達成値が5以上のときだけ2点使います。", "超回避 2: 達成値5以上なら"),
    ("城戸", "【行動】\nストライクベントで攻撃します。防御力を1点無視するために隙狙い1にします。", "隙狙い 1"),
])
def test_super_evasions_condition_said_before_its_cost(camps, player, text, clause):
    assert clause in read(camps["three"], player, text)[0].split(" / ")


@pytest.mark.parametrize("game, player, text, canonical", [
    ("rd", "城戸", "【行動】\nサバイブを使います。\n相手のファイナルベントにはリフレクトベントで返します。\n防御力ではなく運動性で回避します。",
     "サバイブ / 受動: ファイナルベントならリフレクトベント / 回避: 運動性"),  # ではなく took back the whole order
    ("rd", "城戸", "【行動】\n仲へ\nアドベント", "中へ / アドベント"),  # the corrected band's sentence was dropped
    ("rd", "城戸", "【行動】留(近)/ストライク/受:攻撃ならGV/超回避1", "ストライクベント / 受動: 攻撃ならガードベント / 超回避 1"),
    ("ae", "美鈴", "【行動】ガード、前進、弱攻撃\n一度守ってから前に出ます。", "←→弱"),
    ("ae", "美鈴", "うわ読まれてるｗｗｗ\n【行動】←\nガード固めときます( ´∀｀)", "←"),
    ("ae", "美鈴", "【行動】↑←\nバクジャンで様子見ですわ", "↑←"),
    ("ae", "美鈴", ">>12 それな\n【行動】後ろジャンプ\n逃げるが勝ちｗ", "↑←"),
])
def test_corpus_fourteens_misreads(camps, game, player, text, canonical):
    """Corpus 14's first reading: a contrast (AではなくB) took back everything before it; a corrected
    band alone on its line was dropped; 留(近) was read as 近へ; a later line saying the plot again in
    other words (守って, 固め, バクジャン, 逃げる) was read as more cards."""
    assert read(camps[game], player, text)[0] == canonical


@pytest.mark.parametrize("text", ["【行動】前進して\n（すみません、途中で送信してしまいました。続きはあとで書きます）",
                                  "【行動】まえ\nあ まちがえた ごめ"])
def test_a_post_that_says_it_is_unfinished_or_wrong_is_warned(camps, text):
    got, notes = read(camps["ae"], "美鈴", text)
    assert got == "→"
    assert any("書きかけか間違い" in w for w in warned(notes))


def test_a_passive_card_is_another_cards_answer(camps):
    """ｺﾝﾌｧｲﾝはﾌｧｲﾅﾙなら: the 受動 card, は, the card it answers (its なら was read with the ソード after it)."""
    got, _notes = read(camps["three"], "蓮", "【行動】ｺﾝﾌｧｲﾝはﾌｧｲﾅﾙなら  ｿｰﾄﾞ  きたおかにちかよる")
    assert got == "近寄る: 北岡 / ソードベント / 受動: ファイナルベントならコンファインベント"
