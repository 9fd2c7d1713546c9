"""▼複数人による戦闘 (battles of three or more): one action with everyone else reacting.

The page: 「まず、リアクション側が全員１Ｄ６を振ります。そのダイスの目でアクション側ライダーとの距離を決定
します」; the actor moves against one chosen opponent; 「射程一段階ごとに標的を１名選べます」; 「複数攻撃の場合は、
狙われた全員が通常通り回避判定を行ってください」; 庇う lets a reacting rider evade for a target. The card phases,
the attack roll, evasion and damage are the one-on-one rules' (``resolver.Battle``), which this mixes into.
"""

from __future__ import annotations

from . import cards as fx
from . import dice as rd
from .action import Action, Weapon
from .data import BANDS
from .events import (CoverRefused, Covered, DistancesRolled, EvasionDeclared, MultiActionStarted, NoAttack,
                     TargetsChosen)
from .initiative import STARTING_BANDS


class MultiBattle:
    """The 複数人 steps of :class:`resolver.Battle` (its state, dice, orders and helpers)."""

    # -- 複数人による戦闘: one action (steps 2–7 with everyone else reacting) -----------------------
    def multi_action(self, actor: str, number: int) -> None:
        order = self.orders[actor]
        reactors = [n for n in self.order_of_play() if n != actor]
        started = MultiActionStarted(actor, number, None)
        self.events.append(started)
        # リアクション側: every reacting fighter rolls 1D6 for its band to the actor
        self.bands = {}
        faces: dict[str, int] = {}
        for name in reactors:
            roll = rd.plain(self.dice, name, "distance")
            self.events.append(roll)
            faces[name] = roll.value
            self.bands[name] = STARTING_BANDS[roll.value]
        by_band = {band: [n for n in reactors if self.bands[n] == band] for band in BANDS}
        target, fallen, how = self.move_target(actor)
        started.move_target, started.fallen = target, fallen  # known once the bands are rolled
        moving = order.move != "stay"
        self.events.append(DistancesRolled(actor, dict(self.bands), by_band, faces, target if moving else None,
                                           how if moving else None, list(order.move_targets)))
        act = Action(actor, target or "")
        card, move_card = self.active_card(actor, order)
        act.active = card
        if target is not None:  # ２：移動フェイズ — one contest, against the chosen opponent only
            self.movement(actor, target, unblockable=move_card)
        self.card_phases(act, reactors, move_card)  # ３：アクション側・能動 / ４：リアクション側・受動
        self.multi_attacks(act)  # ５–７：攻撃・回避・ダメージ
        self.idle_reflectors(act)

    def move_target(self, actor: str) -> tuple[str | None, str | None, str]:
        """The one opponent of the movement contest, chosen after the distances are rolled (as the
        actor would at the table): the order's rule (最も遠い相手 / 最も近い相手), else the first of its
        priority list whom the move can change (not already at the band it moves to; when none, the
        first listed), else its first listed attack target, else the nearest opponent. Ties:
        initiative order. A list whose every name has fallen gives way to the default (``fallen``).
        Returns (opponent, fallen, how: farthest | nearest | listed | target | default)."""
        order = self.orders[actor]
        opps = self.opponents_now(actor)
        if not opps:
            return None, None, "default"

        def band(name: str) -> int:
            return BANDS.index(self.bands[name])

        if order.move_rule == "farthest":
            return min(opps, key=lambda n: (-band(n), opps.index(n))), None, "farthest"
        if order.move_rule == "nearest":
            return min(opps, key=lambda n: (band(n), opps.index(n))), None, "nearest"
        listed = [n for n in order.move_targets if n in opps]
        if listed:
            goal = {"closer": "近", "away": "遠"}.get(order.move, order.move)
            return next((n for n in listed if self.bands[n] != goal), listed[0]), None, "listed"
        fallen = "、".join(order.move_targets) or None
        for name in order.targets:
            if name in opps:
                return name, fallen, "target"
        return min(opps, key=lambda n: (band(n), opps.index(n))), fallen, "default"

    def multi_attacks(self, act: Action) -> None:
        actor = act.actor
        order = self.orders[actor]
        if order.hold and act.final is None:
            self.events.append(NoAttack(actor, "", "hold", actor, None))
        else:
            chosen = self.choose_attack(actor, act.final)
            if chosen is None:  # 射程外への攻撃は一切出来ません: nobody (listed) in reach
                self.events.append(NoAttack(actor, "", "no_target", actor, None))
            else:
                weapon, chosen_picks = chosen
                aim = 0 if weapon.final or len(chosen_picks) > 1 else order.aim
                self.multi_attack(actor, weapon, chosen_picks, aim, True, act)
        if self.st["winner"] is not None or not act.advent:
            return
        weapon = self.contract_weapon(actor)
        if weapon is None:
            return
        chosen_picks = self.picks(actor, weapon.reach, single=False)
        if not chosen_picks:
            self.events.append(NoAttack(actor, "", "no_target", weapon.attacker, None))
            return
        self.multi_attack(actor, weapon, chosen_picks, 0, False, act)

    def multi_attack(self, actor: str, weapon: Weapon, chosen: list[tuple[str, str]], aim: int, main: bool,
                     act: Action) -> None:
        """One attack roll; each target evades separately (６) and takes its own damage (７)."""
        self.events.append(TargetsChosen(actor, weapon.attacker, weapon.kind, weapon.name, list(weapon.reach),
                                         [{"band": b, "target": n} for b, n in chosen],
                                         list(self.orders[actor].targets)))
        attack, aim = self.attack_roll(actor, chosen[0][1], weapon, aim)
        for _band, target in chosen:
            if self.st["winner"] is not None:
                return
            if not self.alive(target):  # fell to a shared (庇う) hit earlier in this attack
                continue
            coverer = self.coverer(actor, target, [n for _, n in chosen], weapon.reach)
            if coverer is None:
                self.defend(actor, target, weapon, attack, aim, main, act)
            else:
                self.cover(actor, coverer, target, weapon, attack, aim, main, act)

    # -- ６：リアクション側・回避判定: 庇う ---------------------------------------------------------
    def coverer(self, actor: str, target: str, targets: list[str], reach: list[str]) -> str | None:
        """The first reacting rider (initiative order) whose order says 庇う TARGET, who is not
        itself a target of this attack (「複数攻撃の場合は、狙われた全員が通常通り回避判定」: it
        evades for itself), who has a card allowing it vented in (ソードベント, ガードベント:
        data ``cover``) and (rules version 4) who stands within the attack's ``reach``:
        「射程外への攻撃は一切出来ません」 — an attack that cannot reach the coverer cannot hit it."""
        for name in self.order_of_play():
            if name in (actor, target) or self.orders[name].cover != target:
                continue
            if name in targets:
                self.events.append(CoverRefused(name, target, "target"))
            elif not fx.has(self.data, self.f(name).get("vent"), "cover"):
                self.events.append(CoverRefused(name, target, "no_vent"))
            elif self.rules >= 4 and not fx.in_range(reach, self.distance(actor, name)):
                self.events.append(CoverRefused(name, target, "range"))
            else:
                return name
        return None

    def cover(self, actor: str, coverer: str, target: str, weapon: Weapon, attack, aim: int, main: bool,
              act: Action) -> None:
        """The coverer evades at −1 with 受け (攻撃力) or 防御力 instead of the target; on a hit
        both take (attack − evasion) + 1D6 + modifiers, each less their own 防御力."""
        c = self.f(coverer)
        options = [o for o in fx.evasion_options(self.data, c) if o != "mobility"]
        c_order = self.orders[coverer]
        # rules version 4: 超回避 is for a cover evasion too (with ガードベント's 防御力, never with 受け)
        paying = self.rules >= 4 and c_order.super_evasion and (not c_order.super_scope or "cover" in c_order.super_scope)
        if c_order.parry and "attack" in options:
            choice = "attack"
        elif c_order.evasion in options:
            choice = c_order.evasion
        else:
            usable = [o for o in options if not (paying and o == "attack")] or options
            choice = max(usable, key=lambda o: (fx.pool(self.data, c, o), -usable.index(o)))
        self.events.append(Covered(coverer, target, weapon.attacker, choice))
        n_eva = fx.pool(self.data, c, choice)
        if self.rules <= 3:  # 超回避 was for one's own evasion only
            bonus = fx.trick(c, "evasion") - 1  # 庇う: 回避達成値に−1
            self.events.append(EvasionDeclared(coverer, weapon.attacker, choice, n_eva, 0, bonus, target,
                                               attack=attack.achievement))
        else:
            floor = 2 + fx.trick(c, "evasion") - 1  # every die is at least 2; 庇う −1
            paid, skipped = self.super_payment(coverer, attack, choice, "cover", floor)
            bonus = fx.trick(c, "evasion") - 1 + paid  # 庇う: 回避達成値に−1
            self.events.append(EvasionDeclared(coverer, weapon.attacker, choice, n_eva, paid, bonus, target, skipped,
                                               c_order.super_threshold, attack.achievement, floor))
            if paid:
                self.hurt(coverer, coverer, paid)
        evasion = self.evasion_roll(coverer, n_eva, bonus, main, act)
        if attack.achievement > evasion.achievement:
            roll = self.damage_roll(actor, weapon)
            amounts = [(name, self.hit(actor, name, weapon, attack, evasion, roll, aim)) for name in (coverer, target)]
            for name, amount in amounts:
                if amount:
                    self.hurt(actor, name, amount, check=False)
            self.check_end()  # both may fall at once
            return
        self.evaded(actor, coverer, weapon, attack, evasion, main, act)  # a coverer's リフレクトベント works too
