"""The strength of the NPC's levels (README, "NPC strength"): level X against level Y over every
ordered pair of fighters, X on either side, from the fixed seeds of pbf balance.

    python benchmarks/strength.py --system rider --level normal --versus random --battles 10 [--jobs 2]
    python benchmarks/strength.py --system rider --level normal --versus random --battles 12 --mirror \
        --fighters blade_wolf,darkwing --set normal.scenarios=96 --set rider.shape=odds

Prints X's wins, losses and draws, its win share with the 95% Wilson interval, and the time, then
the same per fighter on X's side. ``--set`` tries a setting without editing the code: a level's
key in pbf/npc/search.py's LEVELS (``hard.predict=1``), or a model's attribute (``rider.spread``,
``rider.shape``, ``rider.WIN``; ``alterego.…``).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbf import balance  # noqa: E402
from pbf.systems import get_system  # noqa: E402


def tune(sets: list[str]) -> None:
    """``--set LEVEL.KEY=VALUE`` (search.LEVELS) and ``--set model.KEY=VALUE`` (a model's class
    attribute, e.g. rider.spread=coarse, rider.WIN=20): for trying a setting without editing."""
    import importlib
    import json

    from pbf.npc import search

    for item in sets:
        key, _, raw = item.partition("=")
        where, _, name = key.partition(".")
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        if where in search.LEVELS:
            search.LEVELS[where][name] = value
        elif where == "search":
            setattr(search, name, value)
        else:
            module = importlib.import_module(f"pbf.systems.{where}.npc")
            model = module.RiderModel if where == "rider" else module.AlterEgoModel
            setattr(model if hasattr(model, name) else module, name, value)


def one(job: tuple) -> tuple[int, int, int, int]:
    system_name, a, b, x, y, k, sets = job
    tune(sets)
    system = get_system(system_name)
    data = system.load_data(None)
    ctx = balance.context(system, data, a, b)
    winner, turns = balance.battle(system, ctx, f"strength:{a}:{b}:{k}", {"A": x, "B": y})
    return (winner == "A", winner == "B", winner not in ("A", "B"), turns)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--system", required=True)
    ap.add_argument("--level", required=True)
    ap.add_argument("--versus", required=True)
    ap.add_argument("--battles", type=int, default=4, help="per ordered pair and side")
    ap.add_argument("--fighters", help="ids, comma-separated (default: all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--mirror", action="store_true", help="only mirror matches (each fighter against itself)")
    ap.add_argument("--start", type=int, default=0, help="the first battle's number k (more battles, new seeds)")
    ap.add_argument("--set", action="append", default=[], help="LEVEL.KEY=VALUE or MODEL.KEY=VALUE (tuning)")
    args = ap.parse_args()
    system = get_system(args.system)
    data = system.load_data(None)
    ids = args.fighters.split(",") if args.fighters else balance.fighters(system, data)
    jobs = []
    for a in ids:
        for b in ids:
            if args.mirror and a != b:
                continue
            for k in range(args.start, args.start + args.battles):
                jobs.append((args.system, a, b, args.level, args.versus, k, args.set))  # X is A
                jobs.append((args.system, b, a, args.versus, args.level, k, args.set))  # X is B (flipped below)
    start = time.perf_counter()
    w = l = d = turns = 0
    each: dict[str, list[int]] = {}  # the X side's fighter -> [won, lost, drawn]
    with ProcessPoolExecutor(args.jobs) as pool:
        for i, (ra, rb, rd, t) in enumerate(pool.map(one, jobs, chunksize=4)):
            xa = i % 2 == 0
            w += ra if xa else rb
            l += rb if xa else ra
            d += rd
            turns += t
            row = each.setdefault(jobs[i][1] if xa else jobs[i][2], [0, 0, 0])
            row[0] += ra if xa else rb
            row[1] += rb if xa else ra
            row[2] += rd
    n = w + l + d
    low, high = balance.wilson(w + 0.5 * d, n)
    took = time.perf_counter() - start
    kind = "mirror matches" if args.mirror else "every ordered pair incl. mirrors"
    print(f"{args.system}: {args.level} vs {args.versus}: {n} battles ({len(ids)} fighters, {kind},"
          f" {args.battles} per pair and side): {w} won, {l} lost, {d} drawn; wins {w / n:.1%},"
          f" share {(w + 0.5 * d) / n:.1%} [{low:.1%}-{high:.1%}]; {turns / n:.1f} turns; {took:.0f} s")
    for fid, (fw, fl, fd) in each.items():
        print(f"  {fid} ({args.level}): {fw} won, {fl} lost, {fd} drawn")


if __name__ == "__main__":
    main()
