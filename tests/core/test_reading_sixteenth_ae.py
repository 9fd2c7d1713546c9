"""Alter EGO orders read the way a GM reads them, sixteenth pass, from a held-out corpus (easy
Japanese with a space between words, voice input, katakana-only posts): a direction, its particle
and a jump (うしろ に ジャンプ) is the directed jump, and with the verb of its own card (まえ に すすむ)
one move; a verb's stem read by its reading names the verb, not the card's name (さがり: 下がる);
よわい こうげき / じゃく こうげき is the attack, その あと and つぎ に are "then"; a post that says
its arrows mean "then" has them as separators; a line under a plot in symbols that names exactly
those cards (垂直ジャンプ２回 under ↑ ↑) is said again, as is a sentence after the bracketed cards of
左から順に; まちかえた (dakuten dropped) is warned; か in katakana between two order words is asked,
and きょう before a move (強 or 今日); counts in kana or 大字 (いっかい, 参回); arrows said aloud
(やじるし みぎ); a cancel's cards in kana (よわい と ガード を すてます). Each case goes through the
reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def said(notes):
    return [n.format() for n in notes]


def refused(camps, text, player="美鈴"):
    with pytest.raises(OrderError) as caught:
        read_for_check(camps["ae"], player, text)
    return str(caught.value)


def test_a_direction_its_particle_and_a_jump_is_the_directed_jump(camps):
    # the first reading's misread: ←↑ (a step back, then a jump)
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】うしろ に ジャンプ します。")
    assert got == "↑←"
    assert any("「うしろ に ジャンプ」を「後ろジャンプ」（↑←）と読みました" in n for n in said(notes))
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】まえにジャンプ")
    assert got == "↑→"
    # as written in kanji
    assert read_for_check(camps["ae"], "美鈴", "【行動】後ろにジャンプ")[0] == "↑←"


def test_a_direction_with_the_verb_of_its_own_card_is_one_move(camps):
    # the first reading's misreads: →→↑弱 and ←← (まえ and すすむ each a card)
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】\nまえ に すすむ\n弱")
    assert got == "→弱"
    assert any("「まえ に すすむ」を一枚の「→」と読みました" in n for n in said(notes))
    assert read_for_check(camps["ae"], "美鈴", "【行動】うしろにさがる")[0] == "←"
    # two moves said are two cards
    assert read_for_check(camps["ae"], "美鈴", "【行動】まえ に すすむ まえ に すすむ")[0] == "→→"


def test_a_verb_stem_read_by_its_reading_names_the_verb(camps):
    # it had said 「さがり」を「ガード」と読みました, as if a near miss of ガード
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】さがります")
    assert got == "←"
    assert any("「さがり」を「下がる」と読みました" in n for n in said(notes))
    assert not any("ガード" in n for n in said(notes))


def test_easy_japanese_attack_and_then_written_apart(camps):
    # the first reading's misread: →↑ (the sentence after その あと passed over)
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】 うしろ に ジャンプ します。 その あと つよい こうげき を 1かい します。")
    assert got == "↑←強"
    assert any("「つよい こうげき」を「強攻撃」と読みました" in n for n in said(notes))
    assert read_for_check(camps["ae"], "美鈴", "【行動】 よわい こうげき を 3かい します。")[0] == "弱弱弱"
    assert read_for_check(camps["ae"], "美鈴", "じゃく こうげき")[0] == "弱"
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】 つよい こうげき。 つぎ に キャンセル （よわい と ガード を すてます）。 そして エナジーキャノン。")
    assert got == "強C(弱←)↑→弱"


def test_a_post_that_says_its_arrows_mean_then(camps):
    # the first reading's misread: →→→→強 (each arrow a 前進 card)
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】前進→ガード→弱攻撃\n矢印は「その後」の意味です")
    assert got == "→←弱"
    assert any("「→」は投稿の説明（矢印は「その後」の意味）から「次に」の区切りとして読みました" in n for n in said(notes))
    # without the gloss: read as cards, warned as before
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】前進→強攻撃")
    assert got == "→→強" and any(n.severity == "warning" for n in notes)


def test_a_line_that_names_the_plot_above_again(camps):
    # the first reading's misread: ↑↑↑↑ (the line read as two more jumps)
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】← ←\nガード２回ｗ")
    assert got == "←←"
    assert any("上の行のプロット（←←）を言葉で言い直したもの" in n for n in said(notes))
    # other cards are more cards
    assert read_for_check(camps["ae"], "美鈴", "【行動】→ →\n前進3回")[0] == "→→→→→"


def test_a_sentence_that_says_the_bracketed_cards_again(camps):
    # the first reading's misread: →→弱強 (the sentence read as more cards)
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】左から順に（←）（強）でお願いします。ガードしてから強攻撃のつもりです。")
    assert got == "←強"
    assert any("括弧のカード（←強）を言葉で言い直した文" in n for n in said(notes))


def test_a_mistake_said_with_its_dakuten_dropped_is_warned(camps):
    _got, notes = read_for_check(camps["ae"], "美鈴", "【行動】まえ なけ\nあ まちかえた")
    assert any(n.severity == "warning" and "まちかえた" in n.format() for n in notes)


def test_ka_in_katakana_between_two_order_words_is_asked(camps):
    message = refused(camps, "【コウドウ】ナゲカジャク")
    assert "「カ」は「か」とも読めます" in message


def test_kyou_before_a_move_is_strong_or_today(camps):
    message = refused(camps, "きょう ぜんしん ガード")
    assert "「強」（強攻撃のカード）とも「今日」とも読めます" in message
    assert read_for_check(camps["ae"], "美鈴", "【行動】きょう じゃく")[0] == "強弱"
    assert read_for_check(camps["ae"], "美鈴", "きょう こうげき")[0] == "強"


def test_counts_in_kana_and_in_daiji(camps):
    got, notes = read_for_check(camps["ae"], "美鈴", "【行動】強攻撃参回")
    assert got == "強強強"
    assert any("「参回」を「3回」と読みました" in n for n in said(notes))
    assert read_for_check(camps["ae"], "美鈴", "ガード いっかい")[0] == "←"


def test_arrows_said_aloud(camps):
    assert read_for_check(camps["ae"], "美鈴", "やじるし ひだり やじるし みぎ じゃく")[0] == "←→弱"
    assert read_for_check(camps["ae"], "美鈴", "やじるし うえ")[0] == "↑"
    got, _notes = read_for_check(camps["ae"], "美鈴", "【行動】 なにも しません。")
    assert got == ""


def test_a_katakana_function_word_apart_in_an_all_katakana_post(camps):
    # it had been refused (シテ unknown)
    assert read_for_check(camps["ae"], "美鈴", "【コウドウ】ガード シテ ジャンプ")[0] == "←↑"
    # with hiragana in the post, katakana is never a function word (the ガ of ガード is no が)
    assert "シテ" in refused(camps, "【行動】ガード シテ じゃんぷ")


def test_de_after_a_word_and_a_space_is_the_particle_not_a_word_cut_short(camps):
    assert read_for_check(camps["ae"], "美鈴", "なし で")[0] == ""
    assert "途中で切れている" in refused(camps, "ぜんしん ぜんしん な")
