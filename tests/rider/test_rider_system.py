"""The SYSTEM object: options, data, players, state, summary, views, purity, determinism."""

from __future__ import annotations

import copy

import pytest

from pbf.dice import Dice
from pbf.errors import PbfError
from pbf.events import event_dicts
from pbf.systems import get_system
from pbf.systems.base import Player
from pbf.systems.rider import SYSTEM
from pbf.systems.rider import dice as rd
from rider_support import context, env, post, state, turn

DUEL = {"刃": "jinshu", "龍": "ryuki"}


def test_get_system():
    assert get_system("rider") is SYSTEM
    assert SYSTEM.name == "rider" and SYSTEM.title


def test_options():
    assert SYSTEM.default_options == {"turn_limit": 0, "hp": 20, "guard_vent_armor": False}
    assert SYSTEM.coerce_option("turn_limit", "10") == 10
    assert SYSTEM.coerce_option("hp", "１５") == 15
    for key, value in [("hands", "free"), ("turn_limit", "ten"), ("turn_limit", "-1"), ("hp", "0")]:
        with pytest.raises(PbfError):
            SYSTEM.coerce_option(key, value)


def test_hp_option_sets_riders_hp_monsters_keep_theirs():
    ctx = context({"刃": "jinshu", "モ": "gigazelle"}, {"hp": 25})
    st = SYSTEM.blank_state(ctx)
    assert st["fighters"]["刃"]["hp"] == 25 and st["fighters"]["モ"]["hp"] == 12


def test_shipped_data():
    data = SYSTEM.load_data(None)
    assert len(data.riders) >= 4
    assert (data.riders["jinshu"]["attack"], data.riders["jinshu"]["defense"], data.riders["jinshu"]["mobility"]) == (4, 2, 3)
    assert (data.riders["ryuki"]["attack"], data.riders["ryuki"]["defense"], data.riders["ryuki"]["mobility"]) == (3, 2, 3)
    for rid, rider in data.riders.items():
        for card in ("sword_vent", "guard_vent", "advent", "final_vent"):
            assert rider["deck"].get(card, 0) >= 1, (rid, card)
        assert rider["contract"] in data.monsters
    wild = [m for m in data.monsters.values() if m.get("traits")]
    assert len(data.monsters) >= 2 and wild
    assert data.traits["flying"]["move_bonus"] == 1
    assert data.cards["reflect_vent"]["phase"] == "passive"
    assert data.cards["final_vent"]["phase"] == "active" and data.cards["move_vent"]["phase"] == "active"


