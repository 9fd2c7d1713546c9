"""The NPC's search (docs/npc.md, "Levels"): the same for both games; each game gives a
:class:`Model` (its legal orders, its opponents' likely orders, a turn simulated with the
resolver, the value of an outcome).

Everything here is a pure function of the state, the model and the draws of one :class:`Rng`
(seeded from the NPC's own dice stream, pbf.npc.npc_dice): no clock, no ``random``, no set order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from ..dice import Dice

MASK = (1 << 64) - 1


class Rng:
    """splitmix64: a fully specified 64-bit stream, cheap enough for the thousands of dice of a
    search (one HMAC a die would cost a third of the budget). Seeded from the NPC's Dice."""

    __slots__ = ("x",)

    def __init__(self, seed: int):
        self.x = seed & MASK

    def next(self) -> int:
        self.x = x = (self.x + 0x9E3779B97F4A7C15) & MASK
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n

    def stream(self) -> Iterator[int]:
        while True:
            yield self.next()

    def dice(self) -> Dice:
        """A Dice for a simulated turn (the draws of this stream)."""
        return Dice(self.stream(), "npc")


class Model(Protocol):
    def legal(self, state: dict[str, Any], name: str) -> list[Any]: ...
    def coarse(self, state: dict[str, Any], name: str) -> list[Any]: ...
    def variants(self, order: Any, state: dict[str, Any], name: str, legal: list[Any]) -> list[Any]: ...
    def combine(self, base: Any, better: list[Any], legal: list[Any]) -> Any: ...
    def likely(self, state: dict[str, Any], name: str, other: str, rng: Rng) -> Any: ...
    def simulate(self, state: dict[str, Any], orders: dict[str, Any], rng: Rng) -> dict[str, Any]: ...
    def value(self, before: dict[str, Any], after: dict[str, Any], name: str) -> float: ...
    def dealt(self, before: dict[str, Any], after: dict[str, Any], name: str) -> float: ...
    def others(self, state: dict[str, Any], name: str) -> list[str]: ...


# What each level spends (docs/npc.md): ``scenarios`` (an order for every other fighter and the
# dice), of which the first ``first`` screen every candidate; the ``keep`` best are weighed on all
# of them; the ``refine`` best are refined one change at a time (screened the same way), a change
# kept only when it scores ``margin`` better; ``ahead``: a second turn is played.
LEVELS: dict[str, dict[str, Any]] = {
    "normal": {"scenarios": 20, "first": 20, "keep": 2, "refine": 1, "ahead": False, "max_coarse": 40,
               "margin": 0.3},
    "hard": {"scenarios": 24, "first": 24, "keep": 3, "refine": 2, "ahead": True, "max_coarse": 40,
             "margin": 0.2},
}
AHEAD = 0.5  # the weight of the second turn's value (hard)
THREATS = 2  # every THREATS-th scenario gives each opponent one of its threats (0: none); a model's
# ``threats`` (level -> every) may say otherwise


def choose(model: Model, state: dict[str, Any], name: str, level: str, dice: Dice) -> tuple[Any, dict[str, Any]]:
    """(the order, a note: ``expected`` damage dealt, ``score``, ``candidates`` weighed)."""
    legal = model.legal(state, name)
    if level == "random" or len(legal) <= 1:
        order = legal[dice.below(len(legal))] if len(legal) > 1 else legal[0]
        return order, {"candidates": len(legal)}
    spend = LEVELS[level]
    others = model.others(state, name)
    # the opponents' threats: each one's best few coarse orders against this fighter's plainest
    # order (what a player who thinks would consider); half the scenarios meet one of them, the
    # other half an order drawn from the spread of likely ones
    threats = {o: _threats(model, state, name, o, Rng(dice.draw())) for o in others}  # drawn even when unused
    scenarios = []
    for k in range(spend["scenarios"]):
        rng = Rng(dice.draw())
        replies = {}
        for o in others:
            pick = model.likely(state, name, o, rng)
            every = getattr(model, "threats", {}).get(level, THREATS)
            if every and k % every == 0 and threats[o]:
                pick = threats[o][(k // 2) % len(threats[o])]
            replies[o] = pick
        scenarios.append((replies, rng.next(), rng.next()))
    done: dict[int, list[tuple[float, float]]] = {}  # id(order) -> (value, dealt) per scenario so far

    def weigh(order: Any, n: int) -> tuple[float, float]:
        """The mean value and damage dealt over the first ``n`` scenarios (the same for every order)."""
        got = done.setdefault(id(order), [])
        for replies, roll, ahead in scenarios[len(got):n]:
            after = model.simulate(state, {**replies, name: order}, Rng(roll))
            v = model.value(state, after, name)
            if spend["ahead"] and after.get("winner") is None:  # hard: the turn after, both sides' likely orders
                rng = Rng(ahead)
                nxt = {o: model.likely(after, name, o, rng) for o in model.others(after, name)}
                nxt[name] = model.likely(after, name, name, rng)
                later = model.simulate(after, nxt, rng)
                v += AHEAD * model.value(after, later, name)
            got.append((v, model.dealt(state, after, name)))
        part = got[:n]
        return sum(v for v, _ in part) / len(part), sum(d for _, d in part) / len(part)

    full, first = spend["scenarios"], spend["first"]

    def screen(orders: list[Any], keep: int) -> list[Any]:
        """The ``keep`` best on the first scenarios, ranked on all of them (ties: list order)."""
        ranked = sorted(range(len(orders)), key=lambda i: (-weigh(orders[i], first)[0], i))[:keep]
        ranked.sort(key=lambda i: (-weigh(orders[i], full)[0], i))
        return [orders[i] for i in ranked]

    coarse = model.coarse(state, name)
    if len(coarse) > spend["max_coarse"]:  # a fixed, spread subset (the order of the list is fixed)
        step = len(coarse) / spend["max_coarse"]
        coarse = [coarse[int(i * step)] for i in range(spend["max_coarse"])]
    ranked = screen(coarse, spend["keep"])
    best = ranked[0]
    margin = spend["margin"]  # a change must pay for itself: the search's noise favours the lucky
    for base in ranked[: spend["refine"]]:
        variants = model.variants(base, state, name, legal)
        better = [v for v in screen(variants, spend["keep"]) if weigh(v, full)[0] > weigh(base, full)[0] + margin]
        tried = [base, *better]
        if len(better) > 1:
            both = model.combine(base, better, legal)
            if both is not None:
                tried.append(both)
        for order in tried:
            if weigh(order, full)[0] > weigh(best, full)[0] + (margin if order is not best else 0):
                best = order
    score, expected = weigh(best, full)
    return best, {"expected": round(expected, 1), "score": round(score, 2), "candidates": len(done)}


def _threats(model: Model, state: dict[str, Any], name: str, other: str, rng: Rng, keep: int = 3) -> list[Any]:
    """``other``'s best ``keep`` coarse orders against ``name``'s first coarse order, two samples each."""
    coarse = model.coarse(state, other)
    if len(coarse) <= 1:
        return coarse
    mine = model.coarse(state, name)[0]
    rolls = (rng.next(), rng.next())
    scored = []
    for i, order in enumerate(coarse):
        v = 0.0
        for roll in rolls:
            replies = {o: order if o == other else mine for o in [name, *model.others(state, name)]}
            replies[name] = mine
            v += model.value(state, model.simulate(state, replies, Rng(roll)), other)
        scored.append((-v, i, order))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [order for _, _, order in scored[:keep]]
