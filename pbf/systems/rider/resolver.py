"""The rider battle resolver (seed: ■戦闘): pure, all chance from the Dice passed in.

One turn follows the seed's 14 steps. An *action* is steps 2–7 with one fighter acting and
one reacting; a 1-on-1 turn is the first player's action then the second's. Distance,
target choice and each step are separate functions so that battles of three or more
(the seed's 複数人による戦闘) can reuse them with per-pair distances.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ...dice import Dice
from ...errors import PbfError
from ..base import Context
from . import cards as fx
from . import dice as rd
from .data import BANDS, RiderData
from .events import (ActionStarted, AttackDeclared, Cancelled, CardPlayed, CardSkipped, Damaged, DistanceSet,
                     Drawn, EvasionDeclared, EventFinal, Hit, InitiativeSet, KnockedOut, MoveDeclared, Moved,
                     NoAttack, Reflected, StatusChanged, TurnStarted, VentedIn, Whiffed, Won)
from .orders import RiderOrder

STARTING_BANDS = {1: "近", 2: "近", 3: "中", 4: "中", 5: "遠", 6: "遠"}


# -- distances (1 on 1: one band; kept behind two functions for multi-battles) ----------------

def get_distance(st: dict[str, Any], a: str, b: str) -> str | None:
    return st.get("distance")


def set_distance(st: dict[str, Any], a: str, b: str, band: str) -> None:
    st["distance"] = band


def opponents(st: dict[str, Any], actor: str) -> list[str]:
    """Who the actor acts against this action. 1 on 1: the other fighter."""
    return [n for n, f in st["fighters"].items() if n != actor and f["alive"]]


@dataclass
class Weapon:
    """What an attack is made with."""

    kind: str  # card id | visor | unarmed | monster | contract
    name: str | None
    reach: list[str]
    damage: int = 0
    extra_dice: int = 0
    modifier: int = 0  # to the achievement (無手 -1)
    attacker: str = ""  # the name shown (a contract monster attacks for its rider)
    dice: int | None = None  # a contract monster's own 攻撃力
    final: bool = False


@dataclass
class Action:
    """Flags that live for one action (steps 2–7)."""

    actor: str
    target: str
    active: str | None = None
    cancelled: bool = False
    advent: bool = False
    final: str | None = None
    reflect: bool = False


@dataclass
class Battle:
    st: dict[str, Any]
    data: RiderData
    orders: dict[str, RiderOrder]
    dice: Dice
    events: list[Any] = field(default_factory=list)

    # -- helpers -------------------------------------------------------------------------
    def f(self, name: str) -> dict[str, Any]:
        return self.st["fighters"][name]

    def card_usable(self, name: str, card: str | None) -> bool:
        fighter = self.f(name)
        if card is None or fighter.get("kind") == "monster":
            return False
        return fighter["deck"].get(card, 0) > 0 and card not in fighter["used_once"]

    def spend(self, name: str, card: str, phase: str, condition: str | None = None) -> None:
        fighter = self.f(name)
        fighter["deck"][card] -= 1
        if self.data.cards[card].get("once_per_battle"):
            fighter["used_once"].append(card)
        cond_name = None
        if condition == "attack":
            cond_name = "攻撃"
        elif condition is not None:
            cond_name = self.data.card_name(condition)
        self.events.append(CardPlayed(name, card, self.data.card_name(card), phase, condition, cond_name,
                                      fighter["deck"][card]))

    # -- １：イニシアティブ (once per battle, at the start of turn 1) ----------------------------
    def initiative(self) -> None:
        names = [n for n, f in self.st["fighters"].items() if f["alive"]]
        mobility = {n: fx.stat(self.data, self.f(n), "mobility") for n in names}
        rolled = len(set(mobility.values())) < len(mobility)
        order: list[str] = []
        for value in sorted(set(mobility.values()), reverse=True):
            order.extend(self.break_tie([n for n in names if mobility[n] == value]))
        self.st["initiative"] = order
        self.events.append(InitiativeSet(order[0], order, mobility, rolled))
        # the fighter with the initiative rolls the starting distance (初ターンのみ位置決め)
        roll = rd.plain(self.dice, order[0], "distance")
        self.events.append(roll)
        band = STARTING_BANDS[roll.value]
        for other in order[1:]:
            set_distance(self.st, order[0], other, band)
        self.events.append(DistanceSet(order[0], band, roll.value))

    def break_tie(self, tied: list[str]) -> list[str]:
        """同じ運動性: 1D6 each, higher first, again on a tie."""
        if len(tied) == 1:
            return tied
        faces: dict[str, int] = {}
        for name in tied:
            roll = rd.plain(self.dice, name, "initiative")
            self.events.append(roll)
            faces[name] = roll.value
        out: list[str] = []
        for value in sorted(set(faces.values()), reverse=True):
            out.extend(self.break_tie([n for n in tied if faces[n] == value]))
        return out

    # -- one action: steps 2–7 (and 8–13 with the roles swapped) ------------------------------
    def action(self, actor: str, target: str, first: bool) -> None:
        self.events.append(ActionStarted(actor, target, first))
        order = self.orders[actor]
        act = Action(actor, target)
        card = order.card
        if card is not None and not self.card_usable(actor, card):
            self.events.append(CardSkipped(actor, card, self.data.card_name(card), "used_up"))
            card = None
        act.active = card
        # ムーブベント is played with the move it frees (ruling: before 移動フェイズ)
        move_card = card is not None and fx.has(self.data, card, "unblockable_move")
        if move_card:
            self.spend(actor, card, "active")
        self.movement(actor, target, unblockable=move_card)          # ２：移動フェイズ
        if card is not None and not move_card:                      # ３：能動カード使用フェイズ
            self.spend(actor, card, "active")
        passive = self.passive_card(target, act)                     # ４：受動カード使用フェイズ
        if passive is not None and fx.has(self.data, passive, "confine") and card is not None and not move_card:
            act.cancelled = True
            self.events.append(Cancelled(target, actor, card, self.data.card_name(card)))
        if card is not None and not move_card and not act.cancelled:
            self.apply(actor, target, card, act)
        if passive is not None:
            self.apply(target, actor, passive, act)
        self.attacks(act)                                            # ５–７：攻撃・回避・ダメージ

    # -- ２：移動フェイズ ---------------------------------------------------------------------
    def movement(self, actor: str, target: str, unblockable: bool) -> None:
        intent = self.orders[actor].move
        if intent == "stay":
            return
        start = get_distance(self.st, actor, target)
        goal = {"closer": "近", "away": "遠"}.get(intent, intent)
        here, there = BANDS.index(start), BANDS.index(goal)
        if here == there:
            self.events.append(Moved(actor, target, intent, start, start, "none", False))
            return
        blocked = self.orders[target].block and not unblockable
        self.events.append(MoveDeclared(actor, target, intent, blocked, unblockable))
        if not blocked:  # 阻止しない: the mover goes where they want
            self.events.append(Moved(actor, target, intent, start, goal, "none", False))
            set_distance(self.st, actor, target, goal)
            return
        bonus_a = fx.move_bonus(self.data, self.f(actor))
        bonus_t = fx.move_bonus(self.data, self.f(target))
        mover = rd.pool(self.dice, actor, "move", fx.pool(self.data, self.f(actor), "mobility"), bonus_a)
        self.events.append(mover)
        blocker = rd.pool(self.dice, target, "block", fx.pool(self.data, self.f(target), "mobility"), bonus_t)
        self.events.append(blocker)
        diff = mover.achievement - blocker.achievement
        star = bonus_a > 0 or bonus_t > 0
        if star:  # ☆ 移動達成値が＋される場合: tie or +1 → 1 band, +2 or more → up to 2
            steps = 0 if diff < 0 else (1 if diff <= 1 else 2)
        else:  # the mover wins only if strictly higher; moves up to the difference
            steps = max(0, diff)
        steps = min(steps, abs(there - here))
        end = BANDS[here + steps * (1 if there > here else -1)]
        contest = "lost" if steps == 0 else ("bonus_tie" if diff == 0 else "won")
        self.events.append(Moved(actor, target, intent, start, end, contest, star, diff))
        set_distance(self.st, actor, target, end)

    # -- ４：受動カード使用フェイズ: the first matching standing order --------------------------------
    def passive_card(self, reactor: str, act: Action) -> str | None:
        order = self.orders[act.actor]
        attacking = not order.hold or (act.active is not None and (
            fx.has(self.data, act.active, "final") or fx.has(self.data, act.active, "advent")))
        for rule in self.orders[reactor].passive:
            if rule.condition is None:
                matched = True
            elif rule.condition == "attack":
                matched = attacking
            else:
                matched = act.active == rule.condition
            if not matched:
                continue
            if not self.card_usable(reactor, rule.card):
                self.events.append(CardSkipped(reactor, rule.card, self.data.card_name(rule.card), "used_up"))
                continue
            self.spend(reactor, rule.card, "passive", rule.condition)
            return rule.card
        return None

    # -- a card's effect (the primitives of cards.py) ---------------------------------------------
    def apply(self, user: str, other: str, card: str, act: Action) -> None:
        eff = fx.effects(self.data, card)
        fighter = self.f(user)
        name = self.data.card_name(card)
        if self.data.cards[card].get("vent"):  # ベントイン: a new vent discards the old one
            old = fighter["vent"]
            fighter["vent"] = card
            self.events.append(VentedIn(user, card, name, old, self.data.card_name(old)))
        if "trick" in eff:
            fighter["trick"] = dict(eff["trick"])
            self.events.append(StatusChanged(user, "trick", None, name))
        if "nasty" in eff:
            n = int(eff["nasty"].get("dice", 1))
            self.f(other)["nasty"] = int(self.f(other).get("nasty", 0)) + n
            self.events.append(StatusChanged(user, "nasty", other, name, n))
        if "survive" in eff:
            fighter["survive"].append(card)
            self.events.append(StatusChanged(user, "survive", None, name))
        if "advent" in eff and user == act.actor:
            act.advent = True
        if "final" in eff and user == act.actor:
            act.final = card
        if "reflect" in eff and user == act.target:
            act.reflect = True

    # -- ５：攻撃判定 / ６：回避判定 / ７：ダメージ判定 --------------------------------------------
    def attacks(self, act: Action) -> None:
        actor, target = act.actor, act.target
        order = self.orders[actor]
        band = get_distance(self.st, actor, target)
        if order.hold and act.final is None:
            self.events.append(NoAttack(actor, target, "hold", actor, band))
        else:
            weapon = self.weapon(actor, band, act.final)
            if weapon is None:  # 射程外への攻撃は一切出来ません
                self.events.append(NoAttack(actor, target, "range", actor, band))
            else:
                aim = 0 if weapon.final else order.aim
                self.attack(actor, target, weapon, aim, main=True, act=act)
        if self.st["winner"] is not None or not act.advent:
            return
        weapon = self.contract_weapon(actor)
        if weapon is None:
            return
        if not fx.in_range(weapon.reach, band):
            self.events.append(NoAttack(actor, target, "range", weapon.attacker, band))
            return
        self.attack(actor, target, weapon, 0, main=False, act=act)

    def weapon(self, name: str, band: str, final: str | None) -> Weapon | None:
        """ファイナルベント, else the vented weapon in range, else the visor, else 無手 (近, −1)."""
        fighter = self.f(name)
        kind, sheet = self.data.character(fighter["character"])
        if final is not None:
            spec = fx.effects(self.data, final)["final"]
            reach = list(spec.get("range", ["近", "遠"]))
            if fx.in_range(reach, band):
                return Weapon(final, self.data.card_name(final), reach, int(spec.get("damage", 0)),
                              int(spec.get("attack_dice", 0)), 0, name, final=True)
            return None
        if kind == "monster":
            spec = sheet.get("weapon") or {}
            reach = list(spec.get("range", ["近", "近"]))
            if fx.in_range(reach, band):
                return Weapon("monster", spec.get("name"), reach, int(spec.get("damage", 0)), 0, 0, name)
            return None
        vent = fighter.get("vent")
        spec = fx.effects(self.data, vent).get("weapon")
        if spec and fx.in_range(spec["range"], band):
            bonus = fx.survive_bonus(self.data, fighter, "weapon_damage")
            return Weapon(vent, self.data.card_name(vent), list(spec["range"]), int(spec.get("damage", 0)) + bonus,
                          0, 0, name)
        visor = sheet.get("visor")
        if visor and fx.in_range(visor.get("range", ["近", "近"]), band):
            return Weapon("visor", None, list(visor.get("range", ["近", "近"])), int(visor.get("damage", 0)), 0, 0, name)
        if band == "近":  # まったくの無手: 射程 近, 攻撃達成値 −1
            return Weapon("unarmed", None, ["近", "近"], 0, 0, -1, name)
        return None

    def contract_weapon(self, name: str) -> Weapon | None:
        """アドベント: the contract monster attacks with its own 攻撃力, range and damage."""
        kind, sheet = self.data.character(self.f(name)["character"])
        monster_id = sheet.get("contract") if kind == "rider" else None
        if monster_id is None:
            return None
        monster = self.data.monsters[monster_id]
        spec = monster.get("weapon") or {}
        return Weapon("contract", spec.get("name"), list(spec.get("range", ["近", "近"])), int(spec.get("damage", 0)),
                      0, 0, monster.get("name", monster_id), dice=int(monster["attack"]))

    def attack(self, actor: str, target: str, weapon: Weapon, aim: int, main: bool, act: Action) -> None:
        a, t = self.f(actor), self.f(target)
        if weapon.dice is not None:
            n, modifier = weapon.dice, 0
        else:
            # 隙狙い: −2 dice per defence point ignored (validated: never below 1 die)
            n = max(1, fx.pool(self.data, a, "attack") + weapon.extra_dice - 2 * aim)
            modifier = fx.trick(a, "attack") + weapon.modifier
        self.events.append(AttackDeclared(actor, target, weapon.attacker, weapon.kind, weapon.name, n, aim, 2 * aim,
                                          modifier, weapon.damage))
        attack = rd.pool(self.dice, actor, "attack", n, modifier)
        if weapon.attacker != actor:
            attack.by = weapon.attacker
        self.events.append(attack)
        # ６：回避判定
        d_order = self.orders[target]
        options = fx.evasion_options(self.data, t)
        if d_order.parry and "attack" in options:
            choice = "attack"
        elif d_order.evasion in options:
            choice = d_order.evasion
        else:  # the larger pool (ties: 運動性, then 防御力); 受け not with 超回避
            usable = [o for o in options if not (o == "attack" and d_order.super_evasion)]
            choice = max(usable, key=lambda o: (fx.pool(self.data, t, o), -usable.index(o)))
        paid = 0
        if main and d_order.super_evasion and choice != "attack":
            paid = max(0, min(d_order.super_evasion, t["hp"] - 1))  # never to 0 HP
            if paid:
                self.hurt(target, target, paid)
        bonus = fx.trick(t, "evasion") + paid
        n_eva = fx.pool(self.data, t, choice)
        self.events.append(EvasionDeclared(target, weapon.attacker, choice, n_eva, paid, bonus))
        evasion = rd.pool(self.dice, target, "evasion", n_eva, bonus)
        self.events.append(evasion)
        # ７：ダメージ判定 (ties go to the defender)
        if attack.achievement > evasion.achievement:
            roll = rd.damage(self.dice, actor)
            if weapon.attacker != actor:
                roll.by = weapon.attacker
            self.events.append(roll)
            defense = fx.stat(self.data, t, "defense")
            ignored = min(aim, defense)
            amount = max(0, attack.achievement - evasion.achievement + roll.value + weapon.damage - (defense - ignored))
            self.events.append(Hit(actor, target, weapon.attacker, attack.achievement, evasion.achievement, roll.value,
                                   weapon.damage, defense, ignored, amount))
            if amount:
                self.hurt(actor, target, amount)
            return
        self.events.append(Whiffed(actor, target, weapon.attacker, attack.achievement, evasion.achievement))
        if main and act.reflect:  # リフレクトベント
            roll = rd.damage(self.dice, target, "reflect")
            self.events.append(roll)
            defense = fx.stat(self.data, a, "defense")
            amount = max(0, evasion.achievement - attack.achievement + roll.value - defense)
            self.events.append(Reflected(target, actor, attack.achievement, evasion.achievement, roll.value, defense,
                                         amount))
            if amount:
                self.hurt(target, actor, amount)

    def hurt(self, source: str, target: str, amount: int) -> None:
        fighter = self.f(target)
        amount = min(amount, fighter["hp"])
        fighter["hp"] -= amount
        self.events.append(Damaged(source, target, amount, fighter["hp"]))
        if source != target and fighter.get("trick"):  # トリックベント ends when its user takes damage
            fighter["trick"] = None
            self.events.append(StatusChanged(target, "trick_end"))
        if fighter["hp"] <= 0:  # ＨＰが０になった場合は、ライダーは死亡します
            fighter["alive"] = False
            self.events.append(KnockedOut(target, source))
            alive = [n for n, f in self.st["fighters"].items() if f["alive"]]
            if len(alive) <= 1:
                winner = alive[0] if alive else "draw"
                self.st["winner"] = winner
                self.events.append(Won(winner))
                text = self.orders[winner].event_final if winner in self.orders else None
                if text:  # イベントファイナル: the winner's flourish, no rules effect
                    self.events.append(EventFinal(winner, text))


def resolve(state: dict[str, Any], orders: dict[str, Any], dice: Dice, ctx: Context) -> tuple[dict[str, Any], list]:
    st = copy.deepcopy(state)
    if st.get("winner") is not None:
        raise PbfError("この戦闘はもう決着しています。 / the battle is over")
    data: RiderData = ctx.data
    plain_orders = {name: (orders.get(name) or RiderOrder()) for name in st["fighters"]}
    battle = Battle(st, data, plain_orders, dice)
    st["turn"] += 1
    battle.events.append(TurnStarted("", st["turn"], st.get("distance")))
    if not st["initiative"]:  # １：イニシアティブ（初ターンのみ位置決め）
        battle.initiative()
    for i, actor in enumerate(st["initiative"]):  # ２–７ 先攻, ８–13 後攻
        if st["winner"] is not None:
            break
        if not st["fighters"][actor]["alive"]:
            continue
        for target in opponents(st, actor)[:1]:  # 1 on 1 (multi-battles: choose per action)
            battle.action(actor, target, first=(i == 0))
    for fighter in st["fighters"].values():  # ナスティベント lasts until the end of the turn
        fighter["nasty"] = 0
    limit = int(ctx.options.get("turn_limit", 0) or 0)
    if st["winner"] is None and limit and st["turn"] >= limit:  # 14：ターン終了 / turn_limit → draw
        st["winner"] = "draw"
        battle.events.append(Drawn("", limit))
    return st, battle.events
