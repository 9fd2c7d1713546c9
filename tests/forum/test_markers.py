"""pbf.markers.read_post: where the order starts in a post, what is passed over and said, and when
a marker that was seen is not taken (docs/forum.md, section 3). The command-line side of the same
shapes (``pbf check`` on a whole post, ``pbf status``/``turn --thread``) is
tests/core/test_post_markers.py."""

from __future__ import annotations

import pytest

from pbf.board.markers import order_text, read_post

M = "【行動】"
EPILOGUE = ("イベントファイナル", "event final")


def read(body: str, marker: str = M, epilogue: tuple[str, ...] = ()):
    """(text, line, column_offset, [note messages]) or None."""
    found = order_text(body, marker, epilogue)
    return None if found is None else (found.text, found.line, found.column_offset, [n.message for n in found.notes])


@pytest.mark.parametrize("body,text,line,column", [
    ("【行動】弱→強", "弱→強", 1, 4),
    ("【行動】 弱→強", "弱→強", 1, 5),
    ("【行動】：弱→強", "弱→強", 1, 5),
    ("【行動】 : 弱→強", "弱→強", 1, 7),
    ("  【行動】弱", "弱", 1, 6),
    ("雑談\n【行動】\n\n弱→強\n", "弱→強", 4, 0),
    ("【行動】はなれる", "はなれる", 1, 4),  # a hiragana order after a particle-like kana
    ("【行動】がーど", "がーど", 1, 4),
    ("【行動】とどまる", "とどまる", 1, 4),
    ("【行動】なし", "なし", 1, 4),
])
def test_the_marker_as_written_reads_without_a_note(body, text, line, column):
    assert read(body) == (text, line, column, [])


@pytest.mark.parametrize("body,seen", [
    ("行動：弱", "行動："), ("行動:弱", "行動:"), ("行動 ：弱", "行動 ："),
    ("【プロット】弱", "【プロット】"), ("【プロット】：弱", "【プロット】："), ("[ﾌﾟﾛｯﾄ]弱", "[ﾌﾟﾛｯﾄ]"),
    ("【 行動 】弱", "【 行動 】"), ("［行動］弱", "［行動］"), ("[行動]弱", "[行動]"), ("[行動】弱", "[行動】"),
    ("〔行動〕弱", "〔行動〕"), ("（行動）弱", "（行動）"),
])
def test_other_shapes_read_with_a_note(body, seen):
    text, line, _, notes = read(body)
    assert (text, line) == ("弱", 1) and notes == [f"「{seen}」を【行動】として読みました（目印は【行動】です）。"]


def test_columns_are_the_posts_own_characters():
    # ｶﾞﾝﾊﾞﾛｳ is 7 characters, ガンバロウ after NFKC 5: the column is the post's
    found = order_text("ｶﾞﾝﾊﾞﾛｳ【行動】弱", M)
    assert (found.text, found.column_offset, found.notes[0].column) == ("弱", 11, 8)
    found = order_text("＞＞１２　【行動】弱", M)
    assert (found.text, found.column_offset) == ("弱", 9)
    assert found.notes[0].message == "「>>12」はアンカー（返信先）なので、行動から外して読みました。"


@pytest.mark.parametrize("body,text,anchor", [
    (">>12 【行動】弱→強", "弱→強", ">>12"),
    (">>12【行動】弱→強", "弱→強", ">>12"),
    (">>12-15 【行動】弱", "弱", ">>12-15"),
    (">>12 >>13 【行動】弱", "弱", ">>12 >>13"),
    ("【行動】>>12 弱→強", "弱→強", ">>12"),
    ("【行動】>>12,14 弱", "弱", ">>12,14"),
    ("【行動】\n>>12\n弱", "弱", ">>12"),
])
def test_an_anchor_at_the_marker_or_the_order_is_passed_over_and_said(body, text, anchor):
    got, _, _, notes = read(body)
    assert got == text and notes == [f"「{anchor}」はアンカー（返信先）なので、行動から外して読みました。"]


def test_an_anchor_line_before_the_marker_is_passed_over_and_said():
    assert read(">>12\n【行動】弱") == ("弱", 2, 4, ["「>>12」はアンカー（返信先）なので、行動から外して読みました。"])
    assert read(">>12\n>>13-14\n\n【行動】弱")[3] == ["「>>12 >>13-14」はアンカー（返信先）なので、行動から外して読みました。"]
    # an anchor with chat after it is chat before the marker, like any other
    assert read(">>12 了解です\n【行動】弱") == ("弱", 2, 4, [])


def test_quotes_never_carry_a_marker():
    assert read_post("> 【行動】弱", M).found is None
    assert read_post("> >>12 【行動】弱", M).found is None
    assert read_post(">【行動】弱\nいいですね", M).unread is None  # a quote is not a reason either


