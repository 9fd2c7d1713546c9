"""Every code point through every reader (issue 21, "one character blocks the turn").

A reader that compares words after NFKC and case folding must keep, for each normalised
character, where it came from: ``İ`` is two characters after ``lower()``, ``㍿`` four and ``ﷺ``
eighteen after NFKC, ``ｶﾞ`` one. What is checked here:

* the normalisers that map positions (:class:`pbf.reader.text.Text`, the rider reader's
  ``normalise``, :func:`pbf.reader.text.nfkc_origin` that the post's marker reader cuts by) get
  every code point of 0..0x10FFFF that is a ``str`` character, in chunks, and their mapping holds:
  one origin per normalised character, non-decreasing, inside the original;
* the marker reader, the thread reader (a .dat and a read.cgi copy) and the orders file's reader
  get every code point too, in chunks, and give a reading or a ``PbfError``;
* ``pbf check`` of both games reads, in the normal suite, every code point whose NFKC form,
  case mapping or combining class is not itself one character (the ones that break a mapping
  inferred from lengths), batched, in several places of an order, and random chunks of any
  code points (hypothesis); ``PBF_FUZZ=N`` gives N random chunks and, with ``PBF_FUZZ_ALL=1``,
  every code point through both games' ``pbf check`` (minutes);
* through the CLI: the issue's reproduction, ``pbf turn --orders`` and ``pbf turn --thread``.
"""

from __future__ import annotations

import os
import unicodedata
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbf import campaign as campaigns
from pbf.turn.zero import new_campaign
from pbf.turn.check import check_order
from pbf.errors import PbfError
from pbf.board.forum import collect_orders
from pbf.board.markers import read_post
from pbf.board.orders import split_orders
from pbf.reader.text import Text, nfkc_origin
from pbf.systems.base import Player
from pbf.systems.rider.orders import normalise
from pbf.board.thread import load_thread

from .conftest import fuzz_examples, tree_digest


@cache
def every() -> list[str]:
    """Every code point that is a str character (surrogates are none), made when first asked."""
    return [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]


# the issue's examples: NFKC expansions, title case, a dotted capital, sharp s, a ligature, sound marks
SPECIAL = ["İ", "㍿", "ﷺ", "ǅ", "ß", "ﬃ", "ｶﾞ", "ｿｰﾄﾞﾍﾞﾝﾄ", "e\u0301", "\u1100\u1161\u11a8", "ŉ", "ΐ", "ﬀ", "⑴", "¼",
           "\u2028", "\x85", "\u200d", "\ufe0f", "\u3099", "\x00", "\ufeff", "\u202e", "𝟏", "Ⅻ", "ﾞﾞﾞ", "\u0301" * 40]


def _changes_length(ch: str) -> bool:
    norm = unicodedata.normalize("NFKC", ch)
    return (len(norm) != 1 or unicodedata.combining(ch) != 0
            or any(len(f(x)) != len(x) for x in (ch, norm) for f in (str.lower, str.upper, str.casefold)))


def _keeps_lengths(chunk: str) -> bool:
    return unicodedata.is_normalized("NFKC", chunk) and all(len(f(chunk)) == len(chunk) for f in (str.lower, str.upper, str.casefold))


@cache
def length_changers() -> list[str]:
    """Every code point whose NFKC form, case mapping or combining class is not one character
    (a chunk in which nothing changes is passed over whole: the same set, made faster)."""
    out = []
    for piece in chunks(every(), 64):
        if _keeps_lengths(piece):
            out.extend(ch for ch in piece if unicodedata.combining(ch))
        else:
            out.extend(ch for ch in piece if _changes_length(ch))
    return out


def chunks(chars: list[str], size: int) -> list[str]:
    return ["".join(chars[k:k + size]) for k in range(0, len(chars), size)]


