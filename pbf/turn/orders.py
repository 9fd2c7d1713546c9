"""The turn's orders read: every player's order parsed against the state (a missing one is the
game's empty order, or last turn's under ``missing = "repeat"``), and their canonical text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..campaign.records import archived_yaml
from ..errors import OrderError, PbfError
from ..board.orders import split_orders
from ..record import record
from ..board.sources import OrderSource, OrderSources

if TYPE_CHECKING:
    from typing import Any
    from ..campaign.layout import Campaign
    from ..errors import Problem
    from ..board.orders import Aliases


@record
class ReadOrders:
    orders: dict[str, Any]  # player -> parsed order, None when missing
    canonical: str
    missing: list[str]  # no order: the game's empty order (未提出)
    repeated: list[str]  # missing = "repeat": last turn's order again (継続)


def player_aliases(campaign: Campaign) -> Aliases:
    """The names of each player's character (美鈴, ナイト, Knight): a header or --player may use
    them where only one player plays that character. Made once per context (its players and
    data do not change); the callers only read it."""
    ctx = campaign.ctx
    kept = _ALIASES.get(id(ctx))
    if kept is None or kept[0] is not ctx:
        names = _character_names(campaign)
        aliases = {name: list(names.get(p.character, [])) for name, p in ctx.players.items()}
        if len(_ALIASES) >= 16:
            _ALIASES.clear()
        kept = _ALIASES[id(ctx)] = (ctx, aliases)
    return kept[1]


_ALIASES: dict[int, tuple[Any, Aliases]] = {}


# id(data) -> (data, character id -> names): the names come from the data alone (a catalogue's
# ``names``), and building the whole catalogue for them on every turn cost more than the parsing.
_NAMES: dict[int, tuple[Any, dict[str, list[str]]]] = {}


def _character_names(campaign: Campaign) -> dict[str, list[str]]:
    data = campaign.ctx.data
    kept = _NAMES.get(id(data))
    if kept is None or kept[0] is not data:
        names = {
            entry["id"]: entry["names"]
            for entries in campaign.system.catalogue(data, campaign.ctx.options).values()
            for entry in entries
            if isinstance(entry, dict) and "names" in entry
        }
        if len(_NAMES) >= 16:
            _NAMES.clear()
        kept = _NAMES[id(data)] = (data, names)
    return kept[1]


def sources_from_file(campaign: Campaign, text: str) -> OrderSources:
    problems: list[Problem] = []
    found = split_orders(text, list(campaign.ctx.players), problems, player_aliases(campaign))
    return OrderSources({name: OrderSource(name, e.text, e.place) for name, e in found.items()}, problems)


def canonical_orders(campaign: Campaign, orders: dict[str, Any]) -> str:
    """``NAME\tORDER\n`` per player, sorted by name; a missing order is empty (product.md)."""
    return canonical_orders_of(campaign.system, campaign.ctx, orders)


def canonical_orders_of(system: Any, ctx: Any, orders: dict[str, Any]) -> str:
    lines = []
    for name in sorted(ctx.players):
        order = orders.get(name)
        text = system.canonical_order(order) if order is not None else ""
        lines.append(f"{name}\t{text}\n")
    return "".join(lines)


def previous_orders(campaign: Campaign, turn: int) -> dict[str, str]:
    """The canonical orders of an archived turn, by player."""
    if turn <= 0:
        return {}
    record = archived_yaml(campaign, turn, "dice.yaml")
    out = {}
    for line in str(record.get("orders_canonical", "")).split("\n"):
        name, tab, order = line.partition("\t")
        if tab and order:
            out[name] = order
    return out


def read_orders(
    campaign: Campaign, sources: OrderSources, state: dict[str, Any] | None = None
) -> ReadOrders:
    """Parse every player's order; all problems are raised together."""
    state = campaign.state if state is None else state
    system, ctx = campaign.system, campaign.ctx
    problems = list(sources.problems)
    orders: dict[str, Any] = {}
    for name in ctx.players:
        source = sources.by_player.get(name)
        if source is None:
            orders[name] = None
            continue
        if source.problems:
            problems.extend(source.problems)
            orders[name] = None
            continue
        try:
            orders[name] = system.parse_order(source.text, name, state, ctx)
        except PbfError as exc:
            problems.extend(source.place(p) for p in exc.problems)
    if problems:
        problems.sort(key=lambda p: (p.source or "", p.line or 0, p.column or 0))
        raise OrderError(problems)
    repeated: list[str] = []
    if ctx.options.get("missing") == "repeat":
        last = previous_orders(campaign, int(state.get("turn", 0)))
        for name in ctx.players:
            if orders[name] is None and last.get(name):
                try:
                    orders[name] = system.parse_order(last[name], name, state, ctx)
                except PbfError:
                    continue  # last turn's order is no longer possible: the empty order
                repeated.append(name)
    missing = [name for name in ctx.players if orders[name] is None]
    return ReadOrders(orders, canonical_orders(campaign, orders), missing, repeated)
