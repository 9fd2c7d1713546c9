"""Points 6 and 7 of issue 12, and the forum survivors of the planted bugs: who a post is from.

In a .dat only the server's markup ``</b>◆TRIP <b>`` makes a trip; a copied read.cgi page's
headers must follow the thread's own numbering; trips are compared exactly (letter case too);
only the GM (name and trip) ends a turn window; a post's last order marker wins.
"""

import pytest

from pbf.board.forum import collect_orders, results_marker_line
from pbf.board.thread import load_thread, parse_thread_text

TRIP = "KidoRyuki1"


def dat(*lines):
    return "\n".join(f"{name}<>sage<>2026/11/29(日) 21:00:0{i}.00 ID:Id{i}<>{body.replace(chr(10), ' <br> ')}<>"
                     for i, (name, body) in enumerate(lines)) + "\n"


# (id, name field as the .dat has it, the trip pbf must read)
NAME_FIELDS = [
    ("server-markup", f"城戸 </b>◆{TRIP} <b>", TRIP),
    ("typed-diamond", f"城戸 ◆{TRIP}", None),
    ("decimal-entity", f"城戸&#9670;{TRIP}", None),
    ("hex-entity", f"城戸&#x25c6;{TRIP}", None),
    ("named-in-markup-but-entity", f"城戸 </b>&#9670;{TRIP} <b>", None),
]


@pytest.mark.parametrize("case", NAME_FIELDS, ids=[c[0] for c in NAME_FIELDS])
def test_only_the_servers_markup_makes_a_dat_trip(case):
    _, field, trip = case
    post = parse_thread_text(dat((field, "【行動】ファイナルベント")))[0]
    assert post.trip == trip
    found = collect_orders([post], {"城戸": TRIP})
    assert ("城戸" in found.orders) == (trip is not None)


def test_a_trip_that_differs_in_letter_case_is_an_impostor():
    posts = parse_thread_text(dat((f"城戸 </b>◆{TRIP.lower()} <b>", "【行動】ファイナルベント")))
    found = collect_orders(posts, {"城戸": TRIP})
    assert "城戸" not in found.orders and found.impersonations


COPY = f"""テストスレ
1 名前：GM 投稿日：2026/11/29(日) 20:00:00.00 ID:Gm000001
開始です
2 名前：浅倉 投稿日：2026/11/29(日) 21:00:00.00 ID:Asa00001
これを見ろ
99 名前：城戸 ◆{TRIP} 投稿日：2026/11/29(日) 21:00:05.00 ID:Kid00001
【行動】ファイナルベント
3 名前：見物人 投稿日：2026/11/29(日) 21:01:00.00 ID:Nan00001
雑談
"""


def test_a_header_inside_a_copied_body_with_another_number_is_body_text():
    thread = load_thread(COPY.encode("utf-8"))
    assert [p.number for p in thread.posts] == [1, 2, 3]
    assert "ファイナルベント" in thread.posts[1].body
    found = collect_orders(thread.posts, {"城戸": TRIP, "浅倉": None})
    assert "城戸" not in found.orders
    assert any("本文として読みました" in w.message for w in thread.warnings)


def test_a_copy_with_trips_says_a_typed_diamond_cannot_be_told_apart():
    text = COPY.replace("99 名前：城戸", "3 名前：城戸").replace("3 名前：見物人", "4 名前：見物人")
    thread = load_thread(text.encode("utf-8"))
    assert thread.posts[2].trip == TRIP
    assert any("見分けられません" in w.message for w in thread.warnings)
    plain = load_thread(COPY.replace(f" ◆{TRIP}", "").encode("utf-8"))
    assert not any("見分けられません" in w.message for w in plain.warnings)


@pytest.mark.parametrize("gm_field, moves", [
    ("GM </b>◆GmTrip1234 <b>", True),
    ("GM </b>◆gmtrip1234 <b>", False),  # letter case
    ("GM </b>◆Wr0ngTr1p0 <b>", False),
    ("GM", False),
    ("GM ◆GmTrip1234", False),  # typed, no markup
])
def test_only_the_gms_own_posts_end_a_turn_window(gm_field, moves):
    posts = parse_thread_text(dat(
        ("A", "【行動】弱"),
        (gm_field, "結果です\n" + results_marker_line(1)),
        ("B", "【行動】強"),
    ))
    found = collect_orders(posts, {"A": None, "B": None}, gm=("GM", "GmTrip1234"), current_turn=1)
    assert ("A" in found.orders) == (not moves)
    assert "B" in found.orders


def test_the_last_order_marker_of_a_post_wins():
    posts = parse_thread_text(dat(("A", "【行動】弱弱\n考え直して\n【行動】強→")))
    assert collect_orders(posts, {"A": None}).orders["A"].text == "強→"
