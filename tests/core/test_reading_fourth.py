"""Orders read the way a GM reads them, fourth pass (issue 19): a sentence under an Alter EGO
plot that talks about it, a sound mark missed on the kana of a kanji word (投け), a heading
converted by its reading (農道：), and kana an IME left after a kanji at a word's end (ガード弁と,
内と). Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.turn.check import read_for_check
from pbf.errors import OrderError


def read(camp, player, text):
    return read_for_check(camp, player, text)


def shown(notes):
    return " ".join(n.format() for n in notes)


@pytest.mark.parametrize("text, canonical, passed", [
    ("【行動】↑→弱\n来ターンはガードかなぁ", "↑→弱", "「ガード」は行動に入れていません"),
    ("【行動】弱→→弱強\n前回の投げのお返しです", "弱→→弱強", "「投げ」は行動に入れていません"),
])
def test_a_sentence_under_the_plot_is_about_it_and_warned(camps, text, canonical, passed):
    got, notes = read(camps["ae"], "楓", text)
    assert got == canonical
    assert passed in shown(notes)
    assert any(n.severity == "warning" for n in notes)


@pytest.mark.parametrize("text", ["【行動】弱弱\n強攻撃をためます", "【行動】弱\n強 ためる"])
def test_a_later_line_mostly_of_order_words_is_still_part_of_the_order(camps, text):
    """A word pbf does not know among order words is a problem to name, not talk to pass over."""
    with pytest.raises(OrderError):
        read(camps["ae"], "楓", text)


def test_a_rider_order_goes_on_over_its_lines(camps):
    """The rider game's order is often a line a clause: a later line is never passed over for
    the words around its names."""
    got, _ = read(camps["three"], "城戸", "【行動】\n近寄る：ナイト\nソードベント\n攻撃：ナイト\n蓮、今度こそ決着つけようぜ")
    assert got == "近寄る: 蓮 / ソードベント / 攻撃: 蓮"


@pytest.mark.parametrize("text, canonical", [
    ("投け", "弱強"),
    ("前進 前進 投け", "→→弱強"),
])
def test_a_sound_mark_missed_on_the_kana_of_a_kanji_word(camps, text, canonical):
    got, notes = read(camps["ae"], "楓", text)
    assert got == canonical
    assert "「投け」を「投げ」と読みました" in shown(notes)


def test_a_sound_mark_is_no_slip_of_another_kanji():
    from pbf.reader import kana

    assert kana.bare("投け") == kana.bare("投げ")
    assert kana.bare("投け") != kana.bare("設け")


@pytest.mark.parametrize("text, canonical, heading", [
    ("【行動】農道：アドベント", "アドベント", "「農道」を「能動」と読みました"),
    ("【行動】移動：中　脳動：ストライクベント", "中へ / ストライクベント", "「脳動」を「能動」と読みました"),
])
def test_a_heading_converted_by_its_reading(camps, text, canonical, heading):
    got, notes = read(camps["rd"], "城戸", text)
    assert got == canonical
    assert heading in shown(notes)


def test_a_word_of_that_reading_without_a_colon_is_no_heading(camps):
    with pytest.raises(OrderError):
        read(camps["rd"], "城戸", "【行動】農道 アドベント")


@pytest.mark.parametrize("camp, player, text, canonical, note", [
    ("rd", "城戸", "【行動】遠へ　攻撃されたらガード弁と", "遠へ / 受動: 攻撃ならガードベント", "「ガード弁と」を「ガードベント」"),
    ("three", "北岡", "【行動】ムーブ弁と　最も近い相手から離れる", "離れる: 最も近い相手 / ムーブベント", "「ムーブ弁と」を「ムーブベント」"),
    ("three", "北岡", "【行動】シュートベンド　攻撃：内と", "シュートベント / 攻撃: 蓮", "「内と」を「蓮（ナイト）」"),
])
def test_kana_an_ime_left_after_a_kanji_at_a_words_end(camps, camp, player, text, canonical, note):
    got, notes = read(camps[camp], player, text)
    assert got == canonical
    assert note in shown(notes)


@pytest.mark.parametrize("camp, player, text, canonical, note", [
    ("ae", "楓", "【行動】若攻撃２回", "弱弱", None),  # 若 read ジャク as well as ワカ: the same reading as 弱
    ("ae", "楓", "【行動】耐空 耐空", "↑弱↑弱", None),  # 耐: janome has no word of it alone
    ("ae", "楓", "【行動】全身　全身　若", "→→弱", "「若」を「弱」と読みました"),  # one kanji alone, for the card
    ("three", "蓮", "【行動】授動：ファイナルベントならコンファインベント", "受動: ファイナルベントならコンファインベント",
     "「授動」を「受動」と読みました"),
])
def test_a_kanji_of_the_same_reading_is_an_ime_slip(camps, camp, player, text, canonical, note):
    got, notes = read(camps[camp], player, text)
    assert got == canonical
    if note:
        assert note in shown(notes)


@pytest.mark.parametrize("text", ["【行動】超回避2で！お願い当たらないで", "【行動】今回は攻撃をしないで、様子を見ます。"])
def test_a_kanji_inside_a_sentence_is_no_card_of_its_reading(camps, text):
    """当 (アタ) is 中 (アタる) and 見 (ケン) is 剣 by a reading — but only a kanji standing alone
    is read for a word of its reading: inside a sentence it is part of a word."""
    try:
        got, notes = read(camps["rd"], "城戸", text)
    except OrderError as exc:
        assert "中へ" not in str(exc) and "ソードベント" not in str(exc)
        return
    assert "中へ" not in got and "ソードベント" not in got


def test_the_kanji_table_holds_the_readings_an_ime_keeps():
    from pbf.reader import kanji

    assert "ジャク" in kanji.readings("若") and "ワカ" in kanji.readings("若")
    assert kanji.readings("耐")[0] == "タイ"
    assert "ジュ" in kanji.readings("授") and "ドウ" in kanji.readings("働")
    assert kanji.readings("a") == ()


def test_the_shipped_kanji_table_is_what_the_script_makes(tmp_path):
    """``python -m pbf.reader.kanji`` remakes kanji.tsv from janome's dictionary: the file in the
    package is exactly what it makes (no hand edits, and a janome that reads otherwise is seen)."""
    from pbf.reader import kanji

    made = tmp_path / "kanji.tsv"
    kanji.write(made)
    assert made.read_bytes() == kanji.TABLE.read_bytes()


def test_readings_are_the_same_whatever_the_hash_seed():
    """A reading never depends on the order of a set (janome's dictionary lookup, Python's string
    hashes): the same post reads the same in every process."""
    import os
    import subprocess
    import sys

    script = ("from pbf.reader import kana; "
              "print(sorted(kana.readings('彩光蓮')), sorted(kana.readings('採光連華掌')), sorted(kana.readings('若攻撃')))")
    seen = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in (1, 2, 3)}
    assert len(seen) == 1


@pytest.mark.parametrize("player, text, canonical, note", [
    ("美鈴", "【行動】彩光蓮華掌を出します。ゲージが3たまっているはずなので大丈夫だと思います。", "→←強",
     "「ゲージが3たまっているはずなので大丈夫だと思います」は雑談として読みませんでした"),
    ("楓", "【行動】朧月を使います。外れたら恥ずかしいですが…。", "←→強", "「外れたら恥ずかしいですが…」は雑談"),
    ("楓", "【行動】弱弱。来ターンは投げかな", "弱弱", "「投げ」は行動に入れていません"),
])
def test_a_sentence_after_the_plot_that_talks_about_it(camps, player, text, canonical, note):
    got, notes = read(camps["ae"], player, text)
    assert got == canonical
    assert note in shown(notes)


@pytest.mark.parametrize("text, canonical", [("【行動】前進。じゃんぶ", "→↑"), ("【行動】弱。弱　強", "弱弱強")])
def test_a_later_sentence_of_order_words_or_near_misses_is_still_the_order(camps, text, canonical):
    assert read(camps["ae"], "楓", text)[0] == canonical


@pytest.mark.parametrize("player, text, canonical", [
    ("北岡", "【行動】一番近い人から離れます。シュートベントを使って、龍騎さん、ナイトさんの順で狙います。",
     "離れる: 最も近い相手 / シュートベント / 攻撃: 城戸, 蓮"),
    ("北岡", "【行動】ファイナルベントで、ナイトと龍騎を両方狙います", "ファイナルベント / 攻撃: 蓮, 城戸"),
])
def test_names_said_one_by_one_before_the_attack_verb_are_its_list(camps, player, text, canonical):
    assert read(camps["three"], player, text)[0] == canonical


def test_a_names_readings_are_its_dictionarys_not_every_kanjis():
    """城戸 is キド or ジョウド (janome's words), not シロイド from each kanji's readings: a name's
    readings are what a player writes it as in kana, and noise there would find names in words."""
    from pbf.reader import kana

    assert "キド" in kana.readings("城戸")
    assert "シロイド" not in kana.readings("城戸")


def test_a_technique_aimed_at_after_a_plot_that_holds_it_is_a_remark(camps):
    got, notes = read(camps["ae"], "楓", "【行動】：弱→弱強\u3000投げ狙いｗ")
    assert got == "弱→弱強"
    assert "「投げ狙い」は行動の狙い（投げ）を言う語として読みました" in shown(notes)
    assert read(camps["ae"], "楓", "前進 前進 投げ狙いで")[0] == "→→弱強"  # the plot does not hold it: played


@pytest.mark.parametrize("text, canonical", [
    ("chikayoru, adoben, sukinerai ichi", "近寄る / アドベント / 隙狙い 1"),
    ("super evasion two", "超回避 2"),
])
def test_a_number_said_as_a_word_after_its_keyword(camps, text, canonical):
    assert read(camps["rd"], "城戸", text)[0] == canonical


@pytest.mark.parametrize("text", ["隙狙い>", "超回避→", "ソードベント >"])
def test_an_arrow_alone_after_a_keyword_names_no_one_and_is_refused(camps, text):
    """Found by the fuzz test: an arrow with no name on either side was an empty priority list."""
    with pytest.raises(OrderError):
        read(camps["rd"], "城戸", text)


@pytest.mark.parametrize("player, text, canonical", [
    ("城戸", "【行動】相手のファイナルベントが怖いので、ファイナルベントが来たらリフレクトベントを使います。あとは何もしません。",
     "受動: ファイナルベントならリフレクトベント"),  # the reason, then the condition: one condition
    ("北岡", "【行動】今回は攻撃をお休みして、防御に専念します。ガードベントをベントインして、防御力で回避をお願いします。",
     "ガードベント / 攻撃しない / 回避: 防御力"),  # ベントイン: the page's word for putting a card in
])
def test_rider_sentences_of_a_newcomer(camps, player, text, canonical):
    assert read(camps["three"], player, text)[0] == canonical


def test_hepburns_m_before_b_p_m_is_n(camps):
    """ushiro jampu: Hepburn writes ン as m before b, p and m; the lexicon's janpu is found."""
    from pbf.reader import kana

    assert kana.reading("jampu") == "ジャンプ"
    assert read(camps["ae"], "美鈴", "ushiro jampu shite, zenshin, kyou")[0].replace("|", "") == "↑←→強"


@pytest.mark.parametrize("text, canonical", [
    ("【行動】\n一番近い人から離れます。シュートベントを使って、蓮さんを優先して狙います。蓮さんがいなければ城戸さんです。",
     "離れる: 最も近い相手 / シュートベント / 攻撃: 蓮, 城戸"),  # a sentence that names a fighter is no chat
    ("【行動】MV　遠へ←城戸", "遠へ: 城戸 / ムーブベント"),  # the arrow points at whom to move from
])
def test_rider_names_in_a_later_sentence_or_after_an_arrow(camps, text, canonical):
    assert read(camps["three"], "北岡", text)[0] == canonical


def test_a_later_line_of_talk_that_says_the_plot_again(camps):
    got, notes = read(camps["ae"], "美鈴", "【行動】ガード ガード\n今回は守りで…ｗ")
    assert got == "←←"
    assert "「守り」は行動に入れていません" in shown(notes)
    assert read(camps["ae"], "美鈴", "【行動】弱\n弱")[0] == "弱弱"  # no talk: more of the order


def test_warnings_where_a_remark_or_a_word_may_be_more_or_less_than_it_seems(camps):
    got, notes = read(camps["ae"], "美鈴", "【行動】8｜L\u3000飛び込み")
    assert got == "↑|弱↑→" and any(n.severity == "warning" and "飛び込み" in n.format() for n in notes)
    got, notes = read(camps["rd"], "城戸", "【行動】AD\n超回避1(攻撃はこわい)")
    assert got == "アドベント / 超回避 1"
    assert any(n.severity == "warning" and "前の語に続けて書かれています" in n.format() for n in notes)
    got, notes = read(camps["ae"], "楓", "【行動】弱→→弱強（投げ狙いです）")
    assert any(n.severity == "warning" and "「投げ」は行動に入れていません" in n.format() for n in notes)
