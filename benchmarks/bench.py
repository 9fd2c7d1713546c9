"""Speed figures for pbf (printed, never asserted). Run: python benchmarks/bench.py [REPEAT]

For each bundled demo campaign: creating it; per turn, reading the orders (from the sample
thread for turn 1, else orders/NNNN.txt), resolving and rendering, committing the turn to disk;
then a replay and a verify of the whole campaign; and the cost of importing the CLI.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

from pbf import campaign as campaigns, engine
from pbf.demo import demo_campaigns


def timed(fn, repeat: int):
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return result, statistics.median(times)


def bench_campaign(source: Path, repeat: int) -> None:
    config = tomllib.loads((source / "campaign.toml").read_text("utf-8"))
    players = campaigns.players_from_config(config, "campaign.toml")
    with tempfile.TemporaryDirectory() as tmp:
        counter = iter(range(10**6))

        def create():
            return campaigns.create(Path(tmp) / f"c{next(counter)}", config["system"], players,
                                    seed=config["seed"], options=config.get("options", {}), extra=source)

        c, t_create = timed(create, repeat)
        print(f"{source.name}: create {t_create * 1000:.1f} ms")
        while c.state.get("winner") is None:
            turn = c.turn + 1
            orders_file = source / "orders" / f"{turn:04d}.txt"
            if turn == 1 and (source / "thread.dat").is_file():
                found, t_read = timed(lambda: engine.thread_orders(c, source / "thread.dat"), repeat)
                text, sources = found.orders_text, found.sources
            elif orders_file.is_file():
                text = orders_file.read_text("utf-8")
                sources, t_read = timed(lambda: engine.sources_from_file(c, text), repeat)
            else:
                break
            record, t_turn = timed(lambda: engine.run_turn(c, text, sources=sources), repeat)
            start = time.perf_counter()
            campaigns.commit_turn(c, record)
            t_commit = time.perf_counter() - start
            print(f"  turn {turn}: read orders {t_read * 1000:.2f} ms, parse+resolve+render {t_turn * 1000:.2f} ms, "
                  f"commit {t_commit * 1000:.2f} ms; {len(record.events)} events, {len(record.dice.draws)} dice, "
                  f"{len(record.post)} chars")
        _, t_replay = timed(lambda: engine.replay(c), repeat)
        _, t_verify = timed(lambda: engine.verify(c), repeat)
        print(f"  replay of {c.turn} turns {t_replay * 1000:.1f} ms, verify {t_verify * 1000:.1f} ms")


def main() -> int:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    start = time.perf_counter()
    print(f"python {sys.version.split()[0]}, median of {repeat} runs")
    _, t_start = timed(lambda: subprocess.run([sys.executable, "-m", "pbf", "--version"], check=True,
                                              capture_output=True), repeat)
    print(f"start-up (pbf --version): {t_start * 1000:.0f} ms")
    for source in demo_campaigns():
        bench_campaign(source, repeat)
    print(f"total {time.perf_counter() - start:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
