"""Rule cases as data (tests/alterego/cases/*.yaml), run by one parametrised test.

A case: ``characters`` (name -> id, default A/B plain), ``options``, ``distance``, ``fighters``
(state fields to set), ``turns`` (a list of {name: order or null}) or ``orders`` (one turn),
``dice`` (fixed faces), and ``expect``: ``events`` (an ordered subsequence; each a subset of
an event dict of the LAST turn), ``absent`` (no event of the last turn matches), ``state``
(a subset of the final state), ``post`` (lines of the last turn's post, in order, each a whole line
or, ending in ``…``, the start of one) and ``post_absent`` (text that must not be in it).
``rules_version`` resolves and words the case under an older version of the rules (as a replay of
a turn archived under it does).

The other texts a player reads, each as lines in order (same matching as ``post``): ``notice``
({player: lines} of the private notice after the last turn), ``opening`` (the opening post's game
part, for the starting state), ``check`` ({player: lines} of how the player's order of the last
turn reads, ``pbf check``), ``list`` (``pbf list characters`` of the test data) and ``refused``
(a list of {player, order, message}: that order, written for the last turn instead, is refused
with a problem whose message is ``message``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from pbf.dice import Dice
from pbf.errors import OrderError
from pbf.events import event_dicts
from pbf.render import environment, tidy
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


EXPECT_KEYS = {"events", "absent", "state", "post", "post_absent", "notice", "opening", "check", "list", "refused"}
CASE_KEYS = {"name", "rule", "characters", "options", "distance", "fighters", "top", "turns", "orders", "dice",
             "rules_version", "expect"}


def _lines_in_order(wanted_lines, text: str, what: str) -> None:
    """Each wanted line in ``text``, in order: a whole line, or (ending in ``…``) its start."""
    lines = text.splitlines()
    position = 0
    for wanted in wanted_lines:
        prefix = wanted.endswith("…")
        while position < len(lines) and not (
            lines[position].startswith(wanted[:-1]) if prefix else lines[position] == wanted
        ):
            position += 1
        assert position < len(lines), f"line not found (in order): {wanted}\n{what}:\n{text}"
        position += 1


def _render(name: str, **context) -> str:
    return tidy(environment(SYSTEM).get_template(name).render(title=SYSTEM.title, **context))


def _check_texts(expect, ctx, start, before, state, parsed, data) -> None:
    """The texts other than the post: notice, opening, check, list, refused."""
    for player, wanted in (expect.get("notice") or {}).items():
        notice = SYSTEM.notices(state, ctx)[player]
        _lines_in_order(wanted, _render("alterego/notice.j2", turn=state["turn"], player=player, notice=notice), "notice")
    if "opening" in expect:
        part = environment(SYSTEM).from_string(
            '{% import "alterego/opening.j2" as part %}{{ part.rules(summary, options, opening) }}'
        )
        text = tidy(part.render(summary=SYSTEM.public_summary(start, ctx), options=ctx.options,
                                opening=SYSTEM.opening(start, ctx)))
        _lines_in_order(expect["opening"], text, "opening")
    for player, wanted in (expect.get("check") or {}).items():
        order = parsed[player] if parsed.get(player) is not None else SYSTEM.parse_order("", player, before, ctx)
        view = SYSTEM.order_view(order, player, before, ctx)
        _lines_in_order(wanted, _render("alterego/check.j2", player=player, view=view, howto=False, notes=[]), "check")
    if "list" in expect:
        from pbf.systems.alterego.catalogue import catalogue

        _lines_in_order(expect["list"], _render("alterego/list.j2", catalogue={"characters": catalogue(data)["characters"]}), "list")
    for refusal in expect.get("refused") or []:
        with pytest.raises(OrderError) as caught:
            SYSTEM.parse_order(refusal["order"], refusal["player"], before, ctx)
        messages = [p.message for p in caught.value.problems]
        assert refusal["message"] in messages, messages


@pytest.mark.parametrize("case", _load_cases())
def test_rule_case(case, data):
    assert set(case) <= CASE_KEYS, f"unknown case keys: {set(case) - CASE_KEYS}"
    assert set(case.get("expect") or {}) <= EXPECT_KEYS, f"unknown expect keys: {set(case['expect']) - EXPECT_KEYS}"
    characters = case.get("characters") or {"A": "plain", "B": "plain"}
    options = {"hands": "free", **(case.get("options") or {})}
    ctx = make_ctx(data, characters, case.get("rules_version"), **options)
    state = make_state(ctx, case.get("distance", 2), case.get("fighters"), **(case.get("top") or {}))
    start = state
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
        _lines_in_order(expect.get("post") or [], post, "post")
        for unwanted in expect.get("post_absent") or []:
            assert unwanted not in post, f"unexpected {unwanted!r} in the post:\n{post}"
    _check_texts(expect, ctx, start, before, state, parsed, data)
