from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from pbf.errors import PbfError
from pbf.board.thread import decode_thread, normalize_name, parse_board_datetime, parse_thread_text, read_thread, split_trip

FIXTURES = Path(__file__).parent / "fixtures"

DAT = (
    "GM ★ </b>◆GmTrip1234 <b><>sage<>2026/11/29(日) 20:00:00.00 ID:Gm000001<> 第1ターン開始です <br> よろしく <>【PBF】オルタリゴ対戦スレ\n"
    "美鈴 </b>◆Ab3dEf6hIj <b><><>2026/11/29(日) 21:03:11.52 ID:AbCd1234<> <a href=\"../test/read.cgi/gm/1/1\" target=\"_blank\">&gt;&gt;1</a> <br> 【行動】弱→→弱強 <br> &lt;了解&gt; &amp; &quot;ok&quot; <>\n"
    "ﾚﾐﾘｱ<>sage<>2026/11/29(日) 21:05:00.10 ID:ReMi5678<> 雑談です <>\n"
    "あぼーん<>あぼーん<>あぼーん<>あぼーん<>\n"
)

COPY = """【PBF】オルタリゴ対戦スレ
1-100 最新50

1 名前：GM ◆GmTrip1234 [sage] 投稿日：2026/11/29(日) 20:00:00.00 ID:Gm000001
第1ターン開始です

2 名前：美鈴 ◆Ab3dEf6hIj 投稿日：2026/11/29(日) 21:03:11.52 ID:AbCd1234
>>1
【行動】弱→→弱強

3 ：ﾚﾐﾘｱ：2026/11/29(日) 21:05:00 ID:ReMi5678
1 名前：GM ◆GmTrip1234 [sage] 投稿日：2026/11/29(日) 20:00:00.00 ID:Gm000001
↑のコピペ
4 咲夜 (ﾜｯﾁｮｲ 7f3e-Abcd) ２０２６/１１/２９(日) ２１:０６:００.００ ID:Sak0
  【行動】
  ↑→弱
"""


def test_dat_posts():
    posts = parse_thread_text(DAT)
    assert [p.number for p in posts] == [1, 2, 3, 4]
    gm, meiling, remilia, deleted = posts
    assert (gm.name, gm.trip, gm.mail) == ("GM", "GmTrip1234", "sage")  # a cap's ★ is a decoration
    assert gm.body == "第1ターン開始です\nよろしく"
    assert meiling.name == "美鈴" and meiling.trip == "Ab3dEf6hIj"
    assert meiling.posted_at == datetime(2026, 11, 29, 21, 3, 11, 520000)
    assert meiling.post_id == "AbCd1234"
    assert meiling.body == '>>1\n【行動】弱→→弱強\n<了解> & "ok"'
    assert remilia.name == "レミリア" and remilia.trip is None  # NFKC
    assert deleted.posted_at is None and deleted.name == "あぼーん"


def test_copy_posts():
    posts = parse_thread_text(COPY)
    assert [p.number for p in posts] == [1, 2, 3, 4]
    gm, meiling, remilia, sakuya = posts
    assert (gm.name, gm.trip, gm.mail, gm.post_id) == ("GM", "GmTrip1234", "sage", "Gm000001")
    assert gm.body == "第1ターン開始です"
    assert meiling.trip == "Ab3dEf6hIj" and meiling.mail == ""
    assert meiling.body == ">>1\n【行動】弱→→弱強"
    assert meiling.source_line == 7
    assert remilia.name == "レミリア" and remilia.posted_at == datetime(2026, 11, 29, 21, 5)
    # a quoted header whose number does not go up is body text
    assert remilia.body.startswith("1 名前：GM")
    assert sakuya.name == "咲夜" and sakuya.suffix == "(ワッチョイ 7f3e-Abcd)"
    assert sakuya.posted_at == datetime(2026, 11, 29, 21, 6)
    assert sakuya.body == "【行動】\n↑→弱"  # common indentation removed


def test_header_without_name_label_or_date_label():
    posts = parse_thread_text("12 美鈴 ◆Ab3dEf6hIj 2026/11/29(日) 21:03:11.52 ID:AbCd1234\n本文\n")
    assert posts[0].number == 12 and posts[0].name == "美鈴" and posts[0].trip == "Ab3dEf6hIj"
    assert posts[0].body == "本文"


