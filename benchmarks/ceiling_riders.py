"""The ceiling of the rider game's NPC against ``random`` in the riders' mirror battles
(docs/npc.md, "The ceiling against random", the riders). benchmarks/ceiling.py solves the
monsters' mirrors exactly; a rider's duel is too large for that, and this script prints what is
known instead:

* ``--space``: the size of the exact model. A rider's state holds its HP, the count left of
  each card of its deck, the card vented in, トリックベント's bonus (while it lasts) and, through the
  deck, ファイナルベント and サバイブ spent; a duel's state is both riders', the band, who acts
  first and the turn. Printed per rider: the states of one side, of a duel at one turn, and the
  legal orders (pbf/systems/rider/legal.py) of each side at the battle's start — which `random`
  draws from uniformly and the optimum is taken over.
* ``--cardless``: the exact ceiling of a smaller game, the riders' mirror with both decks empty
  (each rider with its visor only, HP as pbf balance gives it): then a rider is a monster of
  pbf/systems/rider/mdp.py (攻撃力/防御力/運動性, weapon 近 +0, no ☆), its legal orders are a
  monster's (the move, 隙狙い, 超回避), and the MDP is solved exactly as the monsters' are.
  ``--check N`` plays its optimal orders through the real resolver against the real ``random``
  from pbf balance's start with both decks emptied (the model's test against the code).
* ``--level L --battles N``: a lower bound of the real ceiling, achieved by a policy: level L
  (normal, hard) against the real ``random`` through the real resolver in each rider's mirror,
  N battles a rider (L as A and as B, half each; seeds ``ceiling-riders:RIDER:k``, as pbf
  balance plays them: a 40-turn battle is a draw, half a win), each with its 95% Wilson interval
  (``--start K``: battles K… for new seeds).
* ``--hybrid --battles N``: another lower bound, on the same seeds: ``normal``'s order, except
  when it plays no card and random has no card left to play — then the cardless optimum's move,
  隙狙い and 超回避.
* ``--cardless --real N``: the cardless optimum in the real mirror, playing no card of its own
  against random's full deck (what the cards are worth).

    python benchmarks/ceiling_riders.py --space --cardless --check 2000
    python benchmarks/ceiling_riders.py --level normal --battles 200 --jobs 2
    python benchmarks/ceiling_riders.py --level hard --battles 60 --start 60
    python benchmarks/ceiling_riders.py --hybrid --battles 200
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from math import prod
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbf import balance  # noqa: E402
from pbf.dice import Dice  # noqa: E402
from pbf.systems import get_system  # noqa: E402
from pbf.systems.rider import cards as fx  # noqa: E402
from pbf.systems.rider.legal import legal_orders  # noqa: E402
from pbf.systems.rider.mdp import BANDS, TURNS, Solved, rider_without_cards  # noqa: E402
from ceiling import play  # noqa: E402  (the same battles against random, benchmarks/ceiling.py)

RIDERS = ("jinshu", "ryuki", "knight", "zolda", "theta")


def start(rid: str, seed: str = "ceiling-riders"):
    system = get_system("rider")
    data = system.load_data(None)
    ctx = balance.context(system, data, rid, rid)
    return system, data, ctx, system.new_state(ctx, Dice.seeded(seed, 0, ""))


def space(rid: str) -> dict:
    """The exact model's size for one rider's mirror (an upper count: every combination)."""
    system, data, ctx, st = start(rid)
    f = st["fighters"]["A"]
    deck = f["deck"]
    decks = prod(n + 1 for n in deck.values())
    vents = 1 + sum(1 for c in deck if data.cards[c].get("vent"))
    trick = 2 if any(fx.has(data, c, "trick") for c in deck) else 1
    side = decks * vents * trick * int(f["hp"])
    return {"hp": int(f["hp"]), "decks": decks, "vents": vents, "trick": trick, "side": side,
            "duel": side * side * len(BANDS) * 2, "orders": len(legal_orders(st, "A", data)),
            "orders_random": len(legal_orders(st, "B", data))}


def cardless_check(solved: Solved, rid: str, battles: int, empty: bool = True) -> tuple[int, int, int]:
    """The cardless optimum (as A or B, half each) against the real random through the real
    resolver, from pbf balance's start with both decks emptied (``empty``), or in the real
    mirror (``empty`` False: both decks full; the NPC plays no card, random plays its own)."""
    return play(solved, rid, battles, f"ceiling-riders-{'cardless' if empty else 'real'}:{rid}", empty=empty)


def one(job: tuple) -> tuple[str, int]:
    """One battle of ``level`` against random in a rider's mirror: (rider, 2 won / 1 drawn / 0 lost)."""
    rid, level, k = job
    system = get_system("rider")
    data = system.load_data(None)
    ctx = balance.context(system, data, rid, rid)
    me, op = ("A", "B") if k % 2 == 0 else ("B", "A")
    winner, _ = balance.battle(system, ctx, f"ceiling-riders:{rid}:{k}", {me: level, op: "random"})
    return rid, 2 if winner == me else (0 if winner == op else 1)


_SOLVED: dict[str, Solved] = {}