def test_campaign_data_overrides_and_extends(tmp_path):
    (tmp_path / "riders.yaml").write_text(
        "jinshu:\n  name: 刃襲改\n  attack: 5\n  defense: 2\n  mobility: 3\n"
        "  visor: {range: [近, 近], damage: 0}\n  contract: blade_wolf\n  deck: {sword_vent: 1, laser_vent: 1}\n",
        encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(
        "laser_vent:\n  name: レーザーベント\n  english: Laser Vent\n  phase: either\n  vent: true\n"
        "  effects:\n    weapon: {range: [遠, 遠], damage: 4}\n", encoding="utf-8")
    data = SYSTEM.load_data(tmp_path)
    assert data.riders["jinshu"]["attack"] == 5 and "ryuki" in data.riders
    assert data.card_words["レーザー"] == "laser_vent" and data.card_words["laser vent"] == "laser_vent"


def test_bad_campaign_data(tmp_path):
    (tmp_path / "riders.yaml").write_text("x:\n  attack: 0\n  defense: 1\n  mobility: 1\n  deck: {nope: 1}\n",
                                          encoding="utf-8")
    with pytest.raises(PbfError) as info:
        SYSTEM.load_data(tmp_path)
    assert "nope" in str(info.value)


def test_unknown_effect_primitive(tmp_path):
    (tmp_path / "cards.yaml").write_text("x_vent:\n  name: Xベント\n  effects: {teleport: 1}\n", encoding="utf-8")
    with pytest.raises(PbfError) as info:
        SYSTEM.load_data(tmp_path)
    assert "teleport" in str(info.value)


def test_check_players():
    data = SYSTEM.load_data(None)
    SYSTEM.check_players({"a": Player("a", "jinshu"), "b": Player("b", "gigazelle")}, data)
    with pytest.raises(PbfError) as info:
        SYSTEM.check_players({"a": Player("a", "kuuga")}, data)
    assert "kuuga" in str(info.value) and "jinshu" in str(info.value) and "gigazelle" in str(info.value)
    SYSTEM.check_players({n: Player(n, "jinshu") for n in "abc"}, data)  # battles of three or more
    SYSTEM.check_players({n: Player(n, "jinshu", team=t) for n, t in zip("abcd", "AABB")}, data)
    with pytest.raises(PbfError) as info:
        SYSTEM.check_players({"a": Player("a", "jinshu")}, data)
    assert "2人以上" in str(info.value)
    with pytest.raises(PbfError) as info:
        SYSTEM.check_players({n: Player(n, "jinshu", team="A") for n in "abc"}, data)
    assert "同じチーム" in str(info.value)


def test_new_state_turn_0():
    """Turn 0 rolls the initiative (a tie: 1D6 each) and the starting distance, and keeps the dice."""
    ctx = context(DUEL)
    dice = Dice.fixed([2, 5, 4])
    st = SYSTEM.new_state(ctx, dice)
    assert len(dice.draws) == 3
    assert st["turn"] == 0 and st["winner"] is None
    assert st["initiative"] == ["龍", "刃"] and st["distance"] == "中"
    assert st["opening_rolls"] == [{"actor": "刃", "purpose": "initiative", "face": 2},
                                   {"actor": "龍", "purpose": "initiative", "face": 5},
                                   {"actor": "龍", "purpose": "distance", "face": 4}]
    f = st["fighters"]["刃"]
    assert f["hp"] == 20 and f["alive"] and f["vent"] is None and f["deck"]["final_vent"] == 1


def test_opening_of_a_state_made_before_rules_version_2():
    """A turn 0 state without the initiative (rules version 1): the opening says it comes at turn 1."""
    ctx = context(DUEL)
    opening = SYSTEM.opening(SYSTEM.blank_state(ctx), ctx)
    assert opening["initiative"] == [] and opening["rolls"] == [] and opening["distance_roll"] is None
    macros = env().get_template("rider/macros.j2").make_module({"title": SYSTEM.title})
    text = str(macros.initiative(opening["initiative"], opening["mobility"], opening["tie_rolls"], opening["summary"]))
    assert text == "（先攻と初期配置は第1ターンの処理の最初に決めます）"


def test_new_state_of_a_battle_of_three_rolls_no_distance():
    ctx = context({"刃": "jinshu", "龍": "ryuki", "ナ": "knight"})
    dice = Dice.fixed([6, 1])
    st = SYSTEM.new_state(ctx, dice)
    assert st["initiative"] == ["ナ", "刃", "龍"] and st["distance"] is None and len(dice.draws) == 2


def test_summary_shape():
    ctx = context(DUEL)
    st = state(ctx, {"turn": 2, "distance": "中", "initiative": ["刃", "龍"], "fighters": {"刃": {"vent": "sword_vent"}}})
    s = SYSTEM.summary(st, ctx)
    assert s["system"] == "rider" and s["turn"] == 2 and s["distance"] == "中" and s["winner"] is None
    f = s["fighters"]["刃"]
    assert f["character"] == "jinshu" and f["hp"] == 20 and f["alive"] is True and f["vent"] == "ソードベント"
    assert f["deck"]["ファイナルベント"] == 1 and f["max_hp"] == 20


def test_roll_and_damage_event_shapes():
    ctx = context(DUEL)
    st = state(ctx, {"turn": 1, "distance": "近", "initiative": ["刃", "龍"]})
    _, events, _ = turn(ctx, st, {"刃": "", "龍": "攻撃しない"}, [4, 1, 1, 5, 4, 4, 2, 3, 5, 4])
    roll = next(e for e in events if e["type"] == "roll")
    assert {k: roll[k] for k in ("type", "actor", "purpose", "dice", "faces", "value")} == {
        "type": "roll", "actor": "刃", "purpose": "attack", "dice": 4, "faces": [4, 1, 1, 5, 4, 4], "value": 7}
    damage = next(e for e in events if e["type"] == "damage")
    assert {k: damage[k] for k in ("type", "actor", "target", "amount")} == {
        "type": "damage", "actor": "刃", "target": "龍", "amount": 4}
    assert all("actor" in e and "type" in e for e in events)


def test_keep_highest_exploding_pool():
    r = rd.pool(Dice.fixed([4, 1, 1, 5, 4, 4]), "刃", "attack", 4)
    assert r.faces == [4, 1, 1, 5, 4, 4] and r.value == 7 and r.groups == [[4], [1, 1, 5], [4], [4]]
    d = rd.damage(Dice.fixed([1, 5]), "刃")
    assert d.faces == [1, 5] and d.value == 6


def test_resolve_is_pure_and_deterministic():
    ctx = context(DUEL)
    st = SYSTEM.new_state(ctx, Dice.seeded("seed", 0, ""))
    frozen = copy.deepcopy(st)
    orders = {n: SYSTEM.parse_order("近寄る / ソードベント", n, st, ctx) for n in st["fighters"]}
    a = SYSTEM.resolve(st, orders, Dice.seeded("seed", 1, "x"), ctx)
    b = SYSTEM.resolve(st, orders, Dice.seeded("seed", 1, "x"), ctx)
    assert st == frozen
    assert a[0] == b[0] and event_dicts(a[1]) == event_dicts(b[1])


def test_battle_over_refuses_another_turn():
    ctx = context(DUEL)
    st = state(ctx, {"turn": 3, "winner": "刃"})
    with pytest.raises(PbfError):
        SYSTEM.resolve(st, {}, Dice.fixed([]), ctx)


def test_order_view_and_check_template():
    ctx = context(DUEL)
    st = state(ctx, {"turn": 1, "distance": "近", "initiative": ["刃", "龍"]})
    order = SYSTEM.parse_order("受動: ファイナルベントならガードベント / 近寄る / ソード / 隙狙い 1 / 超回避 1", "刃", st, ctx)
    view = SYSTEM.order_view(order, "刃", st, ctx)
    text = env().get_template("rider/check.j2").render(title=SYSTEM.title, player="刃", view=view)
    for snippet in ("刃（刃襲）", "近寄る", "阻止する", "ソードベント", "相手がファイナルベントならガードベント",
                    "隙狙い：攻撃力-2、防御力1点無視", "超回避：HP1点消費"):
        assert snippet in text, text
    assert set(SYSTEM.template_filters()) == {"npc_word"}  # the opening post marks an NPC (docs/npc.md)
    # each rider's notice after a turn: its remaining cards (none at turn 0: the opening lists them)
    assert set(SYSTEM.notices(st, ctx)) == {"刃", "龍"} and SYSTEM.notices({**st, "turn": 0}, ctx) == {}


def test_status_template():
    ctx = context(DUEL)
    st = state(ctx, {"turn": 2, "distance": "中", "initiative": ["刃", "龍"], "fighters": {"龍": {"hp": 12, "vent": "guard_vent"}}})
    text = env().get_template("rider/status.j2").render(title=SYSTEM.title, summary=SYSTEM.summary(st, ctx))
    assert "距離：中" in text and "龍（龍騎）HP 12/20　ベントイン：ガードベント" in text and "ファイナルベント×1" in text


def test_post_is_cp932_safe():
    """Posts must survive CP932 forums: ASCII +/- in sums, no U+2212, no U+301C."""
    ctx = context(DUEL)
    before = SYSTEM.new_state(ctx, Dice.seeded("cp932", 0, ""))
    plan = [{"刃": "近寄る / ソードベント", "龍": "受動: 攻撃ならガードベント / 超回避 1"}] + [
        {"刃": "近寄る / イベントファイナル: 斬！", "龍": "阻止しない"}] * 8
    for n, orders in enumerate(plan, 1):
        parsed = {k: SYSTEM.parse_order(v, k, before, ctx) for k, v in orders.items()}
        after, evs = SYSTEM.resolve(before, parsed, Dice.seeded("cp932", n, ""), ctx)
        text = post(ctx, before, after, event_dicts(evs), missing=[])
        text.encode("cp932")
        assert "\u2212" not in text and "\u301c" not in text
        before = after
        if after["winner"]:
            break


def test_missing_players_are_listed_in_the_post():
    ctx = context(DUEL)
    st = state(ctx, {"turn": 1, "distance": "遠", "initiative": ["刃", "龍"]})
    after, events, _ = turn(ctx, st, {"刃": "攻撃しない"}, [])
    text = post(ctx, st, after, events, missing=["龍"])
    # everything the empty order implies, in a duel: stays, blocks, no card, still attacks with what is vented
    assert ("未提出：龍（既定の行動で処理）\n　移動：留まる／相手の移動：阻止する／カード：使わない\n"
            "　攻撃：ベントイン中の武器（なければバイザーか無手）で、届けば行う\n"
            "　回避：ダイスの多い能力値で（超回避なし）\n") in text