def test_cp932_dat_file(tmp_path):
    path = tmp_path / "thread.dat"
    path.write_bytes(DAT.encode("cp932"))
    posts = read_thread(path)
    assert posts[1].body.startswith(">>1\n【行動】弱→→弱強")
    assert read_thread(DAT.encode("cp932"))[0].name == "GM"


def test_utf8_bom_copy():
    posts = read_thread("\ufeff".encode() + COPY.encode("utf-8"))
    assert len(posts) == 4


def test_crlf():
    assert parse_thread_text(DAT.replace("\n", "\r\n"))[0].body == "第1ターン開始です\nよろしく"


def test_fixture_files():
    dat = read_thread(FIXTURES / "sjis.dat")
    assert dat[0].name == "GM" and dat[1].trip == "Ab3dEf6hIj"
    copy = read_thread(FIXTURES / "copy.txt")
    assert [p.number for p in copy] == [1, 2]


def test_decode_reports_encoding():
    assert decode_thread("あ".encode("cp932"))[1] == "cp932"
    assert decode_thread("あ".encode("utf-8"))[1] == "utf-8"


def test_undecodable_names_the_line():
    data = "1 名前：美鈴 投稿日：2026/11/29(日) 21:03:11.52\nあ\n".encode("utf-8") + b"\xff\xfe\n"
    with pytest.raises(PbfError) as e:
        read_thread(data)
    assert e.value.problems[0].line == 3
    assert "0xFF" in str(e.value)


def test_dat_bad_line():
    bad = DAT + "これは.datの行ではありません\n"
    with pytest.raises(PbfError) as e:
        parse_thread_text(bad)
    assert e.value.problems[0].line == 5
    assert ".dat" in str(e.value)


def test_dat_blank_line_in_the_middle():
    lines = DAT.split("\n")
    with pytest.raises(PbfError) as e:
        parse_thread_text("\n".join(lines[:2] + [""] + lines[2:]))
    assert e.value.problems[0].line == 3


def test_neither_format():
    with pytest.raises(PbfError) as e:
        parse_thread_text("\n\nただのメモ\n2行目\n")
    assert e.value.problems[0].line == 3
    assert "ただのメモ" in str(e.value)


def test_empty_and_missing():
    with pytest.raises(PbfError):
        parse_thread_text("  \n\n")
    with pytest.raises(PbfError) as e:
        read_thread("/nonexistent/thread.dat")
    assert "ありません" in str(e.value)


def test_split_trip_and_names():
    assert split_trip("美鈴 ◆Ab3dEf6hIj") == ("美鈴", "Ab3dEf6hIj", None)
    assert split_trip("美鈴◆Ab3dEf6hIj") == ("美鈴", "Ab3dEf6hIj", None)
    assert split_trip("ｻｸﾔ") == ("サクヤ", None, None)
    assert normalize_name("  美鈴　 ") == "美鈴"


def test_board_datetime():
    assert parse_board_datetime("26/11/29(日) 21:03") == datetime(2026, 11, 29, 21, 3)
    assert parse_board_datetime("あぼーん") is None
    assert parse_board_datetime("2026/02/30(月) 21:03:00") is None


def _score_by_hand(text):
    """The reading score as first written: a loop over the characters."""
    score = 0
    for ch in text:
        code = ord(ch)
        if 0x3041 <= code <= 0x30FF or 0x4E00 <= code <= 0x9FFF or code < 0x80:
            score += 1
        elif 0xFF61 <= code <= 0xFF9F or 0xE000 <= code <= 0xF8FF:
            score -= 2
    return score


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))))
def test_the_reading_score_counts_as_the_loop_did(text):
    from pbf.board.thread import _japanese_score

    assert _japanese_score(text) == _score_by_hand(text)


def test_bytes_that_only_one_codec_reads_are_read_with_it():
    text = "城戸<>sage<>2026/11/29(日) 21:01:00.00 ID:Pl000001<>【行動】 <br> ﾃｽﾄ 近寄る<>\n" * 3
    assert decode_thread(text.encode("cp932")) == (text, "cp932")
    assert decode_thread(text.encode("euc-jp")) == (text, "euc-jp")
