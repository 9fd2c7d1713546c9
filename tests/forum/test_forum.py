import hashlib
from datetime import datetime

import pytest

from pbf.errors import PbfError, Problem
from pbf.board.forum import canonical_order, collect_orders, commitment, is_late, make_commit, parse_deadline, parse_reveal, results_marker_line, results_turn
from pbf.board.boardfit import survives
from pbf.board.thread import parse_thread_text, read_thread

PLAYERS = {"美鈴": "Ab3dEf6hIj", "咲夜": None}
GM = ("GM", "GmTrip1234")


def dat(*posts):
    """posts: (name, minute, body) → a .dat thread (UTF-8 text); minute of 2026-11-29 21:MM."""
    lines = []
    for name, minute, body in posts:
        stamp = f"2026/11/29(日) 21:{minute:02d}:30.00 ID:x{minute:02d}"
        html = " " + body.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", " <br> ") + " "
        lines.append(f"{name}<><>{stamp}<>{html}<>")
    return "\n".join(lines) + "\n"


MEI = "美鈴 </b>◆Ab3dEf6hIj <b>"
FAKE = "美鈴 </b>◆Zz9yXx8wVv <b>"
GMN = "GM </b>◆GmTrip1234 <b>"


def posts_of(*posts):
    return parse_thread_text(dat(*posts))


def test_basic_orders_chat_and_last_wins():
    posts = posts_of(
        (MEI, 1, "よろしくお願いします"),
        (MEI, 2, "【行動】弱→→弱強"),
        ("咲夜", 3, "考え中…\n【行動】\n↑→弱"),
        (MEI, 4, "間違えました\n【行動】 弱→強"),
        ("名無し", 5, "【行動】弱"),
    )
    c = collect_orders(posts, PLAYERS)
    assert list(c.orders) == ["美鈴", "咲夜"]
    mei = c.orders["美鈴"]
    assert (mei.text, mei.post, mei.line, mei.column_offset, mei.superseded) == ("弱→強", 4, 2, 5, [2])
    saku = c.orders["咲夜"]
    assert (saku.text, saku.post, saku.line, saku.column_offset) == ("↑→弱", 3, 3, 0)
    assert c.chat == [1, 5]
    assert c.missing == []
    assert (c.window_start, c.window_end, c.results_post) == (1, 5, None)
    assert mei.where() == ">>4の2行目"
    p = mei.locate(Problem("読めません", line=1, column=2))
    assert (p.line, p.column, p.player) == (2, 7, "美鈴")
    assert p.format(mei.source).startswith(">>4 【美鈴】 2行目 7文字目")


def test_a_marker_in_mid_line_is_read_with_a_note_and_quotes_are_not_orders():
    posts = posts_of(("咲夜", 1, "では【行動】弱"), (MEI, 2, "> 【行動】弱\nいいですね"))
    c = collect_orders(posts, PLAYERS)
    assert list(c.orders) == ["咲夜"] and c.missing == ["美鈴"]
    saku = c.orders["咲夜"]
    assert (saku.text, saku.line, saku.column_offset) == ("弱", 1, 6)
    (note,) = c.notes("咲夜")
    assert "行の途中の【行動】から後ろを行動として読みました" in note.message
    assert (note.source, note.line, note.column, note.player) == (">>1", 1, 3, "咲夜")
    assert "（>>2）に【行動】がない" in c.notes("美鈴")[0].message  # a quote is chat, and said so


def test_configurable_marker_and_nfkc_names():
    posts = posts_of(("ｻｸﾔ", 1, "[行動]↑→弱"),)
    c = collect_orders(posts, {"サクヤ": None}, marker="［行動］")
    assert c.orders["サクヤ"].text == "↑→弱"


def test_impersonation():
    posts = posts_of((FAKE, 1, "【行動】強強強"), ("美鈴", 2, "【行動】弱"), (MEI, 3, "雑談"))
    c = collect_orders(posts, PLAYERS)
    assert "美鈴" not in c.orders
    assert [(i.post, i.trip, i.has_order) for i in c.impersonations] == [(1, "Zz9yXx8wVv", True), (2, None, True)]
    notes = c.notes("美鈴")
    assert len(notes) == 3 and "なりすまし" in notes[0].message
    assert "（>>3）に【行動】がない" in notes[2].message  # and her own chat post is named


def test_registered_trip_with_diamond_prefix():
    posts = posts_of((MEI, 1, "【行動】弱"))
    assert "美鈴" in collect_orders(posts, {"美鈴": "◆Ab3dEf6hIj"}).orders


