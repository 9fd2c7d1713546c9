"""Every legal Alter EGO plot of one fighter, as :class:`Plot` objects the resolver takes.

Legal is what ``AlterEgo.parse_order`` accepts (docs/rules/alterego.md, "Writing an order"):

* a locked fighter (guard stance or a charged 強攻撃 carried into this turn) plots nothing: the
  empty plot is the only one;
* otherwise 0 to ``max_plot`` cards (default 5), left to right, each taken from the hand,
  multiplicities counted; with ``hands = "free"`` (or ``hand=None``) any of the five cards;
* with ``cancels=True``, also the plots with cancel markers: each marker directly before a card,
  naming two cards of the hand that the plot does not use (any two with free hands), at most
  ``soul // 3`` markers (a cancel below 3 gauge is legal but always fails; it is left out);
* ``｜`` (a split) is never put in: it changes a reading only where cards would join, and every
  such plot has a written twin without it that is also legal.

Plots come out in a fixed order (fewer cards first, then the card order 弱 強 → ← ↑), once per
distinct card sequence, so the same state always gives the same list. Used by ``pbf odds``
(pbf/odds) and by the NPC opponent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import combinations_with_replacement
from typing import Any

from .data import CARDS
from .plot import Cancel, Card, Plot
from .state import CANCEL_COST, is_locked

DEFAULT_MAX_PLOT = 5


def plot_of(cards: Iterable[str], cancels: dict[int, tuple[str, str]] | None = None) -> Plot:
    """A plot of these card symbols, written side by side on one line (so that they read as
    commands, as a player's ``弱強`` does); ``cancels`` maps a card's index to the two cards a
    cancel marker directly before it discards."""
    items: list[Any] = []
    column = 1
    for index, symbol in enumerate(cards):
        if cancels and index in cancels:
            discards = tuple(cancels[index])
            text = "C(" + "".join(discards) + ")"
            items.append(Cancel(discards, 1, column, text))
            column += len(text)
        items.append(Card(symbol, 1, column, symbol))
        column += 1
    return Plot(tuple(items))


def _sequences(pool: Counter, length: int, order: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """Every sequence of ``length`` cards drawn from the multiset ``pool`` (distinct sequences)."""
    if length == 0:
        yield ()
        return
    for card in order:
        if pool[card] > 0:
            pool[card] -= 1
            for rest in _sequences(pool, length - 1, order):
                yield (card, *rest)
            pool[card] += 1


def card_sequences(hand: Iterable[str] | None, max_plot: int = DEFAULT_MAX_PLOT) -> list[tuple[str, ...]]:
    """Every distinct card sequence of 0..max_plot cards from ``hand`` (None: any cards)."""
    order = tuple(CARDS)
    if hand is None:
        pool = Counter({card: max_plot for card in order})
    else:
        pool = Counter(hand)
        order = tuple(c for c in order if pool[c]) + tuple(sorted(c for c in pool if c not in CARDS))
    out: list[tuple[str, ...]] = []
    for length in range(0, max_plot + 1):
        out.extend(_sequences(pool, length, order))
    return out


def _with_cancels(cards: tuple[str, ...], left: Counter | None, markers: int) -> Iterator[dict[int, tuple[str, str]]]:
    """Every way to put 1..markers cancel markers before the cards, discarding from ``left``."""
    if markers <= 0 or not cards:
        return
    order = tuple(CARDS)
    pairs_free = list(combinations_with_replacement(order, 2))

    def pairs(pool: Counter | None) -> list[tuple[str, str]]:
        if pool is None:
            return pairs_free
        return [p for p in pairs_free if (pool[p[0]] >= 2 if p[0] == p[1] else pool[p[0]] and pool[p[1]])]

    def place(start: int, pool: Counter | None, count: int, chosen: dict[int, tuple[str, str]]) -> Iterator[dict]:
        for index in range(start, len(cards)):
            for pair in pairs(pool):
                rest = None
                if pool is not None:
                    rest = pool.copy()
                    rest.subtract(pair)
                now = {**chosen, index: pair}
                yield now
                if count > 1:
                    yield from place(index + 1, rest, count - 1, now)

    yield from place(0, left, markers, {})


def legal_plots(
    state: dict[str, Any],
    fighter: str,
    hand: Iterable[str] | None = None,
    *,
    options: dict[str, Any] | None = None,
    cancels: bool = False,
) -> list[Plot]:
    """Every plot ``fighter`` may legally make in ``state``.

    ``hand``: the cards to plot from; by default the fighter's hand in ``state`` (or any cards
    with ``hands = "free"`` in ``options``). Pass another hand to ask about a hand the player
    does not see (``pbf odds`` does, for the opponent's possible hands). ``options``: the
    campaign's options (``hands``, ``max_plot``). ``cancels``: include the plots with cancel
    markers (many more plots; off by default).
    """
    options = options or {}
    st = state["fighters"][fighter]
    if is_locked(st):
        return [Plot()]
    free = options.get("hands", "private") == "free"
    if hand is None and not free:
        hand = list(st.get("hand") or [])
    pool = None if free and hand is None else list(hand or [])
    max_plot = int(options.get("max_plot", DEFAULT_MAX_PLOT))
    plots: list[Plot] = []
    markers = int(st.get("soul", 0)) // CANCEL_COST if cancels else 0
    for cards in card_sequences(pool, max_plot):
        plots.append(plot_of(cards))
        if markers:
            left = None
            if pool is not None:
                left = Counter(pool)
                left.subtract(cards)
            for placed in _with_cancels(cards, left, markers):
                plots.append(plot_of(cards, placed))
    return plots
