"""The effect primitives the card data combines, and a fighter's effective numbers.

A card's ``effects`` (cards.yaml) is a mapping of primitive -> parameters (their names,
``PRIMITIVES``, are in data.py, which checks the data against them); this module is the
only place that knows what each primitive means. Traits (traits.yaml) use ``move_bonus``.
"""

from __future__ import annotations

from typing import Any

from .data import BANDS, PRIMITIVES, RiderData


def effects(data: RiderData, card_id: str | None) -> dict[str, Any]:
    if card_id is None:
        return {}
    return data.cards.get(card_id, {}).get("effects", {}) or {}


def has(data: RiderData, card_id: str | None, primitive: str) -> bool:
    return bool(effects(data, card_id).get(primitive))


def armor(data: RiderData, fighter: dict[str, Any]) -> int:
    """防御力 added in the damage step while the card is vented in (ガードベント's invented default)."""
    return int(effects(data, fighter.get("vent")).get("armor", 0) or 0)


def phase_ok(data: RiderData, card_id: str, phase: str) -> bool:
    """能動/受動 timing (seed: カード使用フェイズ). phase: "active" | "passive"."""
    allowed = data.cards[card_id].get("phase", "either")
    return allowed == "either" or allowed == phase


def sheet(data: RiderData, fighter: dict[str, Any]) -> dict[str, Any]:
    kind, s = data.character(fighter["character"])
    return s


def survive_bonus(data: RiderData, fighter: dict[str, Any], key: str) -> int:
    """サバイブ: +stats to each stat, ☆ move bonus, +weapon_damage to vented weapons."""
    total = 0
    for card_id in fighter.get("survive", []) or []:
        total += int(effects(data, card_id).get("survive", {}).get(key, 0))
    return total


def stat(data: RiderData, fighter: dict[str, Any], key: str) -> int:
    """攻撃力 / 防御力 / 運動性 with lasting modifiers (サバイブ), before turn-only ones."""
    return int(sheet(data, fighter)[key]) + survive_bonus(data, fighter, "stats")


def pool(data: RiderData, fighter: dict[str, Any], key: str) -> int:
    """Dice rolled for a stat now: ナスティベント takes dice from 運動性 and 攻撃力.
    Never fewer than 1 die (rider.md: a pool of 0 is not allowed; ruling: clamp at 1)."""
    n = stat(data, fighter, key)
    if key in ("mobility", "attack"):
        n -= int(fighter.get("nasty", 0) or 0)
    return max(1, n)


def move_bonus(data: RiderData, fighter: dict[str, Any]) -> int:
    """☆ movement bonus: traits (飛行), サバイブ, a vented card with move_bonus (サーチベント)."""
    total = 0
    kind, s = data.character(fighter["character"])
    for trait in s.get("traits", []) or []:
        total += int(data.traits.get(trait, {}).get("move_bonus", 0))
    total += survive_bonus(data, fighter, "move_bonus")
    total += int(effects(data, fighter.get("vent")).get("move_bonus", 0))
    return total


def trick(fighter: dict[str, Any], key: str) -> int:
    return int((fighter.get("trick") or {}).get(key, 0))


def band_index(band: str) -> int:
    return BANDS.index(band)


def in_range(span: list[str] | tuple[str, str], band: str) -> bool:
    lo, hi = span
    return band_index(lo) <= band_index(band) <= band_index(hi)


def evasion_options(data: RiderData, fighter: dict[str, Any]) -> list[str]:
    """Pools this fighter may evade with now: 運動性 always; 防御力 with a guard vented;
    攻撃力 (受け) with a parrying weapon vented."""
    options = ["mobility"]
    if has(data, fighter.get("vent"), "guard"):
        options.append("defense")
    if has(data, fighter.get("vent"), "parry"):
        options.append("attack")
    return options
