"""pbf odds for Alter EGO (pbf/odds/alterego.py, docs/odds.md): the spread of the opponent's plots,
its weights, the prefix memo, and the player's own view only."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, repeat

import pytest

from pbf.dice import Dice
from pbf.odds import alterego as ae
from pbf.systems.alterego import SYSTEM
from pbf.systems.alterego.legal import legal_plots, plot_of

from .conftest import make_ctx, make_state

CARDS = "弱強→←↑"


def test_hand_weights_count_the_physical_hands_that_hold_a_plot():
    deck = ("弱", "弱", "弱", "強", "強", "→", "↑")
    got = ae.hand_weights(deck, 3, 2)
    brute: Counter = Counter()
    for hand in combinations(range(len(deck)), 3):
        have = Counter(deck[i] for i in hand)
        for n in range(0, 3):
            for combo in set(combinations(sorted(have.elements()), n)):
                brute[tuple(combo.count(c) for c in CARDS)] += 1
    assert got == dict(brute)
    assert got[(0, 0, 0, 0, 0)] == 35  # every hand allows the empty plot: C(7, 3)
    assert got[(2, 0, 0, 0, 0)] == 3 * 4 + 1  # two of the three 弱 and one other card, or all three


def _duel(data, hands, distance=1, **fighters):
    ctx = make_ctx(data, {"A": "meiling", "B": "plain"}, hands=hands)
    deck = list("弱弱弱強強→→←←↑") * 3
    setup = {name: {"hand": list(hand), "deck": list(deck)} for name, hand in fighters.items()}
    return ctx, make_state(ctx, distance=distance, fighters=setup)


def test_open_hands_equal_an_independent_loop_over_the_real_turn(data):
    """Every plot of B's open hand, each resolved as pbf turn would (hands and decks in play)."""
    ctx, st = _duel(data, "open", A="弱弱↑→強←←", B="弱強→←↑↑弱")
    mine = SYSTEM.parse_order("↑→弱弱", "A", st, ctx)
    got = ae.odds(st, ctx, "A", mine, best=False)
    plots = legal_plots(st, "B", options=ctx.options)
    assert got["spread"]["plots"] == len(plots)
    dealt = taken = wins = losses = 0
    for theirs in plots:
        after, _ = SYSTEM.resolve(st, {"A": mine, "B": theirs}, Dice(repeat(0)), ctx)
        d = st["fighters"]["B"]["hp"] - after["fighters"]["B"]["hp"]
        t = st["fighters"]["A"]["hp"] - after["fighters"]["A"]["hp"]
        dealt, taken = dealt + d, taken + t
        wins += d > t
        losses += t > d
    r = got["result"]
    assert r["dealt"] == pytest.approx(dealt / len(plots), abs=1e-12)
    assert r["taken"] == pytest.approx(taken / len(plots), abs=1e-12)
    assert r["win"] == pytest.approx(wins / len(plots), abs=1e-12)
    assert r["loss"] == pytest.approx(losses / len(plots), abs=1e-12)
    assert 0 < r["win"] < 1 and r["dealt"] > 0


def test_the_prefix_memo_gives_the_same_figures(data):
    ctx, st = _duel(data, "free", distance=1)
    ctx = make_ctx(data, {"A": "meiling", "B": "plain"}, hands="free", max_plot=3)
    seen = ae.view(st, "A", ctx.options)
    rows, how = ae.spread(seen, "B", ctx.options, data)
    assert how == "free" and sum(r[2] for r in rows) == 1 + 5 + 25 + 125
    character = data.characters["meiling"]
    plain = ae.Table(seen, ctx, "A", "B", memo=False)
    memo = ae.Table(seen, ctx, "A", "B")
    for text in ("", "弱弱", "↑→弱", "強", "→→弱強", "←弱", "↑弱弱"):
        plot = plot_of(text)
        key = ae._key(plot, character)
        assert memo.against(plot, rows, key) == plain.against(plot, rows, key), text
    assert memo.resolved < plain.resolved  # the memo saved work


def test_the_private_spread_is_weighted_by_the_hands_of_the_deck(data):
    ctx, st = _duel(data, "private", A="弱弱↑→強←←", B="弱強→←↑↑弱")
    seen = ae.view(st, "A", ctx.options)
    rows, how = ae.spread(seen, "B", ctx.options, data)
    assert how == "private"
    total = sum(r[1] for r in rows)
    # the empty plot is allowed by every hand: C(40, 7)
    from math import comb
    empty = next(r for r in rows if r[0].canonical() == "")
    assert empty[1] == comb(40, 7) and total > comb(40, 7)
    # ↑↑↑↑↑ needs five of the six ↑: C(6,5)·C(34,2) + C(6,6)·C(34,1)
    five = next(r for r in rows if r[0].canonical() == "↑↑↑↑↑")
    assert five[1] == comb(6, 5) * comb(34, 2) + comb(34, 1)


def test_odds_never_read_the_opponents_private_hand(data):
    """Another hand of the same size for B, or another deck: the same figures to the card."""
    ctx, st = _duel(data, "private", A="弱弱↑→強←←", B="弱強→←↑↑弱")
    mine = SYSTEM.parse_order("↑→弱", "A", st, ctx)
    first = ae.odds(st, ctx, "A", mine)
    st["fighters"]["B"]["hand"] = list("強強強強強強←")
    st["fighters"]["B"]["deck"] = list("↑" * 20)
    st["fighters"]["B"]["discard"] = list("弱弱")
    assert ae.odds(st, ctx, "A", mine) == first
    assert first["best"] and all(set(b["plot"]) <= set("弱弱↑→強←←") for b in first["best"])


def test_a_locked_opponent_has_the_empty_plot_only(data):
    ctx, st = _duel(data, "open", A="弱弱↑→強←←", B="弱強→←↑↑弱")
    st["fighters"]["B"]["stance"] = True
    got = ae.odds(st, ctx, "A", SYSTEM.parse_order("弱弱", "A", st, ctx), best=False)
    assert got["spread"] == {"how": "locked", "plots": 1, "distinct": 1, "weight": 1}


def test_the_fast_reading_is_the_readers(data):
    """pbf odds reads the opponent's plots with its own copy of the longest-match loop: for every
    character and every sequence of up to five cards, the same techniques as reading.read_plot."""
    from pbf.systems.alterego.legal import card_sequences

    ae._KEYS.clear()  # read again here, not kept from another test
    sequences = card_sequences(None, 5)
    for character in data.characters.values():
        for cards in sequences:
            assert ae._card_key(character, cards) == ae._key(plot_of(cards), character), (character.id, cards)


def test_free_hands_offer_any_cards_as_the_best_plots(data):
    ctx = make_ctx(data, {"A": "meiling", "B": "plain"}, hands="free", max_plot=2)
    st = make_state(ctx, distance=1)
    got = ae.odds(st, ctx, "A", plot_of("弱"))
    assert got["best_note"]["candidates"] > 20 and len(got["best"]) == 3
    assert all(b["plot"] for b in got["best"]) and got["best"][0]["net"] >= got["result"]["net"]
