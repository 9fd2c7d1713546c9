"""The campaign folder: player specs, options, atomic turns."""

import pytest

from pbf import campaign as campaigns
from pbf.campaign import commit as campaign_commit
from pbf.systems.base import Player
from pbf.turn.zero import new_campaign
from pbf.errors import PbfError
from pbf.systems import get_system


def test_player_specs():
    p = campaigns.parse_player_spec("刃◆JinShu0001=jinshu@A")
    assert (p.name, p.trip, p.character, p.team) == ("刃", "JinShu0001", "jinshu", "A")
    p = campaigns.parse_player_spec("ﾅｲﾄ=knight")
    assert (p.name, p.trip, p.team) == ("ナイト", None, None)


@pytest.mark.parametrize("bad", ["美鈴", "=meiling", "美鈴◆x=meiling"])
def test_bad_player_specs(bad):
    with pytest.raises(PbfError):
        campaigns.parse_player_spec(bad)


def test_core_options_are_checked():
    system = get_system("alterego")
    options = campaigns.coerce_options(system, {"max_bytes": "2048", "missing": "repeat", "encoding": "cp932"})
    assert options["max_bytes"] == 2048 and options["missing"] == "repeat"
    assert options["hands"] == "private"  # the system's default
    for bad in ({"max_bytes": "-1"}, {"missing": "skip"}, {"encoding": "klingon"}, {"nonsense": "1"}):
        with pytest.raises(PbfError):
            campaigns.coerce_options(system, bad)


def test_a_turn_interrupted_before_state_yaml_is_not_half_written(tmp_path, monkeypatch):
    """A write after the commit point fails with an error (not a kill): the turn is taken back,
    the old state stands, and nothing of the failed run is left behind."""
    from pbf.turn.run import run_turn

    players = [Player("A", "plain"), Player("B", "plain")]
    c = new_campaign(tmp_path / "c", "alterego", players, seed="s", options={"hands": "free"})
    state_before = (c.path / "state.yaml").read_bytes()
    record = run_turn(c, "[A]弱\n[B]弱\n")

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(campaign_commit, "atomic_write", broken)
    with pytest.raises(OSError):
        campaigns.commit_turn(c, record)
    monkeypatch.undo()
    assert (c.path / "state.yaml").read_bytes() == state_before
    c = campaigns.load(c.path)
    assert c.turn == 0
    campaigns.commit_turn(c, run_turn(c, "[A]弱\n[B]弱\n"))
    assert campaigns.load(c.path).turn == 1
    assert not (c.path / "history" / "undone").exists()
    assert not [p for p in (c.path / "history").iterdir() if p.name.startswith(".")]


def test_two_runs_of_one_turn_cannot_both_commit(tmp_path):
    """Two GMs resolve turn 1 at the same time: the second finds state.yaml changed and writes nothing."""
    from pbf.turn.run import run_turn

    players = [Player("A", "plain"), Player("B", "plain")]
    new_campaign(tmp_path / "c", "alterego", players, seed="s", options={"hands": "free"})
    first, second = campaigns.load(tmp_path / "c"), campaigns.load(tmp_path / "c")
    campaigns.commit_turn(first, run_turn(first, "[A]弱\n[B]弱\n"))
    record = run_turn(second, "[A]→\n[B]→\n")
    with pytest.raises(PbfError, match="state.yaml が読み込んだ後に変わりました"):
        campaigns.commit_turn(second, record)
    assert (tmp_path / "c" / "history" / "0001" / "orders.txt").read_text("utf-8") == "[A]弱\n[B]弱\n"
    assert campaigns.load(tmp_path / "c").turn == 1
