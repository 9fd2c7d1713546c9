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
    from .campaign.options import coerce_options

    players = {"A": Player("A", a), "B": Player("B", b)}
    return Context(system=system.name, players=players, data=data, options=coerce_options(system, options or {}))


def battle(system: Any, ctx: Context, seed: str, levels: dict[str, str], max_turns: int = MAX_TURNS) -> tuple[str, int]:
    """(the winner's name, or "draw"; the turns played)."""
    from .turn.orders import canonical_orders_of

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


def names(system: Any, data: Any) -> dict[str, str]:
    """id -> the name shown (ryuki -> 龍騎)."""
    if system.name == "rider":
        return {fid: str(data.character(fid)[1].get("name", fid)) for fid in fighters(system, data)}
    return {fid: str(getattr(data.characters[fid], "name", fid)) for fid in fighters(system, data)}


def report_text(system: Any, cells: list[Cell], ids: list[str], shown: dict[str, str], battles: int, level: str,
                versus: str | None) -> str:
    """The table for a terminal: each fighter's record (95% Wilson interval), then every pair."""
    from .npc import LEVEL_WORDS

    rows = overall(cells, ids)
    who = f"NPC（{LEVEL_WORDS[level]}）" + (f" 対 NPC（{LEVEL_WORDS[versus]}）" if versus and versus != level else "同士")
    out = [f"【バランス表】{system.title}　{who}、各組{battles}戦（参加者A・Bを入れ替えた組も同じ数）",
           "勝率は引き分けを0.5勝として数え、［ ］は95%信頼区間（Wilson）。", "",
           "■ファイターごと"]
    width = max(len(shown[f]) for f in ids)
    for fid in sorted(ids, key=lambda f: (-rows[f]["rate"], ids.index(f))):
        r = rows[fid]
        out.append(f"{shown[fid]:　<{width}}　{r['rate'] * 100:5.1f}%［{r['low'] * 100:4.1f}–{r['high'] * 100:5.1f}%］"
                   f"　{r['wins']}勝{r['losses']}敗{r['draws']}分（{r['n']}戦）")
    out += ["", "■組み合わせ（行のファイターの勝率。行が参加者A、列が参加者B）"]
    by = {(c.a, c.b): c for c in cells}
    for a in ids:
        parts = []
        for b in ids:
            if a == b:
                continue
            c = by.get((a, b))
            if c is None or not c.n:
                continue
            low, high = c.interval()
            parts.append(f"{shown[b]} {c.rate * 100:.0f}%［{low * 100:.0f}–{high * 100:.0f}］")
        out.append(f"{shown[a]}：" + "、".join(parts))
    return "\n".join(out) + "\n"


def report_html(system: Any, cells: list[Cell], ids: list[str], shown: dict[str, str], battles: int, level: str,
                versus: str | None) -> str:
    """A page: a bar chart of each fighter's win rate with its interval (inline SVG), and the pairs."""
    import jinja2

    from .npc import LEVEL_WORDS
    from .resources import bundled

    rows = overall(cells, ids)
    order = sorted(ids, key=lambda f: (-rows[f]["rate"], ids.index(f)))
    bar_h, left, width = 26, 150, 420
    bars = []
    for i, fid in enumerate(order):
        r = rows[fid]
        bars.append({"name": shown[fid], "y": 20 + i * bar_h, "w": round(r["rate"] * width, 1),
                     "lo": round(left + r["low"] * width, 1), "hi": round(left + r["high"] * width, 1),
                     "rate": f"{r['rate'] * 100:.1f}", "low": f"{r['low'] * 100:.1f}", "high": f"{r['high'] * 100:.1f}",
                     "record": f"{r['wins']}勝{r['losses']}敗{r['draws']}分"})
    by = {(c.a, c.b): c for c in cells}
    grid = []
    for a in ids:
        row = []
        for b in ids:
            c = by.get((a, b))
            if a == b or c is None or not c.n:
                row.append(None)
            else:
                low, high = c.interval()
                row.append({"rate": round(c.rate * 100), "low": round(low * 100), "high": round(high * 100),
                            "shade": round(c.rate, 2)})
        grid.append({"name": shown[a], "cells": row})
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(bundled("templates") / "html")),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    return env.get_template("balance.j2").render(
        title=system.title, level=LEVEL_WORDS[level], versus=LEVEL_WORDS.get(versus or level), battles=battles,
        bars=bars, grid=grid, columns=[shown[b] for b in ids], left=left, width=width,
        height=40 + len(order) * bar_h)
