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
        return SimDice(self)

    def keyed(self) -> "KeyedDice":
        """A Dice for a simulated turn whose checks each draw from a stream of their own."""
        return KeyedDice(self.next())


class SimDice(Dice):
    """The Dice of a simulated turn: the same draws as ``Dice(rng.stream())``, drawn straight
    from the Rng and not recorded (a simulated turn keeps no record of its dice)."""

    __slots__ = ("rng",)
    keyed = None  # one stream for every check (KeyedDice gives each its own)

    def __init__(self, rng: Rng):
        super().__init__(iter(()), "npc")
        self.rng = rng

    def draw(self) -> int:
        return self.rng.next()

    def below(self, n: int) -> int:
        return self.rng.next() % n

    def d6(self) -> int:
        return 1 + self.rng.next() % 6


def _mix(x: int) -> int:
    """splitmix64's finaliser."""
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


class KeyedDice(SimDice):
    """The dice of a simulated turn, common to every candidate order (docs/npc.md, "Levels"):
    the k-th check of one purpose by one fighter (its attack, its evasion, its move, its damage)
    draws from a stream of its own, keyed by (fighter, purpose, k), so the same scenario rolls the
    same dice for that check whatever the other checks of the turn roll — an attack with 隙狙い
    rolls the first dice of the same attack without it, an evasion with 超回避 the same dice.
    A game's dice functions ask for the sub-stream with ``keyed`` (pbf/systems/rider/dice.py);
    any other draw comes from the turn's own stream."""

    __slots__ = ("seed", "counts")

    def __init__(self, seed: int):
        super().__init__(Rng(seed))
        self.seed = seed
        self.counts: dict[tuple[str, str], int] = {}

    def keyed(self, actor: str, purpose: str) -> Dice:
        key = (actor, purpose)
        k = self.counts.get(key, 0)
        self.counts[key] = k + 1
        h = self.seed
        for ch in f"{actor}\0{purpose}\0{k}".encode():  # FNV-style, fixed (no hash(): it is salted)
            h = ((h ^ ch) * 0x100000001B3) & MASK
        return SimDice(Rng(_mix(h)))


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


# What each level spends (docs/npc.md, "Levels"). ``scenarios``: the most scenarios (an order for
# every other fighter and the dice) a candidate is weighed on. The candidates race (successive
# halving): all are weighed on the ``first`` scenarios, the better half goes on to twice as many,
# and so on until ``keep`` are left, which are weighed on all of them. The candidates are the
# model's coarse orders (at most ``max_coarse``, a fixed spread), or every legal order when there
# are at most ``full``; then the ``refine`` best coarse ones race with every order that changes one
# thing (a change must score ``margin`` better). ``threats``: every ``threats``-th scenario gives
# each opponent one of its predicted orders (its best against this fighter's spread; 0: none).
# ``ahead``: a second turn is played after each scenario, worth AHEAD of the first.
# The search's version, kept with each normal/hard NPC order in turn.yaml (``search``; none: 1, the
# first search). A replay of a turn decided by another version cannot recompute it: it takes the
# archived order with its commitment checked and says so (docs/npc.md, "An older search"). Raise
# it whenever a change to the search or LEVELS can change an order.
SEARCH_VERSION = 2

LEVELS: dict[str, dict[str, Any]] = {
    "normal": {"scenarios": 20, "first": 10, "keep": 2, "refine": 1, "ahead": False, "max_coarse": 40,
               "full": 24, "margin": 0.3, "threats": 0, "predict": 0},
    "hard": {"scenarios": 64, "first": 8, "keep": 3, "refine": 2, "ahead": False, "max_coarse": 40,
             "full": 48, "margin": 0.2, "threats": 2, "predict": 2},
}
AHEAD = 0.5  # the weight of the second turn's value (hard)


