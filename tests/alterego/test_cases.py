"""Rule cases as data (tests/alterego/cases/*.yaml), run by one parametrised test.

A case: ``characters`` (name -> id, default A/B plain), ``options``, ``distance``, ``fighters``
(state fields to set), ``turns`` (a list of {name: order or null}) or ``orders`` (one turn),
``dice`` (fixed faces), and ``expect``: ``events`` (an ordered subsequence; each a subset of
an event dict of the LAST turn), ``absent`` (no event of the last turn matches), ``state``
(a subset of the final state), ``post`` (lines of the last turn's post, in order, each a whole line
or, ending in ``…``, the start of one) and ``post_absent`` (text that must not be in it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from pbf.dice import Dice
from pbf.events import event_dicts
from pbf.systems.alterego import SYSTEM

from .conftest import make_ctx, make_state, parse_orders, render_post

CASES_DIR = Path(__file__).resolve().parent / "cases"


def _load_cases():
    out = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        if path.stem == "orders_variants":  # order readings, not rule cases (tests/core/test_orders_variants.py)
            continue
        for case in YAML(typ="safe").load(path.read_text("utf-8")):
            out.append(pytest.param(case, id=f"{path.stem}:{case['name']}"))
    return out


def _subset(expected, actual) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _subset(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(_subset(e, a) for e, a in zip(expected, actual))
    return expected == actual


@pytest.mark.parametrize("case", _load_cases())
def test_rule_case(case, data):
    characters = case.get("characters") or {"A": "plain", "B": "plain"}
    options = {"hands": "free", **(case.get("options") or {})}
    ctx = make_ctx(data, characters, **options)
    state = make_state(ctx, case.get("distance", 2), case.get("fighters"), **(case.get("top") or {}))
    turns = case.get("turns") or [case.get("orders") or {}]
    dice_faces = list(case.get("dice") or [])
    events: list = []
    for orders in turns:
        before = state
        parsed = parse_orders(ctx, state, dict(orders or {}))
        state, events = SYSTEM.resolve(state, parsed, Dice.fixed(dice_faces), ctx)
        dice_faces = []
        assert before is not state
    dicts = event_dicts(events)
    expect = case.get("expect") or {}
    position = 0
    for wanted in expect.get("events") or []:
        while position < len(dicts) and not _subset(wanted, dicts[position]):
            position += 1
        assert position < len(dicts), f"event not found (in order): {wanted}\nevents: {dicts}"
        position += 1
    for unwanted in expect.get("absent") or []:
        found = [d for d in dicts if _subset(unwanted, d)]
        assert not found, f"unexpected event {found[0]}"
    if "state" in expect:
        assert _subset(expect["state"], state), f"state: {state}"
    if "post" in expect or "post_absent" in expect:
        post = render_post(ctx, before, state, events, parsed)
        lines = post.splitlines()
        position = 0
        for wanted in expect.get("post") or []:
            prefix = wanted.endswith("…")
            while position < len(lines) and not (
                lines[position].startswith(wanted[:-1]) if prefix else lines[position] == wanted
            ):
                position += 1
            assert position < len(lines), f"line not found (in order): {wanted}\npost:\n{post}"
            position += 1
        for unwanted in expect.get("post_absent") or []:
            assert unwanted not in post, f"unexpected {unwanted!r} in the post:\n{post}"
