"""The monsters' duel against ``random`` as a Markov decision process, solved exactly
(docs/npc.md, "The ceiling against random"; benchmarks/ceiling.py prints its figures).

A monster's only choices are the move, 隙狙い and 超回避 (legal.py), and a duel's state that
matters is both HPs, the distance band, who acts first (fixed for the battle) and the turn. One
action is a distribution over (the band after it, the HP the target loses), from the exact
distributions of the checks (pbf.odds.dice_math) and the resolver's rules; a turn is the first
fighter's action then the second's; ``random`` plays each of its legal orders with the same
chance. Backward induction over the turns left gives the largest chance to win (a draw after
``TURNS`` turns as half) and the order that reaches it. Used by the setting
``RiderModel.table`` (off: tried, not kept) and by benchmarks/ceiling.py; ``rider_without_cards``
makes a rider with an empty deck one of its fighters (benchmarks/ceiling_riders.py).
"""

from __future__ import annotations

from ...odds import dice_math

BANDS = ("近", "中", "遠")
MOVES = ("stay", "closer", "away")
TURNS = 40  # pbf balance's limit (pbf.balance.MAX_TURNS): a battle still going is a draw


def dist(n: int, bonus: int = 0) -> list[tuple[int, float]]:
    return sorted(dice_math.pool(n, bonus).items())


class Fighter:
    """A monster's numbers (the sheet; no cards, no trick, no サバイブ)."""

    def __init__(self, data, mid: str):
        m = data.monsters[mid]
        self.id, self.name = mid, m.get("name", mid)
        self.attack, self.defense, self.mobility, self.hp = int(m["attack"]), int(m["defense"]), int(m["mobility"]), int(m["hp"])
        w = m.get("weapon") or {}
        lo, hi = w.get("range", ["近", "近"])
        self.reach = (BANDS.index(lo), BANDS.index(hi))
        self.damage = int(w.get("damage", 0))
        self.bonus = sum(int(data.traits.get(t, {}).get("move_bonus", 0)) for t in m.get("traits", []) or [])
        self.aims = [a for a in range(4) if a == 0 or self.attack - 2 * a >= 1]

    def orders(self, hp: int) -> list[tuple[str, int, int]]:
        """(move, 隙狙い, 超回避) in legal_orders' own order (the legal orders of a monster)."""
        return [(m, a, s) for m in MOVES for a in self.aims for s in (0, 1, 2) if s == 0 or hp - s >= 1]


def rider_without_cards(data, rid: str, hp: int) -> Fighter:
    """A rider whose deck is empty, and nothing vented, as a Fighter: its legal orders are a
    monster's (the move, 隙狙い, 超回避: legal.py with no card held), its attack its visor's (its
    range and damage; no ☆). The riders' mirror with both decks empty is solved with it
    (benchmarks/ceiling_riders.py, docs/npc.md "The ceiling against random")."""
    r = data.riders[rid]
    visor = r.get("visor")
    if not visor:
        raise ValueError(f"{rid}: no visor (無手's −1 to the achievement is not in the model)")
    me = Fighter.__new__(Fighter)
    me.id, me.name = rid, r.get("name", rid)
    me.attack, me.defense, me.mobility, me.hp = int(r["attack"]), int(r["defense"]), int(r["mobility"]), int(hp)
    lo, hi = visor.get("range", ["近", "近"])
    me.reach, me.damage = (BANDS.index(lo), BANDS.index(hi)), int(visor.get("damage", 0))
    me.bonus = 0
    me.aims = [a for a in range(4) if a == 0 or me.attack - 2 * a >= 1]
    return me


Sparse = list[tuple[int, int, float]]  # (band after, HP lost by the target, probability)


