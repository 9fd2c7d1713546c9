"""The ceiling of the rider game's NPC against ``random`` in the monsters' mirror battles
(docs/npc.md, "The ceiling against random"). The model and its solution are
pbf/systems/rider/mdp.py; this script prints their figures and checks them against the code.

A monster's only choices are the move, 隙狙い and 超回避 (pbf/systems/rider/legal.py), and its
state is small: both HPs, the distance band, who acts first (fixed for the battle: a mirror's
initiative is a tie rolled once) and the turn (a battle still going after 40 turns is a draw,
counted as half, as benchmarks/strength.py and pbf balance count it). Against ``random`` (a legal
order drawn uniformly, whatever the state) the battle is a Markov decision process; this script
solves it exactly:

* one *action* (the seed's steps 2–7: the actor's move, contested by the default 阻止する; its
  attack at the band reached, if in range; the target's 超回避 and evasion; the damage) is a
  distribution over (the band after it, the HP the target loses: 超回避 paid plus damage),
  computed from the exact distributions of the checks (pbf.odds.dice_math, the ones pbf odds
  uses: cut where less than 1e-12 is left), with the resolver's rules (the ☆ rule of a flier,
  隙狙い's dice, 超回避 paid only against an attack that can hit, ties to the defender);
* a turn is the first fighter's action, then (if the other is still standing) the second's;
  random's order is each of its legal orders with the same chance (fewer 超回避 at 1–2 HP);
* backward induction over the 40 turns gives the largest chance to win (a draw as half) and the
  order that reaches it, for every state and turn.

The figure printed is that largest share from the battle's start, averaged over who acts first
(half each) and the starting band (a third each). ``--check N`` then plays N seeded battles of
the optimal policy against the real ``random`` (pbf.npc.decide) through the real resolver and
prints their share with its 95% interval, which must contain the computed figure (the model's
test against the code it models). ``--normal K`` evaluates ``normal``'s own policy on the same
model: its order sampled K times (seeds of its own) in every state with both at HP ≥ 1 at turn 1
(its search does not read the turn), and prints the chance to win it reaches and the states where
its orders lose most against the optimal ones.

    python benchmarks/ceiling.py                       # every monster
    python benchmarks/ceiling.py --monsters blade_wolf --check 2000 --normal 3
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbf import balance  # noqa: E402
from pbf.dice import Dice  # noqa: E402
from pbf.systems import get_system  # noqa: E402
from pbf.systems.rider.mdp import BANDS, TURNS, Fighter, Solved  # noqa: E402
from pbf.systems.rider.orders import RiderOrder  # noqa: E402

def rider_order(o: tuple[str, int, int]) -> RiderOrder:
    move, aim, sup = o
    return RiderOrder(move=move, aim=aim, super_evasion=sup)


def check(solved: Solved, battles: int) -> tuple[int, int, int]:
    """The optimal policy (as A or B, half each) against the real random, through the real
    resolver from pbf balance's own start (initiative and band rolled)."""
    return play(solved, solved.me.id, battles, f"ceiling:{solved.me.id}")


def play(solved: Solved, fighter: str, battles: int, seed: str, empty: bool = False) -> tuple[int, int, int]:
    """``solved``'s orders for ``fighter``'s mirror (as A or B, half each) against the real random,
    through the real resolver from pbf balance's start, battle k seeded ``{seed}:{k}``; with
    ``empty``, both decks emptied first (benchmarks/ceiling_riders.py). (won, lost, drawn)."""
    from pbf.npc import decide
    from pbf.turn.orders import canonical_orders_of

    system = get_system("rider")
    data = system.load_data(None)
    ctx = balance.context(system, data, fighter, fighter)
    won = lost = drawn = 0
    for k in range(battles):
        me, op = ("A", "B") if k % 2 == 0 else ("B", "A")
        battle_seed = f"{seed}:{k}"
        state = system.new_state(ctx, Dice.seeded(battle_seed, 0, ""))
        state.setdefault("turn", 0)
        if empty:
            for f in state["fighters"].values():
                f["deck"] = {c: 0 for c in f["deck"]}
                f["vent"] = None
        first = 0 if state["initiative"][0] == me else 1
        while state.get("winner") is None and state["turn"] < TURNS:
            f = state["fighters"]
            mine = rider_order(solved.order(state["turn"], first, f[me]["hp"], f[op]["hp"],
                                            BANDS.index(state["distance"])))
            orders = {me: mine, op: decide(system, ctx, state, battle_seed, op, "random").order}
            dice = Dice.seeded(battle_seed, state["turn"] + 1, canonical_orders_of(system, ctx, orders))
            state, _ = system.resolve(state, orders, dice, ctx)
        w = state.get("winner")
        won += w == me
        lost += w == op
        drawn += w not in (me, op)
    return won, lost, drawn


