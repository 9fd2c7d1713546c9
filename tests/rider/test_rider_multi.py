"""Battles of three or more (複数人による戦闘) through the whole program: the bundled royale demo,
a four-rider battle run twice through the CLI (byte-identical files, replay), bad orders at
the CLI (exit 1, nothing written), and the ``show --json`` shape. The rules themselves are
data cases in cases/rules_multi.yaml."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbf.cli import demo
from rider_support import ROOT, context, state
from pbf.systems.rider import SYSTEM

ROYALE = ROOT / "campaigns" / "demo-rider-royale"
PLAYERS = ["城戸=ryuki@東", "蓮=knight@東", "北岡=zolda@西", "刃=jinshu@西"]
FREE_FOR_ALL = ["城戸=ryuki", "蓮=knight", "北岡=zolda", "刃=jinshu"]


def pbf(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "pbf", *args], capture_output=True, text=True, encoding="utf-8",
                          input=stdin, env=env, cwd=ROOT)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# -- the bundled demo ------------------------------------------------------------------------------

def test_royale_demo_runs_to_its_end(tmp_path):
    out = io.StringIO()
    c = demo.play(ROYALE, tmp_path, out)
    events = demo.archived_events(c)
    assert c.state["winner"] is not None and c.turn >= 3
    assert len(c.ctx.players) == 4
    assert all(p.team for p in c.ctx.players.values())
    assert any(e["type"] == "targets" and len(e["picks"]) >= 2 for e in events)  # one target per band
    assert any(e["type"] == "cover" for e in events)  # 庇う
    assert any(e["type"] == "distances" for e in events)
    assert any(e["type"] == "ko" for e in events)
    assert any(e["type"] == "event_final" for e in events)
    text = out.getvalue()
    assert "リアクション側の距離（各自1D6）：" in text and "■アクション側：" in text and "の標的：" in text and "★勝者：チーム" in text
    text.encode("cp932")  # CP932-safe (forums)
    assert "\u2212" not in text and "\u301c" not in text and "\u2014" not in text


def test_royale_demo_is_listed_by_pbf_demo():
    assert ROYALE in demo.demo_campaigns()


# -- a four-rider battle through the CLI, twice --------------------------------------------------

TURNS = [
    "[城戸] 近寄る / ソードベント\n[蓮] ソードベント / 庇う 城戸\n[北岡] 離れる / シュートベント / 攻撃: 蓮, 城戸\n"
    "[刃] 近寄る: 城戸 / ソードベント\n",
    "[城戸] 受動: 攻撃ならガードベント / 攻撃しない\n[蓮] 近寄る: 北岡\n[北岡] 受動: 攻撃ならガードベント\n[刃] 攻撃: 蓮\n",
    "[城戸] 留まる\n[蓮] 攻撃しない\n[北岡] 攻撃しない\n[刃] 離れる: ナイト / 攻撃しない\n",
]


def _battle(folder: Path, tmp_path: Path, players: list[str]) -> None:
    args = ["new", str(folder), "--system", "rider", "--seed", "royale-cli"]
    for p in players:
        args += ["--player", p]
    result = pbf(*args)
    assert result.returncode == 0, result.stderr
    for n, text in enumerate(TURNS, 1):
        orders = tmp_path / f"orders{n}.txt"
        orders.write_text(text, encoding="utf-8")
        result = pbf("turn", str(folder), "--orders", str(orders))
        assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("players", [PLAYERS, FREE_FOR_ALL], ids=["teams", "free-for-all"])
def test_four_riders_twice_byte_identical_and_replayable(tmp_path, players):
    a, b = tmp_path / "a", tmp_path / "b"
    _battle(a, tmp_path, players)
    _battle(b, tmp_path, players)
    files_a, files_b = snapshot(a), snapshot(b)
    assert files_a.keys() == files_b.keys()
    for name in files_a:
        assert files_a[name] == files_b[name], name
    assert any(name.endswith("post.txt") for name in files_a)
    result = pbf("replay", str(a))
    assert result.returncode == 0, result.stdout + result.stderr
    shown = pbf("show", str(a), "--json")
    assert shown.returncode == 0, shown.stderr
    summary = json.loads(shown.stdout)
    assert summary["distance"] is None and summary["turn"] == len(TURNS)
    assert set(summary["fighters"]) == {"城戸", "蓮", "北岡", "刃"}


@pytest.mark.parametrize("text, message", [
    ("[城戸] 攻撃: 王蛇\n", "この戦闘にいません"),
    ("[城戸] 攻撃: 蓮\n", "味方"),
    ("[城戸] 近寄る: ナイト\n", "味方"),
    ("[城戸] 攻撃: 北岡, 刃 / 隙狙い 1\n", "隙狙いは攻撃の対象を1人"),
    ("[城戸] 庇う 城戸\n", "自分自身は庇えません"),
    ("[城戸] 庇う 北岡\n", "庇えるのは味方だけ"),
])
def test_bad_multi_orders_at_the_cli_change_nothing(tmp_path, text, message):
    folder = tmp_path / "c"
    args = ["new", str(folder), "--system", "rider", "--seed", "x"]
    for p in PLAYERS:
        args += ["--player", p]
    assert pbf(*args).returncode == 0
    before = snapshot(folder)
    orders = tmp_path / "orders.txt"
    orders.write_text(text + "[蓮] 留まる\n[北岡] 留まる\n[刃] 留まる\n", encoding="utf-8")
    result = pbf("turn", str(folder), "--orders", str(orders))
    assert result.returncode == 1
    assert message in result.stdout + result.stderr
    assert "1行目" in result.stdout + result.stderr or "行目" in result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(folder) == before


# -- views ----------------------------------------------------------------------------------------

def test_summary_of_a_multi_battle():
    ctx = context({"城戸": "ryuki@東", "蓮": "knight@東", "北岡": "zolda@西"})
    st = state(ctx, {"turn": 1, "initiative": ["蓮", "城戸", "北岡"]})
    s = SYSTEM.summary(st, ctx)
    assert s["distance"] is None and s["multi"] is True
    assert s["fighters"]["蓮"]["team"] == "東"
    duel = SYSTEM.summary(state(context({"刃": "jinshu", "龍": "ryuki"}), {"distance": "中"}),
                          context({"刃": "jinshu", "龍": "ryuki"}))
    assert duel["distance"] == "中" and duel["multi"] is False


def test_check_shows_the_movement_target_and_cover():
    from rider_support import env
    ctx = context({"城戸": "ryuki@東", "蓮": "knight@東", "北岡": "zolda@西"})
    st = state(ctx, {"turn": 1, "initiative": ["蓮", "城戸", "北岡"]})
    order = SYSTEM.parse_order("ゾルダに近寄る / 攻撃: 北岡 / 庇う 龍騎", "蓮", st, ctx)
    view = SYSTEM.order_view(order, "蓮", st, ctx)
    text = env().get_template("rider/check.j2").render(title=SYSTEM.title, player="蓮", view=view)
    assert "北岡に対して近寄る" in text and "対象：北岡" in text and "城戸を庇う" in text
