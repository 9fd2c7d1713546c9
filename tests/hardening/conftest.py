"""Shared helpers of the hardening tests: the CLI in-process, and a campaign to damage."""

import os

import pytest
from cli_support import pbf, tree_digest  # noqa: F401 (the fixture, and tree_digest for the tests here)


def fuzz_examples(default: int = 200) -> int:
    """Examples per hypothesis test: a bounded default in CI, PBF_FUZZ=N for a long run."""
    return int(os.environ.get("PBF_FUZZ", default))


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
