"""The rider game's NPC model (pbf.npc.search.Model; docs/npc.md).

Nothing of a rider is private, so the model sees what every player sees: the state. The
opponents' likely orders are their coarse orders (a move and a 能動 card, everything else at its
default), drawn uniformly; a turn is simulated with the resolver itself.
"""

from __future__ import annotations

from typing import Any

from ..base import Context
from . import cards as fx
from .data import BANDS
from .legal import legal_orders
from .orders import RiderOrder

WIN = 40.0  # a won battle against HP points
CARD = 0.8  # a card spent (it is gone for the rest of the battle)
FINAL = 2.5  # ファイナルベント, once a battle
_SOLVED: dict[tuple[str, str], Any] = {}  # the solved duels of the setting ``table``, per pair of monsters
K = 2.0  # the exponent of the chance to win from the HP left (value shape "odds")
POSITION = 0.5  # per point of the best attack that reaches the distance (mine minus theirs)


class RiderModel:
    spend: dict[str, dict[str, Any]] = {}  # search.LEVELS as they are
    shape = "linear"  # the value: "linear" (HP dealt minus taken, ±WIN) or "odds" (the chance to win)
    spread = "coarse"  # an opponent's likely order: a move and a card ("legal": any legal order)
    VENT = 0.0  # per point of the vented weapon's damage over the rider's own attack (mine minus theirs)
    HELD = 0.0  # a weapon held as a card reaches as far as one vented in, and this much weaker
    thresholds = False  # True: a searching level's 超回避 has a threshold (own, threshold; search version 3, tried, not kept)
    chase = False  # True: the fighter acting second keeps the move past the end of the field (_pointless; tried, not kept)
    table = False  # True: in a duel of two monsters, the order of the solved MDP against random (mdp.py; tried, not kept)
    keyed = False  # True: each check of a simulated turn draws from a stream of its own (search.KeyedDice; tried, not kept)

    def __init__(self, system: Any, ctx: Context):
        self.system = system
        self.ctx = ctx
        self.data = ctx.data
        self.teams = {n: p.team for n, p in ctx.players.items()}
        self._legal: dict[tuple[str, str], list[RiderOrder]] = {}
        self._coarse: dict[tuple[str, str, Any, int], list[RiderOrder]] = {}
        self._threat: dict[tuple, float] = {}

    def _key(self, state: dict[str, Any], name: str) -> str:
        f = state["fighters"][name]
        return repr((f["hp"], f.get("alive"), f.get("vent"), sorted((f.get("deck") or {}).items()),
                     f.get("used_once"), f.get("survive"), state.get("winner")))

    def legal(self, state: dict[str, Any], name: str) -> list[RiderOrder]:
        key = (name, self._key(state, name))
        kept = self._legal.get(key)
        if kept is None:
            if len(self._legal) > 4096:
                self._legal.clear()
            kept = self._legal[key] = legal_orders(state, name, self.data)
        return kept

    def own(self, state: dict[str, Any], name: str) -> list[RiderOrder]:
        """The orders a searching level chooses from: the legal ones; with ``thresholds`` (a
        setting, off: tried and not kept, docs/npc.md "Levels"), each 超回避 N paid only against
        an attack of at least its ``threshold``. ``random`` draws from ``legal``."""
        if not self.thresholds:
            return self.legal(state, name)
        key = (name, self._key(state, name), "own")
        kept = self._legal.get(key)
        if kept is None:
            f = state["fighters"][name]
            kept = self._legal[key] = legal_orders(state, name, self.data,
                                                   lambda evasion, n: self.threshold(f, evasion, n))
        return kept

    def threshold(self, fighter: dict[str, Any], evasion: str | None, n: int) -> int:
        """The least attack achievement 超回避 N is paid against: the median of the fighter's
        own evasion roll, plus N − 1. Against a weaker attack the evasion roll is likely to beat
        it anyway and the HP would be paid for nothing (measured at 近 against an attack of 4
        dice: 超回避 1 from 6 keeps about 0.2 HP a turn more than 超回避 1 against any attack)."""
        from ...odds import dice_math  # the exact distribution of a check (what pbf odds computes with)

        dice = fx.pool(self.data, fighter, "defense" if evasion == "defense" else "mobility")
        return dice_math.pool(dice, exact=True).median() + fx.trick(fighter, "evasion") + n - 1

    def solved(self, state: dict[str, Any], name: str) -> RiderOrder | None:
        """With ``table`` (a setting, off: tried and not kept, docs/npc.md "The ceiling against
        random"), in a duel of two monsters: the order that maximises the chance to win against
        ``random`` (pbf/systems/rider/mdp.py, solved once per pair of monsters); else None."""
        if not self.table or len(state["fighters"]) != 2 or state.get("winner") is not None:
            return None
        other = next(n for n in state["fighters"] if n != name)
        me, op = state["fighters"][name], state["fighters"][other]
        if me.get("kind") != "monster" or op.get("kind") != "monster" or state.get("distance") not in BANDS:
            return None
        from .mdp import TURNS, Fighter, Solved

        key = (me["character"], op["character"])
        solved = _SOLVED.get(key)
        if solved is None:
            solved = _SOLVED[key] = Solved(Fighter(self.data, key[0]), Fighter(self.data, key[1]))
        first = 0 if (state.get("initiative") or [name])[0] == name else 1
        turn = min(int(state.get("turn", 0)), TURNS - 1)
        move, aim, sup = solved.order(turn, first, min(me["hp"], solved.hm), min(op["hp"], solved.ho),
                                      BANDS.index(state["distance"]))
        return RiderOrder(move=move, aim=aim, super_evasion=sup)

    def coarse(self, state: dict[str, Any], name: str) -> list[RiderOrder]:
        """Each move with each 能動 card, the rest at its default; in a duel, not a move past the
        end of the field (近寄る at 近, 離れる at 遠)."""
        band = state.get("distance")
        pointless = self._pointless(state, name)
        key = (name, self._key(state, name), band, len(state["fighters"]), pointless)
        kept = self._coarse.get(key)
        if kept is None:
            if len(self._coarse) > 4096:
                self._coarse.clear()
            kept = self._coarse[key] = [o for o in self.legal(state, name) if not o.passive and not o.aim
                                        and not o.parry and not o.evasion and not o.super_evasion
                                        and o.move != pointless]
        return kept

    def useful(self, state: dict[str, Any], name: str) -> list[RiderOrder]:
        """The legal orders without a move past the end of the field (in a duel)."""
        pointless = self._pointless(state, name)
        return [o for o in self.own(state, name) if o.move != pointless]

    def _pointless(self, state: dict[str, Any], name: str) -> str | None:
        """In a duel, the move past the end of the field (近寄る at 近, 離れる at 遠). With ``chase``
        (a setting, off: tried and not kept) the fighter who acts second keeps it, since the
        other's move may change the distance before its own (近寄る at 近 follows an opponent who
        got away, and costs nothing when it did not: a move to where one already is rolls nothing)."""
        if len(state["fighters"]) != 2:
            return None
        initiative = state.get("initiative") or []
        if self.chase and (not initiative or initiative[0] != name):
            return None
        return {"近": "closer", "遠": "away"}.get(state.get("distance"))

    def variants(self, order: RiderOrder, state: dict[str, Any], name: str, legal: list[RiderOrder]) -> list[RiderOrder]:
        """The same move and card with one more thing changed: the 受動 card, 隙狙い, or the evasion
        (of the orders a searching level chooses from, ``own``)."""
        out = []
        for o in self.own(state, name):
            if o.move != order.move or o.card != order.card or o is order:
                continue
            changed = (o.passive != order.passive) + (o.aim != order.aim) + (
                (o.parry, o.evasion, o.super_evasion) != (order.parry, order.evasion, order.super_evasion))
            if changed == 1:
                out.append(o)
        return out

    def combine(self, base: RiderOrder, better: list[RiderOrder], legal: list[RiderOrder]) -> RiderOrder | None:
        """The order with each change of ``better`` (variants of ``base``) at once, when legal."""
        want = {"passive": base.passive, "aim": base.aim, "ev": (base.parry, base.evasion, base.super_evasion)}
        for o in better:
            if o.passive != base.passive:
                want["passive"] = o.passive
            if o.aim != base.aim:
                want["aim"] = o.aim
            if (o.parry, o.evasion, o.super_evasion) != want["ev"] and (o.parry, o.evasion, o.super_evasion) != (
                    base.parry, base.evasion, base.super_evasion):
                want["ev"] = (o.parry, o.evasion, o.super_evasion)
        for o in legal:
            if (o.move == base.move and o.card == base.card and o.passive == want["passive"] and o.aim == want["aim"]
                    and (o.parry, o.evasion, o.super_evasion) == want["ev"]):
                return o
        return None

    def others(self, state: dict[str, Any], name: str) -> list[str]:
        return [n for n, f in state["fighters"].items() if n != name and f.get("alive", True)]

    def likely(self, state: dict[str, Any], name: str, other: str, rng: Any) -> RiderOrder:
        pool = self.legal(state, other) if self.spread == "legal" else self.coarse(state, other)
        return pool[rng.below(len(pool))]

    def simulate(self, state: dict[str, Any], orders: dict[str, Any], rng: Any) -> dict[str, Any]:
        return self.system.resolve(state, orders, rng.keyed() if self.keyed else rng.dice(), self.ctx)[0]

    def _mine(self, winner: Any, name: str) -> bool:
        return winner == name or (self.teams.get(name) is not None and winner == self.teams.get(name))

    def dealt(self, before: dict[str, Any], after: dict[str, Any], name: str) -> float:
        return float(sum(max(0, f["hp"]) - max(0, after["fighters"][n]["hp"])
                         for n, f in before["fighters"].items() if n != name and not self._ally(name, n)))

    def _ally(self, name: str, other: str) -> bool:
        team = self.teams.get(name)
        return team is not None and self.teams.get(other) == team

    def threat(self, fighter: dict[str, Any], band: str) -> float:
        """The best damage ``fighter`` can reach ``band`` with next turn (a rough 3 + damage
        bonus): its vented weapon or visor, a weapon card or ファイナルベント held, its contract
        monster through アドベント; a monster's own attack."""
        key = (fighter["character"], fighter.get("vent"), tuple(sorted((fighter.get("deck") or {}).items())),
               tuple(fighter.get("used_once") or ()), band)
        kept = self._threat.get(key)
        if kept is None:
            if len(self._threat) > 4096:
                self._threat.clear()
            kept = self._threat[key] = self._reach(fighter, band)
        return kept

    def vented(self, fighter: dict[str, Any]) -> float:
        """How much harder the vented weapon strikes than the rider's own attack (its visor,
        or unarmed): 0 for a monster or nothing vented."""
        vent = fighter.get("vent")
        if not vent or fighter.get("kind") == "monster":
            return 0.0
        weapon = fx.effects(self.data, vent).get("weapon")
        if not weapon:
            return 0.0
        _, sheet = self.data.character(fighter["character"])
        own = int((sheet.get("visor") or {}).get("damage", -1)) if sheet.get("visor") else -1
        return max(0.0, float(int(weapon.get("damage", 0)) - own))

    def _reach(self, fighter: dict[str, Any], band: str) -> float:
        data = self.data
        kind, sheet = data.character(fighter["character"])
        sources: list[tuple[Any, float]] = []
        if kind == "monster":
            w = sheet.get("weapon") or {}
            sources.append((w.get("range", ["近", "近"]), int(w.get("damage", 0))))
        else:
            vent = fx.effects(data, fighter.get("vent")).get("weapon")
            visor = sheet.get("visor")
            if vent:
                sources.append((vent["range"], int(vent.get("damage", 0))))
            elif visor:
                sources.append((visor["range"], int(visor.get("damage", 0))))
            else:
                sources.append((["近", "近"], -1))
            for card, count in (fighter.get("deck") or {}).items():
                if count <= 0 or card in (fighter.get("used_once") or []):
                    continue
                e = fx.effects(data, card)
                if e.get("weapon"):
                    sources.append((e["weapon"]["range"], int(e["weapon"].get("damage", 0)) - self.HELD))
                if e.get("advent") and sheet.get("contract") in data.monsters:
                    w = data.monsters[sheet["contract"]].get("weapon") or {}
                    sources.append((w.get("range", ["近", "近"]), int(w.get("damage", 0)) - self.HELD))
        at = BANDS.index(band)
        best = 0.0
        for (lo, hi), bonus in sources:
            if BANDS.index(lo) <= at <= BANDS.index(hi):
                best = max(best, 3.0 + bonus)
        return best

    def chance(self, state: dict[str, Any], name: str) -> float:
        """A rough chance to win the battle from the HP left: h^K / (h^K + H^K), h this fighter's
        side's HP and H its opponents' (1 or 0 once the battle is decided)."""
        winner = state.get("winner")
        if winner is not None:
            return 0.5 if winner == "draw" else (1.0 if self._mine(winner, name) else 0.0)
        mine = theirs = 0.0
        for n, f in state["fighters"].items():
            hp = max(0, f["hp"]) if f.get("alive", True) else 0
            if n == name or self._ally(name, n):
                mine += hp
            else:
                theirs += hp
        if mine + theirs <= 0:
            return 0.5
        a, b = mine ** K, theirs ** K
        return a / (a + b)

    def value(self, before: dict[str, Any], after: dict[str, Any], name: str) -> float:
        me0, me1 = before["fighters"][name], after["fighters"][name]
        if self.shape == "odds":
            v = 2 * WIN * (self.chance(after, name) - self.chance(before, name))
        else:
            v = self.dealt(before, after, name) - (max(0, me0["hp"]) - max(0, me1["hp"]))
        band = after.get("distance")
        if band in BANDS and after.get("winner") is None:
            mine = self.threat(me1, band)
            theirs = max((self.threat(f, band) for n, f in after["fighters"].items()
                          if n != name and f.get("alive", True) and not self._ally(name, n)), default=0.0)
            v += POSITION * (mine - theirs)
            if self.VENT:  # a weapon vented in strikes harder every turn until it is replaced
                theirs = max((self.vented(f) for n, f in after["fighters"].items()
                              if n != name and f.get("alive", True) and not self._ally(name, n)), default=0.0)
                v += self.VENT * (self.vented(me1) - theirs)
        winner = after.get("winner")
        if winner is not None and winner != "draw" and self.shape != "odds":
            v += WIN if self._mine(winner, name) else -WIN
        for card, count in (me0.get("deck") or {}).items():
            spent = count - (me1.get("deck") or {}).get(card, 0)
            if spent > 0:
                v -= spent * (FINAL if card == "final_vent" else CARD)
        return v

