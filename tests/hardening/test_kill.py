"""Point 4 of issue 12: a kill at every file operation of ``turn`` and of ``undo`` (and, issue 21,
of ``set`` and ``deadline``).

A subprocess runs the command with ``os.replace``, ``os.rename``, ``os.unlink`` and ``os.fsync`` counting;
at the k-th call it kills itself (SIGKILL: no clean-up runs). After each kill, ``show``,
``log``, ``replay`` and ``verify`` must agree on one turn (the old one or the new one), and
the next turn and undo must work.
"""

import os
import shutil
import signal
import subprocess
import sys

import pytest

from pbf import campaign as campaigns

KILLER = r"""
import os, sys
k = int(sys.argv[1])
calls = [0]
def wrap(real):
    def op(*args, **kwargs):
        calls[0] += 1
        if calls[0] == k:
            os.kill(os.getpid(), 9)
        return real(*args, **kwargs)
    return op
os.replace, os.rename, os.unlink, os.fsync = wrap(os.replace), wrap(os.rename), wrap(os.unlink), wrap(os.fsync)
from pbf.cli import main
sys.exit(main(sys.argv[2:]))
"""


def run_killed(k: int, *argv) -> int:
    done = subprocess.run([sys.executable, "-c", KILLER, str(k), *map(str, argv)], capture_output=True)
    return done.returncode


# the deadlines of the two tests below: deadline.yaml after each outcome (the turn state.yaml is at)
DEADLINES = {1: (2, "2030-01-01 22:00"), 2: (3, "2030-01-02 22:00")}


def check_consistent(pbf, path, tmp_path, expect: set[int]) -> int:
    code, out, err = pbf("show", path)
    assert code == 0, err
    turn = campaigns.load(path).turn
    assert turn in expect
    following, deadline = DEADLINES[turn]  # a turn done, or undone, leaves the deadline it should
    assert campaigns.current_deadline(campaigns.load(path), following) == deadline
    assert campaigns.load(path).archived_turns()[-1] == turn
    code, out, err = pbf("log", path)
    assert code == 0, err
    assert out.count("ターン\u3000処理結果") == turn  # one post a turn, the half-done one in or out with the state
    code, _, err = pbf("log", path, "--turn", turn + 1)
    assert code == 1
    for command in ("replay", "verify"):
        code, out, err = pbf(command, path)
        assert code == 0, (command, err)
    assert not [p.name for p in path.rglob(".*") if p.name != ".pbf.lock"], "temporary files left"
    orders = tmp_path / "next.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    code, _, err = pbf("turn", path, "--orders", orders)
    assert code == 0, err
    assert campaigns.load(path).turn == turn + 1
    code, _, err = pbf("undo", path)
    assert code == 0, err
    assert campaigns.load(path).turn == turn
    code, _, err = pbf("replay", path)
    assert code == 0, err
    return turn


def kill_everywhere(pbf, tmp_path, base, argv, expect):
    seen = set()
    for k in range(1, 200):
        work = tmp_path / f"k{k}"
        shutil.copytree(base, work)
        code = run_killed(k, *[work if a == "CAMP" else a for a in argv])
        if code != -signal.SIGKILL:
            assert code == 0
            seen.add(check_consistent(pbf, work, tmp_path, expect))
            return k, seen
        seen.add(check_consistent(pbf, work, tmp_path, expect))
    pytest.fail("the command never finished")


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_a_kill_at_every_file_operation_of_turn(pbf, camp, tmp_path, monkeypatch):
    pbf("set", camp, "max_lines=40")  # a pending option change the turn consumes
    pbf("deadline", camp, "2030-01-01 22:00")
    monkeypatch.setenv("PBF_NOW", "2030-01-03 00:00")  # the turn is taken after both deadlines
    orders = tmp_path / "o2.txt"
    orders.write_text("[A]↑\n[B]弱\n", "utf-8")
    calls, seen = kill_everywhere(pbf, tmp_path, camp,
                                  ["turn", "CAMP", "--orders", orders, "--next-deadline", "2030-01-02 22:00"], {1, 2})
    assert calls > 3 and seen == {1, 2}


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_a_kill_at_every_file_operation_of_undo(pbf, camp, tmp_path, monkeypatch):
    pbf("set", camp, "max_lines=40")
    pbf("deadline", camp, "2030-01-01 22:00")  # the undo gives it back to turn 2
    monkeypatch.setenv("PBF_NOW", "2030-01-03 00:00")
    orders = tmp_path / "o2.txt"
    orders.write_text("[A]↑\n[B]弱\n", "utf-8")
    code, _, err = pbf("turn", camp, "--orders", orders, "--next-deadline", "2030-01-02 22:00")
    assert code == 0, err
    calls, seen = kill_everywhere(pbf, tmp_path, camp, ["undo", "CAMP"], {1, 2})
    assert calls > 2 and seen == {1, 2}


def options_of(path) -> dict:
    import tomllib

    return tomllib.loads((path / "campaign.toml").read_text("utf-8")).get("options", {})


