"""What one action (steps 2–7) carries: the weapon an attack is made with, and the flags that
live for the action (its 能動 card, a cancel, リフレクトベント users, who evaded)."""

from __future__ import annotations

from dataclasses import field
from ...record import record


@record
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


@record
class Action:
    """Flags that live for one action (steps 2–7)."""

    actor: str
    target: str
    active: str | None = None
    cancelled: bool = False
    advent: bool = False
    final: str | None = None
    reflectors: dict[str, str] = field(default_factory=dict)  # reacting fighter -> its リフレクトベント card
    evaded: list[str] = field(default_factory=list)  # who evaded the actor's own attack (リフレクトベント's chance)
