"""Helpers every test folder shares (tests/ is on the path: pyproject's [tool.pytest.ini_options])."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pbf.cli import main


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """Run the CLI in-process: (exit code, stdout, stderr). argparse's usage errors exit."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def tree_digest(root: Path) -> dict[str, str]:
    """Every file under root with its SHA-256: to show that nothing changed."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def pbf(capsys):
    """The CLI in-process (a conftest imports this fixture): pbf(*argv) -> (code, stdout, stderr)."""
    return lambda *argv: run_cli(capsys, *argv)