def hybrid(job: tuple) -> tuple[str, int]:
    """One battle of the hybrid against random in a rider's mirror (the seeds of ``one``):
    ``normal``'s order, except when it plays no card and random has no card left to play —
    then the cardless optimum's move, 隙狙い and 超回避 (the model ignores a weapon vented in)."""
    from pbf.npc import decide
    from pbf.systems.rider.orders import RiderOrder
    from pbf.turn.orders import canonical_orders_of

    rid, k = job
    system = get_system("rider")
    data = system.load_data(None)
    ctx = balance.context(system, data, rid, rid)
    seed = f"ceiling-riders:{rid}:{k}"
    me, op = ("A", "B") if k % 2 == 0 else ("B", "A")
    state = system.new_state(ctx, Dice.seeded(seed, 0, ""))
    state.setdefault("turn", 0)
    solved = _SOLVED.get(rid)
    if solved is None:
        hp = int(state["fighters"][me]["hp"])
        solved = _SOLVED[rid] = Solved(rider_without_cards(data, rid, hp), rider_without_cards(data, rid, hp))
    first = 0 if state["initiative"][0] == me else 1
    while state.get("winner") is None and state["turn"] < TURNS:
        orders = {}
        for name in (me, op):
            d = decide(system, ctx, state, seed, name, "normal" if name == me else "random")
            orders[name] = system.parse_order(d.text, name, state, ctx)
        mine = orders[me]
        spent = all(o.card is None and not o.passive for o in legal_orders(state, op, data))
        if spent and mine.card is None and not mine.passive:
            f = state["fighters"]
            move, aim, sup = solved.order(state["turn"], first, min(f[me]["hp"], solved.hm), min(f[op]["hp"], solved.ho),
                                          BANDS.index(state["distance"]))
            orders[me] = RiderOrder(move=move, aim=aim, super_evasion=sup)
        dice = Dice.seeded(seed, state["turn"] + 1, canonical_orders_of(system, ctx, orders))
        state, _ = system.resolve(state, orders, dice, ctx)
    w = state.get("winner")
    return rid, 2 if w == me else (0 if w == op else 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--riders", help="ids, comma-separated (default: the five shipped riders)")
    ap.add_argument("--space", action="store_true", help="the exact model's size")
    ap.add_argument("--cardless", action="store_true", help="the exact ceiling of the mirror with both decks empty")
    ap.add_argument("--check", type=int, default=0, help="battles of the cardless optimum through the resolver")
    ap.add_argument("--real", type=int, default=0,
                    help="battles of the cardless optimum (no card played) in the real mirror (a lower bound)")
    ap.add_argument("--level", help="a level played against random through the resolver (a lower bound)")
    ap.add_argument("--hybrid", action="store_true", help="with --battles: normal, and the cardless optimum"
                    " once random's cards are spent (a lower bound)")
    ap.add_argument("--battles", type=int, default=100, help="battles a rider for --level")
    ap.add_argument("--start", type=int, default=0, help="the first battle's number k (more battles, new seeds)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    ids = args.riders.split(",") if args.riders else list(RIDERS)
    data = get_system("rider").load_data(None)
    if args.space:
        for rid in ids:
            s = space(rid)
            print(f"{rid}: HP {s['hp']}, {s['decks']} decks left x {s['vents']} vents x {s['trick']} trick x HP"
                  f" = {s['side']:,} states a side; a duel at one turn (x band x who is first) {s['duel']:,};"
                  f" legal orders at the start {s['orders']} (random's {s['orders_random']})", flush=True)
    if args.cardless:
        for rid in ids:
            t0 = time.perf_counter()
            hp = space(rid)["hp"]
            solved = Solved(rider_without_cards(data, rid, hp), rider_without_cards(data, rid, hp))
            print(f"{rid} with both decks empty: optimal against random {solved.start():.1%} (acting first"
                  f" {solved.start(0):.1%}, second {solved.start(1):.1%}; solved in {time.perf_counter() - t0:.1f} s)",
                  flush=True)
            if args.check:
                t0 = time.perf_counter()
                w, l, d = cardless_check(solved, rid, args.check)
                n = w + l + d
                lo, hi = balance.wilson(w + 0.5 * d, n)
                print(f"   check: {n} battles through the resolver against the real random: {w} won, {l} lost,"
                      f" {d} drawn; share {(w + 0.5 * d) / n:.1%} [{lo:.1%}-{hi:.1%}] ({time.perf_counter() - t0:.0f} s)",
                      flush=True)
            if args.real:
                t0 = time.perf_counter()
                w, l, d = cardless_check(solved, rid, args.real, empty=False)
                n = w + l + d
                lo, hi = balance.wilson(w + 0.5 * d, n)
                print(f"   in the real mirror (no card played; random plays its deck): {w} won, {l} lost,"
                      f" {d} drawn of {n}; share {(w + 0.5 * d) / n:.1%} [{lo:.1%}-{hi:.1%}]"
                      f" ({time.perf_counter() - t0:.0f} s)", flush=True)
    if args.level or args.hybrid:
        t0 = time.perf_counter()
        name = "the hybrid" if args.hybrid else args.level
        if args.hybrid:
            jobs, run = [(rid, k) for rid in ids for k in range(args.start, args.start + args.battles)], hybrid
        else:
            jobs, run = [(rid, args.level, k) for rid in ids for k in range(args.start, args.start + args.battles)], one
        score: dict[str, list[int]] = {rid: [0, 0, 0] for rid in ids}  # won, drawn, lost
        with ProcessPoolExecutor(args.jobs) as pool:
            for rid, r in pool.map(run, jobs, chunksize=4):
                score[rid][{2: 0, 1: 1, 0: 2}[r]] += 1
        tw = td = tn = 0
        for rid in ids:
            w, d, l = score[rid]
            n = w + d + l
            lo, hi = balance.wilson(w + 0.5 * d, n)
            tw, td, tn = tw + w, td + d, tn + n
            print(f"{rid}: {name} against random: {w} won, {l} lost, {d} drawn of {n};"
                  f" share {(w + 0.5 * d) / n:.1%} [{lo:.1%}-{hi:.1%}]")
        lo, hi = balance.wilson(tw + 0.5 * td, tn)
        print(f"all: share {(tw + 0.5 * td) / tn:.1%} [{lo:.1%}-{hi:.1%}] of {tn} ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
