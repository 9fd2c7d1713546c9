"""What happened in a turn, as typed events (templates/alterego/post.j2 turns them into words).

Every event has ``actor`` (a player name; None for the turn as a whole) and ``step``: 0 for
what is known when the cards open, 1, 2, … for the processing steps, and the last step + 1
for the clean-up. Technique names are copied from data.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...events import Event, event, field


@event
class Plotted(Event):
    """The cards opened and how they read (seed: 技を読み取る)."""

    type: ClassVar[str] = "plot"
    actor: str
    step: int
    order: str  # canonical
    techniques: list[dict[str, Any]] = field(default_factory=list)  # {name, cards, class}


@event
class Locked(Event):
    """No plot this turn: a guard stance or a charging 強攻撃 carried over."""

    type: ClassVar[str] = "locked"
    actor: str
    step: int
    reason: str  # "stance" / "charging"
    technique: str | None = None


@event
class BattleOver(Event):
    type: ClassVar[str] = "battle_over"
    actor: str | None
    step: int
    winner: str


@event
class Performed(Event):
    """A technique comes out in this step."""

    type: ClassVar[str] = "technique"
    actor: str
    step: int
    technique: str  # name from data
    kind: str
    cls: str  # normal / special / super
    airborne: bool  # done while airborne (counts as ジャンプ in the matchup)


@event
class Cancelled(Event):
    type: ClassVar[str] = "cancel"
    actor: str
    step: int
    ok: bool
    reason: str | None  # None when it worked; "gauge" / "cards" when it failed
    discards: list[str]
    skipped: str | None  # the technique that was skipped
    soul: int  # gauge after
    cost: int = 3  # gauge a cancel needs and pays


@event
class Charge(Event):
    """強攻撃: read this turn, comes out next turn; later cards are void."""

    type: ClassVar[str] = "charge"
    actor: str
    step: int
    technique: str


@event
class ChargeLost(Event):
    type: ClassVar[str] = "charge_lost"
    actor: str
    step: int


@event
class Move(Event):
    type: ClassVar[str] = "move"
    actor: str
    step: int
    technique: str
    how: str  # forward / retreat / jump / forward_jump / back_jump
    distance: int  # after the move
    blocked: bool = False  # a screen-edge or distance-0 limit stopped it


@event
class Push(Event):
    type: ClassVar[str] = "push"
    actor: str
    step: int
    target: str
    cause: str  # "forward" (前進 at distance 0) / "chain" (弱 chain knock-back)
    distance: int


@event
class Whiff(Event):
    type: ClassVar[str] = "whiff"
    actor: str
    step: int
    technique: str
    reason: str  # "reach" / "down" (the enemy is knocked down) / "gauge" (特殊必殺技 without 3 gauge)


@event
class Clash(Event):
    """技のかち合い: both results from the matchup table, from the actor's side."""

    type: ClassVar[str] = "clash"
    actor: str
    step: int
    target: str
    mine: str  # matchup kind label (弱攻撃, ジャンプ, …)
    theirs: str
    result: str  # ○ × △ ＼ ― (parenthesised cells read as the plain symbol)
    their_result: str
    # decided (○/×) / trade (相打ち: both strike) / throw_break (投げ抜け) / unrelated (―, 関係なし) /
    # dodged (rules version 3: an airborne attack on a fighter who only jumped; the jump avoids it)
    outcome: str = "decided"
    stance: bool = False  # the target met it with a guard stance (ガードの構え)


@event
class SuperCost(Event):
    type: ClassVar[str] = "super"
    actor: str
    step: int
    technique: str
    cost: int
    soul: int


@event
class Hit(Event):
    type: ClassVar[str] = "hit"
    actor: str
    step: int
    target: str
    technique: str
    cls: str


@event
class Guard(Event):
    type: ClassVar[str] = "guard"
    actor: str  # the one who guards
    step: int
    attacker: str
    technique: str
    stance: bool  # guarded by a guard stance (no matchup)


@event
class Damage(Event):
    """Every loss of HP (product.md): HP after = HP before - sum of amounts."""

    type: ClassVar[str] = "damage"
    actor: str  # the source
    target: str
    amount: int
    step: int = 0


@event
class Soul(Event):
    type: ClassVar[str] = "soul"
    actor: str
    step: int
    gain: int
    soul: int


@event
class Suki(Event):
    type: ClassVar[str] = "suki"
    actor: str
    step: int
    voided: list[str]


@event
class Void(Event):
    type: ClassVar[str] = "void"
    actor: str
    step: int
    reason: str  # throw / strong (a technique that ends the plot, by kind) / knockdown / stance / ko
    voided: list[str]
    after: str | None = None  # the technique that ended the plot (強攻撃, 投げ, 大噴火, …)


@event
class ThrowBreak(Event):
    type: ClassVar[str] = "throw_break"
    actor: str
    step: int
    target: str
    distance: int


@event
class Knockdown(Event):
    type: ClassVar[str] = "knockdown"
    actor: str  # the one who falls
    step: int
    by: str


@event
class Stance(Event):
    type: ClassVar[str] = "stance"
    actor: str
    step: int


@event
class StanceBreak(Event):
    type: ClassVar[str] = "stance_break"
    actor: str
    step: int
    by: str


@event
class KO(Event):
    type: ClassVar[str] = "ko"
    actor: str
    step: int


@event
class DrawCards(Event):
    type: ClassVar[str] = "draw_cards"
    actor: str
    step: int
    count: int
    hand_size: int


@event
class Reshuffle(Event):
    type: ClassVar[str] = "reshuffle"
    actor: str
    step: int
    count: int


@event
class Result(Event):
    type: ClassVar[str] = "result"
    actor: str | None  # the winner; None for a draw
    step: int
    winner: str  # name or "draw"
    reason: str  # "ko" / "time"
