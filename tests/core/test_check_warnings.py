"""``pbf check`` says what an order will cost (docs/check.md, "Warnings"): 「※注意」 lines with the
reading, and ``warnings`` of ``--json`` — each warning here, and the resolver doing what it says."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from pbf import campaign as campaigns
from pbf.turn.check import check_data, check_order
from pbf.turn.run import run_turn


def new(pbf, path, system, *players, options=()):
    args = [a for p in players for a in ("--player", p)] + [a for o in options for a in ("--set", o)]
    code, _out, err = pbf("new", path, "--system", system, *args, "--seed", "s")
    assert code == 0, err
    return path


def kinds(pbf, camp, player, order):
    code, out, err = pbf("check", camp, "--player", player, order, "--json")
    assert code == 0, err
    return json.loads(out)["warnings"]


def notes_of(text):
    return [line for line in text.splitlines() if line.startswith("※注意：")]


# -- Alter EGO: cards after a technique that ends the plot --------------------------------------

@pytest.fixture
def free(tmp_path, pbf):
    return new(pbf, tmp_path / "free", "alterego", "美鈴=meiling", "楓=kaede", options=["hands=free"])


def test_cards_after_a_strong_attack_are_spent_for_nothing(pbf, tmp_path):
    c = campaigns.load(new(pbf, tmp_path / "hands", "alterego", "美鈴=meiling", "楓=kaede"))
    c.state["fighters"]["美鈴"]["hand"] = list("強→弱弱←↑↑")
    text = check_order(c, "美鈴", "強→弱")
    assert "２．前進（→）　※無効（強攻撃の後は出せない）" in text
    (line,) = notes_of(text)
    assert line == ("※注意：強攻撃は力をためて次のターンに発動するので、その後ろのカードはすべて無効です。"
                    "→弱（２枚）は何もせずに、手札から出したまま捨て札になります（カードの無駄です）。")
    (warning,) = check_data(c, "美鈴", "強→弱")["warnings"]
    assert warning == {"kind": "void_after", "technique": "強攻撃", "reason": "charge", "techniques": ["前進", "弱攻撃"],
                       "cards": "→弱", "count": 2, "spent": True, "message": line.removeprefix("※注意：")}


def test_the_resolver_spends_the_void_cards(pbf, tmp_path):
    """What the warning says: the cards after 強攻撃 leave the hand with it and are discarded."""
    c = campaigns.load(new(pbf, tmp_path / "hands", "alterego", "美鈴=meiling", "楓=kaede"))
    state = c.state
    state["fighters"]["美鈴"]["hand"] = list("強→弱弱←↑↑")
    before = Counter(state["fighters"]["美鈴"]["discard"])
    record = run_turn(c, "[美鈴] 強→弱\n[楓] なし\n", state=state)
    assert Counter(record.state["fighters"]["美鈴"]["discard"]) - before == Counter("強→弱")
    voided = [e for e in record.events if e["type"] == "void" and e["actor"] == "美鈴"]
    assert voided and voided[0]["voided"] == ["前進", "弱攻撃"]


def test_cards_after_a_throw_or_an_ends_plot_technique(pbf, free):
    text = pbf("check", free, "--player", "美鈴", "弱強↑弱")[1]
    assert notes_of(text) == ["※注意：投げを出すと、その後ろのカードはすべて無効です。↑弱は何もしません。"]
    (warning,) = kinds(pbf, free, "美鈴", "→←強弱")
    assert (warning["kind"], warning["technique"], warning["reason"], warning["cards"], warning["spent"]) == (
        "void_after", "彩光蓮華掌", "ends_plot", "弱", False)


@pytest.mark.parametrize("plot", ["弱弱", "→強", "弱強", "C(弱←)強弱", "なし"])
def test_no_warning_when_nothing_is_void(pbf, free, plot):
    code, out, err = pbf("check", free, "--player", "美鈴", plot)
    assert code == 0, err
    assert "※注意" not in out and kinds(pbf, free, "美鈴", plot) == []


# -- the rider game: vent cards that discard each other ----------------------------------------

@pytest.fixture
def duel(tmp_path, pbf):
    path = new(pbf, tmp_path / "duel", "rider", "城戸=ryuki", "刃=jinshu")
    assert campaigns.load(path).state["initiative"] == ["城戸", "刃"]  # seed "s": 城戸 goes first
    return path


def test_a_passive_vent_discards_the_active_one_of_the_first_player(pbf, duel):
    order = "近寄る / ソードベント / 受動: ガードベント"
    text = pbf("check", duel, "--player", "城戸", order)[1]
    assert ("※注意：能動のソードベント（自分の行動でベントイン）は、その後の相手の行動で受動のガードベントを使うと、"
            "ガードベントをベントインしたときに破棄されます（ベントインしておけるのは1枚だけ）。") in notes_of(text)
    (warning,) = [w for w in kinds(pbf, duel, "城戸", order) if w["kind"] == "vent_replaced"]
    assert (warning["first"], warning["discarded"], warning["by"]) == ("active", "ソードベント", "ガードベント")


def test_the_resolver_discards_as_the_warning_says(pbf, duel):
    c = campaigns.load(duel)
    record = run_turn(c, "[城戸] 近寄る / ソードベント / 受動: ガードベント\n[刃] 留まる\n")
    vents = [(e["card_name"], e["discarded_name"]) for e in record.events if e["type"] == "vent" and e["actor"] == "城戸"]
    assert vents == [("ソードベント", None), ("ガードベント", "ソードベント")]
    assert "（【ソードベント】は破棄）" in record.post


def test_the_second_player_s_active_vent_discards_the_passive_one(pbf, duel):
    order = "ソードベント / 受動: 攻撃ならガードベント"
    text = pbf("check", duel, "--player", "刃", order)[1]
    assert ("※注意：相手の行動で受動のガードベント（相手の攻撃に反応）を使ってベントインすると、その後の自分の行動で"
            "能動のソードベントをベントインしたときにガードベントは破棄されます（ベントインしておけるのは1枚だけ）。"
            ) in notes_of(text)
    (warning,) = [w for w in kinds(pbf, duel, "刃", order) if w["kind"] == "vent_replaced"]
    assert (warning["first"], warning["discarded"], warning["condition"]) == ("passive", "ガードベント", "攻撃")


def test_the_same_vent_card_twice(pbf, duel):
    (warning,) = kinds(pbf, duel, "城戸", "ソードベント / 受動: ソードベント")
    assert warning["kind"] == "vent_replaced" and warning["same"] is True
    assert "同じソードベント" in warning["message"]


def test_in_a_battle_of_three_either_may_come_first(pbf, tmp_path):
    path = new(pbf, tmp_path / "three", "rider", "城戸=ryuki", "刃=jinshu", "蓮=knight")
    order_of_play = campaigns.load(path).state["initiative"]
    middle = order_of_play[1]
    warnings = kinds(pbf, path, middle, "ソードベント / 受動: ガードベント")
    assert sorted(w["first"] for w in warnings if w["kind"] == "vent_replaced") == ["active", "passive"]


@pytest.mark.parametrize("order", ["近寄る / ソードベント", "受動: 攻撃ならガードベント", "ソードベント / 受動: リフレクトベント",
                                   "アドベント / 受動: ガードベント"])
def test_no_vent_warning_without_two_vent_cards(pbf, duel, order):
    assert [w for w in kinds(pbf, duel, "城戸", order) if w["kind"] in ("vent_replaced", "evasion_lost")] == []


def test_a_passive_rule_that_is_never_played_gives_no_warning(pbf, duel):
    warnings = kinds(pbf, duel, "城戸", "ストライクベント / 受動: ガードベント / 受動: ソードベント")
    assert [w["by"] for w in warnings if w["kind"] == "vent_replaced"] == ["ガードベント"]


# -- the rider game: an evasion whose card another card of the order discards ------------------

@pytest.fixture
def guarded(tmp_path, pbf):
    """北岡 (ゾルダ: 防御力3 > 運動性2) with a ガードベント vented in, 城戸 at 近."""
    c = campaigns.load(new(pbf, tmp_path / "zolda", "rider", "城戸=ryuki", "北岡=zolda"))
    c.state["fighters"]["北岡"]["vent"] = "guard_vent"
    c.state["distance"] = "近"
    return c


def test_defense_evasion_lost_to_a_passive_vent(guarded):
    order = "回避: 防御力 / 受動: ソードベント"
    text = check_order(guarded, "北岡", order)
    assert ("※注意：回避: 防御力にはガードベントのベントインが必要ですが、受動のソードベントは相手の攻撃への回避の前に"
            "ベントインされ、ガードベントは破棄されます。そのときの回避は回避: 防御力ではなく、ダイスの多い能力値で振ります。"
            ) in notes_of(text)
    (warning,) = check_data(guarded, "北岡", order)["warnings"]
    assert (warning["kind"], warning["pool"], warning["needed"], warning["by"]) == (
        "evasion_lost", "defense", "ガードベント", "ソードベント")


def test_the_resolver_evades_without_the_guard(guarded):
    """What the warning says: the 受動 ソードベント goes in first, and 防御力 is not rolled."""
    record = run_turn(guarded, "[城戸] 留まる\n[北岡] 回避: 防御力 / 受動: ソードベント\n", state=guarded.state)
    evasions = [e for e in record.events if e["type"] == "evasion" and e["actor"] == "北岡"]
    vents = [e for e in record.events if e["type"] == "vent" and e["actor"] == "北岡"]
    assert vents and vents[0]["discarded_name"] == "ガードベント"
    assert evasions and all(e["pool"] != "defense" for e in evasions)


def test_parry_lost_to_a_passive_guard(guarded):
    guarded.state["fighters"]["北岡"]["vent"] = "sword_vent"
    (warning,) = [w for w in check_data(guarded, "北岡", "受け / 受動: 攻撃ならガードベント")["warnings"]
                  if w["kind"] == "evasion_lost"]
    assert (warning["pool"], warning["parry"], warning["needed"]) == ("attack", True, "ソードベント")
    assert warning["message"].startswith("受けにはソードベントのベントインが必要ですが")


@pytest.mark.parametrize("order", ["回避: 防御力", "回避: 防御力 / 受動: ガードベント", "回避: 防御力 / 受動: リフレクトベント",
                                   "回避: 防御力 / 受動: 攻撃ならガードベント / 受動: ソードベント"])
def test_no_evasion_warning_when_the_guard_stays(guarded, order):
    guarded.state["fighters"]["北岡"]["deck"]["reflect_vent"] = 1
    assert [w for w in check_data(guarded, "北岡", order)["warnings"] if w["kind"] == "evasion_lost"] == []
