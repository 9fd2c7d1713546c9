"""Orders read the way a GM reads them, fifth pass (issue 19): the grammar of a rider sentence found
by a morphological analyser (いたしません, だったときだけ, 使ってきた場合は), another board's labels
(能:, 移:, 受:攻→GV, 的：), a condition or a scope in brackets (受動 RV（FVのみ）, 超回避1(本体のみ)),
and a refusal that names the sentence the GM's reading could not take rather than one it read.
Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def read(camp, player, text):
    return read_for_check(camp, player, text)


def shown(notes):
    return " ".join(n.format() for n in notes)


@pytest.mark.parametrize("text, canonical", [
    # auxiliaries and light verbs janome finds: passed over as で・ます are
    ("【行動】\nガードベントをベントインしておきます。\n攻撃はいたしません。", "ガードベント / 攻撃しない"),
    ("【行動】\n近寄ります。\nソードベントを使います。\n相手がファイナルベントを使ってきた場合は、リフレクトベントで返したいと思います。",
     "近寄る / ソードベント / 受動: ファイナルベントならリフレクトベント"),
    ("【行動】\n近距離へ移動いたします。\nソードベントで斬りかかります。\n攻撃された際は受けで回避いたします。", "近へ / ソードベント / 受け"),
    # 攻撃を受けたときは: being hit is the condition, not 受け the parry
    ("【行動】\nストライクベントを使用し、攻撃力を2点マイナスして隙狙いをいたします。\n攻撃を受けたときは、HPを1点使って超回避させてください。",
     "ストライクベント / 隙狙い 1 / 超回避 1"),
])
def test_the_grammar_of_a_sentence_is_passed_over(camps, text, canonical):
    assert read(camps["rd"], "城戸", text)[0] == canonical


def test_grammar_found_is_never_a_near_miss_of_a_word(camps):
    """だっ+た+とき is grammar: no slip of 留 (it was read as one, ったと → 留)."""
    got, notes = read(camps["rd"], "城戸", "【行動】\nストライクベントを使い、近寄って攻撃します。\n"
                                          "相手の攻撃の達成値が5以上だったときだけ、HPを2点払って超回避したいです。")
    assert got == "近寄る / ストライクベント / 超回避 2: 達成値5以上なら"
    assert "留" not in shown(notes)


def test_a_negating_auxiliary_is_never_grammar_to_pass_over(camps):
    with pytest.raises(OrderError) as caught:
        read(camps["rd"], "城戸", "【行動】\nソードベントは使いませんでした")
    assert "打ち消し" in shown(caught.value.problems)


@pytest.mark.parametrize("campaign, player, text, canonical", [
    ("rd", "刃", "【行動】\n留\n能:StV\n隙1\n受:攻→GV", "ストライクベント / 受動: 攻撃ならガードベント / 隙狙い 1"),
    ("rd", "城戸", "【行動】SUR\u3000近寄り阻止×\u3000受動GV", "近寄るなら阻止しない / サバイブ / 受動: ガードベント"),
    ("three", "蓮", "【行動】近寄:最遠 / SV / 受:FV→CV / 受:AD→CV",
     "近寄る: 最も遠い相手 / ソードベント / 受動: ファイナルベントならコンファインベント / 受動: アドベントならコンファインベント"),
    ("three", "北岡", "【行動】留／FV／的：城戸＞蓮", "ファイナルベント / 攻撃: 城戸, 蓮"),
    ("three", "城戸", "行動：ナイトに寄る／SV／受:攻→GV／庇う北岡", "近寄る: 蓮 / ソードベント / 受動: 攻撃ならガードベント / 庇う 北岡"),
])
def test_another_boards_labels_and_shorthand(camps, campaign, player, text, canonical):
    got, _notes = read(camps[campaign], player, text)
    assert sorted(got.split(" / ")) == sorted(canonical.split(" / "))


@pytest.mark.parametrize("text, canonical", [
    ("【行動】FV\n受動 RV（FVのみ）", "ファイナルベント / 受動: ファイナルベントならリフレクトベント"),
    ("【行動】SV / 受動 GV（FVの時）", "ソードベント / 受動: ファイナルベントならガードベント"),
    ("【行動】AD\n超回避1(本体のみ)", "アドベント / 超回避 1: 本体の攻撃だけ"),
    ("【行動】AD / 超回避 2（アドベント以外）", "アドベント / 超回避 2: 本体の攻撃と庇うときだけ"),
])
def test_a_condition_or_a_scope_in_brackets_is_read(camps, text, canonical):
    got, notes = read(camps["rd"], "城戸", text)
    assert got == canonical
    assert not any(n.severity == "warning" for n in notes), shown(notes)


@pytest.mark.parametrize("player, text, move", [("蓮", "【行動】\n移:近(ゾルダ)\n能:NV\n対象:ゾルダ", "近寄る: 北岡"),
                                                ("城戸", "【行動】近:ゾルダ/SV/受:FVならRV", "近寄る: 北岡"),
                                                ("蓮", "【行動】トリック/近:最も遠い相手", "近寄る: 最も遠い相手"),
                                                ("城戸", "【行動】近:北岡,蓮/ストライク", "近寄る: 北岡, 蓮")])
def test_near_written_as_one_kanji_with_a_name_is_the_move_toward_them(camps, player, text, move):
    got, notes = read(camps["three"], player, text)
    assert move in got.split(" / ")
    assert any("「近」を「近寄る」" in n.format() for n in notes)


def test_the_refusal_names_the_sentence_the_reading_could_not_take(camps):
    """The order language stops at the first sentence (ガードベントを使います); the GM's reading
    reads it and stops at the real problem, which is the one named — as the player wrote it."""
    with pytest.raises(OrderError) as caught:
        read(camps["three"], "城戸", "【行動】\nガードベントを使います。\n北岡さんが狙われた場合はこっそり庇いたいです。")
    first = caught.value.problems[0]
    assert first.line == 3
    assert "ガードベント" not in (first.text or "")
    with pytest.raises(OrderError) as caught:  # a word inside one the order language named is not further
        read(camps["rd"], "刃", "ソードメンチ")
    assert caught.value.problems[0].text == "ソードメンチ"


@pytest.mark.parametrize("campaign, player, text, canonical, note", [
    # the kana after a kanji word are its okurigana: 地下+よる is an IME's ちかよる, read by its reading
    ("rd", "城戸", "【行動】\n最も遠い相手に地下よる / アドベンド", "近寄る: 最も遠い相手 / アドベント", "「地下よる」を「近寄る」と読みました"),
    # 超回避's scope after a colon goes on as written, whatever the keyword's slip
    ("three", "蓮", "【行動】近寄る:最も遠い相手 トリック 超回1:庇うときだけ",
     "近寄る: 最も遠い相手 / トリックベント / 超回避 1: 庇うときだけ", "「超回」を「超回避」と読みました"),
])
def test_a_slip_with_its_okurigana_and_a_scope_after_a_slip(camps, campaign, player, text, canonical, note):
    got, notes = read(camps[campaign], player, text)
    assert got == canonical
    assert note in shown(notes)


def test_a_verb_form_inside_a_word_of_talk_is_no_move(camps):
    """積ん+どきます (積んでおきます) holds no どく (退く, 離れる): the kana go with the kanji before them."""
    from pbf.reader.scan import resolve_unknowns, scan
    from pbf.reader.text import Text
    from pbf.systems.rider.rewrite import lexicon

    src = Text("まずはバフだけ積んどきます")
    lex = lexicon(camps["rd"].ctx.data)
    tokens = resolve_unknowns(scan(src, lex, readings=True), src, lex, grammar=True)
    assert not any(t.word is not None and t.word.concept == "head:離れる" for t in tokens)


@pytest.mark.parametrize("player, text, canonical, note", [
    ("楓", "【行動】前進2階", "→→", "「階」を「回」と読みました"),  # an IME's 回 after a count
    ("美鈴", "【行動】ぜんしん2かい\u3000えなじーきゃのん", "→→↑→弱", "「かい」を「回」と読みました"),
    ("楓", "【行動】強攻撃←これでどうだ", "強", "「←これでどうだ」は注釈として読みませんでした"),  # a pointer, not 後退
    ("美鈴", "【行動】1.前進\u30002.前進\u30003.ガード\nの順でお願いします。", "→→←", "「1.」は注釈として読みませんでした"),
])
def test_alterego_counts_pointers_and_numbered_steps(camps, player, text, canonical, note):
    got, notes = read(camps["ae"], player, text)
    assert got == canonical
    assert note in shown(notes)


def test_a_card_in_a_cancel_is_no_step_number(camps):
    assert read(camps["ae"], "美鈴", "【行動】弱 C(弱 6) 弱")[0] == "弱C(弱→)弱"


def test_a_remark_that_ends_as_talk_is_talk_with_its_order_words_warned(camps):
    got, notes = read(camps["ae"], "美鈴", "うーん悩む…\n【行動】←（ビビりガード笑）")
    assert got == "←"
    assert any(n.severity == "warning" and "「ガード」は行動に入れていません" in n.format() for n in notes)


def test_a_pointer_is_passed_over_in_a_rider_order_too(camps):
    got, notes = read(camps["rd"], "城戸", "【行動】近寄る / ソードベント ←これでどうだ")
    assert got == "近寄る / ソードベント"


@pytest.mark.parametrize("text, canonical, note", [
    # a way to move and a band in one sentence: the band says where
    ("【行動】少し下がって、中距離で様子を見ます。", "中へ", "を一つの移動「中へ」と読みました"),
    # the pool, then the verb of evading
    ("うわ、HPやばいｗｗ\n【行動】遠へ\u3000ガードベント\u3000防御で避ける←これで耐える！", "遠へ / ガードベント / 回避: 防御力",
     "「←これで耐える！」は注釈として読みませんでした"),
    # 隙狙い's effect said in brackets after the 隙狙い: the same, once
    ("了解！\n行動：近寄る／ストライクベント／隙狙い1\n（隙狙いで防御を1点抜きます）", "近寄る / ストライクベント / 隙狙い 1", ""),
])
def test_one_move_one_evasion_one_aim(camps, text, canonical, note):
    got, notes = read(camps["rd"], "城戸", text)
    assert got == canonical
    assert note in shown(notes)


@pytest.mark.parametrize("text", ["【行動】近寄る / 遠へ", "【行動】近寄って遠へ"])
def test_two_moves_that_disagree_or_are_written_apart_stay_two(camps, text):
    with pytest.raises(OrderError):
        read(camps["rd"], "城戸", text)


def test_a_card_cut_short_is_read_only_as_written(camps):
    """サバ and サバイ are サバイブ as written; ヤバイ is no slip of them (chat before the marker)."""
    assert read(camps["rd"], "城戸", "【行動】サバ")[0] == "サバイブ"
    got, notes = read(camps["rd"], "城戸", "やばい\n【行動】近寄る")
    assert got == "近寄る" and "サバイブ" not in shown(notes)