def action_table(actor: Fighter, target: Fighter, cap: int) -> dict[tuple[str, int, int], list[Sparse]]:
    """(move, 隙狙い, the target's 超回避) -> for each band before: the action's outcomes."""
    out = {}
    mover, blocker = dist(actor.mobility, actor.bonus), dist(target.mobility, target.bonus)
    star = actor.bonus > 0 or target.bonus > 0
    for move in MOVES:
        for aim in actor.aims:
            for sup in (0, 1, 2):
                rows = []
                for here in range(3):
                    goal = {"stay": here, "closer": 0, "away": 2}[move]
                    ends: dict[int, float] = {}
                    if goal == here:
                        ends[here] = 1.0
                    else:  # 阻止する (the default): the movement contest
                        for va, pa in mover:
                            for vb, pb in blocker:
                                diff = va - vb
                                steps = (0 if diff < 0 else (1 if diff <= 1 else 2)) if star else max(0, diff)
                                steps = min(steps, abs(goal - here))
                                end = here + steps * (1 if goal > here else -1)
                                ends[end] = ends.get(end, 0.0) + pa * pb
                    row: dict[tuple[int, int], float] = {}
                    for end, pe in ends.items():
                        for loss, pl in attack_losses(actor, target, aim, sup, end, cap).items():
                            row[(end, loss)] = row.get((end, loss), 0.0) + pe * pl
                    rows.append([(e, l, p) for (e, l), p in sorted(row.items())])
                out[(move, aim, sup)] = rows
    return out


_LOSSES: dict = {}


