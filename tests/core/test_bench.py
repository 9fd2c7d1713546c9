"""The benchmark script runs (on a tiny size); its figures are printed, never asserted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench.py"


def test_the_benchmark_prints_every_figure_of_its_table(tmp_path):
    env = {**os.environ, "PBF_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, str(BENCH), "--quick"], env=env, capture_output=True, text=True,
                          encoding="utf-8", timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    measures = [row.split(" | ")[0] for row in rows]
    for expected in ("pbf turn C --orders F --dry-run", "pbf check", "pbf show", "pbf status", "import floor",
                     "commit_turn`, turns 1–10", "pbf replay` per turn", "parse + resolve, in-process",
                     "parse + resolve + render", "turn 12 ÷ turn 10"):
        assert any(expected in m for m in measures), expected
    assert rows[0] == "| measure | Alter EGO | rider duel | rider royale (4) | goal |"
    assert all(row.count(" | ") == 4 for row in rows if not row.startswith("|---"))
