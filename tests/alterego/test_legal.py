"""pbf/systems/alterego/legal.py: the legal plots are exactly what parse_order accepts."""

from __future__ import annotations

from itertools import product

import pytest

from pbf.dice import Dice
from pbf.errors import OrderError
from pbf.systems.alterego import SYSTEM
from pbf.systems.alterego.legal import legal_plots, plot_of

from .conftest import make_ctx, make_state


def _accepted(ctx, state, text):
    try:
        SYSTEM.parse_order(text, "A", state, ctx)
    except OrderError:
        return False
    return True


def test_legal_plots_are_exactly_the_accepted_card_sequences(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, max_plot=3)
    state = make_state(ctx, fighters={"A": {"hand": ["弱", "弱", "→", "↑"]}})
    legal = {p.canonical() for p in legal_plots(state, "A", options=ctx.options)}
    every = {"".join(seq) for n in range(0, 5) for seq in product("弱強→←↑", repeat=n)}
    accepted = {text for text in every if _accepted(ctx, state, text)}
    assert legal == accepted
    assert "弱弱→" in legal and "弱弱弱" not in legal and "強" not in legal
    # counted by hand for 弱弱→↑ up to three cards: 1 empty, 3 singles, 7 pairs (not →→ ↑↑),
    # 12 triples (弱弱→ 3, 弱弱↑ 3, 弱→↑ 6)
    assert len(legal) == 1 + 3 + 7 + 12


def test_locked_fighter_has_only_the_empty_plot(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"})
    state = make_state(ctx, fighters={"A": {"hand": ["弱"] * 7, "stance": True}})
    assert [p.canonical() for p in legal_plots(state, "A", options=ctx.options)] == [""]


def test_free_hands_take_any_cards_and_the_order_is_fixed(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="free", max_plot=2)
    state = make_state(ctx)
    plots = [p.canonical() for p in legal_plots(state, "A", options=ctx.options)]
    assert len(plots) == 1 + 5 + 25
    assert plots[:3] == ["", "弱", "強"] and plots[-1] == "↑↑"


def test_cancels_only_with_the_gauge_and_from_the_cards_left(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, max_plot=2)
    state = make_state(ctx, fighters={"A": {"hand": ["弱", "強", "←", "←"], "soul": 3}})
    plots = legal_plots(state, "A", options=ctx.options, cancels=True)
    with_cancel = [p.canonical() for p in plots if p.cancels]
    assert "C(←←)弱" in with_cancel and "弱C(強←)←" in with_cancel
    assert "C(←←)←" not in with_cancel  # three ← needed
    for text in with_cancel:
        assert _accepted(ctx, state, text), text
    state["fighters"]["A"]["soul"] = 2
    assert not any(p.cancels for p in legal_plots(state, "A", options=ctx.options, cancels=True))


def test_a_made_plot_reads_and_resolves_like_the_written_one(data):
    ctx = make_ctx(data, {"A": "meiling", "B": "plain"}, hands="free")
    state = make_state(ctx, distance=3)
    written = SYSTEM.parse_order("↑→弱", "A", state, ctx)
    made = plot_of(["↑", "→", "弱"])
    a = SYSTEM.resolve(state, {"A": written, "B": None}, Dice.fixed([]), ctx)
    b = SYSTEM.resolve(state, {"A": made, "B": None}, Dice.fixed([]), ctx)
    assert a[0] == b[0] and a[0]["fighters"]["B"]["hp"] == 20 - 3  # エナジーキャノン hits at 3
