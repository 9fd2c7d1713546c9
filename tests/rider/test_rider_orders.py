"""The order language (grammar/rider.lark): spellings, canonical lines, errors with positions."""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from pbf.errors import OrderError
from pbf.systems.rider import SYSTEM
from pbf.systems.rider.orders import PassiveRule, RiderOrder, parser
from rider_support import CASES, context, state

DUEL = {"刃": "jinshu", "龍": "ryuki"}


def _load(name):
    return YAML(typ="safe").load((CASES / name).read_text(encoding="utf-8"))


def _setup(case):
    ctx = context(case.get("players", DUEL))
    st = state(ctx, case.get("setup") or {"turn": 1, "distance": "近", "initiative": list(case.get("players", DUEL))})
    return ctx, st


@pytest.mark.parametrize("case", [c for c in _load("orders_good.yaml") if not c.get("error")], ids=lambda c: repr(c["text"]))
def test_order_reads(case):
    ctx, st = _setup(case)
    order = SYSTEM.parse_order(case["text"], case.get("player", "刃"), st, ctx)
    assert SYSTEM.canonical_order(order) == case["canonical"]
    # the canonical line reads back as the same order
    again = SYSTEM.parse_order(case["canonical"], case.get("player", "刃"), st, ctx)
    assert again == order


@pytest.mark.parametrize("case", _load("orders_bad.yaml"), ids=lambda c: c["name"])
def test_order_refused(case):
    ctx, st = _setup(case)
    with pytest.raises(OrderError) as info:
        SYSTEM.parse_order(case["text"], case.get("player", "刃"), st, ctx)
    problems = info.value.problems
    assert len(problems) == len(case["errors"]), [p.format() for p in problems]
    for want, got in zip(case["errors"], problems):
        assert want["message"] in got.message, got.format()
        for key in ("line", "column", "text", "hint"):
            if key in want:
                assert getattr(got, key) == want[key], (key, got.format())
        assert got.player == case.get("player", "刃")


def test_comment_like_text_is_not_special():
    """`#` comments are the orders-file reader's job; inside an order a `#` line is read as any
    other line without an order word is (issue 19): passed over as chat, and the note says so."""
    ctx, st = _setup({})
    order = SYSTEM.parse_order("# 移動\n近寄る", "刃", st, ctx)
    assert order.move == "closer"
    assert any(n.line == 1 and "雑談" in n.message for n in order.notes)


def test_parser_is_built_once():
    """One parser per process, and it is the rider game's grammar: a sample order reads to the
    clauses it is made of (this tree-only parser finds the syntax errors before a word is looked
    up), and through the reader to the order it stands for."""
    from lark import Token, Tree

    assert parser() is parser()
    text = "近寄る / 隙狙い 1\n受動: 攻撃ならガードベント"
    assert parser().parse(text) == Tree("start", [
        Tree("phrase", [Token("WORD", "近寄る")]),
        Token("SEP", "/"),
        Tree("aim", [Token("AIM", "隙狙い"), Token("INT", "1")]),
        Token("NL", "\n"),
        Tree("passive_when", [Token("PASSIVE", "受動"), Tree("phrase", [Token("WORD", "攻撃")]), Token("NARA", "なら"),
                              Tree("phrase", [Token("WORD", "ガードベント")])]),
    ])
    ctx, st = _setup({})
    order = SYSTEM.parse_order(text, "刃", st, ctx)
    assert order.move == "closer" and order.aim == 1 and order.passive == (PassiveRule("guard_vent", "attack"),)
    assert SYSTEM.canonical_order(order) == "近寄る / 受動: 攻撃ならガードベント / 隙狙い 1"


def test_order_objects_are_typed():
    ctx, st = _setup({})
    order = SYSTEM.parse_order("受動: 攻撃ならガードベント / 近寄る / 隙狙い 1", "刃", st, ctx)
    assert isinstance(order, RiderOrder)
    assert order.move == "closer" and order.aim == 1 and order.block_closer is True and order.block_away is True
    assert order.passive == (PassiveRule("guard_vent", "attack"),)


def test_canonical_of_a_hand_built_order():
    assert SYSTEM.canonical_order(RiderOrder(card="sword_vent", move="away")) == "離れる / ソードベント"
    assert SYSTEM.canonical_order(None) == ""


# -- any order, any separator, either language: one canonical line ------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hs  # noqa: E402

CLAUSES = [
    ("近寄る", "move closer"),
    ("阻止しない", "allow"),
    ("ソードベント", "Sword Vent"),
    ("受動: 攻撃ならガードベント", "passive: Guard Vent if attack"),
    ("隙狙い 1", "aim 1"),
    ("超回避 1", "super evasion 1"),
]
SEPARATORS = [" / ", "／", "、", "\n", ", ", " ／ "]


@settings(max_examples=60, deadline=None)
@given(hs.permutations(range(len(CLAUSES))), hs.lists(hs.booleans(), min_size=len(CLAUSES), max_size=len(CLAUSES)),
       hs.lists(hs.sampled_from(SEPARATORS), min_size=len(CLAUSES), max_size=len(CLAUSES)))
def test_any_order_any_separator_same_canonical(perm, english, seps):
    ctx, st = _setup({})
    text = ""
    for k, i in enumerate(perm):
        text += CLAUSES[i][1 if english[k] else 0]
        if k < len(perm) - 1:
            text += seps[k]
    order = SYSTEM.parse_order(text, "刃", st, ctx)
    assert SYSTEM.canonical_order(order) == "近寄る / 阻止しない / ソードベント / 受動: 攻撃ならガードベント / 隙狙い 1 / 超回避 1"


def test_a_passive_only_card_written_alone_is_its_passive_rule():
    """リフレクトベント can only be 受動: written as the 能動 card it has one reading (issue 19)."""
    ctx, st = _setup({})
    order = SYSTEM.parse_order("リフレクトベント", "龍", st, ctx)  # 龍騎 holds one
    assert order.card is None and [r.card for r in order.passive] == ["reflect_vent"]
    assert any("受動" in n.message for n in order.notes)
