import pytest
from cli_support import run_cli, tree_digest  # noqa: F401 (tree_digest: for the tests here)


@pytest.fixture
def pbf(capsys):
    """Run the CLI in-process: returns (exit code, stdout, stderr)."""
    return lambda *argv: run_cli(capsys, *argv)


@pytest.fixture
def seed_campaign(tmp_path, pbf):
    """An Alter EGO campaign of two plain fighters at distance 2, as in the seed's examples."""
    path = tmp_path / "camp"
    code, out, err = pbf("new", path, "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                         "--seed", "test-seed", "--set", "hands=free")
    assert code == 0, err
    return path
