"""処理フェイズ: (state, orders, dice) -> (new state, events). Pure: no I/O, no clock, no random.

The seed's rules, in the seed's order, and where each lives here:

* 基本技 (弱 強 → ← 弱強 ↑ ↑弱) .................. data/common.yaml; their effects below
* 技を読み取る (longest match) ................... reading.read_plot, in ``_open``
* リーチ (an attack is established within reach) .. ``_established``
* 技のかち合い (matchup table, 隙, 相打ち, 投げ抜け) ``_clash`` / ``_against``
* 技の処理 (one at a time; movement first) ........ ``_step``
* ソウルゲージ (+1 per contact, max 9) ............ ``_contact``
* キャンセル (3 gauge + 2 hand cards) ............. ``_cancel``
* alterego.md: clean-up, HP/KO/draw .............. ``_clean_up``
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ...dice import Dice
from ...events import Event
from ..base import Context
from . import events as ev
from .data import Character, GameData, Technique
from .plot import Plot
from .reading import CancelMark, read_plot
from .state import CANCEL_COST, RULES_VERSION, SOUL_MAX, SUPER_COST, copy_battle, draw_up, missing_cards, take_cards
from ...record import record

MAX_STEPS = 64
_NO_PLOT = Plot()  # a missing order: one object, so that its reading is kept (reading.read_plot)


@record
class _Entry:
    """One thing in a fighter's queue: a technique, or a cancel marker."""

    tech: Technique | None = None
    cards: str = ""
    charged: bool = False  # a 強攻撃 read last turn, coming out now
    discards: tuple[str, ...] | None = None  # set for a cancel marker

    @property
    def is_cancel(self) -> bool:
        return self.discards is not None


@record
class _Fighter:
    name: str
    character: Character
    st: dict[str, Any]  # this fighter's part of the new state (mutated in place)
    queue: list[_Entry] = field(default_factory=list)
    opened: list[str] = field(default_factory=list)  # plotted cards, discarded at clean-up
    suki: bool = False  # 隙
    down: bool = False  # 転倒
    airborne: bool = False
    charging: Technique | None = None  # a 強攻撃 read this turn
    stance: bool = False  # guard stance active now
    stance_carried: bool = False  # the stance came from last turn
    guard_held: bool = False  # a ← held this turn (a stance for next turn)
    chain: int = 0  # consecutive 弱 contacts
    chained: bool = False  # made a chain contact in this step
    ko: bool = False

    @property
    def active(self) -> bool:
        return not (self.suki or self.down or self.charging or self.stance or self.ko)

    def front(self) -> _Entry | None:
        return self.queue[0] if self.active and self.queue else None


