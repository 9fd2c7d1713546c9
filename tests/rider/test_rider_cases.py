"""Rule cases as data (tests/rider/cases/*.yaml): setup + orders + fixed dice -> events / state.

Each case:
  name, rule (the seed rule or ruling it pins down), players {NAME: id}, options {},
  setup (state changes: turn, distance, initiative, fighters: {NAME: {hp, vent, deck, ...}}),
  orders {NAME: text}, dice [faces], expect [event subsets, in order], absent [event subsets],
  state {distance, winner, fighters: {NAME: {key: value}}}, post_contains [strings];
  opening_dice [faces]: turn 0's dice (new_state rolls the initiative and the starting distance),
  opening {key: value} (a subset of RiderSystem.opening), opening_contains [strings] (opening.j2);
  rules_version: resolve and word the post as that rules version did (a turn archived under it,
  replayed by pbf replay; default: today's).
All fixed dice must be used (no more, no fewer).
"""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from pbf.systems.rider import SYSTEM
from rider_oracle import assert_hp
from rider_support import CASES, context, env, post, state, subsequence, turn


def _cases():
    yaml = YAML(typ="safe")
    for path in sorted(CASES.glob("rules_*.yaml")):
        for case in yaml.load(path.read_text(encoding="utf-8")):
            yield pytest.param(case, id=f"{path.stem}:{case['name']}")


@pytest.mark.parametrize("case", list(_cases()))
def test_rule_case(case):
    ctx = context(case["players"], case.get("options"), case.get("data_patch"), case.get("rules_version", 0))
    before = state(ctx, case.get("setup"), case.get("opening_dice"))
    if "opening_dice" in case:
        assert len(before["opening_rolls"]) == len(case["opening_dice"]), "every turn 0 die is used"
        opening = SYSTEM.opening(before, ctx)
        for key, value in (case.get("opening") or {}).items():
            assert opening[key] == value, key
        part = env().get_template("rider/opening.j2").make_module({"title": SYSTEM.title})
        shown = str(part.rules(opening["summary"], {**ctx.options, "order_marker": "【行動】"}, opening))
        for snippet in case.get("opening_contains", []):
            assert snippet in shown, f"{snippet!r} not in the opening:\n{shown}"
    after, events, dice = turn(ctx, before, case.get("orders", {}), case.get("dice", []))
    assert len(dice.draws) == len(case.get("dice", [])), "every fixed die is used"
    missing = subsequence(case.get("expect", []), events)
    assert missing is None, f"{missing}\nevents: {events}"
    for unwanted in case.get("absent", []):
        assert not any(all(e.get(k) == v for k, v in unwanted.items()) for e in events), unwanted
    want = case.get("state", {}) or {}
    for key, value in want.items():
        if key == "fighters":
            for name, fields in value.items():
                for k, v in fields.items():
                    assert after["fighters"][name][k] == v, (name, k)
        else:
            assert after[key] == value, key
    # HP after the turn: recomputed from the dice faces and the page's formulas (tests/rider_oracle.py),
    # not from the resolver's own damage events; and the damage events agree with it (product.md)
    texts = case.get("orders", {})
    parsed = {n: (None if texts.get(n) is None else SYSTEM.parse_order(texts[n], n, before, ctx)) for n in before["fighters"]}
    assert_hp(before, after, events, ctx.data, parsed, armor=SYSTEM.armor_on(ctx), rules=SYSTEM.rules(ctx))
    for name, f in after["fighters"].items():
        lost = sum(e["amount"] for e in events if e["type"] == "damage" and e["target"] == name)
        assert f["hp"] == before["fighters"][name]["hp"] - lost
    text = post(ctx, before, after, events)
    for snippet in case.get("post_contains", []):
        assert snippet in text, f"{snippet!r} not in post:\n{text}"
