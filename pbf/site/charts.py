"""The charts of the site, as numbers for inline SVG (templates/html/chart.j2 draws them).

Values per turn come from the public record only: each archived state through the system's
``public_summary``, and each turn's events. Geometry is computed here (no Japanese words); the
template turns it into ``<svg>`` with one ``<polyline>`` per fighter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 40, 16, 16, 32


@dataclass
class Series:
    name: str
    values: list[int | None]  # one per turn (index = turn - first turn); None: no value that turn


@dataclass
class Chart:
    key: str  # hp / distance / soul / dealt / taken
    series: list[Series]
    first_turn: int = 0
    geometry: dict[str, Any] = field(default_factory=dict)


def line_chart(key: str, series: list[Series], first_turn: int, y_min: int = 0) -> Chart:
    """A line chart: x = turn, y = value; ticks on whole numbers."""
    count = max((len(s.values) for s in series), default=0)
    values = [v for s in series for v in s.values if v is not None]
    top = max([y_min + 1, *values])
    span_x = max(count - 1, 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + inner_w * i / span_x, 1)

    def y(v: int) -> float:
        return round(TOP + inner_h * (top - v) / (top - y_min), 1)

    step = max(1, -(-(top - y_min) // 5))
    drawn = []
    for index, s in enumerate(series):
        dots = [{"x": x(i), "y": y(v), "turn": first_turn + i, "value": v} for i, v in enumerate(s.values) if v is not None]
        drawn.append({"name": s.name, "index": index % 6, "dots": dots,
                      "points": " ".join(f"{d['x']},{d['y']}" for d in dots)})
    xstep = max(1, -(-count // 12))
    geometry = {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM,
        "series": drawn,
        "xticks": [{"x": x(i), "label": first_turn + i} for i in range(0, count, xstep)],
        "yticks": [{"y": y(v), "label": v} for v in range(y_min, top + 1, step)],
    }
    return Chart(key, series, first_turn, geometry)


def action_grid(fighters: list[str], acted: list[dict[str, int]], first_turn: int) -> dict[str, Any]:
    """Who acted when (the rider game): a row per fighter, a column per turn, in each cell the
    fighter's place in that turn's order of actions (1 = first), empty when they did not act."""
    cell, head, name_w = 28, 24, 96
    columns = len(acted)
    rows = []
    for r, name in enumerate(fighters):
        cells = [{"x": name_w + c * cell, "y": head + r * cell, "turn": first_turn + c, "order": turn.get(name)}
                 for c, turn in enumerate(acted)]
        rows.append({"name": name, "y": head + r * cell, "cells": cells, "count": sum(1 for t in acted if name in t)})
    return {
        "width": name_w + max(columns, 1) * cell + 8, "height": head + len(fighters) * cell + 8, "cell": cell,
        "name_w": name_w, "head": head, "rows": rows,
        "columns": [{"x": name_w + c * cell, "turn": first_turn + c} for c in range(columns)],
    }