def test_deadline_and_late_posts():
    posts = posts_of(
        (MEI, 0, "【行動】弱"),
        ("咲夜", 1, "【行動】強"),  # 21:01:30 — late for 21:00
        (MEI, 2, "【行動】強強"),  # a late correction: the on-time order stands
    )
    deadline = parse_deadline("2026-11-29 21:00")
    c = collect_orders(posts, PLAYERS, deadline=deadline)
    assert c.orders["美鈴"].text == "弱"  # 21:00:30 is within the deadline minute
    assert c.missing == ["咲夜"]
    assert [(late.player, late.post) for late in c.late] == [("咲夜", 2), ("美鈴", 3)]
    assert "遅刻" in c.notes("咲夜")[0].message


def test_is_late_rules():
    d = datetime(2026, 11, 29, 21, 0)
    assert not is_late(datetime(2026, 11, 29, 21, 0, 59, 990000), d)
    assert is_late(datetime(2026, 11, 29, 21, 1), d)
    assert is_late(None, d)
    assert not is_late(None, None)


def test_parse_deadline():
    assert parse_deadline("2026-11-29 21:00") == datetime(2026, 11, 29, 21, 0)
    assert parse_deadline("２０２６／１１／２９　２１：０５") == datetime(2026, 11, 29, 21, 5)
    for bad in ["明日の夜", "2026-11-29", "2026-13-01 10:00", "2026-11-29 25:00"]:
        with pytest.raises(PbfError) as e:
            parse_deadline(bad)
        assert "締切" in str(e.value)


def test_window_after_results_post():
    footer = results_marker_line(2)
    posts = posts_of(
        (MEI, 1, "【行動】弱"),
        (GMN, 2, f"第2ターン結果です\n{footer}"),
        (MEI, 3, "【行動】強"),
        ("咲夜", 4, f"> {footer}"),
    )
    c = collect_orders(posts, PLAYERS, gm=GM)
    assert (c.window_start, c.results_post, c.results_turn) == (3, 2, 2)
    assert c.orders["美鈴"].text == "強" and c.orders["美鈴"].superseded == []
    assert c.missing == ["咲夜"]


def test_fake_results_post_needs_gm_trip():
    footer = results_marker_line(5)
    posts = posts_of((MEI, 1, "【行動】弱"), ("咲夜", 2, f"結果\n{footer}"), ("咲夜", 3, "【行動】強"))
    assert collect_orders(posts, PLAYERS).window_start == 3  # anyone can move the window...
    c = collect_orders(posts, PLAYERS, gm=GM)  # ...unless the GM's trip is required
    assert c.window_start == 1 and c.orders["美鈴"].text == "弱"


def test_results_marker_survives_cp932_and_detects_parts():
    line = results_marker_line(3)
    assert survives(line)
    post = posts_of((GMN, 1, f"本文\n{line}（2/3）\n"))[0]
    assert results_turn(post) == 3
    assert results_turn(posts_of((GMN, 1, f"{line}\n続き"))[0]) is None


def test_since():
    posts = posts_of((MEI, 1, "【行動】弱"), (MEI, 2, "【行動】強"), ("咲夜", 3, "【行動】↑"))
    c = collect_orders(posts, PLAYERS, since=2)
    assert c.window_start == 2 and c.orders["美鈴"].superseded == []
    assert collect_orders(posts, PLAYERS, since=3).missing == ["美鈴"]
    with pytest.raises(PbfError) as e:
        collect_orders(posts, PLAYERS, since=4)
    assert "--since" in str(e.value) and "3" in str(e.value)
    with pytest.raises(PbfError):
        collect_orders(posts, PLAYERS, since=0)


def test_orders_file_text():
    posts = posts_of((MEI, 1, "【行動】弱→→弱強"))
    text = collect_orders(posts, PLAYERS).to_orders_file()
    assert text == "# >>1\n【美鈴】\n弱→→弱強\n# 【咲夜】未提出\n"


def test_cp932_thread_end_to_end(tmp_path):
    path = tmp_path / "t.dat"
    path.write_bytes(dat((MEI, 1, "【行動】弱〜強"), ("咲夜", 2, "【行動】↑")).encode("cp932"))
    c = collect_orders(read_thread(path), PLAYERS)
    assert c.orders["美鈴"].text == "弱～強"  # cp932 decodes 0x8160 as U+FF5E
    assert c.orders["咲夜"].text == "↑"


# -- commit–reveal --------------------------------------------------------------------------------


def test_commitment_definition():
    salt = "0123456789abcdef"
    order = "近寄る / ソードベント"
    expect = hashlib.sha256((order + "\n" + salt).encode("utf-8")).hexdigest()
    assert commitment(order, salt) == expect
    commit, reveal = make_commit(order, salt)
    assert commit == "【コミット】" + expect
    assert reveal == f"【公開】{order} {salt}"
    assert parse_reveal(reveal[len("【公開】"):]) == (order, salt)
    assert canonical_order("  弱 \r\n強  \n\n") == "弱\n強"


