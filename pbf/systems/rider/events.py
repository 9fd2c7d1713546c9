"""What the rider resolver says happened. Templates (templates/rider/) turn these into words.

Two shapes are fixed by product.md: ``roll`` and ``damage``. Card and character names are
copied from the data into the events so that templates need nothing else.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...events import Event, event, field


@event
class TurnStarted(Event):
    type: ClassVar[str] = "turn"
    actor: str  # "" (the GM)
    turn: int
    distance: str | None


@event
class Rolled(Event):
    """Every die roll. ``faces`` in the order rolled (re-rolls included); ``value`` the highest
    exploded die of a pool, or the exploded sum of a damage 1D6. ``groups``: the faces per die;
    ``bonus``: modifiers added to ``value``; ``achievement``: value + bonus."""

    type: ClassVar[str] = "roll"
    actor: str
    purpose: str  # attack | evasion | move | block | damage | reflect | initiative | distance
    dice: int
    faces: list[int]
    value: int
    groups: list[list[int]] = field(default_factory=list)
    bonus: int = 0
    achievement: int = 0
    kind: str = "B6"  # B6 keep-highest pool, D6 a sum
    by: str = ""  # who rolls for the actor (a contract monster called by アドベント)


@event
class InitiativeSet(Event):
    type: ClassVar[str] = "initiative"
    actor: str  # who goes first
    order: list[str]
    mobility: dict[str, int]
    rolled: bool  # a tie broken with dice


@event
class DistanceSet(Event):
    type: ClassVar[str] = "distance"
    actor: str  # who rolled
    band: str
    face: int


@event
class ActionStarted(Event):
    type: ClassVar[str] = "action"
    actor: str
    target: str
    first: bool  # 先攻 / 後攻


@event
class MoveDeclared(Event):
    type: ClassVar[str] = "declare_move"
    actor: str
    target: str
    intent: str  # closer | away | 近 | 中 | 遠
    blocked: bool
    unblockable: bool  # ムーブベント


@event
class Moved(Event):
    type: ClassVar[str] = "move"
    actor: str
    target: str
    intent: str
    start: str
    end: str
    contest: str  # none | won | lost | bonus_tie (☆)
    bonus_rule: bool  # the ☆ rule applied
    difference: int | None = None


@event
class CardPlayed(Event):
    type: ClassVar[str] = "card"
    actor: str
    card: str
    card_name: str
    phase: str  # active | passive
    condition: str | None = None  # the matched 受動 condition (card id / "attack" / None)
    condition_name: str | None = None
    left: int = 0  # copies left


@event
class CardSkipped(Event):
    type: ClassVar[str] = "card_skipped"
    actor: str
    card: str
    card_name: str
    reason: str  # used_up


@event
class VentedIn(Event):
    type: ClassVar[str] = "vent"
    actor: str
    card: str
    card_name: str
    discarded: str | None = None
    discarded_name: str | None = None


@event
class Cancelled(Event):
    """コンファインベント: the other side's 能動 card has no effect."""

    type: ClassVar[str] = "cancel"
    actor: str
    target: str
    card: str
    card_name: str


@event
class StatusChanged(Event):
    type: ClassVar[str] = "status"
    actor: str
    effect: str  # trick | trick_end | nasty | survive | advent
    target: str | None = None
    card_name: str | None = None
    amount: int = 0
    params: dict[str, int] = field(default_factory=dict)  # the card's numbers (cards.yaml), for the post


@event
class PassiveIdle(Event):
    """A 受動 card was played but had nothing to react to (コンファインベント with no 能動 card to
    cancel, リフレクトベント against no attack on its user)."""

    type: ClassVar[str] = "passive_idle"
    actor: str
    card: str
    card_name: str
    reason: str  # no_card | move_card | cancelled (コンファインベント) | not_attacked (リフレクトベント)
    target: str = ""  # the acting fighter
    target_card_name: str | None = None  # its 能動 card (move_card / cancelled)


@event
class AttackDeclared(Event):
    type: ClassVar[str] = "attack"
    actor: str
    target: str
    attacker: str  # the name shown: the fighter, or the contract monster
    weapon: str  # card id | visor | unarmed | monster | contract
    weapon_name: str | None
    dice: int
    aim: int = 0  # 隙狙い: defence ignored
    aim_dice: int = 0  # dice given up
    modifier: int = 0  # added to the achievement (トリックベント +, 無手 -1)
    damage_bonus: int = 0
    aim_cut: int = 0  # 隙狙い points dropped: ナスティベント left too few dice for them (ruling)


@event
class NoAttack(Event):
    type: ClassVar[str] = "no_attack"
    actor: str
    target: str
    reason: str  # hold | range
    attacker: str = ""
    distance: str | None = None


