"""pbf's cache (pbf.resources): what is kept is checked against the files it came from, and a
cache that cannot be written or read is no error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbf import render, resources
from pbf.systems import get_system


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh cache folder for this test (and for the processes it starts)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("PBF_CACHE_DIR", str(folder))
    monkeypatch.delenv("PBF_NO_CACHE", raising=False)
    monkeypatch.setattr(resources, "_DIRS", {})
    monkeypatch.setattr(resources, "_PARSED", {})
    return folder


CHARACTER = """id: tester
name: テスター
techniques:
  - {id: sweep, name: 足払い, command: →→弱, class: special, kind: weak, reach: 1, damage: 2}
"""


def test_a_changed_data_file_is_read_again(tmp_path, cache):
    system = get_system("alterego")
    data = tmp_path / "data" / "characters"
    data.mkdir(parents=True)
    (data / "tester.yaml").write_text(CHARACTER, "utf-8")
    assert system.load_data(tmp_path / "data").characters["tester"].name == "テスター"
    assert list(resources.cache_dir("parsed").iterdir())  # kept on disk
    resources._PARSED.clear()  # as a new process would
    assert system.load_data(tmp_path / "data").characters["tester"].name == "テスター"
    (data / "tester.yaml").write_text(CHARACTER.replace("テスター", "テスター改"), "utf-8")
    assert system.load_data(tmp_path / "data").characters["tester"].name == "テスター改"


def test_what_a_caller_changes_does_not_change_the_cache(tmp_path, cache):
    path = tmp_path / "x.yaml"
    path.write_text("cards: [弱, 強]\n", "utf-8")
    from pbf import yamlio

    yamlio.load_data_file(path)["cards"].append("→")
    assert yamlio.load_data_file(path) == {"cards": ["弱", "強"]}


def test_a_changed_template_override_is_used(tmp_path, cache):
    system = get_system("alterego")
    templates = tmp_path / "templates" / "common"
    templates.mkdir(parents=True)
    footer = templates / "footer.j2"
    footer.write_text("検証 {{ orders_sha256 }}\n", "utf-8")
    assert render.render(system, "common/footer.j2", tmp_path, turn=1, orders_sha256="ab") == "検証 ab\n"
    footer.write_text("ハッシュ {{ orders_sha256 }}\n", "utf-8")
    os.utime(footer, (1, 1))  # a different modification time even on a coarse clock
    assert render.render(system, "common/footer.j2", tmp_path, turn=1, orders_sha256="ab") == "ハッシュ ab\n"


def test_a_changed_grammar_is_built_again(tmp_path, cache, monkeypatch):
    grammar = tmp_path / "g.lark"
    monkeypatch.setattr(resources, "grammar_path", lambda system: grammar)
    grammar.write_text('start: "a"\n', "utf-8")
    resources.lark_parser("g", parser="lalr").parse("a")
    assert any(p.name.startswith("g-") for p in resources.cache_dir("lark").iterdir())
    grammar.write_text('start: "b"\n', "utf-8")
    resources.lark_parser("g", parser="lalr").parse("b")


def run_pbf(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    code = "import sys; from pbf.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, encoding="utf-8")


def test_an_unwritable_or_damaged_cache_changes_nothing(tmp_path):
    """The same post with a fresh cache, a filled one, a damaged one and none that can be made."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBF_")}
    camp = tmp_path / "camp"
    orders = tmp_path / "o.txt"
    orders.write_text("[城戸] 近寄る / ソードベント\n[蓮] 離れる / 受動: ガードベント\n", "utf-8")
    done = run_pbf("new", str(camp), "--system", "rider", "--player", "城戸=ryuki", "--player", "蓮=knight",
                   "--seed", "s", env={**env, "PBF_NO_CACHE": "1"})
    assert done.returncode == 0, done.stderr
    turn = ("turn", str(camp), "--orders", str(orders), "--dry-run")
    first = run_pbf(*turn, env={**env, "PBF_NO_CACHE": "1"})
    expected, said = first.stdout, first.stderr  # said: only that a dry run writes nothing
    assert "【ライダーバトル】" in expected and said.startswith("pbf: 試し実行") and said.count("\n") == 1

    cache = tmp_path / "cache"
    for _ in range(2):  # the first run fills the cache, the second reads it
        done = run_pbf(*turn, env={**env, "PBF_CACHE_DIR": str(cache)})
        assert (done.returncode, done.stdout, done.stderr) == (0, expected, said)
    kept = [p for p in cache.rglob("*") if p.is_file()]
    assert {p.parent.name for p in kept} >= {"parsed", "lark", "templates"}
    for path in kept:
        path.write_bytes(b"\x80garbage")
    done = run_pbf(*turn, env={**env, "PBF_CACHE_DIR": str(cache)})
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, said)

    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", "utf-8")
    done = run_pbf(*turn, env={**env, "PBF_CACHE_DIR": str(blocked / "cache")})
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, said)
    done = run_pbf(*turn, env={**env, "XDG_CACHE_HOME": str(blocked), "HOME": str(blocked)})
    assert (done.returncode, done.stdout, done.stderr) == (0, expected, said)


def test_the_cache_folder_follows_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.delenv("PBF_CACHE_DIR", raising=False)
    monkeypatch.delenv("PBF_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(resources, "_DIRS", {})
    folder = resources.cache_dir("templates")
    assert folder is not None and Path(tmp_path / "pbf") in folder.parents
    monkeypatch.setenv("PBF_NO_CACHE", "1")
    monkeypatch.setattr(resources, "_DIRS", {})
    assert resources.cache_dir("templates") is None


def test_a_template_changed_between_runs_is_compiled_again(tmp_path):
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PBF_")}, "PBF_CACHE_DIR": str(tmp_path / "cache")}
    camp = tmp_path / "camp"
    done = run_pbf("new", str(camp), "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                   "--seed", "s", env=env)
    assert done.returncode == 0, done.stderr
    status = camp / "templates" / "alterego" / "status.j2"
    status.parent.mkdir(parents=True)
    for word in ("一回目", "二回目"):
        status.write_text(f"{word} {{{{ summary.turn }}}}\n", "utf-8")
        done = run_pbf("show", str(camp), env=env)
        assert (done.returncode, done.stdout) == (0, f"{word} 0\n"), done.stderr


def test_the_cache_keeps_the_newest_files_of_a_kind(cache, monkeypatch):
    monkeypatch.setattr(resources, "_MOST", 10)
    for i in range(12):
        resources.cache_put("parsed", f"f{i:02d}.json", b"{}")
        os.utime(resources.cache_dir("parsed") / f"f{i:02d}.json", (i, i))
    kept = sorted(p.name for p in resources.cache_dir("parsed").iterdir())
    assert kept == [f"f{i:02d}.json" for i in range(6, 12)]
