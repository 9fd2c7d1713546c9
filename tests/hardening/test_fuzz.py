"""Fuzz tests (hypothesis): the order grammars, the orders-file reader, the thread reader and a
whole turn never raise anything but pbf's own errors.

Bounded by default (a few hundred examples per test); ``PBF_FUZZ=20000 pytest tests/hardening``
for a long run.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbf import campaign as campaigns
from pbf import engine
from pbf.errors import PbfError
from pbf.forum import collect_orders
from pbf.systems.base import Player
from pbf.thread import load_thread

from .conftest import fuzz_examples

FUZZ = settings(max_examples=fuzz_examples(), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# pieces an order is made of, mixed with anything at all
ALTEREGO_WORDS = ["弱", "強", "→", "←", "↑", "C", "(", ")", "L", "H", "6", "4", "8", "->", "<-", "^", " ", "\n",
                  "【", "】", "[", "]", "A", "B", "C(弱←)", "０", "\u3000", "\x1b", "\u2028", "#"]
RIDER_WORDS = ["隙狙い", "超回避", "回避", "攻撃", "移動", "近", "中", "遠", "ソードベント", "ガードベント",
               "ファイナルベント", "アドベント", "城戸", "浅倉", "：", ":", "／", "/", "\n", " ", "達成値", "以上なら",
               "0", "1", "2", "99", "9999", "イベントファイナル", "「", "」", "aim", "super evasion", "\x00"]


def orders_text(words):
    return st.lists(st.one_of(st.sampled_from(words), st.text(max_size=6)), max_size=30).map("".join)


@pytest.fixture(scope="module")
def campaigns_made(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    alt = campaigns.create(root / "alt", "alterego", [Player("A", "plain"), Player("B", "plain")], seed="f",
                           options={"hands": "free"})
    rider = campaigns.create(root / "rider", "rider", [Player("城戸", "ryuki"), Player("浅倉", "jinshu")], seed="f")
    return {"alterego": alt, "rider": rider}


GAMES = {"alterego": (ALTEREGO_WORDS, "A", "B"), "rider": (RIDER_WORDS, "城戸", "浅倉")}


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_orders_never_crash(campaigns_made, game, data):
    words, first, _ = GAMES[game]
    try:
        engine.check_order(campaigns_made[game], first, data.draw(orders_text(words)))
    except PbfError:
        pass


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_a_whole_turn_never_crashes(campaigns_made, game, data):
    words, first, second = GAMES[game]
    a, b = data.draw(orders_text(words)), data.draw(orders_text(words))
    try:
        record = engine.run_turn(campaigns_made[game], f"【{first}】\n{a}\n【{second}】\n{b}\n")
    except PbfError:
        return
    assert "\x1b" not in record.post and "\x00" not in record.post


DAT_PIECES = ["<>", "</b>◆", " <b>", "◆", "&#9670;", "&#x25c6;", "&amp;", "<br>", "\n", "2026/11/29(日) 21:00:00.00",
              "ID:", "【行動】", "名前：", "投稿日：", "1 ", "2 ", "99 ", "城戸", "KidoRyuki1", "\r\n", "\ufeff", ""]


@FUZZ
@given(st.lists(st.one_of(st.sampled_from(DAT_PIECES), st.text(max_size=8)), max_size=60).map("".join),
       st.sampled_from(["utf-8", "cp932", "euc-jp"]))
def test_the_thread_reader_never_crashes(text, encoding):
    raw = text.encode(encoding, "replace")
    try:
        thread = load_thread(raw)
    except PbfError:
        return
    try:
        collect_orders(thread.posts, {"城戸": "KidoRyuki1", "A": None}, gm=("GM", "GmTrip1234"))
    except PbfError:
        pass


@FUZZ
@given(st.binary(max_size=400))
def test_any_bytes_as_a_thread_or_an_orders_file(raw):
    from pbf.orders import decode

    for read in (lambda: load_thread(raw), lambda: decode(raw, "orders.txt")):
        try:
            read()
        except PbfError:
            pass
