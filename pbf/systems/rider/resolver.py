"""The rider battle resolver (seed: ■戦闘, ▼複数人による戦闘): pure, all chance from the Dice.

One turn follows the seed's 14 steps. An *action* is steps 2–7 with one fighter acting and
one reacting; a 1-on-1 turn is the first player's action then the second's. The 複数人 steps
are in multi.py, the initiative in initiative.py.

A battle that starts with three or more fighters is a 複数人による戦闘 for its whole length:
each living fighter acts once per turn in initiative order; at the start of each action every
reacting fighter rolls 1D6 for its band to the actor (nothing is kept between actions); the
movement contest is against one named opponent; the attack picks one target per band of its
range; 受動 cards come in initiative order; 庇う lets a reacting rider evade for a target.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ...dice import Dice
from ...errors import PbfError
from ..base import Context, copy_state
from . import cards as fx
from . import dice as rd
from . import initiative as ini
from .action import Action, Weapon
from .checks import winner_word, winners
from .data import BANDS, RiderData
from .events import (ActionStarted, AttackDeclared, Cancelled, CardPlayed, CardSkipped, Damaged, DistanceSet, Drawn,
                     Epilogue, EvasionDeclared, EventFinal, Hit, InitiativeSet, KnockedOut, MoveDeclared, Moved,
                     NoAttack, PassiveIdle, Reflected, StatusChanged, TurnStarted, VentedIn, Whiffed, Won)
from .multi import MultiBattle
from .initiative import is_multi
from .orders import RiderOrder
from ...record import record


# -- distances (1 on 1: one band kept in the state) ---------------------------------------------

def get_distance(st: dict[str, Any], a: str, b: str) -> str | None:
    return st.get("distance")


def set_distance(st: dict[str, Any], a: str, b: str, band: str) -> None:
    st["distance"] = band


def opponents(st: dict[str, Any], actor: str) -> list[str]:
    """Who the actor acts against this action. 1 on 1: the other fighter."""
    return [n for n, f in st["fighters"].items() if n != actor and f["alive"]]


def side(teams: dict[str, str | None], name: str) -> str:
    """A fighter's side: its team, or itself (no team: every rider for themself)."""
    team = teams.get(name)
    return f"team:{team}" if team else f"solo:{name}"