def attack_losses(actor: Fighter, target: Fighter, aim: int, sup: int, band: int, cap: int) -> dict[int, float]:
    """The HP the target loses to the actor's attack at ``band`` (超回避 paid plus damage, capped)."""
    key = (id(actor), id(target), aim, sup, band, cap)
    if key in _LOSSES:
        return _LOSSES[key]
    out: dict[int, float] = {}
    if not actor.reach[0] <= band <= actor.reach[1]:  # 射程外への攻撃は一切出来ません
        out[0] = 1.0
    else:
        n = actor.attack
        used = min(aim, max(0, (n - 1) // 2))
        n -= 2 * used
        armour = target.defense - min(used, target.defense)
        for va, pa in dist(n):
            paid = sup if (sup and va > 2) else 0  # never paid when the attack cannot hit (every die >= 2)
            for ve, pe in dist(target.mobility, paid):
                if va > ve:  # ties go to the defender
                    for r, pr in dist(1):
                        loss = min(cap, paid + max(0, va - ve + r + actor.damage - armour))
                        out[loss] = out.get(loss, 0.0) + pa * pe * pr
                else:
                    out[paid] = out.get(paid, 0.0) + pa * pe
    _LOSSES[key] = out
    return out


def merged(tables: list[list[Sparse]]) -> list[Sparse]:
    """The sum of several actions' outcomes (band by band)."""
    rows = []
    for here in range(3):
        row: dict[tuple[int, int], float] = {}
        for t in tables:
            for e, l, p in t[here]:
                row[(e, l)] = row.get((e, l), 0.0) + p
        rows.append([(e, l, p) for (e, l), p in sorted(row.items())])
    return rows


def legal_sups(hp: int) -> int:
    """How many 超回避 choices (none, 1, 2) are legal at ``hp``."""
    return 1 + (hp >= 2) + (hp >= 3)


class Solved:
    """The backward induction: value[(t, first)][hm][ho][band] (hm, ho: the NPC's and random's HP;
    first 0: the NPC acts first) and the optimal order, an index into Fighter.orders(99)."""

    def __init__(self, me: Fighter, op: Fighter):
        self.me, self.op = me, op
        self.cap = max(me.hp, op.hp) + 1
        self.mine = action_table(me, op, self.cap)  # the NPC acting, random defending
        self.theirs = action_table(op, me, self.cap)
        self.all_me = me.orders(99)
        self.all_op = op.orders(99)
        self.hm, self.ho = me.hp, op.hp
        # random's orders are every (move, 隙狙い) with every legal 超回避: sums over its moves
        self.op_moves = [(m, a) for m in MOVES for a in op.aims]
        self.me_moves = [(m, a) for m in MOVES for a in me.aims]
        self.theirs_any = {s: merged([self.theirs[(m, a, s)] for m, a in self.op_moves]) for s in (0, 1, 2)}
        self.mine_upto = {(m, a, k): merged([self.mine[(m, a, s)] for s in range(k)])
                          for m, a in self.me_moves for k in (1, 2, 3)}
        self.value: dict[tuple[int, int], list] = {}
        self.best: dict[tuple[int, int], list] = {}
        self.q: dict[tuple[int, int], list] = {}
        self.solve()

    def grid(self, fill: float = 0.0) -> list:
        return [[[fill] * 3 for _ in range(self.ho + 1)] for _ in range(self.hm + 1)]

    def q_values(self, v: list, first: int) -> list:
        """Q[a][hm][ho][band]: the NPC's order a (index into all_me) against random's legal
        orders (each with the same chance), the value after the turn being ``v``."""
        hm_n, ho_n, nmoves = self.hm, self.ho, len(self.op_moves)
        q = [self.grid() for _ in self.all_me]
        if first == 0:  # the NPC acts (random's 超回避), then random (the NPC's 超回避)
            z = {}
            for sa in (0, 1, 2):  # z: after the NPC's action, summed over random's moves
                rows = self.theirs_any[sa]
                g = self.grid()
                for hm in range(1, hm_n + 1):
                    vh = v
                    for ho in range(1, ho_n + 1):
                        cell = g[hm][ho]
                        for b1 in range(3):
                            s = 0.0
                            for e, l, p in rows[b1]:
                                if hm - l >= 1:
                                    s += p * vh[hm - l][ho][e]
                            cell[b1] = s
                z[sa] = g
            for i, (ma, aa, sa) in enumerate(self.all_me):
                zs = z[sa]
                qi = q[i]
                for ho in range(1, ho_n + 1):
                    k = legal_sups(ho)
                    rows = self.mine_upto[(ma, aa, k)]
                    norm = 1.0 / (nmoves * k)
                    for band in range(3):
                        row = rows[band]
                        for hm in range(1, hm_n + 1):
                            s = 0.0
                            for e, l, p in row:
                                s += p * (nmoves if ho - l <= 0 else zs[hm][ho - l][e])
                            qi[hm][ho][band] = s * norm
        else:  # random acts (the NPC's 超回避), then the NPC (random's 超回避, legal at its HP)
            z = {}
            for ma, aa in self.me_moves:
                g = self.grid()
                for ho in range(1, ho_n + 1):
                    rows = self.mine_upto[(ma, aa, legal_sups(ho))]
                    for hm in range(1, hm_n + 1):
                        cell = g[hm][ho]
                        for b1 in range(3):
                            s = 0.0
                            for e, l, p in rows[b1]:
                                s += p * (1.0 if ho - l <= 0 else v[hm][ho - l][e])
                            cell[b1] = s
                z[(ma, aa)] = g
            for i, (ma, aa, sa) in enumerate(self.all_me):
                zs = z[(ma, aa)]
                rows = self.theirs_any[sa]
                qi = q[i]
                for ho in range(1, ho_n + 1):
                    norm = 1.0 / (nmoves * legal_sups(ho))
                    for band in range(3):
                        row = rows[band]
                        for hm in range(1, hm_n + 1):
                            s = 0.0
                            for e, l, p in row:
                                if hm - l >= 1:
                                    s += p * zs[hm - l][ho][e]
                            qi[hm][ho][band] = s * norm
        return q

    def legal_me(self, hm: int) -> list[int]:
        return [i for i, (_, _, s) in enumerate(self.all_me) if s == 0 or hm - s >= 1]

    def solve(self) -> None:
        for first in (0, 1):
            v = self.grid(0.5)  # after turn 40: a draw
            for t in range(TURNS - 1, -1, -1):  # t turns played before this one
                q = self.q_values(v, first)
                nv, best = self.grid(), self.grid()
                for hm in range(1, self.hm + 1):
                    legal = self.legal_me(hm)
                    for ho in range(1, self.ho + 1):
                        for band in range(3):
                            i = max(legal, key=lambda i: q[i][hm][ho][band])
                            best[hm][ho][band] = i
                            nv[hm][ho][band] = q[i][hm][ho][band]
                self.q[(t, first)] = q if t == 0 else None
                self.best[(t, first)] = best
                self.value[(t, first)] = nv
                v = nv

    def start(self, first: int | None = None) -> float:
        """From the battle's start: who acts first half each (or ``first``), the band a third each."""
        firsts = (0, 1) if first is None else (first,)
        cells = [self.value[(0, f)][self.hm][self.ho][b] for f in firsts for b in range(3)]
        return sum(cells) / len(cells)

    def order(self, t: int, first: int, hm: int, ho: int, band: int) -> tuple[str, int, int]:
        return self.all_me[self.best[(t, first)][hm][ho][band]]
