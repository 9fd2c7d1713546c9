"""Orders read the way a GM reads them, sixth pass (issue 19): humble keigo after a verb
(使わせていただきます), an opponent named as the subject of a condition (城戸さんがファイナルベントを
使ってきたら), the next target when the first cannot be attacked (いなければ蓮さん), a line of names or
an aside in brackets under the order, 超回避's scope written as boards write it (本体のみ, except
advent, 本隊 for 本体), 近:ゾルダ as the move toward ゾルダ, and a move run against 阻止 (離れる阻止しない).
Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def read(camp, player, text):
    return read_for_check(camp, player, text)


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


@pytest.mark.parametrize("text, canonical", [
    # the causative of humble keigo is the player's own act; ていただきます is a function word
    ("ソードベントを使わせていただきます", "ソードベント"),
    ("ソードベントを使わせてもらいます", "ソードベント"),
    ("近寄らせていただきます", "近寄る"),
    ("ソードベントを使用させていただきます", "ソードベント"),
    # the passive of 使う is whoever uses it: the condition's card
    ("ファイナルベントを使われた場合はリフレクトベントで返します", "受動: ファイナルベントならリフレクトベント"),
    ("ファイナルベントを発動されたらリフレクトベント", "受動: ファイナルベントならリフレクトベント"),
])
def test_humble_keigo_and_the_passive_of_use(camps, text, canonical):
    got, notes = read(camps["rd"], "城戸", text)
    assert got == canonical
    assert not warned(notes)
    assert not any("雑談" in n.format() for n in notes)  # いただきます is how the order is said


def test_the_passive_of_a_move_is_never_the_players_move(camps):
    """近寄られたら is the opponent's approach: never read as the player's own 近寄る."""
    try:
        got, _notes = read(camps["rd"], "城戸", "近寄られたら阻止")
    except OrderError:
        return
    assert "近寄る" not in got.split(" / ")


@pytest.mark.parametrize("text, canonical", [
    ("アドベント\nもし城戸さんがファイナルベントを使ってきたら、ガードベントで防ぎます。", "アドベント / 受動: ファイナルベントならガードベント"),
    ("城戸さんが近寄ってくるなら阻止しません。", "近寄るなら阻止しない"),
    ("城戸さんが近づいてきても阻止はしません", "近寄るなら阻止しない"),
])
def test_the_opponent_named_as_a_conditions_subject_in_a_duel(camps, text, canonical):
    got, notes = read(camps["rd"], "刃", text)
    assert got == canonical
    assert any("を「相手が」と読みました" in n.format() for n in notes) and not warned(notes)


def test_in_a_battle_of_three_a_named_subject_is_warned(camps):
    """A 受動 card's condition cannot name whose act it answers: it answers any opponent's."""
    got, notes = read(camps["three"], "蓮", "トリックベント\n北岡さんがファイナルベントを使ったら、コンファインベントで打ち消します")
    assert got == "トリックベント / 受動: ファイナルベントならコンファインベント"
    assert any("どの相手のアクションにも" in w for w in warned(notes))


def test_someone_is_no_word_of_the_order(camps):
    """どなたか was read as a near miss of 阻止する."""
    got, notes = read(camps["three"], "蓮", "どなたかがファイナルベントを使われた場合は、コンファインベントで打ち消させていただきます。")
    assert got.startswith("受動: ファイナルベントならコンファインベント")
    assert not any("阻止" in n.format() for n in notes)


@pytest.mark.parametrize("text, targets", [
    ("シュートベント\n狙うのは城戸さんを優先で、いなければ蓮さんでお願いします。", "攻撃: 城戸, 蓮"),
    ("シュートベント\n狙うのは蓮さんで、届かない場合は城戸さんでお願いします。", "攻撃: 蓮, 城戸"),
    ("シュートベント\n城戸さんを狙います。いなければ蓮さんです", "攻撃: 城戸, 蓮"),
    ("シュートベント\n蓮>城戸", "攻撃: 蓮, 城戸"),
    ("FV 狙い蓮・城戸", "攻撃: 蓮, 城戸"),  # 狙い蓮 is no slip of 狙いは
])
def test_the_next_target_when_the_first_cannot_be(camps, text, targets):
    assert targets in read(camps["three"], "北岡", text)[0].split(" / ")


@pytest.mark.parametrize("text, targets", [
    ("北岡さんに近づいてソードで斬りかかる！ 届かなかったら城戸さんで", "攻撃: 北岡, 城戸"),
    ("ソードベントで北岡さんを攻撃、届かなかったら城戸さんで", "攻撃: 北岡, 城戸"),
])
def test_the_one_attacked_first_then_the_fallback(camps, text, targets):
    assert targets in read(camps["three"], "蓮", text)[0].split(" / ")


def test_a_line_of_names_after_a_word_unknown_is_no_chat(camps):
    """的 蓮>城戸 under the card names whom to attack: never passed over as chat (it was, silently)."""
    with pytest.raises(OrderError) as caught:
        read(camps["three"], "北岡", "【行動】遠へ(最寄り)\nSHV\n的 蓮>城戸")
    assert caught.value.problems[0].text == "的"


def test_chat_that_names_a_fighter_is_warned(camps):
    got, notes = read(camps["three"], "北岡", "SHV\n蓮さんお疲れ様でした")
    assert got.startswith("シュートベント")
    assert any("「蓮」は行動に入れていません" in w for w in warned(notes))


@pytest.mark.parametrize("text, move", [
    ("遠へ(最寄り)", "遠へ: 最も近い相手"),
    ("離れる（一番近い相手）", "離れる: 最も近い相手"),
    ("遠へ 最寄り", "遠へ: 最も近い相手"),
])
def test_a_rule_after_a_move_is_whom_it_is_against(camps, text, move):
    assert read(camps["three"], "北岡", text)[0].split(" / ")[0] == move


def test_an_aside_in_brackets_under_the_order_is_passed_over_with_its_words_named(camps):
    got, notes = read(camps["rd"], "城戸", "いやー\n【行動】中へ / アドベント\n（ドラグレッダーの火炎弾なら中でも届くはず）")
    assert got == "中へ / アドベント"
    # its 中でも届く is a weapon's reach (seventh pass), no order word: the aside is chat, said so
    assert any("火炎弾なら中でも届くはず」は雑談として読みませんでした" in n.format() for n in notes)
    got, notes = read(camps["rd"], "城戸", "ソードベント\n(受動: FVならRV)")  # order words alone: read
    assert got == "ソードベント / 受動: ファイナルベントならリフレクトベント"


@pytest.mark.parametrize("text, canonical", [
    ("離れ阻止×", "離れるなら阻止しない"),  # a stem against 阻止: the blocking of the opponent's move
    ("近寄り阻止なし", "近寄るなら阻止しない"),
])
def test_a_stem_against_blocking_is_its_condition(camps, text, canonical):
    assert read(camps["rd"], "城戸", text)[0] == canonical


def test_a_verb_run_against_blocking_is_two_items_warned(camps):
    """離れる阻止しない: the verb ends its clause (a list typed without separators); the other
    reading is named."""
    got, notes = read(camps["rd"], "城戸", "【行動】離れる阻止しない超回避1")
    assert sorted(got.split(" / ")) == sorted(["離れる", "阻止しない", "超回避 1"])
    assert any("離れるなら阻止しない" in w for w in warned(notes))


@pytest.mark.parametrize("text, clause", [
    ("GV 超回避1:本体のみ", "超回避 1: 本体の攻撃だけ"),
    ("ストライク　超回避2:達成5以上", "超回避 2: 達成値5以上なら"),
    ("SV 超回避１：本隊の攻撃だけ", "超回避 1: 本体の攻撃だけ"),
    ("SV super evasion 1 except advent", "超回避 1: 本体の攻撃と庇うときだけ"),
    ("SV 超回避1 アドベント以外", "超回避 1: 本体の攻撃と庇うときだけ"),
    ("SV 超回避 1 本体のみ", "超回避 1: 本体の攻撃だけ"),
])
def test_the_scope_of_super_evasion_as_boards_write_it(camps, text, clause):
    got, notes = read(camps["rd"], "城戸", text)
    assert clause in got.split(" / ")
    if "本隊" in text:
        assert any("「本隊」を「本体」と読みました" in n.format() for n in notes)


def test_a_mark_of_not_after_a_word_is_its_negation(camps):
    assert read(camps["rd"], "城戸", "【行動】移動×　SV　隙1")[0] == "ソードベント / 隙狙い 1"


def test_an_ime_heading_a_kana_off_is_read_only_when_one_heading_is_that_close(camps):
    """自動： is a kana off both 受動 (ジュドウ) and 移動 (イドウ): asked, not guessed."""
    with pytest.raises(OrderError):
        read(camps["rd"], "城戸", "SV 自動:GV")


def test_the_canonical_order_of_standing_still_reads_back(tmp_path):
    """正規化 shows 留まる for the order of defaults, which reads back as itself."""
    import subprocess
    import sys

    run = [sys.executable, "-m", "pbf"]
    folder = tmp_path / "duel"
    subprocess.run([*run, "new", str(folder), "--system", "rider", "--player", "城戸=ryuki", "--player", "刃=jinshu",
                    "--seed", "t"], check=True, capture_output=True)
    first = subprocess.run([*run, "check", str(folder), "--player", "城戸", "留まる"], capture_output=True, text=True)
    assert "正規化：留まる\n" in first.stdout
    canonical = first.stdout.split("正規化：")[1].split("\n")[0]
    again = subprocess.run([*run, "check", str(folder), "--player", "城戸", canonical], capture_output=True, text=True)
    assert again.returncode == 0 and "※注意" not in again.stdout


def test_a_techniques_nickname_cut_short(camps):
    assert read(camps["ae"], "美鈴", "【行動】エナキャ")[0] == "↑→弱"


@pytest.mark.parametrize("text, canonical", [
    ("離れていく方は阻止しません", "離れるなら阻止しない"),  # the one who moves away: the opponent's move
    ("離れる人は阻止しません", "離れるなら阻止しない"),
    ("ストライクベント\n離れていく方は阻止いたしません。", "離れるなら阻止しない / ストライクベント"),
])
def test_the_one_who_moves_is_the_opponent(camps, text, canonical):
    assert sorted(read(camps["three"], "城戸", text)[0].split(" / ")) == sorted(canonical.split(" / "))


def test_cover_when_the_one_named_is_attacked(camps):
    assert read(camps["three"], "城戸", "ソードベント\n蓮さんが攻撃された場合は、私が庇います。")[0] == "ソードベント / 庇う 蓮"


def test_a_fighters_other_name_in_brackets_is_the_same_one(camps):
    got, notes = read(camps["three"], "蓮", "ゾルダさん（北岡さん）に近づきます")
    assert got == "近寄る: 北岡"  # not also 攻撃: 北岡 from the name in brackets
    assert any("前の名前と同じ相手" in n.format() for n in notes)


def test_a_rule_with_a_polite_person(camps):
    assert read(camps["three"], "北岡", "一番近くにいる方から離れます。")[0] == "離れる: 最も近い相手"


def test_as_it_is_at_a_band_is_staying(camps):
    got, notes = read(camps["rd"], "城戸", "このまま近距離で、ソードベントを使って攻撃します。")
    assert got == "ソードベント"
    assert any("を「留まる」（今の距離のまま）" in n.format() for n in notes)


def test_no_card_is_read_and_a_card_besides_it_is_a_contradiction(camps):
    got, notes = read(camps["rd"], "城戸", "離れます。カードは今回は使いません。")
    assert got == "離れる"
    for text in ("ソードベント。カードは今回は使いません。", "ソードベント。カードは使いません。", "ソードベント カードなし"):
        with pytest.raises(OrderError) as caught:
            read(camps["rd"], "城戸", text)
        assert "能動カードも書かれています" in caught.value.problems[0].format()


def test_wait_and_see_says_nothing_of_the_order_and_is_warned(camps):
    got, notes = read(camps["rd"], "刃", "少し下がって様子を見ます")
    assert got == "離れる" and any("様子を見ます" in w for w in warned(notes))
    with pytest.raises(OrderError):
        read(camps["rd"], "刃", "様子見")  # alone: no order at all


def test_a_reason_clause_is_passed_over_when_the_order_reads_without_it(camps):
    got, notes = read(camps["rd"], "城戸", "【行動】\n中距離で戦いたいので、中へ移動いたします。相手が近づいてくるのは止めません。")
    assert sorted(got.split(" / ")) == ["中へ", "近寄るなら阻止しない"]
    assert any("「中距離で戦いたいので、」は理由の文として読みませんでした" in w for w in warned(notes))
    got, notes = read(camps["rd"], "刃", "【行動】\nトリックベントを使います。\n攻撃されたときは受けで回避したいのですが、"
                                        "ソードベントがないとできないと伺いましたので、受動カードとしてソードベントを使います。")
    assert sorted(got.split(" / ")) == ["トリックベント", "受け", "受動: ソードベント"]  # its negation is the reason's


def test_a_plot_explained_by_part_of_itself(camps):
    got, notes = read(camps["ae"], "美鈴", "【行動】投げを狙いたいので、前進を２回してから投げます。")
    assert got == "→→弱強"
    got, notes = read(camps["ae"], "美鈴", "強を出したいので、弱弱")  # other cards in the reason: read, and warned
    assert got == "強弱弱" and warned(notes)


@pytest.mark.parametrize("player, text, band", [("城戸", "【行動】宙へ　ソードベント", "中へ"), ("北岡", "ムーブベント　十へ", "遠へ")])
def test_one_kanji_of_a_bands_reading(camps, player, text, band):
    got, notes = read(camps["three"], player, text)
    assert band in got.split(" / ") and any(f"を「{band}」と読みました" in n.format() for n in notes)


@pytest.mark.parametrize("text, canonical", [("【行動】ストライクベン卜／隙狙い１", "ストライクベント / 隙狙い 1"),
                                             ("ガ一ドベント", "ガードベント")])
def test_a_kanji_that_looks_like_a_katakana(camps, text, canonical):
    assert read(camps["rd"], "刃", text)[0] == canonical


@pytest.mark.parametrize("player, text, canonical", [
    ("刃", "【行動】 stay, Trick Vent, don't block if he moves away", "離れるなら阻止しない / トリックベント"),
    ("城戸", "Sword Vent, don't block if he comes closer", "近寄るなら阻止しない / ソードベント"),
    ("城戸", "【行動】 move closer, Sword Vent. If he uses Final Vent -> Reflect Vent plz",
     "近寄る / ソードベント / 受動: ファイナルベントならリフレクトベント"),
    ("城戸", "【行動】\nSurvive!!\nallow if closer\nGuard Vent if attacked (passive)", "近寄るなら阻止しない / サバイブ / 受動: 攻撃ならガードベント"),
    ("刃", "to near\nsword vent (passive, when attacked)\nparry", "近へ / 受動: 攻撃ならソードベント / 受け"),
])
def test_english_conditions_after_what_they_condition(camps, player, text, canonical):
    assert sorted(read(camps["rd"], player, text)[0].split(" / ")) == sorted(canonical.split(" / "))


@pytest.mark.parametrize("text, canonical", [
    ("【行動】ｴﾅｼﾞｰｷｬﾉﾝ👊", "↑→弱"),  # after a technique named in full: decoration
    ("【行動】[→][→][弱強]", "→→弱強"),  # each card in its box
    ("【行動】[→][→][弱][強]", "→→弱強"),
    ("【行動】ジャソプ", "↑"),  # ソ for ン, as a hand writes them
])
def test_a_plot_in_boxes_a_fist_after_a_name_and_katakana_alike(camps, text, canonical):
    assert read(camps["ae"], "美鈴", text)[0] == canonical


def test_a_fist_after_a_card_is_still_asked(camps):
    with pytest.raises(OrderError):
        read(camps["ae"], "美鈴", "弱👊")  # 👊 may be meant as a card


@pytest.mark.parametrize("player, text, canonical", [
    ("城戸", "【行動】\n中へ 近寄るなら阻止しない\nアド", "中へ / 近寄るなら阻止しない / アドベント"),  # a condition is no move of one's own
    ("刃", "【行動】stay put, no block when he backs off, guard vent", "離れるなら阻止しない / ガードベント"),
])
def test_the_opponents_move_in_a_condition_is_no_second_move(camps, player, text, canonical):
    assert sorted(read(camps["rd"], player, text)[0].split(" / ")) == sorted(canonical.split(" / "))


@pytest.mark.parametrize("player, text, canonical", [
    ("蓮", "chikayoru: ichiban tooi aite / torikku bento / juudou: adobento nara konfain bento",
     "近寄る: 最も遠い相手 / トリックベント / 受動: アドベントならコンファインベント"),  # aite was read as 隙狙い
    ("城戸", "【行動】 sono mama todomaru. Strike Vent de Ren wo nerau. kougeki sare tara Guard Vent.",
     "ストライクベント / 受動: 攻撃ならガードベント / 攻撃: 蓮"),
])
def test_romaji_of_rules_and_conditions(camps, player, text, canonical):
    got, notes = read(camps["three"], player, text)
    assert sorted(got.split(" / ")) == sorted(canonical.split(" / "))
    assert not any("隙狙い" in n.format() for n in notes)


@pytest.mark.parametrize("text", [
    "【行動】弱攻撃、キャンセル（弱と←を捨てます）、エナジーキャノン",
    "【行動】弱のあと、弱と←を捨ててキャンセル、エナジーキャノン",
    "弱攻撃のあと、弱と←を捨ててキャンセルしてからエナジーキャノンです",
])
def test_a_cancels_discards_said_in_words(camps, text):
    got, notes = read(camps["ae"], "美鈴", text)
    assert got == "弱C(弱←)↑→弱"
    assert any("を「C(弱←)」" in n.format() for n in notes)


@pytest.mark.parametrize("text, canonical", [("【行動】朧", "←→強"), ("朧 4", "←→強←")])
def test_a_technique_by_its_first_kanji(camps, text, canonical):
    assert read(camps["ae"], "楓", text)[0] == canonical
    with pytest.raises(OrderError):
        read(camps["ae"], "美鈴", "【行動】朧")  # 美鈴 has no technique it begins


@pytest.mark.parametrize("player, text, canonical, named", [
    ("楓", "【行動】なし（ガード継続）", "", "ガード"),
    ("美鈴", "【行動】９ L、L（ＥＣ→刻み）", "↑→弱弱", "EC"),
])
def test_a_remark_of_talk_after_the_plot_is_passed_over_its_order_words_named(camps, player, text, canonical, named):
    got, notes = read(camps["ae"], player, text)
    assert got == canonical
    assert any(f"「{named}」は行動に入れていません" in w for w in warned(notes))


@pytest.mark.parametrize("text", ["【行動】ダッシュ投げ", "dash in and throw", "ﾀﾞｯｼｭ 投げ"])
def test_a_dash_says_no_number_of_steps_and_is_asked(camps, text):
    with pytest.raises(OrderError) as caught:
        read(camps["ae"], "美鈴", text)
    assert "「→」・「→→」" in caught.value.problems[0].format()


def test_a_dash_in_a_gloss_after_the_plot_is_talk(camps):
    assert read(camps["ae"], "美鈴", "【行動】6 6 H (dash heavy)")[0] == "→→強"


@pytest.mark.parametrize("text", ["弱か強", "ぜんしんかこうたい", "【行動】→→ｷｮｳ か ｼﾞｬｸ"])
def test_one_card_or_another_is_asked(camps, text):
    with pytest.raises(OrderError) as caught:
        read(camps["ae"], "美鈴", text)
    assert "どちらか決まっていません" in caught.value.problems[0].format()
    assert read(camps["ae"], "美鈴", "弱強かな")[0] == "弱強"  # かな ends a sentence: no choice


@pytest.mark.parametrize("text, canonical", [("ガード→前進→強", "←→→→強"), ("前進×2→弱", "→→→弱")])
def test_an_arrow_between_words_is_a_card_warned(camps, text, canonical):
    got, notes = read(camps["ae"], "美鈴", text)
    assert got == canonical and any("前進（→）のカードとして読みました" in w for w in warned(notes))
    assert not warned(read(camps["ae"], "美鈴", "弱→→弱強")[1])  # cards in symbols: no warning


# corpus 11's misreads at its first reading, each a test
@pytest.mark.parametrize("text, canonical", [
    ("【行動】前進2かい弱", "→→弱"),  # a count of times goes with the word before it
    ("読みが外れたら恥ずかしいけど…\n【行動】対空\n飛んでくると見た！", "↑弱"),  # the opponent coming: no ジャンプ
    ("下がってガードしたあと、前進します。", "←→"),  # one ← said by a verb and a name (warned)
])
def test_corpus_elevens_alter_ego_misreads(camps, text, canonical):
    assert read(camps["ae"], "美鈴", text)[0] == canonical


def test_blocking_cut_short_is_asked_not_read_as_its_opposite(camps):
    """阻止しな was read as 阻止し+な: 阻止する, the opposite, passed over as the default."""
    with pytest.raises(OrderError) as caught:
        read(camps["rd"], "城戸", "【行動】近寄るなら阻止しな ﾘﾌﾚｸﾄ")
    assert "途中で切れている" in caught.value.problems[0].format()


@pytest.mark.parametrize("text", ["reflect vent if he uses final vent, otherwise guard vent", "受動：FVならRV、それ以外はGV"])
def test_otherwise_a_card_is_the_passive_card_else(camps, text):
    assert read(camps["rd"], "城戸", text)[0] == "受動: ファイナルベントならリフレクトベント / 受動: ガードベント"


@pytest.mark.parametrize("player, text, canonical", [
    ("北岡", "【行動】ｱﾄﾞﾍﾞﾝﾄ　攻撃 城戸　蓮", "アドベント / 攻撃: 城戸, 蓮"),  # names listed with spaces
    ("北岡", "ﾑｰﾌﾞﾍﾞﾝﾄ 一番近い人から遠へ", "遠へ: 最も近い相手 / ムーブベント"),
    ("北岡", "シュート　隙1　ナイト狙い", "シュートベント / 攻撃: 蓮 / 隙狙い 1"),
    ("城戸", "遠い人に近寄る ストライク", "近寄る: 最も遠い相手 / ストライクベント"),
    ("城戸", "一番遠い人に近づきます。ソードベントで攻撃して、攻撃されたら受けます。", "近寄る: 最も遠い相手 / ソードベント / 受け"),
])
def test_corpus_elevens_targets(camps, player, text, canonical):
    assert sorted(read(camps["three"], player, text)[0].split(" / ")) == sorted(canonical.split(" / "))


@pytest.mark.parametrize("player, text, canonical", [
    ("城戸", "【行動】\n近くにいるので、このままソードベントで攻撃します。攻撃されたらガードベントを使います。",
     "ソードベント / 受動: 攻撃ならガードベント"),  # being near is no move (warned)
    ("城戸", "ストライクベント\n攻撃されたら超回避1\n※FV来たらリフレクトで", "ストライクベント / 受動: ファイナルベントならリフレクトベント / 超回避 1"),
    ("城戸", "ソードベントで迎え撃つ！攻撃されたらガードベント", "ソードベント / 受動: 攻撃ならガードベント"),
    ("刃", "【行動】アドベントを使って、ブレードウルフと一緒に攻撃します。", "アドベント"),
    ("城戸", "ｿｰﾄﾞﾍﾞﾝﾄ ｶﾞｰﾄﾞﾍﾞﾝﾄは受動で", "ソードベント / 受動: ガードベント"),
])
def test_corpus_elevens_sentences(camps, player, text, canonical):
    assert sorted(read(camps["rd"], player, text)[0].split(" / ")) == sorted(canonical.split(" / "))