def choose(model: Model, state: dict[str, Any], name: str, level: str, dice: Dice) -> tuple[Any, dict[str, Any]]:
    """(the order, a note: ``expected`` damage dealt, ``score``, ``candidates`` weighed)."""
    legal = model.legal(state, name)
    if level == "random" or len(legal) <= 1:
        order = legal[dice.below(len(legal))] if len(legal) > 1 else legal[0]
        return order, {"candidates": len(legal)}
    solved = getattr(model, "solved", None)  # a table of the best orders (rider: RiderModel.table, off)
    if solved is not None:
        order = solved(state, name)
        if order is not None:
            return order, {"candidates": len(legal)}
    spend = {**LEVELS["normal"], **LEVELS[level]}
    spend.update(getattr(model, "spend", {}).get(level, {}))
    others = model.others(state, name)
    every = int(spend.get("threats") or 0)
    predict = int(spend.get("predict") or 0)
    threats: dict[str, list[Any]] = {}
    for o in others:
        rng = Rng(dice.draw())  # drawn even when unused
        if every and predict:  # hard: each opponent's order as normal would choose it, from its side
            threats[o] = _predicted(model, state, name, o, rng, predict)
            if spend.get("both"):  # and its best orders against this fighter's spread
                threats[o] += _threats(model, state, name, o, rng, full=int(spend["full"]))
        elif every:
            threats[o] = _threats(model, state, name, o, rng, full=int(spend["full"]))
        else:
            threats[o] = []
    full = max(1, int(spend["scenarios"]))
    scenarios = []
    for k in range(full):
        rng = Rng(dice.draw())
        replies = {}
        for o in others:
            pick = model.likely(state, name, o, rng)
            if every and k % every == 0 and threats[o]:
                pick = threats[o][(k // every) % len(threats[o])]
            replies[o] = pick
        scenarios.append((replies, rng.next(), rng.next()))
    done: dict[int, list[tuple[float, float]]] = {}  # id(order) -> (value, dealt) per scenario so far
    held: dict[int, Any] = {}  # keeps every weighed order alive, so that no id is reused

    # a model whose turn depends on the orders alone (Alter EGO: the dice only draw cards, which no
    # value reads) plays each pair of orders once: the same replies in two scenarios cost one turn
    key_of = getattr(model, "order_key", None) if not spend["ahead"] else None
    same: dict[tuple, tuple[float, float]] = {}

    def weigh(order: Any, n: int) -> tuple[float, float]:
        """The mean value and damage dealt over the first ``n`` scenarios (the same for every order)."""
        got = done.setdefault(id(order), [])
        held[id(order)] = order
        for replies, roll, ahead in scenarios[len(got):n]:
            if key_of is not None:
                key = (key_of(order), *(key_of(replies[o]) for o in others))
                kept = same.get(key)
                if kept is None:
                    after = model.simulate(state, {**replies, name: order}, Rng(roll))
                    kept = same[key] = (model.value(state, after, name), model.dealt(state, after, name))
                got.append(kept)
                continue
            after = model.simulate(state, {**replies, name: order}, Rng(roll))
            v = model.value(state, after, name)
            if spend["ahead"] and after.get("winner") is None:
                rng = Rng(ahead)
                nxt = {o: model.likely(after, name, o, rng) for o in model.others(after, name)}
                nxt[name] = model.likely(after, name, name, rng)
                later = model.simulate(after, nxt, rng)
                v += AHEAD * model.value(after, later, name)
            got.append((v, model.dealt(state, after, name)))
        part = got[:n]
        return sum(v for v, _ in part) / len(part), sum(d for _, d in part) / len(part)

    def race(orders: list[Any], keep: int) -> list[Any]:
        """Successive halving: the ``keep`` best, ranked on all the scenarios (ties: list order)."""
        alive = list(range(len(orders)))
        n = min(full, max(1, int(spend["first"])))
        while True:
            alive.sort(key=lambda i: (-weigh(orders[i], n)[0], i))
            if len(alive) <= keep or n >= full:
                break
            alive = alive[:max(keep, (len(alive) + 1) // 2)]
            n = min(full, 2 * n)
        alive = alive[:keep]
        alive.sort(key=lambda i: (-weigh(orders[i], full)[0], i))
        return [orders[i] for i in alive]

    keep = max(1, int(spend["keep"]))
    useful = getattr(model, "useful", None)
    small = useful(state, name) if useful is not None else legal
    if len(small) <= int(spend["full"]):
        ranked = race(list(small), keep)
        best = ranked[0]
    else:
        coarse = model.coarse(state, name)
        if len(coarse) > spend["max_coarse"]:  # a fixed, spread subset (the order of the list is fixed)
            step = len(coarse) / spend["max_coarse"]
            coarse = [coarse[int(i * step)] for i in range(spend["max_coarse"])]
        ranked = race(coarse, keep)
        best = ranked[0]
        margin = spend["margin"]  # a change must pay for itself: the search's noise favours the lucky
        own = getattr(model, "own", None)  # the orders a searching level chooses from (default: the legal ones)
        if own is not None:
            legal = own(state, name)
        for base in ranked[: spend["refine"]]:
            variants = model.variants(base, state, name, legal)
            better = [v for v in race(variants, keep) if weigh(v, full)[0] > weigh(base, full)[0] + margin]
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


def _threats(model: Model, state: dict[str, Any], name: str, other: str, rng: Rng, keep: int = 3,
             samples: int = 4, full: int = 0) -> list[Any]:
    """``other``'s best ``keep`` orders against ``name``'s likely orders (``samples`` scenarios,
    the same for each): what a player who thinks would consider. Its orders: every useful one
    when there are at most ``full`` (a monster's), else its coarse orders."""
    seen = getattr(model, "seen_coarse", None)  # a hidden hand: the orders of a hand it may hold
    if seen is not None:
        coarse = seen(state, name, other, rng)
    else:
        useful = getattr(model, "useful", None)
        coarse = useful(state, other) if useful is not None else []
        if not coarse or len(coarse) > full:
            coarse = model.coarse(state, other)
    if len(coarse) <= 1:
        return coarse
    fighters = [name, *model.others(state, name)]
    mine = getattr(model, "mine", None)
    base = []
    for _ in range(samples):
        # what ``other`` expects: name's own orders (drawn by name, who knows its hand) and the
        # rest's likely ones as name sees them
        replies = {o: (mine(state, name, rng) if mine is not None and o == name else model.likely(state, name, o, rng))
                   for o in fighters if o != other}
        base.append((replies, rng.next()))
    scored = []
    for i, order in enumerate(coarse):
        v = 0.0
        for replies, roll in base:
            v += model.value(state, model.simulate(state, {**replies, other: order}, Rng(roll)), other)
        scored.append((-v, i, order))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [order for _, _, order in scored[:keep]]


def _predicted(model: Model, state: dict[str, Any], name: str, other: str, rng: Rng, count: int) -> list[Any]:
    """``other``'s orders as ``normal`` would choose them (``count`` searches, each on its own
    stream), from what ``name`` knows: with a hidden hand, from a hand ``other`` may hold
    (the model's ``as_seen``); never ``other``'s real hand."""
    seen = getattr(model, "as_seen", None)
    out = []
    for _ in range(count):
        view = seen(state, name, other, rng) if seen is not None else state
        order, _ = choose(model, view, other, "normal", Rng(rng.next()).dice())
        out.append(order)
    return out
