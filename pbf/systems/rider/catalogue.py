"""What a GM or player can choose in the rider game (``pbf list``): riders, monsters, cards.

Plain data for ``templates/rider/list.j2`` and ``pbf list --json``; names and stats come from
the game's data (riders.yaml, monsters.yaml, cards.yaml, traits.yaml).
"""

from __future__ import annotations

from typing import Any

from .data import RiderData


def _names(char_id: str, sheet: dict[str, Any]) -> list[str]:
    """Every name a fighter goes by (an order header may use any that one player alone plays)."""
    names = [sheet.get("name", char_id), sheet.get("english"), *(sheet.get("aliases") or []), char_id]
    return [str(n) for n in names if n]


def _stats(sheet: dict[str, Any]) -> dict[str, int]:
    return {"attack": int(sheet["attack"]), "defense": int(sheet["defense"]), "mobility": int(sheet["mobility"])}


def _monster_ref(data: RiderData, monster_id: str | None) -> dict[str, str] | None:
    if monster_id is None:
        return None
    return {"id": monster_id, "name": str(data.monsters.get(monster_id, {}).get("name", monster_id))}


def catalogue(data: RiderData, hp: int) -> dict[str, list[dict[str, Any]]]:
    """``riders``, ``monsters`` and ``cards``. ``hp``: riders' HP unless a sheet sets its own."""
    riders = [
        {
            "id": rid,
            "name": sheet.get("name", rid),
            "english": sheet.get("english"),
            "names": _names(rid, sheet),
            **_stats(sheet),
            "hp": int(sheet.get("hp") or hp),
            "visor": sheet.get("visor"),
            "contract": _monster_ref(data, sheet.get("contract")),
            "deck": [
                {"id": card, "name": data.card_name(card), "count": int(count)}
                for card, count in (sheet.get("deck") or {}).items()
            ],
            "weapons": [  # what a card brings out, by name (a post may name the card so: ドラグセイバー)
                {"id": card, "card": data.card_name(card), "names": [str(n) for n in names or ()]}
                for card, names in (sheet.get("weapons") or {}).items()
            ],
        }
        for rid, sheet in data.riders.items()
    ]
    monsters = [
        {
            "id": mid,
            "name": sheet.get("name", mid),
            "english": sheet.get("english"),
            "names": _names(mid, sheet),
            **_stats(sheet),
            "hp": int(sheet.get("hp", hp)),
            "weapon": sheet.get("weapon"),
            "traits": [str(data.traits.get(t, {}).get("name", t)) for t in sheet.get("traits") or []],
        }
        for mid, sheet in data.monsters.items()
    ]
    cards = [
        {
            "id": cid,
            "name": card.get("name", cid),
            "english": card.get("english"),
            "phase": card.get("phase", "either"),  # active (能動) / passive (受動) / either
            "vent": bool(card.get("vent", False)),
            "once_per_battle": bool(card.get("once_per_battle", False)),
            "effects": dict(card.get("effects") or {}),
        }
        for cid, card in data.cards.items()
    ]
    return {"riders": riders, "monsters": monsters, "cards": cards}
