"""１：イニシアティブ (seed: ●イニシアティブ, once per battle, before the first turn).

「＜運動性＞の高いライダーが先攻になります。なお、両者とも＜運動性＞が同じ場合はサイコロを１個
振って、高い目の側が先攻になります。イニシアチブをとったライダーまたはモンスターが１D６を振って
初期配置を設定します。ダイスの目が１，２であれば近距離、３，４であれば中距離、５，６であれば遠距離」.
A battle of three or more orders everyone by 運動性 the same way; it rolls no starting distance
(distances are rolled at the start of each action).

Both are rolled at turn 0 (``RiderSystem.new_state``), so that players write turn 1 knowing who goes
first and how far apart they stand; a state without an initiative order (a campaign made before
rules version 2) rolls them at the start of turn 1 instead (``Battle.initiative``).
"""

from __future__ import annotations

from typing import Any

from ...dice import Dice
from . import cards as fx
from . import dice as rd
from .data import RiderData
from .events import Rolled

MULTI = 3  # fighters at the start of a battle from which the 複数人による戦闘 rules apply


def is_multi(st: dict[str, Any]) -> bool:
    """A battle of three or more: decided by the fighters it started with (ruling), so a
    free-for-all stays one when it is down to two."""
    return len(st["fighters"]) >= MULTI

STARTING_BANDS = {1: "近", 2: "近", 3: "中", 4: "中", 5: "遠", 6: "遠"}


def mobility(fighters: dict[str, Any], data: RiderData) -> dict[str, int]:
    """Each living fighter's 運動性 (サバイブ counted), in campaign order."""
    return {n: fx.stat(data, f, "mobility") for n, f in fighters.items() if f.get("alive", True)}


def roll_order(fighters: dict[str, Any], data: RiderData, dice: Dice) -> tuple[list[str], list[Rolled]]:
    """The initiative order: higher 運動性 first; a tie rolls 1D6 each, higher first, again on a tie."""
    stats = mobility(fighters, data)
    rolls: list[Rolled] = []
    order: list[str] = []
    for value in sorted(set(stats.values()), reverse=True):
        order.extend(_break_tie([n for n in stats if stats[n] == value], dice, rolls))
    return order, rolls


def _break_tie(tied: list[str], dice: Dice, rolls: list[Rolled]) -> list[str]:
    if len(tied) == 1:
        return tied
    faces: dict[str, int] = {}
    for name in tied:
        roll = rd.plain(dice, name, "initiative")
        rolls.append(roll)
        faces[name] = roll.value
    out: list[str] = []
    for value in sorted(set(faces.values()), reverse=True):
        out.extend(_break_tie([n for n in tied if faces[n] == value], dice, rolls))
    return out


def roll_distance(first: str, dice: Dice) -> tuple[str, Rolled]:
    """初期配置: the fighter with the initiative rolls 1D6 (1–2 近, 3–4 中, 5–6 遠)."""
    roll = rd.plain(dice, first, "distance")
    return STARTING_BANDS[roll.value], roll