def check_actions(solved: Solved, samples: int) -> tuple[float, int, str]:
    """Each action of the model (band, move, 隙狙い, the target's 超回避) against ``samples`` actions
    of the real resolver (pbf/systems/rider/resolver.py's Battle.action, its own dice): the
    largest difference of a probability of (band after, HP lost) in standard errors of the
    sample (of some thousands of cells, the largest of which is near 3.5 by chance alone), how
    many cells, and where."""
    from pbf.systems.rider.resolver import Battle

    system = get_system("rider")
    data = system.load_data(None)
    mid = solved.me.id
    ctx = balance.context(system, data, mid, mid)
    base = system.new_state(ctx, Dice.seeded("ceiling-actions", 0, ""))
    worst, where, cells = 0.0, "", 0
    for (move, aim, sup), rows in solved.mine.items():
        for band in range(3):
            counts: dict[tuple[int, int], int] = {}
            for k in range(samples):
                st = {**base, "fighters": {n: dict(f) for n, f in base["fighters"].items()},
                      "distance": BANDS[band], "winner": None}
                st["fighters"]["B"]["hp"] = 99
                orders = {"A": RiderOrder(move=move, aim=aim), "B": RiderOrder(super_evasion=sup)}
                battle = Battle(st, data, orders, Dice.seeded(f"ceiling-actions:{move}:{aim}:{sup}:{band}", k, ""), {})
                battle.action("A", "B", True)
                key = (BANDS.index(st["distance"]), min(solved.cap, 99 - st["fighters"]["B"]["hp"]))
                counts[key] = counts.get(key, 0) + 1
            model = {(e, l): p for e, l, p in rows[band]}
            for key in set(model) | set(counts):
                p = model.get(key, 0.0)
                gap = abs(p - counts.get(key, 0) / samples)
                z = gap / math.sqrt(max(p * (1 - p), 1.0 / samples) / samples)  # in standard errors
                cells += 1
                if z > worst:
                    worst, where = z, (f"{BANDS[band]} {move} 隙狙い{aim} 超回避{sup}, (band, loss) {key}:"
                                       f" {p:.4f} against {counts.get(key, 0) / samples:.4f}")
    return worst, cells, where


