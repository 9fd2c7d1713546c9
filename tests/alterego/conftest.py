from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbf.dice import Dice
from pbf.systems.alterego import SYSTEM
from pbf.systems.alterego.state import new_fighter
from pbf.systems.base import Context, Player

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def data():
    return SYSTEM.load_data(HERE / "data")


def make_ctx(data, characters: dict[str, str], **options: Any) -> Context:
    players = {name: Player(name, cid) for name, cid in characters.items()}
    return Context("alterego", players, data, {**SYSTEM.default_options, **options})


def make_state(ctx: Context, distance: int = 2, fighters: dict[str, dict] | None = None, **top: Any) -> dict:
    state = {"turn": 0, "distance": distance, "winner": None, "fighters": {}}
    for name, player in ctx.players.items():
        f = new_fighter(player.character, int(ctx.options["hp"]))
        f.update((fighters or {}).get(name, {}))
        state["fighters"][name] = f
    state.update(top)
    return state


def play(ctx: Context, state: dict, orders: dict[str, str | None], dice: Dice | None = None):
    parsed = {
        name: (SYSTEM.parse_order(text, name, state, ctx) if text is not None else None)
        for name, text in orders.items()
    }
    for name in ctx.players:
        parsed.setdefault(name, None)
    return SYSTEM.resolve(state, parsed, dice or Dice.fixed([]), ctx)