def test_the_sets_are_what_they_say():
    assert len(every()) == 0x110000 - 0x800
    assert {"İ", "㍿", "ﷺ", "ǅ", "ß", "ﬃ", "\u0301"} <= set(length_changers())
    assert "弱" not in length_changers() and "a" not in length_changers()


# -- the mappings ------------------------------------------------------------------------------


def _mapping_holds(original: str, norm: str, origin: list[int]) -> None:
    assert len(origin) == len(norm) + 1
    assert origin[-1] == len(original)
    assert all(0 <= a <= b for a, b in zip(origin, origin[1:]))
    assert origin[-2:-1] == [] or origin[-2] < len(original)


def test_every_code_point_keeps_its_place_in_the_reader_text():
    for piece in chunks(every(), 512) + SPECIAL + ["弱" + s + "強" for s in SPECIAL]:
        text = Text(piece)
        _mapping_holds(piece, text.norm, text.origin)
        assert len(text.folded) == len(text.norm)
        for k in range(0, len(text.norm), 97):
            line, column, shown = text.where(k, k + 1)
            assert line >= 1 and column >= 1 and shown and shown in piece


def test_every_code_point_keeps_its_place_in_the_rider_reader():
    for piece in chunks(every(), 512) + SPECIAL:
        norm, where = normalise(piece)
        _mapping_holds(piece, norm, where)


def test_every_code_point_keeps_its_place_after_nfkc():
    for piece in chunks(every(), 512) + SPECIAL + ["【行動】" + s + "弱" for s in SPECIAL]:
        norm, origin = nfkc_origin(piece)
        assert norm == unicodedata.normalize("NFKC", piece)
        _mapping_holds(piece, norm, origin)


def test_nfkc_origin_points_at_the_character_each_came_from():
    assert nfkc_origin("ｶﾞ㍿x") == ("ガ株式会社x", [0, 2, 2, 2, 2, 3, 4])
    assert nfkc_origin("e\u0301【") == ("é【", [0, 2, 3])
    assert nfkc_origin("abc") == ("abc", [0, 1, 2, 3])


def test_a_marker_after_expanding_characters_is_found_where_it_was_written():
    reading = read_post("㍿ﷺ 【行動】 弱→強", "【行動】")
    assert reading.found is not None and reading.found.text == "弱→強"
    # ｷﾞ is one character after NFKC and two as written: ［行動］ (another shape of the marker,
    # said in a note) starts at column 3 of what was typed, not at the sound mark (column 2)
    for lead in ("ｷﾞ", "e\u0301"):
        found = read_post(f"{lead}［行動］弱", "【行動】").found
        assert found is not None and found.text == "弱"
        assert [n.column for n in found.notes if n.column is not None] == [3, 3]


# -- the readers of posts, threads and orders files ----------------------------------------------


def test_every_code_point_in_a_post_around_the_marker():
    for piece in chunks(every(), 1024) + SPECIAL:
        for body in (f"{piece}【行動】{piece}\n{piece}", f">>1 {piece} 【行動】：弱"):
            reading = read_post(body, "【行動】")
            if reading.found is not None:
                assert "".join(reading.found.text.split()) in "".join(body.split())  # the post's own text, cut


