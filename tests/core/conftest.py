import pytest
from cli_support import pbf, tree_digest  # noqa: F401 (the fixture, and tree_digest for the tests here)


@pytest.fixture
def seed_campaign(tmp_path, pbf):
    """An Alter EGO campaign of two plain fighters at distance 2, as in the seed's examples."""
    path = tmp_path / "camp"
    code, out, err = pbf("new", path, "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                         "--seed", "test-seed", "--set", "hands=free")
    assert code == 0, err
    return path
