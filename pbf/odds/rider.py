"""``pbf odds`` for the rider game: exact chances of one order, from the state before the turn.

What is computed, and how each number follows pbf/systems/rider/resolver.py (docs/odds.md):

* the move (２：移動フェイズ): the mover's and the blocker's 運動性 checks, ☆ rule, how many bands;
* the player's attack on each possible target (５–７): the weapon the resolver would take at each
  band, the 攻撃力 pool less 2 dice per 隙狙い point, トリックベント, 無手 −1; the target's evasion
  by the pool the resolver picks (and by each pool it may choose); damage
  (attack − evasion) + 1D6 + weapon − 防御力 (less what 隙狙い ignores), its median, mean and the
  chance to bring the target to 0 HP; an アドベント's monster attack on top;
* each opponent's attack on the player, as the player's order answers it (受け, the evasion pool,
  超回避 N and its threshold, 庇う −1 for the fighter covered);
* the 隙狙い N and 超回避 N tables: every choice's expected damage.

What the player cannot see is assumed, and the output says so: the opponents' orders of this turn
are the defaults (they block a move, stay, attack with what they hold now, no 隙狙い, no 超回避, no
受動 card), never read from the campaign.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..dice import Dice
from ..systems.base import copy_state
from ..systems.rider import cards as fx
from ..systems.rider.action import Action
from ..systems.rider.data import BANDS
from ..systems.rider.initiative import STARTING_BANDS, is_multi
from ..systems.rider.orders import RiderOrder
from ..systems.rider.resolver import Battle
from . import dice_math as dm

SUPER_MAX = 3  # 超回避 N: 1–3 (pbf/systems/rider/checks.py)


def _num(x: Any) -> float:
    return float(x)


# -- one attack against one defender: the exact distribution --------------------------------------

def strike(att_n: int, att_mod: int, eva_n: int, eva_bonus: int, weapon_damage: int, defense: int, hp: int,
           exact: bool = False, super_n: int = 0, threshold: int = 0, floor: int = 2,
           second_defense: int | None = None, second_hp: int | None = None) -> dict[str, Any]:
    """One attack roll against one evasion roll, then the damage (resolver.defend / hit).

    ``super_n``: the defender's 超回避 (paid only when the attack's achievement is above
    ``floor`` and at least ``threshold``; never to 0 HP). ``defense``: 防御力 less what 隙狙い
    ignores. Returns hit, the damage distribution (capped at the HP left), HP paid, 0-HP chance;
    ``second_*``: a second fighter hit by the same roll (庇う: both take the damage)."""
    attack = dm.pool(att_n, att_mod, exact)
    die = dm.damage_die(exact)
    zero = dm._one(exact) * 0
    diffs: dict[tuple[int, int], Any] = {}
    hit = zero
    paid_mean = zero
    for a, pa in attack.items():
        paid = 0
        if super_n and a > floor and a >= threshold:
            paid = max(0, min(super_n, hp - 1))
        paid_mean += pa * paid
        evasion = dm.pool(eva_n, eva_bonus + paid, exact)
        for e, pe in evasion.items():
            if e < a:
                p = pa * pe
                hit += p
                key = (paid, a - e)
                diffs[key] = diffs.get(key, zero) + p
    damage = dm.Dist()
    loss = dm.Dist()
    other = dm.Dist()
    for (paid, diff), p in diffs.items():
        for d, pd in die.items():
            raw = diff + d + weapon_damage
            amount = min(max(0, raw - defense), hp - paid)
            damage[amount] = damage.get(amount, zero) + p * pd
            loss[paid + amount] = loss.get(paid + amount, zero) + p * pd
            if second_defense is not None:
                amount2 = min(max(0, raw - second_defense), second_hp)
                other[amount2] = other.get(amount2, zero) + p * pd
    missed = 1 - hit
    damage[0] = damage.get(0, zero) + missed
    lost = attack.lost + dm.EPSILON * 2
    damage.lost = lost
    out = {"hit": hit, "damage": damage, "paid": paid_mean, "ko": loss.at_least(hp), "lost": lost}
    if second_defense is not None:
        other[0] = other.get(0, zero) + missed
        out["second"] = other
        out["second_ko"] = other.at_least(second_hp)
    return out


def mix(parts: list[tuple[Any, dm.Dist]], exact: bool = False) -> dm.Dist:
    """A mixture of distributions, each with its weight."""
    zero = dm._one(exact) * 0
    out = dm.Dist()
    for weight, dist in parts:
        for v, p in dist.items():
            out[v] = out.get(v, zero) + weight * p
    out.lost = sum(_num(w) * d.lost for w, d in parts)
    return out


def add(first: dm.Dist, second: dm.Dist, cap: int, exact: bool = False) -> dm.Dist:
    zero = dm._one(exact) * 0
    out = dm.Dist()
    for a, pa in first.items():
        for b, pb in second.items():
            v = min(cap, a + b)
            out[v] = out.get(v, zero) + pa * pb
    out.lost = first.lost + second.lost
    return out


# -- the battle as the player sees it -------------------------------------------------------------

class Scene:
    """The state before the turn, with the player's order and everyone else's default order."""

    def __init__(self, state: dict[str, Any], ctx: Any, player: str, order: RiderOrder, exact: bool = False):
        self.ctx = ctx
        self.data = ctx.data
        self.player = player
        self.order = order
        self.exact = exact
        self.state = state
        self.teams = {n: (p.team if n in ctx.players else None) for n, p in ctx.players.items()}
        self.teams.update({n: None for n in state["fighters"] if n not in self.teams})
        self.multi = is_multi(state)
        self.orders = {n: RiderOrder() for n in state["fighters"]}
        self.orders[player] = order
        from ..systems.rider import RiderSystem

        # ガードベント's invented armor: on only where the resolver has it (rules version 3, or the option)
        self.armor = RiderSystem().armor_on(ctx)
        self.before = self._battle(copy_state(state))
        self.after, self.act, self.card = self._card_phase()

    def _battle(self, st: dict[str, Any]) -> Battle:
        from ..systems.rider import RiderSystem

        return Battle(st, self.data, self.orders, Dice.fixed([]), self.teams, rules=RiderSystem().rules(self.ctx),
                      armor=self.armor)

    @property
    def me(self) -> dict[str, Any]:
        return self.state["fighters"][self.player]

    def opponents(self) -> list[str]:
        return self.before.opponents_now(self.player) if self.state.get("initiative") else [
            n for n, f in self.state["fighters"].items()
            if n != self.player and f["alive"] and not self.before.ally(self.player, n)]

    def first(self) -> bool:
        order = [n for n in self.state.get("initiative") or [] if self.state["fighters"][n]["alive"]]
        return not order or order[0] == self.player

    def before_them(self, other: str) -> bool:
        """Whether the player acts before ``other`` this turn (initiative): then ``other`` meets
        the player's card of this turn and the band the player's move ends at."""
        order = list(self.state.get("initiative") or [])
        if self.player not in order or other not in order:
            return True
        return order.index(self.player) < order.index(other)

    def _card_phase(self) -> tuple[Battle, Action, str | None]:
        """The player's 能動 card played (its effects on a copy of the state, by the resolver's
        own ``apply``); no 受動 card answers it (unknown)."""
        battle = self._battle(copy_state(self.state))
        opps = self.opponents()
        act = Action(self.player, opps[0] if opps else self.player)
        card = self.order.card
        if card is not None and not battle.card_usable(self.player, card):
            card = None
        act.active = card
        if card is not None and not fx.has(self.data, card, "unblockable_move"):
            battle.apply(self.player, act.target, card, act)
        return battle, act, card

    # -- ２：移動 --------------------------------------------------------------------------------
    def move(self) -> dict[str, Any] | None:
        order = self.order
        opps = self.opponents()
        if order.move == "stay" or self.multi or not opps:
            return None
        start = self.state.get("distance")
        if start is None:
            return None
        target = opps[0]
        goal = {"closer": "近", "away": "遠"}.get(order.move, order.move)
        here, there = BANDS.index(start), BANDS.index(goal)
        one = dm._one(self.exact)
        if here == there:
            return {"from": start, "goal": goal, "bands": {start: one}, "steps": {0: one}, "success": one,
                    "contest": False, "star": False}
        if self.card is not None and fx.has(self.data, self.card, "unblockable_move"):
            steps = abs(there - here)
            return {"from": start, "goal": goal, "bands": {goal: one}, "steps": {steps: one}, "success": one,
                    "contest": False, "star": False, "unblockable": True}
        me, them = self.before.f(self.player), self.before.f(target)
        bonus_a, bonus_t = fx.move_bonus(self.data, me), fx.move_bonus(self.data, them)
        n_a, n_t = fx.pool(self.data, me, "mobility"), fx.pool(self.data, them, "mobility")
        mover, blocker = dm.pool(n_a, bonus_a, self.exact), dm.pool(n_t, bonus_t, self.exact)
        star = bonus_a > 0 or bonus_t > 0
        zero = one * 0
        steps: dict[int, Any] = {}
        for m, pm in mover.items():
            for b, pb in blocker.items():
                diff = m - b
                s = (0 if diff < 0 else (1 if diff <= 1 else 2)) if star else max(0, diff)
                s = min(s, abs(there - here))
                steps[s] = steps.get(s, zero) + pm * pb
        bands: dict[str, Any] = {}
        for s, p in steps.items():
            band = BANDS[here + s * (1 if there > here else -1)]
            bands[band] = bands.get(band, zero) + p
        return {"from": start, "goal": goal, "bands": bands, "steps": dict(sorted(steps.items())),
                "success": sum(p for s, p in steps.items() if s > 0), "contest": True, "star": star,
                "mover_dice": n_a, "mover_bonus": bonus_a, "blocker": target, "blocker_dice": n_t,
                "blocker_bonus": bonus_t}

    def bands_now(self, move: dict[str, Any] | None) -> dict[str, Any]:
        """Where the player attacks from: after the move (one on one); each band a 1D6 gives (multi)."""
        one = dm._one(self.exact)
        if self.multi:
            return {band: one * sum(1 for b in STARTING_BANDS.values() if b == band) / 6 for band in BANDS}
        if move is not None:
            return move["bands"]
        start = self.state.get("distance")
        return {start: one} if start else {band: one * sum(1 for b in STARTING_BANDS.values() if b == band) / 6
                                            for band in BANDS}

    # -- ５–７：the player's attack ------------------------------------------------------------------
    def attack_on(self, target: str, band: str, aim: int | None = None) -> dict[str, Any] | None:
        """The player's attack on ``target`` at ``band`` (None: no attack can be made there)."""
        battle, order = self.after, self.order
        if order.hold and self.act.final is None:
            return None
        weapon = battle.weapon(self.player, band, self.act.final)
        if weapon is None:
            return None
        me = battle.f(self.player)
        want = order.aim if aim is None else aim
        n = fx.pool(self.data, me, "attack") + weapon.extra_dice
        used = 0 if weapon.final else min(want, max(0, (n - 1) // 2))
        n -= 2 * used
        modifier = fx.trick(me, "attack") + weapon.modifier
        out = self._against(target, n, modifier, weapon.damage, used, battle)
        out.update({"weapon": weapon.name or weapon.kind, "weapon_kind": weapon.kind, "band": band, "dice": n,
                    "modifier": modifier, "aim": used, "weapon_damage": weapon.damage, "max_aim": 0 if weapon.final
                    else max(0, (fx.pool(self.data, me, "attack") + weapon.extra_dice - 1) // 2)})
        if self.act.advent:
            monster = battle.contract_weapon(self.player)
            if monster is not None and fx.in_range(monster.reach, band):
                out["advent"] = self._advent(target, monster, out, battle)
        return out

    def _against(self, target: str, n: int, modifier: int, weapon_damage: int, aim: int, battle: Battle,
                 trick_gone: bool = False) -> dict[str, Any]:
        t = battle.f(target)
        options = fx.evasion_options(self.data, t)
        choice = max(options, key=lambda o: (fx.pool(self.data, t, o), -options.index(o)))
        defense = fx.stat(self.data, t, "defense") + (fx.armor(self.data, t) if self.armor else 0)
        eva_bonus = 0 if trick_gone else fx.trick(t, "evasion")
        rows = {}
        for option in options:
            rows[option] = strike(n, modifier, fx.pool(self.data, t, option), eva_bonus, weapon_damage,
                                  defense - min(aim, defense), t["hp"], self.exact)
        main = rows[choice]
        return {"target": target, "evasion": choice, "evasion_dice": fx.pool(self.data, t, choice),
                "evasion_bonus": eva_bonus, "defense": defense, "hp": t["hp"], **main,
                "by_evasion": {o: r["hit"] for o, r in rows.items()}}

    def _advent(self, target: str, monster: Any, first: dict[str, Any], battle: Battle) -> dict[str, Any]:
        """The contract monster's attack after the player's (its own 攻撃力, no 隙狙い); a
        target's トリックベント ends if the first attack did damage."""
        t = battle.f(target)
        keep = self._against(target, monster.dice, 0, monster.damage, 0, battle)
        if fx.trick(t, "evasion"):
            gone = self._against(target, monster.dice, 0, monster.damage, 0, battle, trick_gone=True)
            p_hurt = 1 - first["damage"].get(0, 0)
            second = mix([(1 - p_hurt, keep["damage"]), (p_hurt, gone["damage"])], self.exact)
        else:
            second = keep["damage"]
        total = add(first["damage"], second, t["hp"], self.exact)
        return {"weapon": monster.name or monster.kind, "attacker": monster.attacker, "dice": monster.dice,
                "hit": keep["hit"], "damage": second, "total": total, "ko": total.at_least(t["hp"])}

    # -- an opponent's attack on the player ------------------------------------------------------------
    def attack_by(self, attacker: str, band: str, super_n: int | None = None) -> dict[str, Any] | None:
        battle = self.after if self.before_them(attacker) else self.before
        a = battle.f(attacker)
        if a.get("alive") is False:
            return None
        weapon = battle.weapon(attacker, band, None)
        if weapon is None:
            return None
        n = fx.pool(self.data, a, "attack") + weapon.extra_dice
        modifier = fx.trick(a, "attack") + weapon.modifier
        me = battle.f(self.player)  # the player's card of this turn, once played, stays (vent, trick)
        order = self.order if super_n is None else replace(self.order, super_evasion=super_n)
        options = fx.evasion_options(self.data, me)
        if order.parry and "attack" in options:
            choice = "attack"
        elif order.evasion in options:
            choice = order.evasion
        else:
            usable = [o for o in options if not (o == "attack" and order.super_evasion)]
            choice = max(usable, key=lambda o: (fx.pool(self.data, me, o), -usable.index(o)))
        floor = 2 + fx.trick(me, "evasion")
        paying = order.super_evasion if choice != "attack" else 0
        defense = fx.stat(self.data, me, "defense") + (fx.armor(self.data, me) if self.armor else 0)
        out = strike(n, modifier, fx.pool(self.data, me, choice), fx.trick(me, "evasion"), weapon.damage, defense,
                     me["hp"], self.exact, paying, order.super_threshold, floor)
        out.update({"attacker": attacker, "weapon": weapon.name or weapon.kind, "weapon_kind": weapon.kind,
                    "band": band, "dice": n, "modifier": modifier, "evasion": choice,
                    "evasion_dice": fx.pool(self.data, me, choice), "super": paying,
                    "threshold": order.super_threshold})
        return out

    def cover_against(self, attacker: str, band: str) -> dict[str, Any] | None:
        """庇う NAME (three or more): the player evades for NAME at −1 (受け or 防御力), both hit."""
        covered = self.order.cover
        if not covered or covered not in self.state["fighters"]:
            return None
        me = (self.after if self.before_them(attacker) else self.before).f(self.player)
        if not fx.has(self.data, me.get("vent"), "cover"):
            return {"covered": covered, "attacker": attacker, "refused": "no_vent"}
        battle = self.after if self.before_them(attacker) else self.before
        a = battle.f(attacker)
        weapon = battle.weapon(attacker, band, None)
        if weapon is None:
            return None
        options = [o for o in fx.evasion_options(self.data, me) if o != "mobility"]
        if self.order.parry and "attack" in options:
            choice = "attack"
        elif self.order.evasion in options:
            choice = self.order.evasion
        else:
            choice = max(options, key=lambda o: (fx.pool(self.data, me, o), -options.index(o)))
        other = battle.f(covered)
        n = fx.pool(self.data, a, "attack") + weapon.extra_dice
        modifier = fx.trick(a, "attack") + weapon.modifier
        mine = fx.stat(self.data, me, "defense") + (fx.armor(self.data, me) if self.armor else 0)
        theirs = fx.stat(self.data, other, "defense") + (fx.armor(self.data, other) if self.armor else 0)
        out = strike(n, modifier, fx.pool(self.data, me, choice), fx.trick(me, "evasion") - 1, weapon.damage, mine,
                     me["hp"], self.exact, second_defense=theirs, second_hp=other["hp"])
        out.update({"covered": covered, "attacker": attacker, "band": band, "evasion": choice,
                    "evasion_dice": fx.pool(self.data, me, choice), "weapon": weapon.name or weapon.kind})
        return out


def _summary(dist: dm.Dist) -> dict[str, Any]:
    return {"mean": dist.mean(), "median": dist.median()}


def _mixed_attack(scene: Scene, target: str, bands: dict[str, Any], aim: int | None = None) -> dict[str, Any] | None:
    """The player's attack on ``target`` over the bands they may attack from."""
    parts, hit, ko, rows = [], 0, 0, []
    reach = 0
    for band, p in bands.items():
        row = scene.attack_on(target, band, aim)
        if row is None:
            continue
        reach += p
        total = row["advent"]["total"] if "advent" in row else row["damage"]
        parts.append((p, total))
        hit += p * row["hit"]
        ko += p * (row["advent"]["ko"] if "advent" in row else row["ko"])
        rows.append((p, row))
    if not rows:
        return None
    dist = mix(parts, scene.exact)
    zero_weight = 1 - reach
    if zero_weight:
        dist[0] = dist.get(0, 0) + zero_weight
    return {"target": target, "reach": reach, "hit": hit, "ko": ko, "damage": dist, **_summary(dist),
            "rows": rows}


def odds(state: dict[str, Any], ctx: Any, player: str, order: RiderOrder, exact: bool = False) -> dict[str, Any]:
    """Everything ``pbf odds`` prints for a rider order, as data (probabilities: Fraction with
    ``exact``, float otherwise)."""
    scene = Scene(state, ctx, player, order, exact)
    move = scene.move()
    bands = scene.bands_now(move)
    attacks = []
    listed = [n for n in order.targets if n in scene.opponents()]  # 攻撃: NAME, NAME first, in its order
    ordered = listed + [n for n in scene.opponents() if n not in listed]
    for target in ordered:
        row = _mixed_attack(scene, target, bands)
        if row is not None:
            attacks.append(row)
    aim_table = []
    if attacks and not order.hold:
        first = attacks[0]
        top = max(r["max_aim"] for _, r in first["rows"])
        if top > 0:
            for n in range(0, top + 1):
                row = _mixed_attack(scene, first["target"], bands, aim=n)
                aim_table.append({"aim": n, "target": first["target"], "hit": row["hit"], "mean": row["mean"],
                                  "ko": row["ko"]})
    # the opponents' attacks on the player: from the band the player's move ends at when the player
    # acts first (three or more: a band rolled for the action, a third each)
    defense, super_table, cover = [], [], []
    me = state["fighters"][player]
    for attacker in scene.opponents():
        later = scene.before_them(attacker) or scene.multi
        their_bands = bands if later else {state.get("distance"): dm._one(exact)}
        rows = [(p, scene.attack_by(attacker, band)) for band, p in their_bands.items() if band]
        rows = [(p, r) for p, r in rows if r is not None]
        if rows:
            dist = mix([(p, r["damage"]) for p, r in rows], exact)
            reach = sum(p for p, _ in rows)
            if 1 - reach:
                dist[0] = dist.get(0, 0) + (1 - reach)
            defense.append({"attacker": attacker, "reach": reach, "hit": sum(p * r["hit"] for p, r in rows),
                            "ko": sum(p * r["ko"] for p, r in rows), "paid": sum(p * r["paid"] for p, r in rows),
                            "damage": dist, **_summary(dist), "rows": rows})
        if scene.multi and order.cover:
            for band, p in their_bands.items():
                c = scene.cover_against(attacker, band)
                if c is not None:
                    cover.append((p, c))
    if defense and not order.parry:
        top = min(SUPER_MAX, me["hp"] - 1)
        for n in range(0, top + 1):
            hit = ko = paid = mean = 0
            # the first opponent's attack (one on one: the only one)
            first = defense[0]
            for p, r in first["rows"]:
                again = scene.attack_by(first["attacker"], r["band"], super_n=n)
                hit += p * again["hit"]
                ko += p * again["ko"]
                paid += p * again["paid"]
                mean += p * again["damage"].mean()
            super_table.append({"super": n, "attacker": first["attacker"], "threshold": order.super_threshold,
                                "hit": hit, "paid": paid, "damage": mean, "loss": paid + mean, "ko": ko})
    return {"system": "rider", "player": player, "multi": scene.multi, "first": scene.first(),
            "card": scene.card, "card_skipped": order.card is not None and scene.card is None,
            "move": move, "bands": bands, "attacks": attacks, "aim_table": aim_table, "defense": defense,
            "super_table": super_table, "cover": cover, "lost": max([1e-12] + [
                float(r["damage"].lost) for r in attacks + defense])}
