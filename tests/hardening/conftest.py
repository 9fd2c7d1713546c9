"""Shared helpers of the hardening tests: the CLI in-process, and a campaign to damage."""

import hashlib
import os
from pathlib import Path

import pytest

from pbf.cli import main


def tree_digest(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def fuzz_examples(default: int = 200) -> int:
    """Examples per hypothesis test: a bounded default in CI, PBF_FUZZ=N for a long run."""
    return int(os.environ.get("PBF_FUZZ", default))


@pytest.fixture
def pbf(capsys):
    """Run the CLI in-process: returns (exit code, stdout, stderr)."""

    def run(*argv) -> tuple[int, str, str]:
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def camp(tmp_path, pbf):
    """An Alter EGO campaign (free hands) one turn in."""
    path = tmp_path / "camp"
    code, _, err = pbf("new", path, "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                       "--seed", "hard", "--set", "hands=free")
    assert code == 0, err
    orders = tmp_path / "o1.txt"
    orders.write_text("[A]弱\n[B]→\n", "utf-8")
    code, _, err = pbf("turn", path, "--orders", orders)
    assert code == 0, err
    return path
