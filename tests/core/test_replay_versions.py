"""Replays that stay byte-identical (issue 20): each turn's turn.yaml records the versions it was
made with (``made_with``); ``pbf replay`` names them when they differ from what runs now, with the
``pip install`` line that brings them back; a turn archived before pbf recorded them replays as
it always did."""

from __future__ import annotations

import platform
import re
from importlib.metadata import version
from pathlib import Path

import pytest

from pbf import __version__, yamlio
from pbf.campaign.versions import made_with


@pytest.fixture
def camp(tmp_path, pbf):
    path = tmp_path / "battle1"
    assert pbf("new", path, "--system", "alterego", "--player", "美鈴=meiling", "--player", "名無し=plain",
               "--seed", "versions", "--set", "hands=free")[0] == 0
    for n, orders in enumerate(("[美鈴] 弱→→弱強\n[名無し] ↑→弱弱\n", "[美鈴] →弱\n[名無し] ←\n"), 1):
        (tmp_path / f"t{n}.txt").write_text(orders, "utf-8")
        code, _, err = pbf("turn", path, "--orders", tmp_path / f"t{n}.txt")
        assert code == 0, err
    return path


def _meta(camp: Path, turn: int) -> Path:
    return camp / "history" / f"{turn:04d}" / "turn.yaml"


def _set_version(camp: Path, turn: int, name: str, value: str) -> None:
    meta = _meta(camp, turn)
    text, n = re.subn(rf"(?m)^(  {re.escape(name)}): .*$", rf"\1: {value}", meta.read_text("utf-8"))
    assert n == 1
    meta.write_text(text, "utf-8")


def test_each_turn_records_the_versions_it_was_made_with(camp):
    expected = {"pbf": __version__, "python": platform.python_version(), "lark": version("lark"),
                "jinja2": version("jinja2"), "ruamel.yaml": version("ruamel.yaml")}
    assert made_with() == expected
    for turn in (1, 2):
        meta = yamlio.plain(yamlio.load(_meta(camp, turn).read_text("utf-8"), "turn.yaml"))
        assert meta["made_with"] == expected
        assert meta["rules_version"] >= 1  # what was there before stays


def test_replay_names_the_versions_of_a_turn_that_differs(camp, pbf):
    _set_version(camp, 2, "lark", "0.0.1")
    _set_version(camp, 2, "jinja2", "2.0")
    post = camp / "history" / "0002" / "post.txt"
    post.write_text(post.read_text("utf-8").replace("第2ターン", "第２ターン", 1), "utf-8")
    code, out, err = pbf("replay", camp)
    assert code == 1 and "replay OK" not in out
    assert "第2ターンが一致しません：history/0002/post.txt" in err
    assert (f"このターンは lark 0.0.1・jinja2 2.0 で処理されましたが、今は lark {version('lark')}・"
            f"jinja2 {version('jinja2')} です。") in err
    assert 'pip install "lark==0.0.1" "jinja2==2.0"' in err
    assert "ruamel.yaml" not in err  # the same as now: not named


def test_a_matching_replay_made_with_other_versions_says_which(camp, pbf):
    _set_version(camp, 1, "ruamel.yaml", "0.18.6")
    _set_version(camp, 2, "ruamel.yaml", "0.18.6")
    code, out, err = pbf("replay", camp)
    assert code == 0 and "replay OK" in out
    assert err.strip() == (f"※ 第1ターン・第2ターンは ruamel.yaml 0.18.6 で処理されました（今は ruamel.yaml "
                           f"{version('ruamel.yaml')}）。再計算の結果は記録と同じです。")


def test_the_same_versions_say_nothing_more(camp, pbf):
    code, out, err = pbf("replay", camp)
    assert code == 0 and "replay OK" in out and err == ""


def test_turns_archived_before_versions_were_recorded_replay_as_before(camp, pbf, tmp_path):
    for turn in (1, 2):
        meta = _meta(camp, turn)
        text = meta.read_text("utf-8")
        assert "made_with:" in text
        meta.write_text(text[:text.index("made_with:")], "utf-8")
    code, out, err = pbf("replay", camp)
    assert code == 0 and "replay OK" in out and err == ""
    # and a public export carries the record: replay works there too
    assert pbf("export", camp, tmp_path / "public")[0] == 0
    assert pbf("replay", tmp_path / "public")[0] == 0


def test_a_dry_run_looks_nothing_up(tmp_path):
    """The lookup costs milliseconds: a dry run, a check and a status never pay it."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom pbf.cli import main\n"
        f"main(['new', {str(tmp_path / 'c')!r}, '--system', 'rider', '--player', '城戸=ryuki', '--player', '蓮=knight', '--seed', 's'])\n"
        f"open({str(tmp_path / 'o.txt')!r}, 'w', encoding='utf-8').write('[城戸] 近寄る\\n[蓮] 留まる\\n')\n"
        f"main(['turn', {str(tmp_path / 'c')!r}, '--orders', {str(tmp_path / 'o.txt')!r}, '--dry-run'])\n"
        "print('importlib.metadata' in sys.modules, 'pbf.versions' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.stderr.strip().splitlines()[-1] == "False False", done.stderr


def test_the_versions_are_read_as_importlib_metadata_finds_them(tmp_path, monkeypatch):
    """The first dist-info of a name on sys.path wins, its name normalised (Jinja2, ruamel_yaml)."""
    from pbf.campaign.versions import _dist_info_versions

    assert _dist_info_versions(("lark", "jinja2", "ruamel.yaml")) == {
        name: version(name) for name in ("lark", "jinja2", "ruamel.yaml")}
    first = tmp_path / "first"
    for folder in ("Jinja2-9.9.dist-info", "ruamel.yaml-0.17.0.dist-info", "lark_other-1.0.dist-info"):
        (first / folder).mkdir(parents=True)
    monkeypatch.setattr("sys.path", [str(first), *__import__("sys").path])
    assert _dist_info_versions(("lark", "jinja2", "ruamel.yaml")) == {
        "jinja2": "9.9", "ruamel.yaml": "0.17.0", "lark": version("lark")}
