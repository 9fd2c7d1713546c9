"""The rider game's dice (seed: 攻撃・回避判定, ダメージ判定).

A check rolls N d6 and keeps the highest; a die showing 1 is rolled again and added, as
often as 1 comes up (1+1+5 = 7). The damage 1D6 explodes the same way. Initiative
tie-breaks and the starting distance are plain d6 (no re-roll: they pick a side or a band).
"""

from __future__ import annotations

from ...dice import Dice
from .events import Rolled


def _own(dice: Dice, actor: str, purpose: str) -> Dice:
    """The NPC's simulated turns give each check a stream of its own (pbf.npc.search.KeyedDice);
    a turn's real dice are one stream."""
    keyed = getattr(dice, "keyed", None)
    return dice if keyed is None else keyed(actor, purpose)


def exploding_die(dice: Dice) -> list[int]:
    faces = [dice.d6()]
    while faces[-1] == 1:
        faces.append(dice.d6())
    return faces


def pool(dice: Dice, actor: str, purpose: str, n: int, bonus: int = 0) -> Rolled:
    """N B6: keep the highest exploded die. ``n`` must be at least 1."""
    if n < 1:
        raise ValueError("a pool needs at least one die")
    dice = _own(dice, actor, purpose)
    groups = [exploding_die(dice) for _ in range(n)]
    value = max(sum(g) for g in groups)
    return Rolled(actor, purpose, n, [f for g in groups for f in g], value, groups, bonus, value + bonus, "B6")


def damage(dice: Dice, actor: str, purpose: str = "damage") -> Rolled:
    """1D6, exploding: the sum."""
    dice = _own(dice, actor, purpose)
    group = exploding_die(dice)
    return Rolled(actor, purpose, 1, list(group), sum(group), [group], 0, sum(group), "D6")


def plain(dice: Dice, actor: str, purpose: str) -> Rolled:
    face = dice.d6()
    return Rolled(actor, purpose, 1, [face], face, [[face]], 0, face, "D6")