def _dat(posts: list[tuple[str, str]]) -> bytes:
    lines = [f"{name}<>sage<>2026/11/29(日) 21:{k % 60:02d}:00.00 ID:AbCd1234<>{body}<>{'スレ' if k == 0 else ''}"
             for k, (name, body) in enumerate(posts)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _safe(piece: str) -> str:
    return piece.replace("\n", " ").replace("\r", " ").replace("<>", "< >")


def test_every_code_point_through_the_thread_reader():
    pieces = chunks(every(), 2048) + SPECIAL
    posts = [("GM </b>◆GmTrip1234 <b>", "第1ターンの行動をどうぞ")]
    for k, piece in enumerate(pieces):
        safe = _safe(piece)
        posts.append(("城戸 </b>◆KidoRyuki1 <b>" if k % 2 else safe[:40], f"{safe} <br> 【行動】{safe[:200]} <br> {safe}"))
    thread = load_thread(_dat(posts))
    assert len(thread.posts) == len(posts)
    try:
        collect_orders(thread.posts, {"城戸": "KidoRyuki1", "A": None}, gm=("GM", "GmTrip1234"))
    except PbfError:
        pass


def test_every_code_point_in_a_read_cgi_copy():
    lines = ["対戦スレ"]
    for k, piece in enumerate(chunks(every(), 4096) + SPECIAL, start=1):
        safe = _safe(piece)
        lines += [f"{k} 名前：{safe[:30]} 投稿日：2026/11/29(日) 21:00:00.00 ID:AbCd1234", safe[:1000], f"【行動】{safe[1000:1200]}", ""]
    try:
        thread = load_thread("\n".join(lines).encode("utf-8"))
    except PbfError:
        return
    assert thread.posts


def test_a_results_post_with_thousands_of_digits_is_no_results_post():
    """A turn number of 5,000 digits is no number for int(): the post is chat, not a crash."""
    posts = [("GM </b>◆GmTrip1234 <b>", "［pbf］第" + "1" * 5000 + "ターン結果"), ("A", "【行動】弱")]
    thread = load_thread(_dat(posts))
    collect_orders(thread.posts, {"A": None}, gm=("GM", "GmTrip1234"))


def test_every_code_point_in_an_orders_file():
    players = ["美鈴", "名無し"]
    for piece in chunks(every(), 2048) + SPECIAL:
        safe = piece.replace("\r", " ")
        for text in (f"[美鈴]\n{safe}\n[名無し]\n弱\n", f"[{safe[:30]}]\n弱\n[美鈴]\n{safe}", f"# {safe}\n美鈴: {safe}\n"):
            problems: list = []
            found = split_orders(text, players, problems)
            assert set(found) <= set(players)


# -- pbf check of both games ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    root = tmp_path_factory.mktemp("codepoints")
    alt = new_campaign(root / "alt", "alterego", [Player("美鈴", "meiling", "MeiTrip001"), Player("名無し", "plain")],
                           seed="s1")
    rider = new_campaign(root / "rider", "rider", [Player("城戸", "ryuki"), Player("浅倉", "jinshu")], seed="f")
    return {"alterego": (alt, "美鈴"), "rider": (rider, "城戸")}


PLACES = {
    "alterego": ["{}", "弱{}強", "【行動】弱→{}", "エナジーキャノン{}", "{}C(弱←)"],
    "rider": ["{}", "攻撃：{}", "【行動】隙狙い{}", "ソードベント{}", "超回避 {}浅倉に攻撃"],
}


def _read(campaign, player: str, text: str) -> None:
    """A reading or a PbfError whose message says something; anything else fails the test."""
    try:
        check_order(campaign, player, text)
    except PbfError as exc:
        assert exc.problems and all(p.message for p in exc.problems)


@pytest.mark.parametrize("game", PLACES)
def test_every_length_changing_code_point_through_check(games, game):
    campaign, player = games[game]
    places = PLACES[game]
    for k, piece in enumerate(chunks(length_changers(), 24)):
        _read(campaign, player, places[k % len(places)].format(piece))
    for special in SPECIAL:
        for place in places:
            _read(campaign, player, place.format(special))


@pytest.mark.parametrize("game", PLACES)
@settings(max_examples=fuzz_examples(15), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.integers(0, 0x10FFFF - 16), size=st.integers(1, 16), place=st.integers(0, 4))
def test_any_run_of_code_points_through_check(games, game, start, size, place):
    campaign, player = games[game]
    run = "".join(chr(c) for c in range(start, start + size) if not 0xD800 <= c <= 0xDFFF)
    _read(campaign, player, PLACES[game][place].format(run))


@pytest.mark.skipif(not os.environ.get("PBF_FUZZ_ALL"), reason="every code point through check: PBF_FUZZ_ALL=1 (minutes)")
@pytest.mark.parametrize("game", PLACES)
def test_every_code_point_through_check(games, game):
    campaign, player = games[game]
    places = PLACES[game]
    for k, piece in enumerate(chunks(every(), 64)):
        _read(campaign, player, places[k % len(places)].format(piece))


# -- through the command line --------------------------------------------------------------------


def _no_traceback(code: int, err: str) -> None:
    assert code in (0, 1), err
    assert "Traceback" not in err and "Error:" not in err.replace("PbfError", "")


def test_the_issue_reproduction_through_the_cli(tmp_path, pbf):
    camp = tmp_path / "c"
    code, _, err = pbf("new", camp, "--system", "alterego", "--player", "美鈴◆MeiTrip001=meiling",
                       "--player", "名無し=plain", "--seed", "s1")
    assert code == 0, err
    code, out, err = pbf("check", camp, "--player", "美鈴", "İ")
    _no_traceback(code, err)
    assert code == 1 and "「İ」" in err and "1文字目" in err  # where, and what was written
    for order in ("弱İ強", "㍿", "ﷺ弱", "ǅ", "ß", "ﬃ", "【行動】İ弱", "İ\n【行動】弱←"):
        code, out, err = pbf("check", camp, "--player", "美鈴", order)
        _no_traceback(code, err)
        assert (code == 0 and out.strip()) or (code == 1 and "【美鈴】" in err)
    code, out, err = pbf("check", camp, "--player", "美鈴", "İ\n【行動】弱←")
    assert code == 0 and "弱" in out, err


def test_turn_orders_and_thread_with_the_characters(tmp_path, pbf):
    camp = tmp_path / "c"
    code, _, err = pbf("new", camp, "--system", "alterego", "--player", "美鈴◆MeiTrip001=meiling",
                       "--player", "名無し=plain", "--seed", "s1")
    assert code == 0, err
    before = tree_digest(camp)
    orders = tmp_path / "orders.txt"
    orders.write_text("[美鈴]\n弱İ㍿\n[名無し]\nﷺ\n", "utf-8")
    code, _, err = pbf("turn", camp, "--orders", orders)
    _no_traceback(code, err)
    assert code == 1 and "【美鈴】" in err and "【名無し】" in err
    thread = tmp_path / "t.dat"
    thread.write_bytes(_dat([("GM", "第1ターン"), ("美鈴 </b>◆MeiTrip001 <b>", "【行動】İ"), ("名無し", "【行動】ǅß")]))
    for command in (("status", camp, "--thread", thread), ("turn", camp, "--thread", thread)):
        code, _, err = pbf(*command)
        _no_traceback(code, err)
    assert tree_digest(camp) == before  # refused: nothing changed


# -- other places that mapped a normalised position back by lengths ------------------------------


def test_a_dice_list_names_the_column_and_the_face_as_typed():
    from pbf.dice import parse_dice_list

    assert parse_dice_list("１,２、3") == [1, 2, 3]
    with pytest.raises(PbfError, match="3文字目「㍿」"):  # as typed, not 株式会社
        parse_dice_list("1,㍿")
    with pytest.raises(PbfError, match="5文字目「ｶﾞ」"):
        parse_dice_list("1,  ｶﾞ")
    with pytest.raises(PbfError, match="8文字目「9」"):
        parse_dice_list("1, 2,  9")


def test_an_aim_declaration_of_thousands_of_digits_is_refused(games):
    campaign, player = games["rider"]
    with pytest.raises(PbfError, match="1行目 1文字目"):  # a PbfError with its place, not int()'s ValueError
        check_order(campaign, player, "攻撃力を" + "9" * 5000 + "点減らして隙狙い")
    assert "隙狙い" in check_order(campaign, player, "攻撃力を2点減らして隙狙い")  # a real one still reads
