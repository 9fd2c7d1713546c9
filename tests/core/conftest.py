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


@pytest.fixture(scope="module")
def camps(tmp_path_factory):
    """The natural-order corpora's three campaigns (tests/corpus/runner.py), for the reading tests:
    Alter EGO (美鈴, 楓), a rider duel (城戸, 刃) and three riders (城戸, 蓮, 北岡)."""
    from corpus.runner import campaigns

    found = campaigns(tmp_path_factory.mktemp("reading"))
    return {"ae": found["alterego"], "rd": found["duel"], "three": found["three"]}