@record
class Battle(MultiBattle):
    st: dict[str, Any]
    data: RiderData
    orders: dict[str, RiderOrder]
    dice: Dice
    teams: dict[str, str | None] = field(default_factory=dict)
    events: list[Any] = field(default_factory=list)
    bands: dict[str, str] = field(default_factory=dict)  # multi: reacting fighter -> band to the actor
    rules: int = 4  # the rules version (RiderSystem.rules): an archived turn keeps its version's rulings
    armor: bool = False  # ガードベント's invented armor (RiderSystem.armor_on: option guard_vent_armor)

    # -- helpers -------------------------------------------------------------------------
    def f(self, name: str) -> dict[str, Any]:
        return self.st["fighters"][name]

    @property
    def multi(self) -> bool:
        return is_multi(self.st)

    def distance(self, a: str, b: str) -> str | None:
        """The band between the actor and another fighter (multi: rolled for this action)."""
        if self.multi:
            return self.bands.get(b if b in self.bands else a)
        return get_distance(self.st, a, b)

    def set_band(self, a: str, b: str, band: str) -> None:
        if self.multi:
            self.bands[b if b in self.bands else a] = band
        else:
            set_distance(self.st, a, b, band)

    def alive(self, name: str) -> bool:
        return bool(self.f(name)["alive"])

    def ally(self, a: str, b: str) -> bool:
        return a != b and side(self.teams, a) == side(self.teams, b)

    def order_of_play(self) -> list[str]:
        """Living fighters in initiative order."""
        return [n for n in self.st["initiative"] if self.alive(n)]

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

    # -- １：イニシアティブ: rolled at turn 0 (new_state); here only for a state without it ----------
    def initiative(self) -> None:
        """A state made before rules version 2 has no initiative yet: roll it (and the starting
        distance) at the start of turn 1, as those versions did."""
        order, rolls = ini.roll_order(self.st["fighters"], self.data, self.dice)
        self.events.extend(rolls)
        self.st["initiative"] = order
        self.events.append(InitiativeSet(order[0], order, ini.mobility(self.st["fighters"], self.data), bool(rolls)))
        if self.multi:  # 複数人: distances are rolled at the start of each action instead
            return
        band, roll = ini.roll_distance(order[0], self.dice)
        self.events.append(roll)
        set_distance(self.st, order[0], order[1], band)
        self.events.append(DistanceSet(order[0], band, roll.value))

    def active_card(self, actor: str, order: Any) -> tuple[str | None, bool]:
        """The 能動 card the order plays (None when it is used up), and whether it is a
        ムーブベント — played with the move it frees, so spent now (ruling: before 移動フェイズ)."""
        card = order.card
        if card is not None and not self.card_usable(actor, card):
            self.events.append(CardSkipped(actor, card, self.data.card_name(card), "used_up"))
            card = None
        move_card = card is not None and fx.has(self.data, card, "unblockable_move")
        if move_card:
            self.spend(actor, card, "active")
        return card, move_card

    # -- one action: steps 2–7 (and 8–13 with the roles swapped) ------------------------------
    def action(self, actor: str, target: str, first: bool) -> None:
        self.events.append(ActionStarted(actor, target, first))
        order = self.orders[actor]
        act = Action(actor, target)
        card, move_card = self.active_card(actor, order)
        act.active = card
        self.movement(actor, target, unblockable=move_card)          # ２：移動フェイズ
        self.card_phases(act, [target], move_card)                   # ３：能動 / ４：受動
        self.attacks(act)                                            # ５–７：攻撃・回避・ダメージ
        self.idle_reflectors(act)

    def card_phases(self, act: Action, reactors: list[str], move_card: bool) -> None:
        """３：the actor's 能動 card (a ムーブベント was spent with its move); ４：each reacting
        fighter's first matching 受動 standing order, in initiative order. A コンファインベント
        cancels the 能動 card at once, so later reactors' conditions no longer see it; then the
        effects: the 能動 card's unless cancelled, and the 受動 cards'."""
        actor, card = act.actor, act.active
        if card is not None and not move_card:
            self.spend(actor, card, "active")
        passives: list[tuple[str, str]] = []
        for name in reactors:
            passive = self.passive_card(name, act)
            if passive is None:
                continue
            passives.append((name, passive))
            if not fx.has(self.data, passive, "confine"):
                continue
            if card is not None and not move_card and not act.cancelled:
                act.cancelled = True
                self.events.append(Cancelled(name, actor, card, self.data.card_name(card)))
            else:  # nothing to cancel: no 能動 card, a ムーブベント (spent with the move), or cancelled already
                reason = "no_card" if card is None else ("move_card" if move_card else "cancelled")
                self.events.append(PassiveIdle(name, passive, self.data.card_name(passive), reason, actor,
                                               self.data.card_name(card)))
        if card is not None and not move_card and not act.cancelled:
            self.apply(actor, act.target or actor, card, act)
        for name, passive in passives:
            self.apply(name, actor, passive, act)

    def idle_reflectors(self, act: Action) -> None:
        """A リフレクトベント whose user did not evade the actor's own attack had nothing to react to."""
        if self.st["winner"] is not None:
            return
        for name, card in act.reflectors.items():
            if name not in act.evaded:
                self.events.append(PassiveIdle(name, card, self.data.card_name(card), "not_attacked", act.actor))

    def opponents_now(self, actor: str) -> list[str]:
        """Living opponents (not allies) in initiative order."""
        return [n for n in self.order_of_play() if n != actor and not self.ally(actor, n)]

    # -- ５：アクション側・攻撃判定: one target per band of the range ------------------------------
    def picks(self, actor: str, reach: list[str], single: bool) -> list[tuple[str, str]]:
        """(band, target) from 近 to 遠: for each band of ``reach`` the first fighter of the
        priority list standing in it (the order's list; none: every opponent, nearest first,
        initiative order). Never two in one band. ``single`` (隙狙い): the first one only."""
        opps = self.opponents_now(actor)
        where = {n: self.distance(actor, n) for n in opps}
        listed = self.orders[actor].targets
        if listed:
            priority = [n for n in listed if n in opps]
        else:
            priority = sorted(opps, key=lambda n: (BANDS.index(where[n]), opps.index(n)))
        if single:
            for name in priority:
                if fx.in_range(reach, where[name]):
                    return [(where[name], name)]
            return []
        out = []
        for band in BANDS:
            if not fx.in_range(reach, band):
                continue
            for name in priority:
                if where[name] == band:
                    out.append((band, name))
                    break
        return out

    def choose_attack(self, actor: str, final: str | None, vent: Any = "now") -> tuple[Weapon, list] | None:
        """The first weapon (ファイナルベント / vented weapon / visor / 無手) with a target in reach."""
        aim = self.orders[actor].aim
        for weapon in self.weapons(actor, final, vent):
            chosen = self.picks(actor, weapon.reach, single=bool(aim) and not weapon.final)
            if chosen:
                return weapon, chosen
        return None

    def threatened(self, act: Action) -> list[str]:
        """Who 「受動: 攻撃なら…」 fires for, as things stand in the 受動 phase (step 4: the actor's
        move made, its 能動 card counted unless cancelled). Rules version 4: 「受動フェイズは相手の
        行動（どのようなカードを使用するか）を見てから」 — the reactor sees the card played, the
        distance and the actor's weapons, not a decision of step 5 (攻撃しない, the targets): 攻撃
        means "a weapon of the actor's reaches me" (ファイナルベント played, the weapon vented or
        played, the visor, 無手 at 近; the contract monster after アドベント). Versions 2–3: "the
        actor will attack me, in range" (its 攻撃しない and its targets counted)."""
        order = self.orders[act.actor]
        card = None if act.cancelled else act.active
        final = card if card is not None and fx.has(self.data, card, "final") else None
        vent = card if card is not None and self.data.cards[card].get("vent") else "now"
        if self.rules >= 4:
            reaches: list[list[str]] = [w.reach for w in self.weapons(act.actor, final, vent)]
            if card is not None and fx.has(self.data, card, "advent"):
                weapon = self.contract_weapon(act.actor)
                if weapon is not None:
                    reaches.append(weapon.reach)
            return [n for n in self.opponents_now(act.actor)
                    if any(fx.in_range(reach, self.distance(act.actor, n)) for reach in reaches)]
        out: list[str] = []
        if not order.hold or final is not None:
            chosen = self.choose_attack(act.actor, final, vent)
            if chosen is not None:
                out.extend(name for _, name in chosen[1])
        if card is not None and fx.has(self.data, card, "advent"):
            weapon = self.contract_weapon(act.actor)
            if weapon is not None:
                out.extend(name for _, name in self.picks(act.actor, weapon.reach, single=False))
        return out

    # -- ７：ダメージ判定 --------------------------------------------------------------------------
    def damage_roll(self, actor: str, weapon: Any) -> Any:
        """The exploding 1D6 of the damage, credited to the contract monster when it attacks."""
        roll = rd.damage(self.dice, actor)
        if weapon.attacker != actor:
            roll.by = weapon.attacker
        self.events.append(roll)
        return roll

    def hit(self, actor: str, target: str, weapon: Any, attack: Any, evasion: Any, roll: Any, aim: int) -> int:
        """(attack − evasion) + 1D6 + weapon modifier − 防御力 (less what 隙狙い ignores), at least 0."""
        defense = fx.stat(self.data, self.f(target), "defense")
        if self.armor:  # ガードベント's invented armor: rules version 3, or the option guard_vent_armor
            defense += fx.armor(self.data, self.f(target))
        ignored = min(aim, defense)
        amount = max(0, attack.achievement - evasion.achievement + roll.value + weapon.damage - (defense - ignored))
        self.events.append(Hit(actor, target, weapon.attacker, attack.achievement, evasion.achievement, roll.value,
                               weapon.damage, defense, ignored, amount))
        return amount

    # -- ２：移動フェイズ ---------------------------------------------------------------------
    def movement(self, actor: str, target: str, unblockable: bool) -> None:
        intent = self.orders[actor].move
        if intent == "stay":
            return
        start = self.distance(actor, target)
        goal = {"closer": "近", "away": "遠"}.get(intent, intent)
        here, there = BANDS.index(start), BANDS.index(goal)
        if here == there:
            self.events.append(Moved(actor, target, intent, start, start, "none", False))
            return
        direction = "closer" if there < here else "away"  # 近寄るか遠ざかるか
        blocked = self.orders[target].blocks(direction) and not unblockable
        self.events.append(MoveDeclared(actor, target, intent, blocked, unblockable))
        if not blocked:  # 阻止しない: the mover goes where they want
            self.events.append(Moved(actor, target, intent, start, goal, "none", False))
            self.set_band(actor, target, goal)
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
        self.set_band(actor, target, end)

    # -- ４：受動カード使用フェイズ: the first matching standing order --------------------------------
    def passive_card(self, reactor: str, act: Action) -> str | None:
        """受動フェイズは相手の行動…を見てからカードを使用する: an ally's action is not reacted to.
        The conditions see what a player at the table would: 攻撃 = the actor will attack me, in
        range; a card = the actor's 能動 card, played and not cancelled."""
        if self.ally(reactor, act.actor):
            return None
        attacked = None  # worked out when a rule asks (a simulated turn's orders rarely do)
        for rule in self.orders[reactor].passive:
            if rule.condition is None:
                matched = True
            elif rule.condition == "attack":
                if attacked is None:
                    attacked = reactor in self.threatened(act)
                matched = attacked
            else:
                matched = act.active == rule.condition and not act.cancelled
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
            self.events.append(StatusChanged(user, "trick", None, name, params=dict(eff["trick"])))
        if "nasty" in eff:
            n = int(eff["nasty"].get("dice", 1))
            self.f(other)["nasty"] = int(self.f(other).get("nasty", 0)) + n
            self.events.append(StatusChanged(user, "nasty", other, name, n))
        if "survive" in eff:
            fighter["survive"].append(card)
            params = dict(eff["survive"])
            if self.rules <= 3:  # the name of the movement effect (モンスタードライブ) came with version 4
                params.pop("move_name", None)
            self.events.append(StatusChanged(user, "survive", None, name, params=params))
        if "advent" in eff and user == act.actor:
            act.advent = True
        if "final" in eff and user == act.actor:
            act.final = card
        if "reflect" in eff and user != act.actor:
            act.reflectors[user] = card

    # -- ５：攻撃判定 / ６：回避判定 / ７：ダメージ判定 --------------------------------------------
    def attacks(self, act: Action) -> None:
        actor, target = act.actor, act.target
        order = self.orders[actor]
        band = self.distance(actor, target)
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
        for weapon in self.weapons(name, final):
            if fx.in_range(weapon.reach, band):
                return weapon
        return None

    def weapons(self, name: str, final: str | None, vent: Any = "now") -> list[Weapon]:
        """What the fighter may attack with, in order of preference. ``vent``: the card
        vented in (default: the one vented now)."""
        fighter = self.f(name)
        kind, sheet = self.data.character(fighter["character"])
        if final is not None:
            spec = fx.effects(self.data, final)["final"]
            reach = list(spec.get("range", ["近", "遠"]))
            return [Weapon(final, self.data.card_name(final), reach, int(spec.get("damage", 0)),
                           int(spec.get("attack_dice", 0)), 0, name, final=True)]
        if kind == "monster":
            spec = sheet.get("weapon") or {}
            reach = list(spec.get("range", ["近", "近"]))
            return [Weapon("monster", spec.get("name"), reach, int(spec.get("damage", 0)), 0, 0, name)]
        out: list[Weapon] = []
        vent = fighter.get("vent") if vent == "now" else vent
        spec = fx.effects(self.data, vent).get("weapon")
        if spec:
            bonus = fx.survive_bonus(self.data, fighter, "weapon_damage")
            out.append(Weapon(vent, self.data.card_name(vent), list(spec["range"]),
                              int(spec.get("damage", 0)) + bonus, 0, 0, name))
        visor = sheet.get("visor")
        if visor:
            out.append(Weapon("visor", None, list(visor.get("range", ["近", "近"])), int(visor.get("damage", 0)),
                              0, 0, name))
        out.append(Weapon("unarmed", None, ["近", "近"], 0, 0, -1, name))  # まったくの無手: 射程 近, 達成値 −1
        return out

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
        attack, aim = self.attack_roll(actor, target, weapon, aim)
        self.defend(actor, target, weapon, attack, aim, main, act)

    def attack_roll(self, actor: str, target: str, weapon: Weapon, aim: int):
        """５：攻撃判定 (declared against ``target``, the first of several in a multi-attack).
        Returns the roll and the 隙狙い actually used."""
        a = self.f(actor)
        cut = 0
        if weapon.dice is not None:
            n, modifier = weapon.dice, 0
        else:
            # 隙狙い: −2 dice per defence point ignored. 攻撃力が０以下になるような隙狙いは出来ません:
            # the order was checked against the sheet; a ナスティベント played this turn may have
            # taken a die since, so the 隙狙い is cut to what the dice allow (ruling).
            n = fx.pool(self.data, a, "attack") + weapon.extra_dice
            allowed = min(aim, max(0, (n - 1) // 2))
            aim, cut = allowed, aim - allowed
            n -= 2 * aim
            modifier = fx.trick(a, "attack") + weapon.modifier
        self.events.append(AttackDeclared(actor, target, weapon.attacker, weapon.kind, weapon.name, n, aim, 2 * aim,
                                          modifier, weapon.damage, cut))
        attack = rd.pool(self.dice, actor, "attack", n, modifier)
        if weapon.attacker != actor:
            attack.by = weapon.attacker
        self.events.append(attack)
        return attack, aim

    def defend(self, actor: str, target: str, weapon: Weapon, attack, aim: int, main: bool, act: Action) -> None:
        """６：回避判定 and ７：ダメージ判定 of one target."""
        t = self.f(target)
        d_order = self.orders[target]
        options = fx.evasion_options(self.data, t)
        if d_order.parry and "attack" in options:
            choice = "attack"
        elif d_order.evasion in options:
            choice = d_order.evasion
        else:  # the larger pool (ties: 運動性, then 防御力); 受け not with 超回避
            usable = [o for o in options if not (o == "attack" and d_order.super_evasion)]
            choice = max(usable, key=lambda o: (fx.pool(self.data, t, o), -usable.index(o)))
        floor = 2 + fx.trick(t, "evasion")  # every die is at least 2 (a 1 is rolled again and added)
        paid, skipped = self.super_payment(target, attack, choice, "actor" if main else "advent", floor)
        bonus = fx.trick(t, "evasion") + paid
        n_eva = fx.pool(self.data, t, choice)
        # 超回避: declared before the evasion roll (「ＨＰ○点消費、回避達成値＋○点」), then paid
        self.events.append(EvasionDeclared(target, weapon.attacker, choice, n_eva, paid, bonus, None, skipped,
                                           d_order.super_threshold, attack.achievement, floor))
        if paid:
            self.hurt(target, target, paid)
        evasion = self.evasion_roll(target, n_eva, bonus, main, act)
        # ７：ダメージ判定 (ties go to the defender)
        if attack.achievement > evasion.achievement:
            roll = self.damage_roll(actor, weapon)
            amount = self.hit(actor, target, weapon, attack, evasion, roll, aim)
            if amount:
                self.hurt(actor, target, amount)
            return
        self.evaded(actor, target, weapon, attack, evasion, main, act)

    def super_payment(self, evader: str, attack: Any, choice: str, kind: str, floor: int) -> tuple[int, str | None]:
        """超回避 for one evasion roll: (HP paid, why not paid). 「回避判定を行う前に『ＨＰ○点消費、回避
        達成値＋○点』と宣言」 — declared after the attack roll, before the evasion roll, so the order
        may depend on the attack's achievement; never paid when the attack cannot hit; at most
        HP − 1 (「自身のＨＰを０に する事は出来ません」); not with 受け. ``kind``: actor (the acting
        fighter's own attack) | advent (its contract monster's) | cover (庇う). Rules version 4:
        every evasion roll the order's scope names (none: every one), each with its own limits;
        versions 2–3: the acting fighter's own attack only, never when covering."""
        order = self.orders[evader]
        if not order.super_evasion:
            return 0, None
        if self.rules <= 3:
            if kind != "actor" or choice == "attack":
                return 0, None
        elif order.super_scope and kind not in order.super_scope:
            return 0, "scope"
        elif choice == "attack":  # ソードベントの［受け］と併用する事は出来ません (a coverer with a sword only)
            return 0, "parry"
        if attack.achievement <= floor:
            return 0, "cannot_hit"
        if attack.achievement < order.super_threshold:
            return 0, "threshold"
        return max(0, min(order.super_evasion, self.f(evader)["hp"] - 1)), None  # never to 0 HP

    def evasion_roll(self, evader: str, n: int, bonus: int, main: bool, act: Action) -> Any:
        """６：回避判定's dice; who evaded the actor's own attack is kept for リフレクトベント."""
        evasion = rd.pool(self.dice, evader, "evasion", n, bonus)
        self.events.append(evasion)
        if main:
            act.evaded.append(evader)
        return evasion

    def evaded(self, actor: str, evader: str, weapon: Weapon, attack: Any, evasion: Any, main: bool,
               act: Action) -> None:
        """A successful evasion (ties go to the defender); the evader's リフレクトベント, if any."""
        self.events.append(Whiffed(actor, evader, weapon.attacker, attack.achievement, evasion.achievement))
        if main and evader in act.reflectors:
            self.reflect(evader, actor, attack, evasion)

    def reflect(self, reflector: str, attacker: str, attack, evasion) -> None:
        roll = rd.damage(self.dice, reflector, "reflect")
        self.events.append(roll)
        defense = fx.stat(self.data, self.f(attacker), "defense")
        amount = max(0, evasion.achievement - attack.achievement + roll.value - defense)
        self.events.append(Reflected(reflector, attacker, attack.achievement, evasion.achievement, roll.value,
                                     defense, amount))
        if amount:
            self.hurt(reflector, attacker, amount)

    def hurt(self, source: str, target: str, amount: int, check: bool = True) -> None:
        fighter = self.f(target)
        full, amount = amount, min(amount, fighter["hp"])  # no more than the HP left (残りHP分)
        fighter["hp"] -= amount
        self.events.append(Damaged(source, target, amount, fighter["hp"], full))
        if source != target and fighter.get("trick"):  # トリックベント ends when its user takes damage
            fighter["trick"] = None
            self.events.append(StatusChanged(target, "trick_end"))
        if fighter["hp"] <= 0:  # ＨＰが０になった場合は、ライダーは死亡します
            fighter["alive"] = False
            self.events.append(KnockedOut(target, source))
            if check:
                self.check_end()

    def check_end(self) -> None:
        """The battle ends when one side remains (all fallen at once: a draw)."""
        if self.st["winner"] is not None:
            return
        alive = [n for n, f in self.st["fighters"].items() if f["alive"]]
        sides = []
        for n in alive:
            if side(self.teams, n) not in sides:
                sides.append(side(self.teams, n))
        if len(sides) > 1:
            return
        if not alive:
            winner = "draw"
        elif self.teams.get(alive[0]) and self.multi:
            winner = str(self.teams[alive[0]])  # a team wins: the team's name
        else:
            winner = alive[0]
        self.st["winner"] = winner
        self.events.append(Won(winner))
        for name in alive:  # イベントファイナル: the winners' flourish, no rules effect
            text = self.orders[name].event_final if name in self.orders else None
            if text:
                self.st.setdefault("event_finals", {})[name] = text
                self.events.append(EventFinal(name, text))


def epilogue(st: dict[str, Any], orders: dict[str, Any], teams: dict[str, str | None]) -> tuple[dict[str, Any], list]:
    """イベントファイナル posted after the battle was decided (「勝敗が決した後に…宣誓し」): the
    winners' flourishes in an epilogue post — no dice, nothing changes but the record of them.
    parse_order has refused every other order."""
    finals = [(n, orders[n].event_final) for n in winners(st, teams)
              if orders.get(n) is not None and orders[n].event_final]
    if not finals:
        raise PbfError(f"この戦闘はもう決着しています（勝者：{winner_word(st)}）。決着後に書き込めるのは"
                       "勝者のイベントファイナルだけです。 / the battle is over: only a winner's event final")
    st["turn"] += 1
    events: list[Any] = [TurnStarted("", st["turn"], st.get("distance")), Epilogue("", st["winner"])]
    for name, text in finals:
        st.setdefault("event_finals", {})[name] = text
        events.append(EventFinal(name, text))
    return st, events


def resolve(state: dict[str, Any], orders: dict[str, Any], dice: Dice, ctx: Context, rules: int = 4,
            armor: bool = False) -> tuple[dict[str, Any], list]:
    """One turn. ``rules``: the rules version to resolve by (RiderSystem.rules); ``armor``:
    ガードベント's invented armor on (RiderSystem.armor_on)."""
    st = copy_state(state)
    teams = {name: ctx.players[name].team if name in ctx.players else None for name in st["fighters"]}
    if st.get("winner") is not None:
        return epilogue(st, orders, teams)
    data: RiderData = ctx.data
    plain_orders = {name: (orders.get(name) or RiderOrder()) for name in st["fighters"]}
    battle = Battle(st, data, plain_orders, dice, teams, rules=rules, armor=armor)
    st["turn"] += 1
    battle.events.append(TurnStarted("", st["turn"], st.get("distance")))
    if not st["initiative"]:  # １：イニシアティブ（初ターンのみ位置決め）
        battle.initiative()
    if battle.multi:  # 複数人による戦闘: each living fighter acts once, in initiative order (８)
        for number, actor in enumerate(st["initiative"], 1):
            if st["winner"] is not None:
                break
            if st["fighters"][actor]["alive"]:  # the fallen have left the order
                battle.multi_action(actor, number)
    else:
        for i, actor in enumerate(st["initiative"]):  # ２–７ 先攻, ８–13 後攻
            if st["winner"] is not None:
                break
            if not st["fighters"][actor]["alive"]:
                continue
            for target in opponents(st, actor)[:1]:  # 1 on 1: the other fighter
                battle.action(actor, target, first=(i == 0))
    for fighter in st["fighters"].values():  # ナスティベント lasts until the end of the turn
        fighter["nasty"] = 0
    limit = int(ctx.options.get("turn_limit", 0) or 0)
    if st["winner"] is None and limit and st["turn"] >= limit:  # 14：ターン終了 / turn_limit → draw
        st["winner"] = "draw"
        battle.events.append(Drawn("", limit))
    return st, battle.events