def test_a_marker_in_mid_line_reads_what_follows_it_on_the_line():
    assert read("了解です【行動】弱→強") == ("弱→強", 1, 8, [
        "行の途中の【行動】から後ろを行動として読みました（【行動】は行の先頭に書いてください）。"])
    assert read("了解です［行動］弱")[3] == [
        "「［行動］」を【行動】として読みました（目印は【行動】です）。",
        "行の途中の【行動】から後ろを行動として読みました（【行動】は行の先頭に書いてください）。"]
    # a marker at the start of a line wins over one in mid-line (chat before it)
    assert read("了解【行動】弱\n【行動】強") == ("強", 2, 4, [
        "「弱」は、後にもう一つ【行動】があるので行動として読んでいません（最後の【行動】から後ろが行動です）。"])


@pytest.mark.parametrize("body", [
    "【行動】は行の先頭に書くんですね", "【行動】の後に書いてください", "「【行動】」って何ですか",
    "みなさん【行動】を忘れずに", "【行動】してください", "早めに【行動】です", "例えば「【行動】弱」のように",
    "【行動】、【コミット】、【公開】", "【行動】？",
])
def test_the_marker_as_a_word_in_a_sentence_is_not_taken_and_said(body):
    reading = read_post(body, M)
    assert reading.found is None
    assert reading.unread.message.startswith("【行動】は文の中の言葉として書かれているので、行動の目印として読んでいません。")
    assert reading.unread.line == 1 and reading.unread.text == body


def test_a_mention_does_not_hide_the_order_before_it():
    assert read("【行動】弱→強\n【行動】の書き方はこれで合ってますか？") == (
        "弱→強\n【行動】の書き方はこれで合ってますか？", 1, 4, [])


def test_a_marker_in_mid_line_with_nothing_after_it_is_not_taken_and_said():
    reading = read_post("よろしくお願いします【行動】\n弱→強", M)
    assert reading.found is None and reading.unread.message.startswith("行の途中の【行動】の後ろ（同じ行）に何もない")
    assert (reading.unread.line, reading.unread.column) == (1, 11)


@pytest.mark.parametrize("body", ["【行動】", "【行動】\n", "雑談\n【行動】：\n\n", "【行動】>>12"])
def test_an_empty_marker_is_a_problem(body):
    found = order_text(body, M)
    assert found.text == ""
    (problem,) = found.problems
    assert problem.message == "【行動】の後ろに行動がありません。 / nothing after the marker"
    assert problem.line == body.split("\n").index(next(line for line in body.split("\n") if "行動" in line)) + 1


def test_the_last_marker_wins_and_an_earlier_one_is_said():
    found = order_text("【行動】弱弱\n【行動】弱→強", M)
    assert found.text == "弱→強" and found.notes[0].line == 1 and "「弱弱」は、後にもう一つ【行動】がある" in found.notes[0].message
    assert read("【行動】\n【行動】弱") == ("弱", 2, 4, [])  # nothing was after the first: nothing to say
    # many: one note, for the one just before, with how many more (a post of 1,000 markers is one line)
    found = order_text("【行動】弱\n" * 1000 + "【行動】強", M)
    (note,) = found.notes
    assert found.text == "強" and note.line == 1000
    assert note.message.endswith("その前の999か所の【行動】の後ろも同じです。")


def test_a_configured_marker():
    assert read("[order] 弱", "[order]") == ("弱", 1, 8, [])
    assert read("【 order 】弱", "[order]")[3] == ["「【 order 】」を[order]として読みました（目印は[order]です）。"]
    assert read("!order 弱", "!order") == ("弱", 1, 7, [])  # without brackets: only as written
    assert order_text("! order 弱", "!order") is None
    assert read("【行動】弱", "【命令】") is None  # プロット and 行動 go together; another word has no others


def test_commit_and_reveal_markers_take_the_same_shapes():
    assert read("【コミット】：abc", "【コミット】") == ("abc", 1, 7, [])
    assert read("［公開］弱 salt", "【公開】")[0] == "弱 salt"


def test_the_epilogue_line_counts_as_its_own_marker_only_when_given():
    body = "いい勝負でした！\nイベントファイナル：月光の下で"
    assert order_text(body, M) is None
    text, line, column, notes = read(body, epilogue=EPILOGUE)
    assert (text, line, column) == ("イベントファイナル：月光の下で", 2, 0)
    assert notes == ["【行動】がないので、「イベントファイナル:」で始まるこの行を決着後の演出として読みました"
                     "（前の行は雑談として読み飛ばしました）。"]
    assert read("Event Final: done", epilogue=EPILOGUE)[:3] == ("Event Final: done", 1, 0)
    assert read("いべんとふぁいなる: 決着", epilogue=EPILOGUE)[0] == "いべんとふぁいなる: 決着"
    # the word must be followed by a colon, as the order is written; the marker wins when there is one
    assert order_text("イベントファイナルどうしようかな", M, EPILOGUE) is None
    assert order_text("お疲れさまでした。イベントファイナルかっこいい", M, EPILOGUE) is None
    assert read("イベントファイナル: 斬\n【行動】イベントファイナル: 月", epilogue=EPILOGUE)[0] == "イベントファイナル: 月"