def normal_policy(solved: Solved, samples: int) -> tuple[float, list]:
    """normal's orders sampled ``samples`` times (seeds of their own) in every state with both at
    HP >= 1 after turn 0 (the search does not read the turn), then evaluated on the model: the
    share it reaches from the start, and the states where its choice loses most at turn 1."""
    from pbf.npc import decide

    system = get_system("rider")
    data = system.load_data(None)
    mid = solved.me.id
    ctx = balance.context(system, data, mid, mid)
    base = system.new_state(ctx, Dice.seeded("ceiling-normal", 0, ""))
    base["turn"] = 0
    freq: dict[tuple[int, int, int, int], list[float]] = {}
    index = {o: i for i, o in enumerate(solved.all_me)}
    for first in (0, 1):
        for hm in range(1, solved.hm + 1):
            for ho in range(1, solved.ho + 1):
                for band in range(3):
                    st = {**base, "fighters": {n: dict(f) for n, f in base["fighters"].items()}}
                    st["initiative"] = ["A", "B"] if first == 0 else ["B", "A"]
                    st["distance"] = BANDS[band]
                    st["fighters"]["A"]["hp"], st["fighters"]["B"]["hp"] = hm, ho
                    counts = [0.0] * len(solved.all_me)
                    for s in range(samples):
                        o = decide(system, ctx, st, f"ceiling-normal:{s}", "A", "normal").order
                        counts[index[(o.move, o.aim, o.super_evasion)]] += 1.0 / samples
                    freq[(first, hm, ho, band)] = counts
    losses = []
    total = 0.0
    for first in (0, 1):
        v = solved.grid(0.5)
        for t in range(TURNS - 1, -1, -1):
            q = solved.q_values(v, first)
            nv = solved.grid()
            for (f, hm, ho, band), p in freq.items():
                if f != first:
                    continue
                nv[hm][ho][band] = sum(x * q[i][hm][ho][band] for i, x in enumerate(p) if x)
                if t == 0:
                    best = max(q[i][hm][ho][band] for i in solved.legal_me(hm))
                    losses.append((best - nv[hm][ho][band], first, hm, ho, BANDS[band],
                                   solved.order(0, first, hm, ho, band),
                                   [(solved.all_me[i], round(x, 2)) for i, x in enumerate(p) if x]))
            v = nv
        total += sum(v[solved.hm][solved.ho][b] for b in range(3)) / 6
    losses.sort(reverse=True)
    return total, losses


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--monsters", help="ids, comma-separated (default: every monster)")
    ap.add_argument("--check", type=int, default=0, help="battles of the optimal policy through the real resolver")
    ap.add_argument("--actions", type=int, default=0, help="samples of each action through the real resolver")
    ap.add_argument("--normal", type=int, default=0, help="samples of normal's order per state (0: not evaluated)")
    ap.add_argument("--policy", action="store_true", help="print the optimal orders at full HP and a few others")
    args = ap.parse_args()
    system = get_system("rider")
    data = system.load_data(None)
    ids = args.monsters.split(",") if args.monsters else list(data.monsters)
    for mid in ids:
        t0 = time.perf_counter()
        me = Fighter(data, mid)
        solved = Solved(me, Fighter(data, mid))
        took = time.perf_counter() - t0
        line = (f"{mid} ({me.name}, HP {me.hp}, 攻{me.attack}防{me.defense}運{me.mobility}): optimal against random"
                f" {solved.start():.1%}  (acting first {solved.start(0):.1%}, second {solved.start(1):.1%};"
                f" solved in {took:.1f} s)")
        print(line, flush=True)
        if args.policy:
            for first in (0, 1):
                for band in range(3):
                    print(f"   {'first ' if first == 0 else 'second'} {BANDS[band]} full HP:",
                          solved.order(0, first, me.hp, me.hp, band))
        if args.check:
            t0 = time.perf_counter()
            w, l, d = check(solved, args.check)
            n = w + l + d
            lo, hi = balance.wilson(w + 0.5 * d, n)
            print(f"   check: {n} battles through the resolver against the real random: {w} won, {l} lost,"
                  f" {d} drawn; share {(w + 0.5 * d) / n:.1%} [{lo:.1%}-{hi:.1%}] ({time.perf_counter() - t0:.0f} s)",
                  flush=True)
        if args.actions:
            t0 = time.perf_counter()
            worst, cells, where = check_actions(solved, args.actions)
            print(f"   actions: each of {len(solved.mine) * 3} against {args.actions} of the resolver's: the largest"
                  f" of {cells} differences is {worst:.1f} standard errors ({where}; {time.perf_counter() - t0:.0f} s)",
                  flush=True)
        if args.normal:
            t0 = time.perf_counter()
            share, losses = normal_policy(solved, args.normal)
            print(f"   normal's policy ({args.normal} samples a state) on the model: {share:.1%}"
                  f" ({time.perf_counter() - t0:.0f} s); its largest losses against the optimal order:")
            for gap, first, hm, ho, band, best, mix in losses[:8]:
                print(f"     -{gap:.3f} {'first ' if first == 0 else 'second'} HP {hm}/{ho} {band}: optimal {best},"
                      f" normal {mix}")


if __name__ == "__main__":
    main()
