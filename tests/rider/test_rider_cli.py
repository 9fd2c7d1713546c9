"""The rider rulings of issue 10 through the command line: turn 0 rolls the initiative and the
starting distance; after the battle is decided only the winners' イベントファイナル may be posted
(an epilogue post, replayable); names with digits work in `pbf check`. The rules themselves are
data cases (cases/*.yaml)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ruamel.yaml import YAML

from pbf.systems.rider import SYSTEM
from rider_support import ROOT, context


def pbf(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "pbf", *map(str, args)], capture_output=True, text=True,
                          encoding="utf-8", env=env, cwd=ROOT)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def show(folder: Path) -> dict:
    result = pbf("show", folder, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_turn_0_holds_the_initiative_and_the_starting_distance(tmp_path):
    folder = tmp_path / "c"
    assert pbf("new", folder, "--system", "rider", "--player", "刃=jinshu", "--player", "城戸=ryuki",
               "--seed", "opening").returncode == 0
    state = YAML(typ="safe").load((folder / "state.yaml").read_text("utf-8"))
    assert state["turn"] == 0 and set(state["initiative"]) == {"城戸", "刃"}
    assert state["distance"] in ("近", "中", "遠")
    assert [r["purpose"] for r in state["opening_rolls"]][-1] == "distance"  # ties (if any) first
    summary = show(folder)
    assert summary["distance"] == state["distance"] and summary["initiative"] == state["initiative"]
    ctx = context({"刃": "jinshu", "城戸": "ryuki"})
    opening = SYSTEM.opening(state, ctx)
    assert opening["initiative"] == state["initiative"] and opening["distance"] == state["distance"]
    assert opening["distance_roll"]["faces"] == [state["opening_rolls"][-1]["face"]]


def _decided(tmp_path: Path) -> tuple[Path, str, str]:
    """A duel at 1 HP played until someone falls: (folder, winner, loser)."""
    folder = tmp_path / "c"
    assert pbf("new", folder, "--system", "rider", "--player", "刃=jinshu", "--player", "城戸=ryuki",
               "--seed", "epilogue", "--set", "hp=1").returncode == 0
    orders = tmp_path / "orders.txt"
    orders.write_text("[刃] 近寄る / ソードベント\n[城戸] 近寄る / ソードベント\n", encoding="utf-8")
    for _ in range(12):
        if show(folder)["winner"] is not None:
            break
        result = pbf("turn", folder, "--orders", orders)
        assert result.returncode == 0, result.stdout + result.stderr
        orders.write_text("[刃] 近寄る\n[城戸] 近寄る\n", encoding="utf-8")
    winner = show(folder)["winner"]
    assert winner in ("刃", "城戸")
    return folder, winner, "城戸" if winner == "刃" else "刃"


def test_an_epilogue_after_the_end(tmp_path):
    folder, winner, loser = _decided(tmp_path)
    turn = show(folder)["turn"]
    orders = tmp_path / "epilogue.txt"

    # anything but the winner's イベントファイナル is refused, and nothing changes
    before = snapshot(folder)
    for text, message in [(f"[{loser}] イベントファイナル: まだだ！\n", f"書き込める人：{winner}"),
                          (f"[{winner}] 近寄る / イベントファイナル: 斬！\n", "決着後に書けるのはイベントファイナルだけ"),
                          (f"[{winner}] 留まる\n", "決着後に書けるのはイベントファイナルだけ"),
                          ("# nobody\n", "勝者のイベントファイナルだけ"),
                          (f"[{winner}]\n", "勝者はイベントファイナルを書き込めます")]:
        orders.write_text(text, encoding="utf-8")
        result = pbf("turn", folder, "--orders", orders)
        assert result.returncode == 1, (text, result.stdout)
        assert message in result.stderr and "Traceback" not in result.stderr, (text, result.stderr)
        assert snapshot(folder) == before

    # the winner's イベントファイナル alone: an epilogue post, no dice, recorded in the state
    orders.write_text(f"[{winner}] イベントファイナル: 決着の一撃、月光の下で！\n", encoding="utf-8")
    result = pbf("turn", folder, "--orders", orders)
    assert result.returncode == 0, result.stderr
    assert "決着後のイベントファイナル" in result.stdout and f"【イベントファイナル】{winner}\n決着の一撃、月光の下で！" in result.stdout
    summary = show(folder)
    assert summary["turn"] == turn + 1 and summary["winner"] == winner
    dice = YAML(typ="safe").load((folder / "history" / f"{turn + 1:04d}" / "dice.yaml").read_text("utf-8"))
    assert dice["draws"] == []
    state = YAML(typ="safe").load((folder / "state.yaml").read_text("utf-8"))
    assert state["event_finals"][winner] == "決着の一撃、月光の下で！"
    assert pbf("replay", folder).returncode == 0

    # once per winner
    result = pbf("turn", folder, "--orders", orders)
    assert result.returncode == 1 and "もう演出されています" in result.stderr


def test_check_reads_names_with_digits(tmp_path):
    folder = tmp_path / "c"
    assert pbf("new", folder, "--system", "rider", "--player", "P1=jinshu@A", "--player", "P2=ryuki@B",
               "--player", "名無し3号=knight@A", "--seed", "digits").returncode == 0
    result = pbf("check", folder, "--player", "P1", "攻撃: P2 / 名無し3号を庇う / 近寄る: 最も遠い相手")
    assert result.returncode == 0, result.stderr
    assert "対象：P2" in result.stdout and "名無し3号を庇う" in result.stdout and "最も遠い相手に対して近寄る" in result.stdout
    result = pbf("check", folder, "--player", "P1", "攻撃: P3")
    assert result.returncode == 1
    assert "「P3」" in result.stderr and "対戦相手：P2（龍騎）" in result.stderr


def test_receipts_for_an_epilogue_from_the_thread(tmp_path):
    folder, winner, loser = _decided(tmp_path)
    thread = tmp_path / "t.dat"
    lines = [
        f"{winner}<>sage<>2026/11/29(日) 21:00:00.00 ID:Win00001<> 【行動】イベントファイナル: 月光の下で剣を収める <>スレ",
        f"{loser}<>sage<>2026/11/29(日) 21:05:00.00 ID:Los00001<> 【行動】近寄る <>",
    ]
    thread.write_bytes(("\n".join(lines) + "\n").encode("cp932"))
    result = pbf("status", folder, "--thread", thread)
    assert result.returncode == 0, result.stderr
    assert f"■{winner}：受理" in result.stdout and f"■{loser}：エラー" in result.stdout


# -- issue 22: rules version 4, and the archives of version 3 --------------------------------------

FIXTURES = ROOT / "tests" / "rider" / "fixtures" / "v3"


def _copy(name: str, tmp_path: Path) -> Path:
    import shutil

    folder = tmp_path / name
    shutil.copytree(FIXTURES / name, folder)
    return folder


def test_a_campaign_archived_under_rules_version_3_replays_byte_for_byte(tmp_path):
    """Two campaigns played by the code of rules version 3 (tests/rider/fixtures/v3: a duel with a
    vented ガードベント taking a hit, 超回避 against アドベント, 受動「攻撃なら」 against 攻撃しない and a
    ファイナルベント hit; the royale demo as it was played then): every turn resolves and is worded
    as it was, under today's pbf."""
    for name in ("duel", "royale"):
        folder = _copy(name, tmp_path)
        turns = sorted(p for p in (folder / "history").iterdir() if p.name.isdigit())
        assert len(turns) == 5
        for turn in turns:
            assert YAML(typ="safe").load((turn / "turn.yaml").read_text("utf-8"))["rules_version"] == 3
        before = snapshot(folder)
        result = pbf("replay", folder)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "すべて記録と一致します" in result.stdout
        assert snapshot(folder) == before  # replay writes nothing