def check_set_consistent(pbf, path, tmp_path, at_turn_1: dict, old: dict, new: dict) -> bool:
    """After a kill during ``pbf set``: campaign.toml has all of the change or none of it, and the
    next turn records exactly the options it ran with against those of turn 1."""
    code, _, err = pbf("show", path)
    assert code == 0, err
    now = options_of(path)
    assert now in (old, new), now
    assert not [p.name for p in path.rglob(".*") if p.name != ".pbf.lock"], "temporary files left"
    ran_with = campaigns.load(path).ctx.options
    orders = tmp_path / "next.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    code, _, err = pbf("turn", path, "--orders", orders)
    assert code == 0, err
    record = path / "history" / "0002" / "options.yaml"
    expected = {k: {"before": at_turn_1[k], "after": ran_with[k]} for k in ran_with if ran_with[k] != at_turn_1[k]}
    if expected:
        from pbf import yamlio

        assert yamlio.load_plain(record.read_text("utf-8"), "o") == {"changed": expected}
    else:
        assert not record.exists(), record.read_text("utf-8")
    assert not (path / "history" / "options-pending.yaml").exists()
    for command in ("replay", "verify"):
        code, out, err = pbf(command, path)
        assert code == 0, (command, err)
    return now == new


def kill_set_everywhere(pbf, tmp_path, base, argv, new):
    at_turn_1 = campaigns.load(base).ctx.options
    for key, change in campaigns.option_changes(campaigns.load(base)).items():
        at_turn_1 = {**at_turn_1, key: change["before"]}
    old = options_of(base)
    seen = set()
    for k in range(1, 200):
        work = tmp_path / f"k{k}"
        shutil.copytree(base, work)
        code = run_killed(k, *[work if a == "CAMP" else a for a in argv])
        seen.add(check_set_consistent(pbf, work, tmp_path, at_turn_1, old, new))
        if code != -signal.SIGKILL:
            assert code == 0
            return k, seen
    pytest.fail("the command never finished")


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_a_kill_at_every_file_operation_of_set(pbf, camp, tmp_path):
    new = {**options_of(camp), "max_lines": 40, "turn_limit": 9}
    calls, seen = kill_set_everywhere(pbf, tmp_path, camp, ["set", "CAMP", "max_lines=40", "turn_limit=9"], new)
    assert calls > 2 and seen == {False, True}


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_a_kill_at_every_file_operation_of_set_back_to_what_the_last_turn_had(pbf, camp, tmp_path):
    assert pbf("set", camp, "max_lines=30")[0] == 0  # pending: max_lines 0 → 30
    new = {**options_of(camp), "max_lines": 0, "turn_limit": 9}
    calls, seen = kill_set_everywhere(pbf, tmp_path, camp, ["set", "CAMP", "max_lines=0", "turn_limit=9"], new)
    assert calls > 3 and seen == {False, True}


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_a_kill_at_every_file_operation_of_deadline(pbf, camp, tmp_path, monkeypatch):
    pbf("deadline", camp, "2030-01-01 22:00")
    seen = set()
    for k in range(1, 200):
        work = tmp_path / f"k{k}"
        shutil.copytree(camp, work)
        monkeypatch.setenv("PBF_NOW", "2030-01-01 00:00")  # both deadlines ahead when it is set
        code = run_killed(k, "deadline", work, "2030-01-02 21:00")
        monkeypatch.setenv("PBF_NOW", "2030-01-03 00:00")  # the turn is taken after both
        held = campaigns.current_deadline(campaigns.load(work))
        assert held in ("2030-01-01 22:00", "2030-01-02 21:00")
        seen.add(held)
        assert not [p.name for p in work.rglob(".*") if p.name != ".pbf.lock"], "temporary files left"
        orders = tmp_path / "next.txt"
        orders.write_text("[A]弱\n[B]弱\n", "utf-8")
        code2, _, err = pbf("turn", work, "--orders", orders)
        assert code2 == 0, err
        meta = campaigns.archived_meta(campaigns.load(work), 2)
        assert meta.get("deadline") == held  # the turn was taken under the deadline deadline.yaml held
        assert pbf("replay", work)[0] == 0
        if code != -signal.SIGKILL:
            assert code == 0
            break
    else:
        pytest.fail("the command never finished")
    assert k > 1 and seen == {"2030-01-01 22:00", "2030-01-02 21:00"}


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_an_undo_after_a_killed_set_records_what_the_turn_taken_again_ran_with(pbf, camp, tmp_path):
    from pbf import yamlio

    assert pbf("set", camp, "max_lines=40")[0] == 0
    orders = tmp_path / "o2.txt"
    orders.write_text("[A]↑\n[B]弱\n", "utf-8")
    assert pbf("turn", camp, "--orders", orders)[0] == 0  # turn 2 records max_lines 0 → 40
    pending = camp / "history" / "options-pending.yaml"
    for k in range(1, 50):  # the first kill that leaves the note written and campaign.toml as it was
        work = tmp_path / f"k{k}"
        shutil.copytree(camp, work)
        assert run_killed(k, "set", work, "max_lines=0") == -signal.SIGKILL
        if (work / "history" / "options-pending.yaml").is_file():
            break
    else:
        pytest.fail("no kill left the note")
    assert options_of(work)["max_lines"] == 40 and not pending.exists()
    assert pbf("undo", work)[0] == 0
    assert pbf("turn", work, "--orders", orders)[0] == 0  # taken again, with campaign.toml's 40
    record = yamlio.load_plain((work / "history" / "0002" / "options.yaml").read_text("utf-8"), "o")
    assert record == {"changed": {"max_lines": {"before": 0, "after": 40}}}
    assert pbf("replay", work)[0] == 0
