"""``pbf check --json`` (docs/check.md): the reading as data, for both games — an order that reads,
a wrong one with its position, the reader's notes, and a JSON object that parses every time."""

from __future__ import annotations

import json

import pytest

from pbf.errors import Problem

KEYS = {"player", "character", "system", "ok", "canonical", "order", "notes", "warnings", "problems"}
PROBLEM_KEYS = {"message", "line", "column", "text", "hint", "player"}


def new_campaign(pbf, path, *players):
    code, _out, err = pbf("new", path, "--system", "alterego" if "美鈴=meiling" in players else "rider",
                          *(a for p in players for a in ("--player", p)), "--seed", "s")
    assert code == 0, err
    return path


@pytest.fixture
def alterego(tmp_path, pbf):
    return new_campaign(pbf, tmp_path / "ae", "美鈴=meiling", "楓=kaede")


@pytest.fixture
def rider(tmp_path, pbf):
    return new_campaign(pbf, tmp_path / "rd", "城戸=ryuki", "刃=jinshu")


def check_json(pbf, camp, player, order):
    code, out, err = pbf("check", camp, "--player", player, order, "--json")
    return code, json.loads(out), err


def hand_of(camp, player):
    from pbf import campaign

    return list(campaign.load(camp).state["fighters"][player]["hand"])


def test_alterego_order_that_reads(pbf, alterego):
    hand = hand_of(alterego, "美鈴")
    plot = next(p for p in ("↑→弱弱", "↑→弱", "弱弱", "弱", "→", "←", "↑", "強") if all(
        hand.count(c) >= p.count(c) for c in set(p)))
    code, data, err = check_json(pbf, alterego, "美鈴", plot)
    assert code == 0 and err == ""
    assert KEYS <= data.keys()
    assert (data["player"], data["character"], data["system"], data["ok"]) == ("美鈴", "meiling", "alterego", True)
    assert data["canonical"] == plot
    assert data["order"]["cards"] == list(plot)
    assert "".join(t["cards"] for t in data["order"]["techniques"]) == plot
    first = data["order"]["techniques"][0]
    assert {"name", "cards", "line", "column"} <= first.keys() and (first["line"], first["column"]) == (1, 1)
    assert data["problems"] == [] and data["notes"] == [] and isinstance(data["warnings"], list)


def test_alterego_techniques_by_name_and_place_in_a_post(pbf, tmp_path):
    camp = tmp_path / "free"
    assert pbf("new", camp, "--system", "alterego", "--player", "美鈴=meiling", "--player", "楓=kaede",
               "--seed", "s", "--set", "hands=free")[0] == 0
    code, data, _err = check_json(pbf, camp, "美鈴", "了解です！\n【行動】↑→弱 弱")
    assert code == 0
    techniques = data["order"]["techniques"]
    assert [(t["name"], t["cards"], t["line"], t["column"]) for t in techniques] == [
        ("エナジーキャノン", "↑→弱", 2, 5), ("弱攻撃", "弱", 2, 9)]
    assert techniques[0]["id"] == "energy_cannon" and techniques[0]["reach"] == 3 and techniques[0]["damage"] == 3
    assert data["canonical"] == "↑→弱弱"
    # a character's name for --player: the player's own name in the answer
    code, data, _err = check_json(pbf, camp, "美鈴", "C(弱←)弱")
    assert code == 0 and data["order"]["techniques"][0] == {
        "cancel": True, "discards": ["弱", "←"], "cost": 3, "void": False, "line": 1, "column": 1}


def test_alterego_wrong_order_gives_its_position(pbf, alterego):
    post = "了解です！\n【行動】↑→LL ジャンピング"
    code, data, err = check_json(pbf, alterego, "美鈴", post)
    assert code == 1
    assert KEYS <= data.keys() and data["ok"] is False and data["order"] is None and data["canonical"] is None
    problem = next(p for p in data["problems"] if p["text"] == "ジャンピング")
    assert PROBLEM_KEYS <= problem.keys()
    assert (problem["line"], problem["column"], problem["player"]) == (2, 10, "美鈴")
    assert problem["hint"]
    # stderr: what the check without --json prints there
    plain = pbf("check", alterego, "--player", "美鈴", post)
    assert plain[0] == 1 and plain[1] == "" and err == plain[2]


