"""Issue 21: files of the wrong kind in a campaign folder, the site's own files, the export's
public files, and a damaged archive refused by every command that reads it."""

import os
import subprocess
import sys

import pytest

from cli_support import tree_digest


def run_pbf(*argv, timeout: float = 30) -> subprocess.CompletedProcess:
    """pbf in a subprocess with a timeout: a command that hangs fails the test instead of the suite."""
    return subprocess.run([sys.executable, "-m", "pbf", *map(str, argv)], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONIOENCODING": "utf-8"})


def kinds(root):
    """tree_digest with the special files in it (a FIFO stays a FIFO)."""
    out = tree_digest(root)
    out.update({str(p.relative_to(root)): "fifo" for p in root.rglob("*") if p.is_fifo()})
    return out


# -- a FIFO (or any special file) never hangs a command ----------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
@pytest.mark.parametrize("name, command", [
    ("state.yaml", "show"),
    ("campaign.toml", "show"),
    ("campaign.toml", "log"),
    ("deadline.yaml", "show"),
    ("history/0001/state.yaml", "replay"),
    ("history/0001/turn.yaml", "log"),
    ("history/0001/post.txt", "log"),
    ("history/0001/events.yaml", "replay"),
])
def test_a_fifo_in_the_campaign_is_named_and_refused_at_once(camp, name, command):
    target = camp / name
    target.unlink(missing_ok=True)
    os.mkfifo(target)
    before = kinds(camp)
    try:
        done = run_pbf(command, camp)
    except subprocess.TimeoutExpired:
        pytest.fail(f"pbf {command} hangs on a FIFO as {name}")
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert f"「{name}」は普通のファイルではなく名前付きパイプ（FIFO）です" in done.stderr, done.stderr
    assert kinds(camp) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_fifo_as_a_campaign_data_file_is_refused(camp):
    (camp / "data" / "characters").mkdir(parents=True)
    os.mkfifo(camp / "data" / "characters" / "cards.yaml")
    before = kinds(camp)
    try:
        done = run_pbf("show", camp)
    except subprocess.TimeoutExpired:
        pytest.fail("pbf show hangs on a FIFO in data/")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "cards.yaml" in done.stderr and "普通のファイルではなく" in done.stderr
    assert kinds(camp) == before