def test_the_same_archive_resolved_by_today_s_rules_differs(tmp_path):
    """What keeps the archive replaying is the version it records: the same turns said to be of
    version 4 resolve differently (no armour, 超回避 against the monster, the 受動 against 攻撃しない)."""
    folder = _copy("duel", tmp_path)
    for turn in (folder / "history").iterdir():
        if turn.name.isdigit():
            path = turn / "turn.yaml"
            path.write_text(path.read_text("utf-8").replace("rules_version: 3", "rules_version: 4"), "utf-8")
    result = pbf("replay", folder)
    assert result.returncode == 1
    assert "第1ターンが一致しません" in result.stdout + result.stderr


def test_guard_vent_armor_is_an_option_that_pbf_list_options_explains(tmp_path):
    listed = pbf("list", "options", "--system", "rider")
    assert listed.returncode == 0, listed.stderr
    assert "guard_vent_armor = false" in listed.stdout
    assert "ガードベント" in listed.stdout.split("guard_vent_armor = false")[1].splitlines()[1]
    as_json = json.loads(pbf("list", "options", "--system", "rider", "--json").stdout)
    entry = next(e for e in as_json["rider"]["options"] if e["key"] == "guard_vent_armor")
    assert entry["default"] is False and "防御力" in entry["meaning"]
    # a bad value is refused and nothing is made; a good one is written and said in the opening post
    bad = pbf("new", tmp_path / "bad", "--system", "rider", "--player", "刃=jinshu", "--player", "城戸=ryuki",
              "--set", "guard_vent_armor=maybe")
    assert bad.returncode == 1 and "true か false" in bad.stderr and not (tmp_path / "bad").exists()
    folder = tmp_path / "on"
    made = pbf("new", folder, "--system", "rider", "--player", "刃=jinshu", "--player", "城戸=ryuki",
               "--set", "guard_vent_armor=true", "--seed", "armor")
    assert made.returncode == 0, made.stderr
    assert "追加ルール（guard_vent_armor）" in made.stdout
    assert "guard_vent_armor = true" in (folder / "campaign.toml").read_text("utf-8")
    plain = pbf("new", tmp_path / "off", "--system", "rider", "--player", "刃=jinshu", "--player", "城戸=ryuki")
    assert plain.returncode == 0 and "guard_vent_armor" not in plain.stdout


def test_pbf_list_cards_names_survive_s_movement_effect_monster_drive():
    listed = pbf("list", "cards", "--system", "rider")
    assert listed.returncode == 0, listed.stderr
    survive = listed.stdout.split("survive：サバイブ")[1].splitlines()[1]
    assert "モンスタードライブ（☆）" in survive
    guard = listed.stdout.split("guard_vent：ガードベント")[1].splitlines()[1]
    assert "guard_vent_armor" in guard