def test_rider_order_that_reads(pbf, rider):
    order = "近寄る / ソードベント / 受動: ファイナルベントならリフレクトベント / 受動: 攻撃ならガードベント / 隙狙い 1"
    code, data, err = check_json(pbf, rider, "城戸", order)
    assert code == 0 and err == ""
    assert KEYS <= data.keys() and (data["character"], data["system"], data["ok"]) == ("ryuki", "rider", True)
    o = data["order"]
    assert {"move", "block_closer", "block_away", "card", "passive", "aim", "hold", "super_evasion",
            "super_threshold", "parry", "evasion", "targets", "cover", "move_targets", "move_rule",
            "event_final"} <= o.keys()
    assert o["move"] == "closer" and o["card"] == "ソードベント" and o["aim"] == 1
    assert o["passive"] == [{"card": "リフレクトベント", "condition": "ファイナルベント"},
                            {"card": "ガードベント", "condition": "attack"}]
    assert o["evasion"] is None and o["targets"] == [] and o["block_closer"] is True
    assert data["canonical"].startswith("近寄る / ソードベント")
    code, data, _err = check_json(pbf, rider, "刃", "回避: 運動性 / 超回避 2: 達成値5以上なら / 離れるなら阻止しない")
    assert code == 0
    o = data["order"]
    assert (o["evasion"], o["super_evasion"], o["super_threshold"], o["block_closer"], o["block_away"]) == (
        "mobility", 2, 5, True, False)


def test_rider_wrong_order_gives_its_position(pbf, rider):
    code, data, err = check_json(pbf, rider, "城戸", "近寄る / ソードメンチ")  # two letters off
    assert code == 1 and data["ok"] is False and data["character"] == "ryuki"
    (problem,) = data["problems"]
    assert (problem["line"], problem["column"], problem["text"]) == (1, 7, "ソードメンチ")
    assert "ソードベント" in problem["hint"] and problem["player"] == "城戸"
    assert err == pbf("check", rider, "--player", "城戸", "近寄る / ソードメンチ")[2]


def test_rider_near_miss_is_read_with_a_note(pbf, rider):
    code, data, _err = check_json(pbf, rider, "城戸", "近寄る / ソードベンド")
    assert code == 0 and data["canonical"] == "近寄る / ソードベント"
    (note,) = data["notes"]
    assert (note["line"], note["column"], note["text"]) == (1, 7, "ソードベンド") and "ソードベント" in note["message"]


def test_not_a_player_nor_a_campaign_is_still_json(pbf, rider, tmp_path):
    code, data, err = check_json(pbf, rider, "誰か", "近寄る")
    assert code == 1 and data["ok"] is False and data["character"] is None and data["system"] == "rider"
    assert data["problems"] and "誰か" in err
    code, data, err = check_json(pbf, tmp_path / "none", "誰か", "近寄る")
    assert code == 1 and data["ok"] is False and data["system"] is None and data["problems"]


class Noted:
    """An order as a reader that keeps notes returns it: the order, and ``notes``."""

    def __init__(self, order, notes):
        self._order = order
        self.notes = notes

    def __getattr__(self, name):
        return getattr(self._order, name)


def with_notes(monkeypatch, system, notes):
    """A reader that passes over every line after the first, and says so in its notes."""
    read = system.parse_order
    monkeypatch.setattr(system, "parse_order", lambda text, *args: Noted(read(text.split("\n")[0], *args), notes))


@pytest.mark.parametrize("game", ["alterego", "rider"])
def test_the_readers_notes_are_given_in_place(pbf, alterego, rider, monkeypatch, game):
    from pbf.systems import get_system

    camp, player, order = ((alterego, "美鈴", "なし") if game == "alterego" else (rider, "城戸", "近寄る"))
    note = Problem("2行目「よろしく」は雑談として読みませんでした", line=2, column=1, text="よろしく",
                   hint="雑談は【行動】の行より前に")
    with_notes(monkeypatch, get_system(game), (note,))
    code, data, _err = check_json(pbf, camp, player, f"{order}\nよろしく")
    assert code == 0
    assert data["notes"] == [{"message": note.message, "line": 2, "column": 1, "text": "よろしく", "hint": note.hint,
                              "severity": None}]
    # in a whole post, placed as the problems are: after the marker's line
    code, data, _err = check_json(pbf, camp, player, f"こんにちは\n【行動】{order}\nよろしく")
    assert code == 0 and (data["notes"][0]["line"], data["notes"][0]["column"]) == (3, 1)
    # and the check without --json says it too
    code, out, _err = pbf("check", camp, "--player", player, f"{order}\nよろしく")
    assert code == 0 and f"※{note.format(japanese=True)}" in out


def test_no_notes_from_a_reader_that_keeps_none(pbf, rider):
    code, data, _err = check_json(pbf, rider, "城戸", "近寄る")
    assert code == 0 and data["notes"] == []
    code, out, _err = pbf("check", rider, "--player", "城戸", "近寄る")
    assert "※" not in out.split("正規化")[0].split("６．")[-1]


@pytest.mark.parametrize("order", ["", "なし", "弱強弱強弱強", "C(", "↑→弱\n【行動】", "\x1b[31m弱"])
def test_json_parses_whatever_the_order(pbf, alterego, rider, order):
    for camp, player in ((alterego, "美鈴"), (rider, "城戸")):
        code, out, _err = pbf("check", camp, "--player", player, order, "--json")
        data = json.loads(out)
        assert code in (0, 1) and data["ok"] is (code == 0) and KEYS <= data.keys()
        assert all(PROBLEM_KEYS <= p.keys() for p in data["problems"])
        assert bool(data["problems"]) is (code == 1)