@event
class EvasionDeclared(Event):
    type: ClassVar[str] = "evasion"
    actor: str  # the defender
    attacker: str
    pool: str  # mobility | defense | attack (受け)
    dice: int
    super_evasion: int = 0  # HP paid
    modifier: int = 0
    covering: str | None = None  # 庇う: the fighter evaded for
    super_skipped: str | None = None  # 超回避 ordered but not paid: threshold | cannot_hit
    super_threshold: int = 0  # the order's 達成値T以上なら
    attack: int = 0  # the attack's achievement the evasion is against
    floor: int = 0  # the lowest evasion achievement the dice can give (every die is at least 2)


@event
class Hit(Event):
    """A hit: amount = max(0, (attack - evasion) + roll + bonus - (defense - ignored))."""

    type: ClassVar[str] = "hit"
    actor: str  # attacker (fighter name; the contract monster is in ``attacker``)
    target: str
    attacker: str
    attack: int
    evasion: int
    roll: int
    bonus: int
    defense: int
    ignored: int
    amount: int


@event
class Whiffed(Event):
    """Evaded (ties go to the defender)."""

    type: ClassVar[str] = "whiff"
    actor: str
    target: str
    attacker: str
    attack: int
    evasion: int


@event
class Reflected(Event):
    """リフレクトベント: the attacker takes (evasion - attack) + 1D6 - their 防御力."""

    type: ClassVar[str] = "reflect"
    actor: str  # the reflecting defender
    target: str  # the attacker
    attack: int
    evasion: int
    roll: int
    defense: int
    amount: int


@event
class Damaged(Event):
    type: ClassVar[str] = "damage"
    actor: str  # the source (== target for HP paid for 超回避)
    target: str
    amount: int  # the HP lost
    hp: int = 0  # HP after
    full: int = 0  # the damage before it was cut to the HP left (残りHP分)


@event
class KnockedOut(Event):
    type: ClassVar[str] = "ko"
    actor: str  # the fallen
    by: str


@event
class Won(Event):
    type: ClassVar[str] = "winner"
    actor: str


@event
class EventFinal(Event):
    type: ClassVar[str] = "event_final"
    actor: str
    text: str


@event
class Epilogue(Event):
    """イベントファイナル posted after the battle was decided: no dice, no rules effect."""

    type: ClassVar[str] = "epilogue"
    actor: str  # ""
    winner: str


@event
class Drawn(Event):
    type: ClassVar[str] = "draw"
    actor: str  # ""
    turn_limit: int


# -- battles of three or more (複数人による戦闘) ---------------------------------------------------

@event
class DistancesRolled(Event):
    """リアクション側の距離: every reacting fighter rolled 1D6 for its band to the actor
    (the ``roll`` events with purpose ``distance`` come just before)."""

    type: ClassVar[str] = "distances"
    actor: str  # the acting fighter
    bands: dict[str, str]  # reacting fighter -> 近 | 中 | 遠 (initiative order)
    by_band: dict[str, list[str]]  # 近/中/遠 -> fighters there (initiative order)
    faces: dict[str, int] = field(default_factory=dict)  # reacting fighter -> the 1D6
    move_target: str | None = None  # the opponent of this action's movement (None: no move)
    # how it was chosen: listed (the order's priority list) | farthest | nearest (the order's rule) |
    # target (the first listed attack target) | default (the nearest opponent)
    move_how: str | None = None
    move_listed: list[str] = field(default_factory=list)  # the order's priority list


@event
class MultiActionStarted(Event):
    type: ClassVar[str] = "multi_action"
    actor: str
    number: int  # 1-based place in the initiative order
    move_target: str | None  # the opponent this action is against (movement, ナスティベント)
    fallen: str | None = None  # the named movement target, fallen earlier (the default was used)


@event
class TargetsChosen(Event):
    """One target per band of the weapon's range (never two in one band)."""

    type: ClassVar[str] = "targets"
    actor: str
    attacker: str  # the fighter, or the contract monster (アドベント)
    weapon: str
    weapon_name: str | None
    reach: list[str]
    picks: list[dict[str, str]]  # [{band, target}] from 近 to 遠
    listed: list[str]  # the order's priority list ([] = the nearest opponents)


@event
class Covered(Event):
    """庇う: ``actor`` evades for ``target`` at -1; a hit hurts both."""

    type: ClassVar[str] = "cover"
    actor: str  # the coverer
    target: str  # the covered fighter
    attacker: str
    pool: str  # attack (受け) | defense (ガードベント)


@event
class CoverRefused(Event):
    """庇う was ordered but could not happen (no sword or guard vented)."""

    type: ClassVar[str] = "cover_refused"
    actor: str
    target: str
    reason: str  # no_vent | target (the coverer is itself a target of this attack)


def as_dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events]
