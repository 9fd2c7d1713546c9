"""Behaviour the planted-bug audit of issue 21 found untested in Alter EGO (the turn-limit and
stance rulings are cases in cases/rulings.yaml)."""

from __future__ import annotations

import pytest

from pbf.dice import Dice
from pbf.errors import OrderError, PbfError
from pbf.events import event_dicts
from pbf.systems.alterego import SYSTEM
from pbf.systems.alterego.plot import Cancel, Card, Plot
from pbf.systems.alterego.reading import read_plot

from cli_support import pbf  # noqa: F401 (the fixture)

from .conftest import make_ctx, make_state


def _events(state, orders, ctx):
    return event_dicts(SYSTEM.resolve(state, orders, Dice.fixed([]), ctx)[1])


def test_two_cancels_in_a_row_each_pay_and_only_the_second_skips_a_technique(data):
    """A cancel skips the next *technique*: a cancel marker right after it is not a technique and is
    not skipped (the reader refuses such a plot, so this is a plot that reached the resolver another
    way: a hand-edited archive, another front end)."""
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="free")
    state = make_state(ctx, 1, {"A": {"soul": 6}})
    order = Plot((Cancel(("弱", "←")), Cancel(("弱", "←")), Card("弱"), Card("弱")))
    events = _events(state, {"A": order, "B": None}, ctx)
    cancels = [e for e in events if e["type"] == "cancel"]
    assert [(c["ok"], c["skipped"]) for c in cancels] == [(True, None), (True, "弱攻撃")]
    assert [e["technique"] for e in events if e["type"] == "hit"] == ["弱攻撃"]  # the second 弱 only
    assert cancels[-1]["soul"] == 0


def test_a_cancel_that_discards_two_copies_needs_two_copies_in_hand(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="private")
    one = make_state(ctx, 1, {"A": {"soul": 3, "hand": ["↑", "弱", "弱", "←", "→", "強", "→"]}})
    with pytest.raises(OrderError) as info:  # pbf check / turn: refused
        SYSTEM.parse_order("C(↑↑)弱", "A", one, ctx)
    (problem,) = info.value.problems
    assert "捨てる" in problem.message and problem.column == 1
    two = make_state(ctx, 1, {"A": {"soul": 3, "hand": ["↑", "↑", "弱", "←", "→", "強", "→"]}})
    order = SYSTEM.parse_order("C(↑↑)弱", "A", two, ctx)  # read against a hand with both copies
    # resolved against the hand with one: the cancel fails for the cards, nothing is discarded
    new, events = SYSTEM.resolve(one, {"A": order, "B": None}, Dice.fixed([]), ctx)
    (cancel,) = [e for e in event_dicts(events) if e["type"] == "cancel"]
    assert cancel["ok"] is False and cancel["reason"] == "cards"
    assert new["fighters"]["A"]["soul"] == 3 + 1  # nothing paid; the 弱 that was not skipped hit
    assert "↑" not in new["fighters"]["A"]["discard"]


@pytest.mark.parametrize("character, text, technique", [
    ("plain", "弱\n強", "投げ"),
    ("meiling", "↑\n→弱", "エナジーキャノン"),
    ("meiling", "↑→\n弱", "エナジーキャノン"),
])
def test_cards_on_different_lines_that_join_into_a_command_are_flagged(data, character, text, technique):
    """The page reads the cards as laid out, so cards on two lines still make the command; but they
    were not written side by side, and `pbf check` says so (the way to split them is 「｜」)."""
    ctx = make_ctx(data, {"A": character, "B": "plain"}, hands="free")
    plot = SYSTEM.parse_order(text, "A", make_state(ctx), ctx)
    (read,) = read_plot(plot, data.characters[character])
    assert read.technique.name == technique
    assert read.split, "cards on different lines are not side by side"
    (same_line,) = read_plot(SYSTEM.parse_order(text.replace("\n", ""), "A", make_state(ctx), ctx),
                             data.characters[character])
    assert not same_line.split


def test_check_says_that_cards_on_two_lines_still_join(pbf, tmp_path):
    path = tmp_path / "c"
    assert pbf("new", path, "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
               "--seed", "s", "--set", "hands=free")[0] == 0
    code, out, _ = pbf("check", path, "--player", "A", "弱\n強")
    assert code == 0 and "投げ（弱強）" in out and "分けるなら「｜」" in out
    code, out, _ = pbf("check", path, "--player", "A", "弱強")
    assert code == 0 and "投げ（弱強）" in out and "分けるなら" not in out


@pytest.mark.parametrize("kind", ["weak", "strong", "throw", "anti_air"])
def test_character_data_with_an_attack_without_reach_is_refused(tmp_path, kind):
    (tmp_path / "characters").mkdir()
    (tmp_path / "characters" / "x.yaml").write_text(
        f"id: x\nname: X\ntechniques:\n  - {{id: a, name: 足刀, command: →→弱, kind: {kind}, damage: 2}}\n", "utf-8")
    with pytest.raises(PbfError, match="足刀.*reach|reach.*足刀"):
        SYSTEM.load_data(tmp_path)
    (tmp_path / "characters" / "x.yaml").write_text(
        "id: x\nname: X\ntechniques:\n  - {id: a, name: 足刀, command: →→弱, kind: move}\n", "utf-8")
    assert "x" in SYSTEM.load_data(tmp_path).characters  # a movement needs no reach
