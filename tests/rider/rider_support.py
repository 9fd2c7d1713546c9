"""Helpers for the rider tests: a context, a state set up from case data, a fixed-dice turn."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import jinja2

from pbf.dice import Dice
from pbf.events import event_dicts
from pbf.systems.base import Context, Player
from pbf.systems.rider import SYSTEM

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).resolve().parent / "cases"
_DATA: list[Any] = []


def data():
    if not _DATA:
        _DATA.append(SYSTEM.load_data(None))
    return _DATA[0]


def context(players: dict[str, str], options: dict[str, Any] | None = None,
            data_patch: dict[str, Any] | None = None, rules_version: int = 0) -> Context:
    """``players``: {NAME: "id"} or {NAME: "id@TEAM"}.
    ``data_patch``: {riders|monsters|cards: {id: {key: value}}} merged into a copy of the data.
    ``rules_version``: resolve (and word the post) as that rules version did (0: today's), as
    ``pbf replay`` does for a turn archived under it."""
    opts = dict(SYSTEM.default_options)
    opts.update(options or {})
    d = data()
    if data_patch:
        d = copy.deepcopy(d)
        for kind, entries in data_patch.items():
            for key, changes in entries.items():
                getattr(d, kind).setdefault(key, {}).update(changes)
    return Context("rider", {n: _player(n, c) for n, c in players.items()}, d, opts, rules_version=rules_version)


def _player(name: str, spec: str) -> Player:
    """``"knight"`` or ``"knight@A"`` (a team, for battles of three or more)."""
    character, _, team = spec.partition("@")
    return Player(name, character, team=team or None)


def state(ctx: Context, setup: dict[str, Any] | None = None, opening: list[int] | None = None) -> dict[str, Any]:
    """Turn 0, then the case's setup: top-level keys replace, fighters' keys merge.
    ``opening``: turn 0's dice (initiative, starting distance) for ``new_state``; without them
    the sheets only (``blank_state``: the setup gives the initiative and the distance)."""
    st = SYSTEM.new_state(ctx, Dice.fixed(opening)) if opening is not None else SYSTEM.blank_state(ctx)
    setup = dict(setup or {})
    fighters = setup.pop("fighters", {}) or {}
    st.update(setup)
    for name, changes in fighters.items():
        for key, value in changes.items():
            if key == "deck":
                st["fighters"][name]["deck"].update(value)
            else:
                st["fighters"][name][key] = value
    return st


def turn(ctx: Context, st: dict[str, Any], texts: dict[str, str | None], faces: list[int]):
    orders = {n: (None if texts.get(n) is None else SYSTEM.parse_order(texts[n], n, st, ctx)) for n in st["fighters"]}
    dice = Dice.fixed(faces)
    new, events = SYSTEM.resolve(st, orders, dice, ctx)
    return new, event_dicts(events), dice


_ENV: list[jinja2.Environment] = []


def env() -> jinja2.Environment:
    if not _ENV:
        _ENV.append(_make_env())
    return _ENV[0]


def _make_env() -> jinja2.Environment:
    """pbf's own environment for the bundled templates (its settings, filters and globals)."""
    from pbf import render

    return render.environment(SYSTEM)


def post(ctx: Context, before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]],
         missing: list[str] | None = None) -> str:
    return env().get_template("rider/post.j2").render(
        title=SYSTEM.title, turn=after["turn"], events=events, summary=SYSTEM.summary(after, ctx),
        before=SYSTEM.summary(before, ctx), missing=missing or [], orders={}, players=ctx.players,
        options=ctx.options, rules_version=SYSTEM.rules(ctx),
    )


def subsequence(expected: list[dict[str, Any]], events: list[dict[str, Any]]) -> str | None:
    """Each expected event (a subset of keys) must appear, in this order. None when it does."""
    i = 0
    for want in expected:
        while i < len(events) and not all(events[i].get(k) == v for k, v in want.items()):
            i += 1
        if i == len(events):
            return f"not found (in order): {want}"
        i += 1
    return None
