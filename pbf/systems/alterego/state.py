"""The state of a battle: a plain, YAML-representable dict with a stable key order.

    turn: 3
    distance: 2            # 0 = same square, never above max_distance
    winner: null           # null / a player's name / "draw"
    fighters:
      美鈴:                # ctx.players order
        character: meiling
        hp: 17
        soul: 2            # ソウルゲージ 0–9
        stance: false      # a guard that held: no plot next turn; meets attacks as ガード in the table
        charging: null     # technique id of a 強攻撃 that comes out next turn
        hand: [弱, →, …]   # [] when hands = "free"
        deck: [...]        # top of the deck first
        discard: [...]
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...dice import Dice
from ..base import IMMUTABLE, copy_state
from .events import DrawCards, Reshuffle

# The rules version of this code (AlterEgo.rules_version, archived with every turn). A turn
# replayed from an archive made under an older version is resolved by that version's rulings
# (Context.rules_version); docs/rules/alterego.md lists what each version changed.
RULES_VERSION = 3

# The soul gauge each costs (the page: キャンセル and 特殊必殺技 cost 3); here, not in the
# resolver, so that the order views need not import the resolver.
CANCEL_COST = 3
SUPER_COST = 3
SOUL_MAX = 9  # the soul gauge's top


def new_fighter(character: str, hp: int) -> dict[str, Any]:
    return {
        "character": character,
        "hp": hp,
        "soul": 0,
        "stance": False,
        "charging": None,
        "hand": [],
        "deck": [],
        "discard": [],
    }


CARD_LISTS = ("hand", "deck", "discard")


def copy_battle(state: dict[str, Any]) -> dict[str, Any]:
    """``copy_state`` for this game's state, in half the time: the top level, each fighter and its
    card lists are copied whole (a card list holds card symbols, strings: pbf/validate.py checks
    state.yaml), without looking at each card; any other value that is not a scalar (a key a GM
    added) goes through ``copy_state`` (tests/alterego/test_system.py)."""
    new = dict(state)
    for key, value in new.items():
        if key != "fighters" and type(value) not in IMMUTABLE:
            new[key] = copy_state(value)
    fighters = new.get("fighters")
    if type(fighters) is not dict:
        return copy_state(state)
    new["fighters"] = fighters = dict(fighters)
    for name, fighter in fighters.items():
        if type(fighter) is not dict:
            fighters[name] = copy_state(fighter)
            continue
        fighters[name] = fighter = dict(fighter)
        for key, value in fighter.items():
            if type(value) not in IMMUTABLE:
                fighter[key] = value.copy() if key in CARD_LISTS and type(value) is list else copy_state(value)
    return new


def draw_up(fighter: dict[str, Any], name: str, size: int, dice: Dice, step: int) -> list:
    """Draw back up to ``size``; when the deck runs out, shuffle the discard pile in."""
    events: list = []
    drawn = 0
    while len(fighter["hand"]) < size:
        if not fighter["deck"]:
            if not fighter["discard"]:
                break
            pile = list(fighter["discard"])
            dice.shuffle(pile)
            fighter["deck"], fighter["discard"] = pile, []
            events.append(Reshuffle(name, step, len(pile)))
        fighter["hand"].append(fighter["deck"].pop(0))
        drawn += 1
    if drawn:
        events.append(DrawCards(name, step, drawn, len(fighter["hand"])))
    return events


def missing_cards(hand: list[str], wanted: list[str]) -> list[str]:
    """The cards of ``wanted`` that ``hand`` does not hold (multiplicities count)."""
    have = Counter(hand)
    out = []
    for card in wanted:
        if have[card] > 0:
            have[card] -= 1
        else:
            out.append(card)
    return out


def take_cards(hand: list[str], cards: list[str]) -> None:
    for card in cards:
        if card in hand:
            hand.remove(card)


def is_locked(fighter: dict[str, Any]) -> bool:
    return bool(fighter.get("stance")) or fighter.get("charging") is not None
