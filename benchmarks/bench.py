"""Speed figures for pbf (printed, never asserted). Run: python benchmarks/bench.py

For each bundled demo campaign: creating it, then per turn reading the orders, resolving
and rendering, and committing the turn to disk; then a replay of the whole campaign.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import tomllib
from pathlib import Path

from pbf import campaign as campaigns, engine
from pbf.demo import demo_campaigns


def timed(fn, repeat: int = 5):
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
    orders = [f.read_text("utf-8") for f in sorted((source / "orders").glob("*.txt"))]
    with tempfile.TemporaryDirectory() as tmp:
        counter = iter(range(10**6))

        def create():
            return campaigns.create(Path(tmp) / f"c{next(counter)}", config["system"], players,
                                    seed=config["seed"], options=config.get("options", {}), extra=source)

        c, t_create = timed(create, repeat)
        print(f"{source.name}: create {t_create * 1000:.1f} ms")
        for n, text in enumerate(orders, start=1):
            if c.state.get("winner") is not None:
                break
            _, t_read = timed(lambda: engine.read_orders(c, text), repeat)
            record, t_turn = timed(lambda: engine.run_turn(c, text), repeat)
            start = time.perf_counter()
            campaigns.commit_turn(c, record)
            t_commit = time.perf_counter() - start
            print(f"  turn {n}: read orders {t_read * 1000:.2f} ms, resolve+render {t_turn * 1000:.2f} ms, "
                  f"commit {t_commit * 1000:.2f} ms, {len(record.events)} events, {len(record.post)} chars")
        _, t_replay = timed(lambda: engine.replay(c), repeat)
        print(f"  replay of {c.turn} turns: {t_replay * 1000:.1f} ms")


def main() -> int:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    start = time.perf_counter()
    import pbf.cli  # noqa: F401  (import cost is part of every command)
    print(f"python {sys.version.split()[0]}, median of {repeat} runs")
    for source in demo_campaigns():
        bench_campaign(source, repeat)
    print(f"total {time.perf_counter() - start:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
