import hashlib
from pathlib import Path

import pytest

from pbf.cli import main


def tree_digest(root: Path) -> dict[str, str]:
    """Every file under root with its SHA-256: to show that nothing changed."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def pbf(capsys):
    """Run the CLI in-process: returns (exit code, stdout, stderr)."""

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse usage errors
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def seed_campaign(tmp_path, pbf):
    """An Alter EGO campaign of two plain fighters at distance 2, as in the seed's examples."""
    path = tmp_path / "camp"
    code, out, err = pbf("new", path, "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                         "--seed", "test-seed", "--set", "hands=free")
    assert code == 0, err
    return path
