"""Alter EGO's NPC model (pbf.npc.search.Model; docs/npc.md).

The NPC plots from its own hand (legal.legal_plots). It never reads an opponent's private hand:
with ``hands = "private"`` an opponent's likely plot is made from a hand drawn from the cards it
could hold (the 40-card deck's make-up, without the cards the NPC sees: its own hand and every
discard pile), of the size the post shows; with ``open`` or ``free`` hands, from what the table
shows. A likely plot has 0 to 5 cards, its length drawn uniformly, its cards from that hand.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..base import Context
from .legal import legal_plots, plot_of
from .state import is_locked

WIN = 40.0
SOUL = 0.3  # a point of soul gauge gained (three buy a cancel or a 特殊必殺技)
CHARGE = 1.5  # a 強攻撃 charging into the next turn (its damage comes then)
APPROACH = 0.4  # per square beyond reach 1 (a battle is won at close range; a far NPC stalls)
CYCLE = 0.25  # a card played (the hand is drawn back up to 7: a stale hand is renewed)
DECK = {"弱": 12, "強": 6, "→": 8, "←": 8, "↑": 6}
MAX_COARSE = 40


class AlterEgoModel:
    # normal meets the opponents' best plots against its spread in every second scenario
    # (search.LEVELS); hard meets those and the plots normal would choose from their side
    spend: dict[str, dict[str, Any]] = {"normal": {"threats": 2}, "hard": {"both": True}}

    def __init__(self, system: Any, ctx: Context):
        self.system = system
        self.ctx = ctx
        self.options = dict(ctx.options)
        self._legal: dict[tuple, list[Any]] = {}

    def _hand_key(self, state: dict[str, Any], name: str) -> tuple:
        f = state["fighters"][name]
        return name, tuple(sorted(f.get("hand") or [])), bool(is_locked(f)), int(f.get("soul", 0))

    def legal(self, state: dict[str, Any], name: str) -> list[Any]:
        key = self._hand_key(state, name)
        kept = self._legal.get(key)
        if kept is None:
            if len(self._legal) > 2048:
                self._legal.clear()
            kept = self._legal[key] = legal_plots(state, name, options=self.options)
        return kept

    def coarse(self, state: dict[str, Any], name: str) -> list[Any]:
        return self._coarse(self.legal(state, name))

    def seen_coarse(self, state: dict[str, Any], name: str, other: str, rng: Any) -> list[Any]:
        """``other``'s coarse plots as ``name`` sees them: from a hand it may hold (search._threats;
        never its private hand)."""
        f = state["fighters"][other]
        if is_locked(f):
            return [plot_of(())]
        hand = self._seen_hand(state, name, other, rng)
        return self._coarse(legal_plots(state, other, hand, options=self.options))

    def as_seen(self, state: dict[str, Any], name: str, other: str, rng: Any) -> dict[str, Any]:
        """The state as ``name`` may believe it: ``other``'s hand replaced by one it may hold
        (search._predicted searches from ``other``'s side on it)."""
        hand = self._seen_hand(state, name, other, rng)
        if hand is None:
            return state
        fighters = dict(state["fighters"])
        fighters[other] = {**fighters[other], "hand": hand}
        return {**state, "fighters": fighters}

    def mine(self, state: dict[str, Any], name: str, rng: Any) -> Any:
        """One of ``name``'s own plots, drawn uniformly from its coarse ones (what an opponent
        may expect of it, without reading any other hand)."""
        coarse = self.coarse(state, name)
        return coarse[rng.below(len(coarse))]

    @staticmethod
    def _coarse(plots: list[Any]) -> list[Any]:
        short = [p for p in plots if len(p.cards) <= 2]
        longer = [p for p in plots if len(p.cards) > 2]
        room = MAX_COARSE - len(short)
        if room > 0 and longer:
            step = max(1, len(longer) // room)
            short += longer[::step][:room]
        return short

    def variants(self, plot: Any, state: dict[str, Any], name: str, legal: list[Any]) -> list[Any]:
        """One card more at the end, or the last card changed."""
        cards = list(plot.cards)
        out = []
        for p in legal:
            other = list(p.cards)
            if (len(other) == len(cards) + 1 and other[:-1] == cards) or (
                    cards and len(other) == len(cards) and other[:-1] == cards[:-1] and other[-1] != cards[-1]):
                out.append(p)
        return out

    def combine(self, base: Any, better: list[Any], legal: list[Any]) -> Any:
        return None

    def order_key(self, plot: Any) -> Any:
        """What a turn depends on in a plot (search.choose plays each pair of plots once): the
        resolver's dice only draw cards back up to the hand's size, and no value reads the hand."""
        return plot.canonical()

    def others(self, state: dict[str, Any], name: str) -> list[str]:
        return [n for n in state["fighters"] if n != name]

    def _seen_hand(self, state: dict[str, Any], name: str, other: str, rng: Any) -> list[str] | None:
        """The hand ``other`` may hold, as ``name`` sees it: the real one only when the table shows it."""
        hands = self.options.get("hands", "private")
        f = state["fighters"][other]
        if hands == "free":
            return None
        if hands == "open" or state.get("winner") is not None:
            return list(f.get("hand") or [])
        pool = Counter(DECK)
        seen = list(state["fighters"][name].get("hand") or [])
        for fighter in state["fighters"].values():
            seen += list(fighter.get("discard") or [])
        pool.subtract(Counter(seen))
        cards = [c for c in DECK for _ in range(max(0, pool[c]))]
        hand = []
        for _ in range(min(len(f.get("hand") or []), len(cards))):
            hand.append(cards.pop(rng.below(len(cards))))
        return hand

    def likely(self, state: dict[str, Any], name: str, other: str, rng: Any) -> Any:
        f = state["fighters"][other]
        if is_locked(f):
            return plot_of(())
        hand = self._seen_hand(state, name, other, rng)
        if hand is None:
            hand = [c for c in DECK for _ in range(5)]
        length = rng.below(min(5, len(hand)) + 1)
        cards = []
        for _ in range(length):
            cards.append(hand.pop(rng.below(len(hand))))
        return plot_of(cards)

    def simulate(self, state: dict[str, Any], orders: dict[str, Any], rng: Any) -> dict[str, Any]:
        return self.system.resolve(state, orders, rng.dice(), self.ctx)[0]

    def dealt(self, before: dict[str, Any], after: dict[str, Any], name: str) -> float:
        return float(sum(max(0, f["hp"]) - max(0, after["fighters"][n]["hp"])
                         for n, f in before["fighters"].items() if n != name))

    def value(self, before: dict[str, Any], after: dict[str, Any], name: str) -> float:
        me0, me1 = before["fighters"][name], after["fighters"][name]
        v = self.dealt(before, after, name) - (max(0, me0["hp"]) - max(0, me1["hp"]))
        v += SOUL * (int(me1.get("soul", 0)) - int(me0.get("soul", 0)))
        v += CYCLE * max(0, len(me1.get("discard") or []) - len(me0.get("discard") or []))
        v -= APPROACH * max(0, int(after.get("distance", 0)) - 1)
        for n, f in after["fighters"].items():
            if f.get("charging"):
                v += CHARGE if n == name else -CHARGE
        winner = after.get("winner")
        if winner is not None and winner != "draw":
            v += WIN if winner == name else -WIN
        return v
