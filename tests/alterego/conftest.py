from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbf.dice import Dice
from pbf.events import event_dicts
from pbf.render import environment, tidy
from pbf.systems.alterego import SYSTEM
from pbf.systems.alterego.state import new_fighter
from pbf.systems.base import Context, Player

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def data():
    return SYSTEM.load_data(HERE / "data")


def make_ctx(data, characters: dict[str, str], rules_version: int | None = None, **options: Any) -> Context:
    """``rules_version``: resolve (and word the post) under an older version of the rules, as a
    replay of a turn archived under it does; None for the rules of now."""
    players = {name: Player(name, cid) for name, cid in characters.items()}
    older = {"rules_version": rules_version} if rules_version is not None else {}
    return Context("alterego", players, data, {**SYSTEM.default_options, **options}, **older)


def make_state(ctx: Context, distance: int = 2, fighters: dict[str, dict] | None = None, **top: Any) -> dict:
    state = {"turn": 0, "distance": distance, "winner": None, "fighters": {}}
    for name, player in ctx.players.items():
        f = new_fighter(player.character, int(ctx.options["hp"]))
        f.update((fighters or {}).get(name, {}))
        state["fighters"][name] = f
    state.update(top)
    return state


def parse_orders(ctx: Context, state: dict, orders: dict[str, str | None]) -> dict[str, Any]:
    """Every player's parsed order; a player left out or given None has none (未提出)."""
    parsed = {
        name: (SYSTEM.parse_order(text, name, state, ctx) if text is not None else None)
        for name, text in orders.items()
    }
    for name in ctx.players:
        parsed.setdefault(name, None)
    return parsed


def play(ctx: Context, state: dict, orders: dict[str, str | None], dice: Dice | None = None):
    return SYSTEM.resolve(state, parse_orders(ctx, state, orders), dice or Dice.fixed([]), ctx)


def render_post(ctx: Context, before: dict, after: dict, events: list, parsed: dict[str, Any]) -> str:
    """The turn's post as pbf renders it (the renderer's own environment, tidied), without the
    verification footer that the engine adds."""
    text = environment(SYSTEM).get_template("alterego/post.j2").render(
        title=SYSTEM.title, turn=after["turn"], events=event_dicts(events),
        summary=SYSTEM.summary(after, ctx), before=SYSTEM.summary(before, ctx),
        missing=[n for n, o in parsed.items() if o is None], repeated=[],
        orders={n: (SYSTEM.canonical_order(o) if o is not None else None) for n, o in parsed.items()},
        players=ctx.players, options=ctx.options, rules_version=getattr(ctx, "rules_version", None) or SYSTEM.rules_version,
    )
    return tidy(text)
