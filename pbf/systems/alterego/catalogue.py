"""What a GM or player can choose in Alter EGO (``pbf list``): characters, cards, techniques.

Plain data for ``templates/alterego/list.j2`` and ``pbf list --json``; the words come from the
game's data (names, classes, matchup kinds), never from here.
"""

from __future__ import annotations

from typing import Any

from .data import GameData, Technique
from .state import SUPER_COST


def technique_entry(tech: Technique, data: GameData) -> dict[str, Any]:
    """One technique as the player reads it: the cards, what they make, its reach and damage."""
    return {
        "cards": tech.command,
        "name": tech.name,
        "class": data.classes.get(tech.cls, tech.cls),
        "kind": data.matchups.kinds.get(tech.kind),  # None: a movement (not in the matchup table)
        "reach": tech.reach,
        "damage": tech.damage,
        "cost": SUPER_COST if tech.cls == "super" else 0,
        "charge": tech.charge,
        "knockdown": tech.knockdown,
    }


def catalogue(data: GameData) -> dict[str, list[dict[str, Any]]]:
    """``characters`` (each with its own techniques), the common ``techniques``, the deck's ``cards``."""
    common = set(data.common)
    return {
        "characters": [
            {
                "id": char.id,
                "name": char.name,
                "names": [char.name, char.id],  # what an order header may call its player by
                "techniques": [technique_entry(t, data) for t in char.techniques if t not in common],
            }
            for char in data.characters.values()
        ],
        "techniques": [technique_entry(t, data) for t in data.common],
        "cards": [{"symbol": c["symbol"], "name": c["name"], "count": int(c["count"])} for c in data.cards],
    }
