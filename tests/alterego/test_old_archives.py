"""Archives made under Alter EGO rules version 2 replay byte for byte (issue 22): every turn is
resolved and worded under the rules it was archived with (turn.yaml's ``rules_version``), and a
turn played now is resolved under the rules of now. The archives: tests/alterego/archives/."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from cli_support import run_cli, tree_digest
from pbf.systems.alterego import SYSTEM

ARCHIVES = Path(__file__).resolve().parent / "archives"


def _copy(tmp_path: Path, name: str) -> Path:
    camp = tmp_path / name
    shutil.copytree(ARCHIVES / name, camp)
    return camp


def _rules_versions(camp: Path) -> set[int]:
    return {YAML(typ="safe").load(p.read_text("utf-8"))["rules_version"] for p in (camp / "history").glob("*/turn.yaml")}


@pytest.mark.parametrize("name", ["rules-v2", "demo-rules-v2"])
def test_an_archive_made_under_rules_version_2_replays_byte_for_byte(tmp_path, capsys, name):
    camp = _copy(tmp_path, name)
    assert _rules_versions(camp) == {2} and SYSTEM.rules_version == 3
    before = tree_digest(camp)
    code, out, err = run_cli(capsys, "replay", camp)
    assert code == 0, err
    assert "すべて記録と一致します" in out
    assert tree_digest(camp) == before  # a replay writes nothing


def test_the_old_archive_has_the_old_results_that_the_gate_keeps(tmp_path, capsys):
    """The archive really holds what version 3 changed, and replaying its turn 1 under version 3
    differs: the version gate is what makes the replay match."""
    camp = _copy(tmp_path, "rules-v2")
    post1 = (camp / "history" / "0001" / "post.txt").read_text("utf-8")
    assert "　かち合い：楓の弱攻撃（ジャンプ扱い）対 名無しのジャンプ、相打ち！\n" in post1
    post5 = (camp / "history" / "0005" / "post.txt").read_text("utf-8")
    assert post5.index("楓は転倒！") < post5.index("楓の弱攻撃が名無しにヒット！")
    meta = camp / "history" / "0001" / "turn.yaml"
    meta.write_text(meta.read_text("utf-8").replace("rules_version: 2", "rules_version: 3"), "utf-8")
    code, _, err = run_cli(capsys, "replay", camp)
    assert code == 1
    assert "第1ターンが一致しません：history/0001/state.yaml" in err and "-    hp: 19" in err


def test_the_same_orders_played_now_follow_rules_version_3(tmp_path, capsys):
    """The archive's orders in a new campaign: resolved and worded under version 3, archived as 3."""
    old = ARCHIVES / "rules-v2"
    camp = tmp_path / "now"
    code, _, err = run_cli(capsys, "new", camp, "--system", "alterego", "--player", "名無し=plain",
                           "--player", "楓=kaede", "--seed", "fixture-rules-v2", "--set", "hands=free")
    assert code == 0, err
    posts = {}
    for turn in range(1, 7):
        orders = old / "history" / f"{turn:04d}" / "orders.txt"
        code, out, err = run_cli(capsys, "turn", camp, "--orders", orders)
        assert code == 0, err
        posts[turn] = out
    assert "　かち合い：楓の弱攻撃（ジャンプ扱い）対 名無しのジャンプ、名無しは空中でかわす。\n" in posts[1]
    assert "相打ち" not in posts[1] and "相打ち" not in posts[3]
    assert posts[5].index("楓の弱攻撃が名無しにヒット！") < posts[5].index("楓は転倒！（次の技から：")
    assert _rules_versions(camp) == {3}
    assert run_cli(capsys, "replay", camp)[0] == 0
