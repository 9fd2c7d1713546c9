"""The rider order reader keeps the clauses of each text it read (pbf/systems/rider/orders.py)."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.systems.rider import SYSTEM
from pbf.systems.rider import orders as rider_orders
from pbf.systems.rider.orders import read_clauses


@pytest.fixture(scope="module")
def data():
    return SYSTEM.load_data(None)


def test_a_text_is_read_once(data):
    first, normalised, where = read_clauses("近寄る / ソードベント", data)
    again, normalised_again, where_again = read_clauses("近寄る / ソードベント", data)
    assert [c.kind for c in first] == [c.kind for c in again]
    assert all(a is b for a, b in zip(first, again))  # the same clauses, not read by lark again
    assert again is not first and where_again is not where  # the caller's lists are its own
    again.clear()
    assert len(read_clauses("近寄る / ソードベント", data)[0]) == len(first)


def test_other_data_reads_the_text_again(data):
    other = SYSTEM.load_data(None)
    assert other is not data
    mine = read_clauses("留まる", data)[0]
    theirs = read_clauses("留まる", other)[0]
    assert mine[0] is not theirs[0]


def test_problems_are_never_kept(data):
    for player in ("城戸", "蓮"):  # a problem names the player who wrote it
        with pytest.raises(OrderError) as caught:
            read_clauses("近寄る / ほげほげベント", data, player)
        assert caught.value.problems[0].player == player


def test_the_memo_is_bounded(data, monkeypatch):
    monkeypatch.setattr(rider_orders, "_READ", {})
    monkeypatch.setattr(rider_orders, "_READ_MAX", 2)
    for text in ("留まる", "近寄る", "離れる", "近へ"):
        read_clauses(text, data)
    assert 1 <= len(rider_orders._READ) <= 2
