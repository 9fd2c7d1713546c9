"""Alter EGO orders read the way a GM reads them, twentieth pass, from a held-out corpus (corpus 27: a programmers'
chat bridged from Slack, and idol and VTuber fans): a technique's name in snake_case (energy_cannon); a direction
typed apart before its verb (ま え に 2かい すすんで); a line under the plot that is a reason of the post's
(歩きなので短くてすまん); a realisation that the plot fails (…って届かないじゃん！) as a correction; a post ending on a
word that goes on (ぜんしんして、), warned; に between two kana words (ぜんしんにしゃく: 2, or a particle?), warned;
a sed substitution under the plot (s/→/←/); an IME's 若 after a word of sequence (そのあと若); a remark pointing at
the plot (これで飛び込み！) passed over where the post was refused; a word of manner before で (全身全霊で強攻撃);
an emoticon's arms in a script no order is written in ((ง •̀_•́)ง). Each case goes through the reading
``pbf check`` makes; the texts are variants, except the named cases of the first reading's four misreads."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def said(notes):
    return [n.format() for n in notes]


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


def refused(camps, text, player="美鈴"):
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["ae"], player, text)
    return str(caught.value)


# the first reading's four misreads (corpus 27), each read as meant now
@pytest.mark.parametrize("player, text, canonical", [
    ("美鈴", "[action]\nzenshin, energy_cannon", "→↑→弱"),  # energy_cannon was passed over as talk: →
    ("楓", "【行動】ｼﾞｬﾝﾌﾟ\n歩きなので短くてすまん", "↑"),  # 歩き was read as 前進: ↑|→
    ("楓", "【行動】ま え に2かい すすんで なげ", "→→弱強"),  # ま え was read as a 前進 of its own: →→→弱強
    ("楓", ">>9 えっ同じ現場いたんですか！？！？ｗ\n【行動】投げ\n…って届かないじゃん！前進2回してから投げでお願いします🙏",
     "→→弱強"),  # the correction was passed over as a restatement: 弱強
])
def test_the_first_readings_misreads(camps, player, text, canonical):
    got, _notes = read_for_check(camps["ae"], player, text)
    assert got == canonical


@pytest.mark.parametrize("player, text, canonical", [
    ("美鈴", "order: ushiro_janpu, energy_cannon", "↑←↑→弱"),
    ("楓", "koudou: senpuu_kyaku", "→↑弱"),
    ("楓", "order: oboro_zuki", "←→強"),
    ("楓", "order: mae_janpu, kyou_kougeki", "↑→強"),
])
def test_a_name_in_snake_case_is_the_name(camps, player, text, canonical):
    got, _notes = read_for_check(camps["ae"], player, text)
    assert got == canonical


@pytest.mark.parametrize("text, canonical", [
    ("【行動】ま え に 2かい すすんで よわ", "→→弱"),
    ("【行動】う し ろ に さがって つよ", "←強"),
])
def test_a_direction_typed_apart_before_its_verb_is_one_move(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "楓", text)
    assert got == canonical
    assert any("（方向と、その動きの動詞です）" in n for n in said(notes))


def test_a_reason_of_the_posts_under_the_plot_is_talk(camps):
    got, notes = read_for_check(camps["ae"], "楓", "【行動】ガード\n寄りなので手短に")
    assert got == "←"
    assert any("は理由を言う文として読みませんでした（「寄り」はカードに入れていません）" in n for n in warned(notes))
    # a card by its own name before ので is the card the reason is about: not passed over by this rule
    got, notes = read_for_check(camps["ae"], "楓", "【行動】ジャンプ\nガードなので短くてすまん")
    assert not any("理由を言う文" in n for n in said(notes))
    # a plot after its reason is read as before (the reason's cards said again after)
    got, _notes = read_for_check(camps["ae"], "楓", "【行動】投げを狙いたいので、前進を２回してから投げます")
    assert got == "→→弱強"


@pytest.mark.parametrize("player, text, canonical", [
    ("美鈴", "【行動】弱強\nって当たらないじゃん！エナジーキャノンで", "↑→弱"),
    ("楓", "【行動】弱強\nあっ届かない！前進前進投げで", "→→弱強"),
])
def test_a_realisation_that_the_plot_fails_is_a_correction(camps, player, text, canonical):
    got, notes = read_for_check(camps["ae"], player, text)
    assert got == canonical
    assert any("は行動の直しとして読みました" in n for n in warned(notes))


@pytest.mark.parametrize("text", ["【行動】投げ\n届かない！", "【行動】投げ\n…とどかない…けどまあいいや"])
def test_a_realisation_with_no_plot_after_it_is_warned(camps, text):
    # the plot above is read as written (the player says it fails, and writes no other), warned
    got, notes = read_for_check(camps["ae"], "楓", text)
    assert got == "弱強"
    assert any("は行動が届かない（当たらない）と言っていますが、直した行動が書かれていません" in n for n in warned(notes))


def test_a_condition_of_failing_is_no_correction(camps):
    # 届かないなら前進: a condition, not the player's realisation — not read as the plot
    got, _notes = read_for_check(camps["ae"], "楓", "【行動】投げ\n届かないなら前進")
    assert got == "弱強"


@pytest.mark.parametrize("text, canonical, where", [
    ("【行動】前進して、", "→", "「して、」で投稿が終わっています"),
    ("【行動】じゃくして、", "弱", "「して、」で投稿が終わっています"),
    ("order: forward, back, then", "→←", "「then」で投稿が終わっています"),
])
def test_a_post_that_breaks_off_is_warned(camps, text, canonical, where):
    got, notes = read_for_check(camps["ae"], "楓", text)
    assert got == canonical
    assert any(where in n for n in warned(notes))


@pytest.mark.parametrize("text", ["【行動】ガードで", "【行動】ガードして", "【行動】前進してから投げ"])
def test_a_request_that_ends_is_not_broken_off(camps, text):
    _got, notes = read_for_check(camps["ae"], "楓", text)
    assert not any("で投稿が終わっています" in n for n in said(notes))


@pytest.mark.parametrize("text, canonical", [
    ("【行動】ぜんしんにじゃく", "→弱"),
    ("【行動】こうたいにきょう", "←強"),
    ("【行動】ぜんしんになげ", "→弱強"),
])
def test_ni_between_kana_words_is_two_or_a_particle(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "楓", text)
    assert got == canonical
    assert any("の「に」は数の2" in n and "とも、助詞とも読めます" in n for n in warned(notes))


@pytest.mark.parametrize("text, canonical", [
    ("【行動】ぜんしんにかい じゃく", "→→弱"),  # にかい: the count
    ("【行動】うしろにじゃんぷ", "↑←"),  # after a direction, に says where
    ("【行動】まえにすすむ", "→"),
])
def test_ni_that_is_a_count_or_a_direction_is_not_asked(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "楓", text)
    assert got == canonical
    assert not any("の「に」は数の2" in n for n in said(notes))


@pytest.mark.parametrize("text, canonical", [
    ("【行動】前進\ns/前進/ガード/", "←"),
    ("【行動】弱→弱→\ns/→/←/g", "弱←弱←"),
])
def test_a_sed_substitution_under_the_plot_corrects_it(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "楓", text)
    assert got == canonical
    assert any("を行動の直しとして読みました（前の行の" in n for n in warned(notes))


@pytest.mark.parametrize("text, why", [
    ("【行動】弱→弱→\ns/→/←/", "が前の行に二つ以上あります"),  # which one? (no g)
    ("【行動】弱弱\ns/強/弱/", "が前の行にありません"),
])
def test_a_sed_substitution_that_cannot_be_applied_is_refused(camps, text, why):
    assert why in refused(camps, text, "楓")


@pytest.mark.parametrize("text, canonical", [
    ("【行動】ガード、それから若", "←弱"),
    ("【行動】前進、次に若、ガード", "→弱←"),
])
def test_an_imes_kanji_after_a_word_of_sequence_is_the_card(camps, text, canonical):
    got, notes = read_for_check(camps["ae"], "楓", text)
    assert got == canonical
    assert any("「若」を「弱」と読みました" in n for n in said(notes))


def test_a_remark_pointing_at_the_plot_is_passed_over_where_refused(camps):
    got, notes = read_for_check(camps["ae"], "楓", "【行動】前ジャンプ 強\nこれで飛び込み！！")
    assert got == "↑→強"
    assert any("は行動の下の一言として読みませんでした" in n for n in warned(notes))
    # a remark naming a card the plot has not may add it: left refused
    assert "「これ」カードとして読めない語です" in refused(camps, "【行動】ガード\nこれで飛び込み！", "楓")


@pytest.mark.parametrize("player, text, canonical, what", [
    ("楓", "【行動】本気で弱攻撃、ガード", "弱←", "「本気で」"),
    ("美鈴", "【行動】一撃必殺で強攻撃", "強", "「一撃必殺で」"),
])
def test_a_word_of_manner_before_de_is_passed_over_warned(camps, player, text, canonical, what):
    got, notes = read_for_check(camps["ae"], player, text)
    assert got == canonical
    assert any(what in n and "カードの出し方を言う言葉として" in n for n in warned(notes))


def test_a_near_miss_before_de_is_still_the_near_miss(camps):
    got, _notes = read_for_check(camps["ae"], "楓", "【行動】全身で強攻撃")  # 全身: an IME's 前進
    assert got == "→強"


@pytest.mark.parametrize("text, canonical", [
    ("【行動】朧月 ᕦ(ò_óˇ)ᕤ", "←→強"),
    ("【行動】旋風脚 ୧(๑•̀ᴗ•́)૭", "→↑弱"),
    ("【行動】旋風脚 ლ(╹◡╹ლ)", "→↑弱"),
    ("【行動】投げ！(ง •̀_•́)ง", "弱強"),
])
def test_an_emoticons_arms_are_the_emoticons(camps, text, canonical):
    got, _notes = read_for_check(camps["ae"], "楓", text)
    assert got == canonical