class _Turn:
    def __init__(self, state: dict[str, Any], orders: dict[str, Any], dice: Dice, ctx: Context):
        self.state = state
        self.orders = orders
        self.dice = dice
        self.ctx = ctx
        self.data: GameData = ctx.data
        self.options = ctx.options
        self.free = ctx.options.get("hands", "private") == "free"
        self.max_distance = int(ctx.options.get("max_distance", 6))
        # the rules this turn is resolved under: older only when a turn archived under them is replayed
        self.rules = int(ctx.rules_version or RULES_VERSION)
        self.events: list[Event] = []
        self.step = 0
        self.fighters = [
            _Fighter(name, self.data.characters[p.character], state["fighters"][name])
            for name, p in ctx.players.items()
        ]

    # -- helpers ------------------------------------------------------------------------
    def emit(self, event: Event) -> None:
        self.events.append(event)

    @property
    def distance(self) -> int:
        return int(self.state["distance"])

    def set_distance(self, value: int) -> bool:
        """Clamp to 0..max; True when the clamp stopped the movement."""
        clamped = max(0, min(self.max_distance, value))
        self.state["distance"] = clamped
        return clamped != value

    def other(self, f: _Fighter) -> _Fighter:
        return self.fighters[1] if f is self.fighters[0] else self.fighters[0]

    def void(self, f: _Fighter, reason: str, step: int | None = None, after: str | None = None) -> None:
        voided = [e.tech.name for e in f.queue if e.tech is not None]
        f.queue.clear()
        if voided:
            self.emit(ev.Void(f.name, self.step if step is None else step, reason, voided, after))

    # -- open: the cards are turned over and read ----------------------------------------
    def _open(self) -> None:
        for f in self.fighters:
            st = f.st
            if st.get("charging"):
                # 強攻撃: the only technique of this turn, at the front
                tech = f.character.technique(st["charging"])
                f.queue = [_Entry(tech, tech.command, charged=True)]
                st["charging"] = None
                self.emit(ev.Locked(f.name, 0, "charging", tech.name))
                continue
            if st.get("stance"):
                f.stance = f.stance_carried = True
                self.emit(ev.Locked(f.name, 0, "stance"))
                continue
            plot: Plot = self.orders.get(f.name) or _NO_PLOT
            for item in read_plot(plot, f.character):
                if isinstance(item, CancelMark):
                    f.queue.append(_Entry(discards=tuple(item.discards)))
                else:
                    f.queue.append(_Entry(item.technique, item.cards))
            if not self.free:
                f.opened = list(plot.cards)
                take_cards(st["hand"], f.opened)
            self.emit(
                ev.Plotted(
                    f.name,
                    0,
                    plot.canonical(),
                    [
                        {"name": e.tech.name, "cards": e.cards, "class": e.tech.cls}
                        if e.tech is not None
                        else {"name": None, "cards": "C(" + "".join(e.discards or ()) + ")", "class": "cancel"}
                        for e in f.queue
                    ],
                )
            )

    # -- before a step: cancel markers and a freshly read 強攻撃 take no time --------------
    def _settle(self, f: _Fighter, step: int) -> None:
        while f.active and f.queue:
            entry = f.queue[0]
            if entry.is_cancel:
                f.queue.pop(0)
                self._cancel(f, entry, step)
            elif entry.tech.charge and not entry.charged:
                # 強攻撃はオープンしたターンには発動せず、次のターンに発動します
                f.queue.pop(0)
                f.charging = entry.tech
                f.airborne = False  # charging is idle: a fighter who jumped lands to charge
                self.emit(ev.Charge(f.name, step, entry.tech.name))
                self.void(f, "strong", step, after=entry.tech.name)
            else:
                break

    def _cancel(self, f: _Fighter, entry: _Entry, step: int) -> None:
        """キャンセル: pay 3 gauge, discard two hand cards, skip the next technique."""
        discards = list(entry.discards or ())
        reason = None
        if f.st["soul"] < CANCEL_COST:
            reason = "gauge"
        elif not self.free and missing_cards(f.st["hand"], discards):
            reason = "cards"
        skipped = None
        if reason is None:
            f.st["soul"] -= CANCEL_COST
            if not self.free:
                take_cards(f.st["hand"], discards)
                f.st["discard"].extend(discards)
            if f.queue and not f.queue[0].is_cancel:
                skipped = f.queue.pop(0).tech.name
        self.emit(ev.Cancelled(f.name, step, reason is None, reason, discards, skipped, f.st["soul"], CANCEL_COST))

    # -- リーチ ----------------------------------------------------------------------------
    def _in_reach(self, tech: Technique) -> bool:
        return tech.is_attack and tech.reach is not None and self.distance <= tech.reach

    def _payable(self, f: _Fighter, tech: Technique) -> bool:
        return tech.cls != "super" or f.st["soul"] >= SUPER_COST

    def _is_movement(self, f: _Fighter, entry: _Entry, opp_front: _Entry | None, opp: _Fighter) -> bool:
        tech = entry.tech
        if tech.kind in ("move", "jump"):
            return True
        if tech.kind == "guard":
            # ガードは、敵の攻撃が当たらなければ後退に変化する
            threatened = (
                opp_front is not None
                and opp_front.tech.is_attack
                and self._in_reach(opp_front.tech)
                and self._payable(opp, opp_front.tech)
            )
            return not threatened
        return False

    # -- 技の処理: one step ---------------------------------------------------------------
    def _step(self) -> None:
        a, b = self.fighters
        fronts = [(a, a.front()), (b, b.front())]
        movers = [
            (f, e) for (f, e), (o, oe) in zip(fronts, (fronts[1], fronts[0]))
            if e is not None and self._is_movement(f, e, oe, o)
        ]
        for f in self.fighters:
            f.chained = False
        if movers:
            # 片方が移動技で他方が攻撃技だった場合、移動技の移動効果を優先して行う
            for f, e in movers:
                f.queue.pop(0)
                self._perform(f, e)
            self._move(movers)
            self._after(movers)
            return
        acting = [(f, e) for f, e in fronts if e is not None]
        for f, e in acting:
            f.queue.pop(0)
            self._perform(f, e)
        roles: dict[str, str] = {}
        for f, e in acting:
            tech = e.tech
            if tech.kind == "guard":
                roles[f.name] = "guard"
            elif tech.cls == "super" and not self._payable(f, tech):
                roles[f.name] = "fizzle"
                self.emit(ev.Whiff(f.name, self.step, tech.name, "gauge"))
            else:
                if tech.cls == "super":
                    f.st["soul"] -= SUPER_COST
                    self.emit(ev.SuperCost(f.name, self.step, tech.name, SUPER_COST, f.st["soul"]))
                roles[f.name] = "attack" if self._in_reach(tech) else "whiff"
                if roles[f.name] == "whiff":
                    self.emit(ev.Whiff(f.name, self.step, tech.name, "reach"))
        entries = {f.name: e for f, e in acting}
        attackers = [f for f, _ in acting if roles[f.name] == "attack"]
        if len(attackers) == 2:
            self._clash(attackers[0], entries[attackers[0].name], attackers[1], entries[attackers[1].name])
        elif len(attackers) == 1:
            x = attackers[0]
            y = self.other(x)
            self._against(x, entries[x.name].tech, y, roles.get(y.name))
        self._after(acting)

    def _perform(self, f: _Fighter, e: _Entry) -> None:
        self.emit(ev.Performed(f.name, self.step, e.tech.name, e.tech.kind, e.tech.cls, f.airborne))

    def _kind(self, f: _Fighter, tech: Technique) -> str:
        """The matchup column a technique counts as: ジャンプ while airborne."""
        return "jump" if f.airborne else tech.kind

    def _clash(self, a: _Fighter, ea: _Entry, b: _Fighter, eb: _Entry) -> None:
        """技のかち合い: both attacks established."""
        ka, kb = self._kind(a, ea.tech), self._kind(b, eb.tech)
        ra, rb = self._matchup(a, ka, b, kb)
        if ka == kb == "throw":
            # 投げなら投げ抜けが発生して双方１マスずつ後退します
            self.set_distance(self.distance + 2)
            self.emit(ev.ThrowBreak(a.name, self.step, b.name, self.distance))
            return
        hits = []
        if ra != "×":
            hits.append((a, ea.tech, b))
        if rb != "×":
            hits.append((b, eb.tech, a))
        if self.rules >= 3:
            # 相打ち (rules version 3): both blows land at once, then their knock-downs, so a
            # fighter knocked down by the trade still lands the blow they struck with it
            for x, tech, y in hits:
                self._hit(x, tech, y, knock=False)
            for x, tech, y in hits:
                if tech.knockdown and not y.down:
                    self._knockdown(y, x)
        else:  # rules version 2: each hit's knock-down came before the other's hit
            for x, tech, y in hits:
                self._hit(x, tech, y)
        if ra == "×":
            self._suki(a)
        if rb == "×":
            self._suki(b)

    def _against(self, x: _Fighter, tech: Technique, y: _Fighter, y_role: str | None) -> None:
        """One established attack; the enemy guards, whiffs, or has nothing in front."""
        if y.down:
            # 転倒: attacks on a downed fighter whiff for the rest of the turn
            self.emit(ev.Whiff(x.name, self.step, tech.name, "down"))
            return
        kx = self._kind(x, tech)
        if y.stance or (y_role == "guard" and not y.airborne):
            # ガード (a ← facing this attack, or the stance it became) meets it in the table
            rx, ry = self._matchup(x, kx, y, "guard")
            if ry == "×":  # 強攻撃 and 投げ beat the guard: a hit with full effect
                if y.stance:
                    y.stance = False
                    self.emit(ev.StanceBreak(y.name, self.step, x.name))
                self._hit(x, tech, y)
                self._suki(y)
                return
            self._guarded(x, tech, y, stance=y.stance)
            if rx == "×":
                self._suki(x)
            return
        if y.airborne:
            # nothing (or a whiff) after a jump: the enemy meets it as ジャンプ
            rx, ry = self._matchup(x, kx, y, "jump", striking=False)
            if rx not in ("○", "×") and self.rules >= 3:
                # rules version 3: a cell where both strike (＼ ジャンプ対ジャンプ) against a fighter
                # who only jumped is no 相打ち; the jump avoids it (「ほとんどの敵の攻撃を避ける」)
                return
            if rx == "×":
                self._suki(x)
                return
            self._hit(x, tech, y)
            if ry == "×":
                self._suki(y)  # shot down: no longer airborne, later techniques void
            return
        self._hit(x, tech, y)

    def _matchup(self, x: _Fighter, kx: str, y: _Fighter, ky: str, striking: bool = True) -> tuple[str, str]:
        """Both sides' results from the table, announced as one ``clash`` event. ``striking``:
        the enemy's technique is an established attack too (False: a jump met with nothing)."""
        rx, ry = self.data.matchups.result(kx, ky), self.data.matchups.result(ky, kx)
        if kx == ky == "throw":
            outcome = "throw_break"
        elif "○" in (rx, ry) or "×" in (rx, ry):
            outcome = "decided"
        elif rx == ry == "―":
            outcome = "unrelated"
        elif not striking and self.rules >= 3:  # ＼ or △ with one side not striking: no 相打ち
            outcome = "dodged"
        else:  # ＼ or △: both strike
            outcome = "trade"
        labels = self.data.matchups.kinds
        stance = ky == "guard" and y.stance
        self.emit(ev.Clash(x.name, self.step, y.name, labels[kx], labels[ky], rx, ry, outcome, stance))
        return rx, ry

    # -- effects ------------------------------------------------------------------------
    def _suki(self, f: _Fighter) -> None:
        """隙: every later technique of this turn is void; an airborne fighter is no longer
        airborne (「そのターンは敵のカードの効果にされるがままになります」)."""
        f.suki = True
        f.airborne = False
        voided = [e.tech.name for e in f.queue if e.tech is not None]
        f.queue.clear()
        self.emit(ev.Suki(f.name, self.step, voided))

    def _damage(self, x: _Fighter, y: _Fighter, amount: int) -> None:
        amount = min(amount, y.st["hp"])
        if amount > 0:
            y.st["hp"] -= amount
            self.emit(ev.Damage(x.name, y.name, amount, self.step))

    def _contact(self, x: _Fighter, tech: Technique, y: _Fighter) -> None:
        """ソウルゲージ +1 (hit or guarded); 弱 chains push back every second contact."""
        gain = min(1, SOUL_MAX - x.st["soul"])
        if gain:
            x.st["soul"] += gain
            self.emit(ev.Soul(x.name, self.step, gain, x.st["soul"]))
        if tech.chain:
            x.chain += 1
            x.chained = True
            if x.chain % 2 == 0:
                # １ターンに２回連続して当てるごとに敵は１マス後退します
                self.set_distance(self.distance + 1)
                self.emit(ev.Push(x.name, self.step, y.name, "chain", self.distance))

    def _hit(self, x: _Fighter, tech: Technique, y: _Fighter, knock: bool = True) -> None:
        self.emit(ev.Hit(x.name, self.step, y.name, tech.name, tech.cls))
        self._damage(x, y, tech.damage)
        self._contact(x, tech, y)
        if knock and tech.knockdown and not y.down:
            self._knockdown(y, x)

    def _guarded(self, x: _Fighter, tech: Technique, y: _Fighter, stance: bool) -> None:
        self.emit(ev.Guard(y.name, self.step, x.name, tech.name, stance))
        # ガード: 通常攻撃なら０に、必殺技なら１に軽減
        self._damage(x, y, 0 if tech.cls == "normal" else min(1, tech.damage))
        self._contact(x, tech, y)
        if not stance:
            y.guard_held = True
            y.stance = True
            self.emit(ev.Stance(y.name, self.step))
            self.void(y, "stance")

    def _knockdown(self, y: _Fighter, by: _Fighter) -> None:
        y.down = True
        y.airborne = False
        self.emit(ev.Knockdown(y.name, self.step, by.name))
        if y.charging is not None:
            y.charging = None
            self.emit(ev.ChargeLost(y.name, self.step))
        y.stance = False
        self.void(y, "knockdown")

    def _move(self, movers: list[tuple[_Fighter, _Entry]]) -> None:
        """Movements of one step, done at the same time (技は１つずつ同時に行う).

        The displacements add up and the distance is clamped once, so the result never depends
        on which player is listed first: at distance 0 a 前進 against a retreat keeps 0, and at
        the screen edge a retreat against a 前進 keeps 6.
        """
        start = self.distance
        deltas = [self._displacement(e.tech) for _, e in movers]
        wanted = start + sum(deltas)
        self.set_distance(wanted)
        final = self.distance
        for (f, e), delta in zip(movers, deltas):
            tech = e.tech
            # the clamp cut this mover's own movement (screen edge, or no crossing over)
            blocked = (wanted > final and delta > 0) or (wanted < final and delta < 0)
            if tech.kind == "move" and start == 0:
                # 距離０から更に前進した場合は、敵を押した事になり敵もいっしょに移動します
                self.emit(ev.Push(f.name, self.step, self.other(f).name, "forward", final))
            elif tech.kind == "move":
                self.emit(ev.Move(f.name, self.step, tech.name, "forward", final))
            elif tech.kind == "guard":
                self.emit(ev.Move(f.name, self.step, tech.name, "retreat", final, blocked))
            else:  # jump
                how = {1: "forward_jump", -1: "back_jump"}.get(max(-1, min(1, tech.move)), "jump")
                self.emit(ev.Move(f.name, self.step, tech.name, how, final, blocked))

    @staticmethod
    def _displacement(tech: Technique) -> int:
        """Change of distance: 前進 −1 (or −move), a retreat +1, a jump −move."""
        if tech.kind == "move":
            return -max(tech.move, 1)
        if tech.kind == "guard":
            return 1
        return -tech.move

    def _after(self, done: list[tuple[_Fighter, _Entry]]) -> None:
        """After the step: airborne, chains, 投げ/強攻撃 void the rest."""
        for f, e in done:
            if not f.chained:
                f.chain = 0
            f.airborne = e.tech.kind == "jump" and not f.down
            if e.tech.ends_plot and f.queue:
                # 投げ（強攻撃）を出した場合は以降全て無効
                self.void(f, e.tech.kind, after=e.tech.name)
        for f in self.fighters:
            if f.st["hp"] <= 0 and not f.ko:
                f.ko = True
                self.emit(ev.KO(f.name, self.step))
                self.void(f, "ko")

    # -- the turn -------------------------------------------------------------------------
    def run(self) -> None:
        self._open()
        a, b = self.fighters
        while self.step < MAX_STEPS:
            upcoming = self.step + 1
            self._settle(a, upcoming)
            self._settle(b, upcoming)
            if a.front() is None and b.front() is None:
                break
            self.step = upcoming
            self._step()
            if a.ko or b.ko:
                break
        self._clean_up()

    def _clean_up(self) -> None:
        step = self.step + 1
        for f in self.fighters:
            st = f.st
            alive = st["hp"] > 0
            # ガードはオープンしたターンと次のターン防御し続けます
            st["stance"] = bool(f.guard_held and f.stance and not f.stance_carried and alive)
            st["charging"] = f.charging.id if f.charging is not None and alive else None
            if not self.free:
                st["discard"].extend(f.opened)
                self.events.extend(draw_up(st, f.name, int(self.options.get("hand_size", 7)), self.dice, step))
        self.state["turn"] = int(self.state.get("turn", 0)) + 1
        down = [f for f in self.fighters if f.st["hp"] <= 0]
        if len(down) == 2:
            self.state["winner"] = "draw"
            self.emit(ev.Result(None, step, "draw", "ko"))
        elif len(down) == 1:
            winner = self.other(down[0]).name
            self.state["winner"] = winner
            self.emit(ev.Result(winner, step, winner, "ko"))
        else:
            limit = int(self.options.get("turn_limit", 0) or 0)
            if limit and self.state["turn"] >= limit:
                a, b = self.fighters
                if a.st["hp"] == b.st["hp"]:
                    self.state["winner"] = "draw"
                    self.emit(ev.Result(None, step, "draw", "time"))
                else:
                    winner = (a if a.st["hp"] > b.st["hp"] else b).name
                    self.state["winner"] = winner
                    self.emit(ev.Result(winner, step, winner, "time"))


def resolve(state: dict[str, Any], orders: dict[str, Any], dice: Dice, ctx: Context) -> tuple[dict[str, Any], list[Event]]:
    new_state = copy_battle(state)
    if new_state.get("winner") is not None:
        # the battle is over: only the turn counter moves; nothing is drawn or resolved
        new_state["turn"] = int(new_state.get("turn", 0)) + 1
        return new_state, [ev.BattleOver(None, 0, new_state["winner"])]
    turn = _Turn(new_state, orders, dice, ctx)
    turn.run()
    return new_state, turn.events
