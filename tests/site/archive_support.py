"""Campaigns for the archive tests: a private-hands Alter EGO battle (running or finished), the demos."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_support import run_cli
from pbf.cli.demo import demo_campaigns, play

SEED = "top-secret-seed-14"


run = run_cli  # run(capsys, *argv) -> (exit code, stdout, stderr)


def play_private(capsys, path: Path, turns: int, turn_limit: int = 0) -> Path:
    """An Alter EGO battle with private hands: each player plots the first card of their hand."""
    extra = ["--set", f"turn_limit={turn_limit}"] if turn_limit else []
    assert run(capsys, "new", path, "--system", "alterego", "--player", "美鈴=meiling", "--player", "楓=kaede",
               "--seed", SEED, *extra)[0] == 0
    for _ in range(turns):
        state = json.loads(run(capsys, "show", path, "--json")[1])
        orders = "".join(f"[{name}]{(f['hand'] or [''])[0] if not f['locked'] else ''}\n"
                         for name, f in state["fighters"].items())
        (path.parent / "orders.txt").write_text(orders, "utf-8")
        code, _, err = run(capsys, "turn", path, "--orders", path.parent / "orders.txt")
        assert code == 0, err
    return path


@pytest.fixture
def private_running(tmp_path, capsys):
    (tmp_path / "running").mkdir()
    return play_private(capsys, tmp_path / "running" / "battle", 2)


@pytest.fixture
def private_finished(tmp_path, capsys):
    (tmp_path / "finished").mkdir()
    return play_private(capsys, tmp_path / "finished" / "battle", 2, turn_limit=2)


@pytest.fixture(scope="session")
def demo_folders(tmp_path_factory):
    """The bundled demo campaigns, played to the end once for the session."""
    import io

    root = tmp_path_factory.mktemp("demos")
    return [play(source, root, io.StringIO()).path for source in demo_campaigns()]
