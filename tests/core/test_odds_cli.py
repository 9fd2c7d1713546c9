"""pbf odds and pbf check --odds from the command line (docs/odds.md): the text, the JSON, the
errors, a public export (the player's own view only) and the start-up of pbf check."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pbf import yamlio


@pytest.fixture
def ae(tmp_path, pbf):
    path = tmp_path / "ae"
    code, _, err = pbf("new", path, "--system", "alterego", "--player", "美鈴=meiling", "--player", "名無し=plain",
                       "--seed", "odds-seed")
    assert code == 0, err
    return path


@pytest.fixture
def duel(tmp_path, pbf):
    path = tmp_path / "rider"
    code, _, err = pbf("new", path, "--system", "rider", "--player", "城戸=ryuki", "--player", "蓮=knight",
                       "--seed", "odds-seed")
    assert code == 0, err
    return path


def _hand(path, name):
    return yamlio.load_plain((path / "state.yaml").read_text(encoding="utf-8"), "state.yaml")["fighters"][name]["hand"]


def test_alterego_odds_text_and_json(ae, pbf):
    hand = _hand(ae, "美鈴")
    plot = "".join(hand[:3])
    code, out, err = pbf("odds", ae, "--player", "美鈴", plot)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("【オッズ】美鈴：") and "相手：名無し" in lines[0]
    assert "3,906通り" in lines[1] and "重み付け" in lines[1]
    assert any(line.startswith("勝ち ") for line in lines) and "■手札から結果のよいプロット" in out
    code, out, _ = pbf("odds", ae, "--player", "美鈴", plot, "--json", "--no-best")
    data = json.loads(out)
    assert data["system"] == "alterego" and data["spread"]["how"] == "private" and data["best"] == []
    assert set(data["result"]) >= {"win", "loss", "draw", "dealt", "taken", "my_suki", "their_suki", "threats"}
    assert abs(data["result"]["win"] + data["result"]["loss"] + data["result"]["draw"] - 1) < 1e-12


def test_rider_odds_text_and_json(duel, pbf):
    code, out, err = pbf("odds", duel, "--player", "城戸", "近寄る / ソードベント")
    assert code == 0, err
    assert out.startswith("【オッズ】城戸：近寄る / ソードベント")
    assert "■移動：" in out and "■蓮への攻撃（ソードベント）" in out and "1e-9" in out
    code, out, _ = pbf("odds", duel, "--player", "城戸", "近寄る / ソードベント", "--json")
    data = json.loads(out)
    assert data["system"] == "rider" and data["move"]["goal"] == "近"
    attack = data["attacks"][0]
    assert attack["target"] == "蓮" and 0 < attack["hit"] < 1
    assert abs(sum(attack["damage"].values()) - 1) < 1e-9
    assert attack["rows"][0]["share"] > 0 and [r["aim"] for r in data["aim_table"]] == [0, 1]


def test_a_wrong_order_or_an_ended_battle_is_refused(duel, ae, pbf, tmp_path):
    before = (duel / "state.yaml").read_bytes()
    code, out, err = pbf("odds", duel, "--player", "城戸", "近寄る / ファイナルベントX")
    assert code == 1 and out == "" and "Traceback" not in err and "城戸" in err
    code, _, err = pbf("odds", ae, "--player", "美鈴", "弱", "--hand", "弱X")
    assert code == 1 and "--hand" in err
    assert (duel / "state.yaml").read_bytes() == before
    kept = tmp_path / "kept"
    assert pbf("demo", "--keep", kept)[0] == 0
    code, _, err = pbf("odds", kept / "demo-rider", "--player", "城戸", "留まる")
    assert code == 1 and "決着" in err


def test_odds_on_the_public_export_are_the_players_own_view(ae, pbf, tmp_path):
    """The export has no hands: with --hand (the player's own) it gives the campaign's figures,
    to the byte; without, the same figures and no best plots."""
    hand = _hand(ae, "美鈴")
    plot = "".join(hand[:2])
    out_dir = tmp_path / "public"
    code, _, err = pbf("export", ae, out_dir)
    assert code == 0, err
    assert "hand" not in (out_dir / "state.yaml").read_text(encoding="utf-8")
    _, full, _ = pbf("odds", ae, "--player", "美鈴", plot)
    code, public, err = pbf("odds", out_dir, "--player", "美鈴", plot, "--hand", "".join(hand))
    assert code == 0, err
    assert public == full
    code, bare, _ = pbf("odds", out_dir, "--player", "美鈴", plot)
    assert code == 0 and "--hand" in bare
    assert bare.splitlines()[:5] == full.splitlines()[:5]


def test_check_adds_one_odds_line_only_when_asked(duel, pbf):
    _, plain, _ = pbf("check", duel, "--player", "城戸", "近寄る / ソードベント")
    code, more, err = pbf("check", duel, "--player", "城戸", "近寄る / ソードベント", "--odds")
    assert code == 0, err
    assert more.startswith(plain) and more[len(plain):].startswith("オッズ：移動成功 ")
    assert more[len(plain):].count("\n") == 1
    code, out, _ = pbf("check", duel, "--player", "城戸", "近寄る / ソードベント", "--odds", "--json")
    assert json.loads(out)["odds"].startswith("オッズ：")


def test_check_without_odds_does_not_load_them(duel, tmp_path):
    code = ("import sys\nfrom pbf.cli import main\n"
            f"main(['check', {str(duel)!r}, '--player', '城戸', '留まる'])\n"
            "print('pbf.odds' in sys.modules, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.stderr.strip().splitlines()[-1] == "False"


def test_the_readme_odds_examples_run_as_written(tmp_path):
    """The README's "Odds for an order": its commands run, and every output line it shows is printed."""
    import os
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    section = readme[readme.index("## Odds for an order"):readme.index("## The public archive")]
    block, shown = re.findall(r"```(?:sh)?\n(.*?)```", section, re.DOTALL)[:2]
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    done = subprocess.run(["bash", "-e", "-c", block], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    for line in shown.splitlines():
        assert line in printed, line
