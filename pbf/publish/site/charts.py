"""The charts of the site, as numbers for inline SVG (templates/html/chart.j2 draws them).

Values per turn come from the public record only: each archived state through the system's
``public_summary``, and each turn's events. Geometry is computed here (no Japanese words); the
template turns it into ``<svg>`` with one ``<polyline>`` per fighter.

Series that overlap stay apart (issue 20): each series has its own colour, dash pattern and
marker shape (so a reader without colour tells them apart too), and points of several series
that share a value at the same x are drawn side by side, a few units apart, around the value
(each point's tooltip keeps the exact value).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

WIDTH, HEIGHT = 480, 250
LEFT, RIGHT, TOP, BOTTOM = 46, 14, 14, 48
SPREAD = 6.0  # user units between coincident points of different series
DASHES = ("", "9 4", "3 4", "12 4 3 4", "6 6", "2 3")
MARKERS = ("circle", "square", "triangle", "diamond", "down", "cross")
STYLES = len(DASHES)


@dataclass
class Series:
    name: str
    values: list[int | None]  # one per x (turn - first turn); None: no value there
    team: str | None = None  # shown in the legend
    tips: list[str | None] = field(default_factory=list)  # per x: the tooltip's own words (else the caller's)


@dataclass
class Chart:
    key: str  # hp / distance / soul / dealt / taken / cards / distance-NAME
    series: list[Series]
    first_turn: int = 0
    geometry: dict[str, Any] = field(default_factory=dict)


def marker(shape: str, x: float, y: float, r: float = 4.5) -> str:
    """An SVG path of a marker centred on (x, y)."""
    def p(*pts: tuple[float, float]) -> str:
        return "M" + " L".join(f"{round(x + dx, 1)},{round(y + dy, 1)}" for dx, dy in pts) + " Z"

    if shape == "square":
        return p((-r, -r), (r, -r), (r, r), (-r, r))
    if shape == "triangle":
        return p((0, -r * 1.2), (r * 1.1, r * 0.8), (-r * 1.1, r * 0.8))
    if shape == "down":
        return p((0, r * 1.2), (r * 1.1, -r * 0.8), (-r * 1.1, -r * 0.8))
    if shape == "diamond":
        return p((0, -r * 1.3), (r * 1.1, 0), (0, r * 1.3), (-r * 1.1, 0))
    if shape == "cross":
        a, b = r * 1.1, r * 0.4
        return p((-a, -b), (-b, -b), (-b, -a), (b, -a), (b, -b), (a, -b), (a, b), (b, b), (b, a), (-b, a), (-b, b), (-a, b))
    # circle: two arcs
    return (f"M{round(x - r, 1)},{round(y, 1)} a{r},{r} 0 1,0 {r * 2},0 a{r},{r} 0 1,0 {-r * 2},0 Z")


def style(index: int) -> dict[str, Any]:
    """Colour class, dash pattern and marker of the ``index``-th series (legend keys use it too)."""
    i = index % STYLES
    return {"index": i, "dash": DASHES[i], "marker": MARKERS[i], "key_marker": marker(MARKERS[i], 16, 6, 3.5)}


def line_chart(key: str, series: list[Series], first_turn: int, y_min: int = 0,
               y_labels: "dict[int, str] | None" = None, x_labels: "list[str] | None" = None,
               x_ticks: "list[tuple[int, str]] | None" = None) -> Chart:
    """A line chart: x = turn (or the given ``x_labels``/``x_ticks``), y = value; ticks on whole
    numbers, or on the keys of ``y_labels`` (a scale of words such as 近/中/遠)."""
    count = max((len(s.values) for s in series), default=0)
    values = [v for s in series for v in s.values if v is not None]
    top = max([y_min + 1, *values, *(y_labels or {})])
    span_x = max(count - 1, 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + inner_w * i / span_x, 1)

    def y(v: float) -> float:
        return round(TOP + inner_h * (top - v) / (top - y_min), 1)

    # coincident points: the series sharing a value at one x, spread around it in series order
    offsets: dict[tuple[int, int], float] = {}
    for i in range(count):
        by_value: dict[int, list[int]] = {}
        for n, s in enumerate(series):
            if i < len(s.values) and s.values[i] is not None:
                by_value.setdefault(s.values[i], []).append(n)
        for members in by_value.values():
            for rank, n in enumerate(members):
                offsets[(n, i)] = (rank - (len(members) - 1) / 2) * SPREAD if len(members) > 1 else 0.0

    drawn = []
    for n, s in enumerate(series):
        dots = []
        for i, v in enumerate(s.values):
            if v is None:
                continue
            dx, dy = x(i), round(y(v) + offsets[(n, i)], 1)
            tip = s.tips[i] if i < len(s.tips) else None
            dots.append({"x": dx, "y": dy, "turn": first_turn + i, "value": v,
                         "label": (y_labels or {}).get(v, v), "tip": tip,
                         "marker": marker(MARKERS[n % STYLES], dx, dy)})
        drawn.append({"name": s.name, "team": s.team, **style(n), "dots": dots,
                      "points": " ".join(f"{d['x']},{d['y']}" for d in dots)})
    if x_ticks is None:
        step = max(1, -(-count // 10))
        x_ticks = [(i, x_labels[i] if x_labels else str(first_turn + i)) for i in range(0, count, step)]
    if y_labels:
        yticks = [{"y": y(v), "label": label} for v, label in sorted(y_labels.items())]
    else:
        ystep = max(1, -(-(top - y_min) // 5))
        yticks = [{"y": y(v), "label": v} for v in range(y_min, top + 1, ystep)]
    geometry = {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM,
        "series": drawn,
        "xticks": [{"x": x(i), "label": label} for i, label in x_ticks],
        "yticks": yticks,
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