def test_make_commit_fresh_salt():
    a = make_commit("弱")
    b = make_commit("弱")
    assert a != b and len(a[1].split()[-1]) == 16
    with pytest.raises(PbfError):
        make_commit("   ")
    with pytest.raises(PbfError):
        make_commit("弱", salt="two words")


def test_commit_reveal_flow():
    mei_commit, mei_reveal = make_commit("近寄る / ソードベント", "s1")
    saku_commit, _ = make_commit("↑→弱", "s2")
    posts = posts_of(
        (MEI, 0, mei_commit),
        ("咲夜", 0, saku_commit),
        (MEI, 5, "【公開】近寄る / ソードベント s0"),  # a typo first
        (MEI, 6, mei_reveal),
        ("咲夜", 7, "【公開】↑→強 s2"),  # does not match
        (MEI, 8, "【行動】弱"),  # plain orders are chat in commit mode
    )
    c = collect_orders(posts, PLAYERS, orders="commit", deadline=parse_deadline("2026-11-29 21:00"))
    mei = c.orders["美鈴"]
    assert (mei.text, mei.post, mei.commit_post, mei.line, mei.column_offset) == ("近寄る / ソードベント", 4, 1, 1, 4)
    assert c.missing == ["咲夜"]
    assert [(i.player, i.reason, i.post) for i in c.commit_issues] == [("咲夜", "mismatch", 5)]
    assert 6 in c.chat


def test_commit_rulings_last_commit_late_commit_no_reveal():
    first, _ = make_commit("弱", "a")
    second, second_reveal = make_commit("強", "b")
    saku_commit, saku_reveal = make_commit("↑", "c")
    posts = posts_of(
        (MEI, 0, first),
        (MEI, 0, second),  # the last commit by the deadline counts
        ("咲夜", 3, saku_commit),  # late commit
        (MEI, 10, "【公開】弱 a"),
        (MEI, 11, second_reveal),
        ("咲夜", 12, saku_reveal),
    )
    c = collect_orders(posts, PLAYERS, orders="commit", deadline=parse_deadline("2026-11-29 21:00"))
    assert c.orders["美鈴"].text == "強"
    assert [(late.player, late.kind) for late in c.late] == [("咲夜", "commit")]
    assert [(i.player, i.reason) for i in c.commit_issues] == [("咲夜", "no_commit")]
    posts = posts_of((MEI, 0, first), ("咲夜", 0, "【コミット】xyz"), ("咲夜", 1, "【公開】nosalt"))
    c = collect_orders(posts, PLAYERS, orders="commit")
    reasons = sorted((i.player, i.reason) for i in c.commit_issues)
    assert reasons == [("咲夜", "bad_commit"), ("咲夜", "no_commit"), ("美鈴", "no_reveal")]
    assert c.missing == ["美鈴", "咲夜"]
    assert all("/" in n.message for n in c.notes())


def test_reveal_deadline_and_multiline_order():
    commit, reveal = make_commit("弱\n強", "salt9")
    posts = posts_of((MEI, 0, commit), (MEI, 30, reveal))
    ok = collect_orders(posts, PLAYERS, orders="commit")
    assert ok.orders["美鈴"].text == "弱\n強"
    late = collect_orders(posts, PLAYERS, orders="commit", reveal_deadline=parse_deadline("2026-11-29 21:10"))
    assert late.missing == ["美鈴", "咲夜"] and late.late[0].kind == "reveal"
    assert [i.reason for i in late.commit_issues] == ["no_reveal"]


def test_full_width_commit_hex_is_accepted():
    commit, reveal = make_commit("弱", "k")
    wide = commit.replace("a", "ａ").replace("1", "１")
    posts = posts_of((MEI, 0, wide), (MEI, 1, reveal))
    assert collect_orders(posts, PLAYERS, orders="commit").orders["美鈴"].text == "弱"


def test_reveal_without_salt_then_correct_reveal():
    commit, reveal = make_commit("弱", "pepper")
    posts = posts_of((MEI, 0, commit), (MEI, 1, "【公開】弱"), (MEI, 2, reveal))
    c = collect_orders(posts, PLAYERS, orders="commit")
    assert c.orders["美鈴"].text == "弱" and c.orders["美鈴"].superseded == [2]
    assert [(i.reason, i.post, i.missing) for i in c.commit_issues] == [("bad_reveal", 2, False)]


def test_copy_format_impersonation_without_trip():
    text = (
        "1 名前：美鈴 ◆Ab3dEf6hIj 投稿日：2026/11/29(日) 21:03:11.52 ID:AbCd1234\n【行動】弱\n\n"
        "2 名前：美鈴 投稿日：2026/11/29(日) 21:04:00.00 ID:Fake0000\n【行動】強強強\n"
    )
    c = collect_orders(parse_thread_text(text), PLAYERS)
    assert c.orders["美鈴"].text == "弱"
    assert [(i.post, i.trip) for i in c.impersonations] == [(2, None)]
