"""pbf balance (docs/npc.md): every pair NPC against NPC from fixed seeds, Wilson intervals."""

from __future__ import annotations

import math

import pytest

from cli_support import run_cli
from pbf import balance
from pbf.npc.search import LEVELS
from pbf.systems.rider import SYSTEM


@pytest.fixture
def pbf(capsys):
    return lambda *argv: run_cli(capsys, *argv)


@pytest.fixture(autouse=True)
def tiny_budget(monkeypatch):
    monkeypatch.setitem(LEVELS, "normal", {**LEVELS["normal"], "scenarios": 1, "max_coarse": 6, "refine": 1})


def test_wilson_matches_the_formula():
    low, high = balance.wilson(8, 10)
    assert math.isclose(low, 0.4901625, abs_tol=1e-6) and math.isclose(high, 0.9433178, abs_tol=1e-6)
    assert balance.wilson(0, 0) == (0.0, 1.0)
    assert math.isclose(balance.wilson(10, 10)[1], 1.0)


def test_a_battle_is_the_same_from_the_same_seed():
    data = SYSTEM.load_data(None)
    ctx = balance.context(SYSTEM, data, "ryuki", "blade_wolf")
    a = balance.battle(SYSTEM, ctx, "b:1", {"A": "normal", "B": "random"})
    assert a == balance.battle(SYSTEM, ctx, "b:1", {"A": "normal", "B": "random"})
    assert a[0] in ("A", "B", "draw") and a[1] >= 1


def test_the_command_prints_the_table_and_writes_the_page(pbf, tmp_path):
    page = tmp_path / "b.html"
    argv = ("balance", "--system", "rider", "--fighters", "ryuki,blade_wolf,knight", "--battles", "2",
            "--level", "random", "--html", page)
    code, out, err = pbf(*argv)
    assert code == 0, err
    assert "【バランス表】ライダーバトル" in out and "95%信頼区間（Wilson）" in out
    for name in ("龍騎", "ブレードウルフ", "ナイト"):
        assert name in out
    assert "対戦中" not in err  # progress on a terminal only
    html = page.read_text("utf-8")
    assert html.count('<g class="bar">') == 3 and html.count("<td style=") == 6
    assert pbf(*argv)[1] == out  # fixed seeds: the same table


def test_json_counts_every_battle(pbf):
    import json

    code, out, err = pbf("balance", "--system", "alterego", "--fighters", "meiling,plain", "--battles", "1",
                         "--level", "random", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [p["wins"] + p["losses"] + p["draws"] for p in data["pairs"]] == [1, 1]
    assert data["fighters"]["meiling"]["n"] == 2


def test_unknown_fighters_are_refused(pbf):
    code, out, err = pbf("balance", "--system", "rider", "--fighters", "ryuki,nobody")
    assert code == 1 and "nobody" in err and "Traceback" not in err
