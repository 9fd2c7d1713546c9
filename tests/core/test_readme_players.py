"""What the README tells a Windows user, a player without the GM's folder and a GM with teams
(issue 20, "Players can follow their own guide", "Windows"): each command runs as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text("utf-8")


def _section(head: str) -> str:
    start = README.index(f"\n## {head}")
    end = README.find("\n## ", start + 1)
    return README[start:end if end != -1 else None]


def _blocks(text: str, lang: str = "sh") -> list[str]:
    return [textwrap.dedent(b) for b in re.findall(rf"```{lang}\n(.*?)```", text, re.DOTALL)]


def _bash(block: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    return subprocess.run(["bash", "-e", "-c", block], cwd=cwd, env=env, capture_output=True, text=True)


def test_the_readme_gives_the_windows_form_of_the_two_setup_commands():
    top = README[:README.index("\n## ")]
    posix = _blocks(top)
    windows = _blocks(top, "bat")
    assert len(posix) == 2 and len(windows) == 2
    for unix, win in zip(posix, windows):
        lines = [line.strip() for line in win.strip().splitlines()]
        assert lines[:2] == ["py -m venv .venv", r".venv\Scripts\activate"]
        # the same steps after the virtual environment, with the quoting cmd.exe understands
        steps = [step.strip().replace("'", '"') for step in unix.split("&&")[2:]]
        assert lines[2:] == steps
    assert "pbf runs on Windows, macOS and Linux" in top


def _walkthrough_campaign(tmp_path: Path) -> None:
    """battle1 as the walk-through makes it (its first three blocks: new, the orders, the turn)."""
    section = _section("GM's walk-through")
    for block in _blocks(section)[:3]:
        done = _bash(block, tmp_path)
        assert done.returncode == 0, block + done.stderr


def test_a_player_checks_an_alterego_plot_on_the_public_export_as_the_readme_says(tmp_path):
    _walkthrough_campaign(tmp_path)
    section = _section("Players: writing an Alter EGO plot")
    block = next(b for b in _blocks(section) if "battle1-public" in b)
    assert "pbf export battle1 battle1-public" in block and "pbf check battle1-public --player" in block
    done = _bash(block, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "エナジーキャノン" in done.stdout
    # the README quotes what the check says it cannot know, word for word
    said = "（公開用の記録で手札が伏せてあるため、手札にそのカードがあるかは確かめていません。）"
    assert said in done.stdout and f"「{said}」" in section
    assert "your private hand" in " ".join(section.split())
    # and the export holds no hand or seed for the player's machine
    public = tmp_path / "battle1-public"
    assert "seed" not in tomllib.loads((public / "campaign.toml").read_text("utf-8"))


def test_a_player_checks_a_rider_order_on_the_public_export_as_the_readme_says(tmp_path):
    section = _section("Players: writing rider orders")
    command = re.search(r"`(pbf check battle1-public --player [^`]+)`", section).group(1)
    assert "pbf export battle1 battle1-public" in section
    done = _bash("pbf new battle1 --system rider --player 城戸=ryuki --player 蓮=knight --seed s > /dev/null\n"
                 "pbf export battle1 battle1-public\n" + command, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "ソードベント" in done.stdout and "正規化：近寄る / ソードベント" in done.stdout


def test_the_walkthrough_has_teams_and_a_four_rider_battle(tmp_path):
    section = _section("GM's walk-through")
    assert "`NAME=CHARACTER@TEAM`" in section
    block = next(b for b in _blocks(section) if "@東" in b)
    done = _bash(block, tmp_path)
    assert done.returncode == 0, done.stderr
    config = tomllib.loads((tmp_path / "royale" / "campaign.toml").read_text("utf-8"))
    teams = {name: p.get("team") for name, p in config["players"].items()}
    assert teams == {"城戸": "東", "蓮": "東", "北岡": "西", "刃": "西"}
    opening = (tmp_path / "royale-open.txt").read_text("utf-8")
    assert "・城戸：龍騎（チーム東）" in opening and "・刃：刃襲（チーム西）" in opening
    assert "［pbf］第1ターン結果" in (tmp_path / "royale-post1.txt").read_text("utf-8")
    # what the README says of them holds
    for quoted in ("（チーム東）", "［東］"):
        assert quoted in section
    shown = _bash("pbf show royale", tmp_path)
    assert "［東］" in shown.stdout
    command = re.search(r"`(pbf check royale --player 北岡 '[^']+')`", section).group(1)
    refused = _bash(command, tmp_path)
    assert refused.returncode == 1
    said = re.search(r"` says 「(.+)」\.", section).group(1)
    assert said == "攻撃の対象「刃」は味方です（チーム西）"
    assert said in refused.stderr
