"""pbf balance: every pair of fighters, NPC against NPC, from fixed seeds (docs/npc.md).

A battle is played in-process exactly as ``pbf turn`` would play it with two NPC fighters: each
turn both NPCs decide (pbf.npc.decide, from the state and the battle's seed), their orders are
parsed from their canonical text, and the turn is resolved with the turn's seeded dice. The
battle's seed is ``balance:{A}:{B}:{k}``, so every run gives the same table.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .dice import Dice
from .npc import decide
from .record import record
from .systems.base import Context, Player

MAX_TURNS = 40  # a battle still going after this many turns is a draw (pbf balance's own limit)
Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (a draw counts as half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def fighters(system: Any, data: Any) -> list[str]:
    """The ids a balance table plays: the riders and monsters, or the characters."""
    if system.name == "rider":
        return [*data.riders, *data.monsters]
    return list(data.characters)


def context(system: Any, data: Any, a: str, b: str, options: dict[str, Any] | None = None) -> Context:
    from .campaign import coerce_options

    players = {"A": Player("A", a), "B": Player("B", b)}
    return Context(system=system.name, players=players, data=data, options=coerce_options(system, options or {}))


def battle(system: Any, ctx: Context, seed: str, levels: dict[str, str], max_turns: int = MAX_TURNS) -> tuple[str, int]:
    """(the winner's name, or "draw"; the turns played)."""
    from .engine import canonical_orders_of

    state = system.new_state(ctx, Dice.seeded(seed, 0, ""))
    state.setdefault("turn", 0)
    while state.get("winner") is None and state["turn"] < max_turns:
        orders = {}
        for name in ctx.players:
            level = levels.get(name)
            if level and state["fighters"][name].get("alive", True):
                d = decide(system, ctx, state, seed, name, level)
                orders[name] = system.parse_order(d.text, name, state, ctx)
            else:
                orders[name] = None
        turn = state["turn"] + 1
        dice = Dice.seeded(seed, turn, canonical_orders_of(system, ctx, orders))
        state, _ = system.resolve(state, orders, dice, ctx)
    return str(state.get("winner") or "draw"), int(state["turn"])


@record
class Cell:
    a: str
    b: str
    wins: int = 0
    losses: int = 0
    draws: int = 0
    turns: int = 0

    @property
    def n(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def rate(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.n if self.n else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins + 0.5 * self.draws, self.n)


def table(system: Any, data: Any, ids: list[str], battles: int, level: str, versus: str | None = None,
          options: dict[str, Any] | None = None, progress: Callable[[int, int], None] | None = None) -> list[Cell]:
    """Every ordered pair (A first in campaign order, B second) of different ids, ``battles``
    battles each; ``versus``: B's level (default: the same as A's)."""
    pairs = [(a, b) for a in ids for b in ids if a != b]
    total, done = len(pairs) * battles, 0
    cells = []
    for a, b in pairs:
        ctx = context(system, data, a, b, options)
        cell = Cell(a, b)
        for k in range(battles):
            winner, turns = battle(system, ctx, f"balance:{a}:{b}:{k}", {"A": level, "B": versus or level})
            if winner == "A":
                cell.wins += 1
            elif winner == "B":
                cell.losses += 1
            else:
                cell.draws += 1
            cell.turns += turns
            done += 1
            if progress is not None:
                progress(done, total)
        cells.append(cell)
    return cells


def overall(cells: list[Cell], ids: list[str]) -> dict[str, dict[str, Any]]:
    """Each id's record over all its battles, either side."""
    out = {}
    for fid in ids:
        wins = losses = draws = 0
        for c in cells:
            if c.a == fid:
                wins, losses, draws = wins + c.wins, losses + c.losses, draws + c.draws
            elif c.b == fid:
                wins, losses, draws = wins + c.losses, losses + c.wins, draws + c.draws
        n = wins + losses + draws
        rate = (wins + 0.5 * draws) / n if n else 0.0
        low, high = wilson(wins + 0.5 * draws, n)
        out[fid] = {"wins": wins, "losses": losses, "draws": draws, "n": n, "rate": rate, "low": low, "high": high}
    return out
