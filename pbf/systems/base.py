"""What a game system provides to the core (CLI, campaign files, dice, rendering).

A system is a package ``pbf/systems/<name>/`` whose ``__init__`` exposes ``SYSTEM``, an object
with the attributes and methods of :class:`GameSystem`. The core never looks inside a
system's state or orders; the system never touches files, the clock or ``random``.

State is a plain, YAML-representable mapping (str keys; str/int/bool/None/list/dict values,
in a stable key order). Orders are the system's own typed objects. Events are
:class:`pbf.events.Event` subclasses.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any, Protocol

from ..dice import Dice
from ..events import Event
from ..record import record


@record(frozen=True)
class Player:
    name: str  # as written in campaign.toml, NFKC-normalised
    character: str  # character / rider / monster id in the system's data
    team: str | None = None
    trip: str | None = None
    npc: str | None = None  # pbf plays this fighter: its level (random / normal / hard; docs/npc.md)


@record
class Context:
    """Everything about a campaign that is not state: who plays what, the data, the options."""

    system: str
    players: dict[str, Player]  # campaign order
    data: Any  # what the system's load_data returned
    options: dict[str, Any] = field(default_factory=dict)  # defaults merged with campaign.toml
    # the rules a turn is resolved under: None for the system's own (``rules_version``); a replay
    # gives the version the turn was archived with, so that a system which gates a changed ruling
    # by it reproduces the old turn
    rules_version: int | None = None


class GameSystem(Protocol):
    name: str  # "alterego" / "rider"
    title: str  # shown in posts, e.g. "Alter EGO ―オルタリゴ―"
    rules_version: int  # bumped when a ruling changes how a turn resolves; archived per turn
    # optional: ``accepts_epilogue = True`` lets ``pbf turn`` through after the battle is decided; the
    # system's parse_order/resolve then accept only what may still be posted (default: refused);
    # ``epilogue_words``: after the end, a thread post's line beginning with one of these words and a
    # colon is such an order without the order marker (pbf.markers.read_post)
    default_options: dict[str, Any]  # every option the system knows, with its default

    def coerce_option(self, key: str, value: Any) -> Any:
        """Check and convert one option (``--set key=value`` gives strings). Raise PbfError."""

    def load_data(self, campaign_data: Path | None) -> Any:
        """Bundled data, overridden/extended by a campaign's ``data/`` folder when given."""

    def check_players(self, players: dict[str, Player], data: Any) -> None:
        """Raise PbfError (Japanese, listing valid ids) for an unknown character."""

    def new_state(self, ctx: Context, dice: Dice) -> dict[str, Any]:
        """Turn 0. Draws (first hands, …) come from ``dice`` (turn 0, empty orders)."""

    def parse_order(self, text: str, player: str, state: dict[str, Any], ctx: Context) -> Any:
        """Read one player's order text; raise OrderError whose problems carry line/column
        relative to ``text`` (1-based). Validates against the state (hand, lock, cards held)."""

    def canonical_order(self, order: Any) -> str:
        """One-line normalised form of a parsed order (hashed into the turn's dice key)."""

    def resolve(
        self, state: dict[str, Any], orders: dict[str, Any | None], dice: Dice, ctx: Context
    ) -> tuple[dict[str, Any], list[Event]]:
        """The pure resolver. ``orders`` has every player; None means no order was given."""

    def summary(self, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        """The ``show --json`` shape of product.md."""

    def public_summary(self, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        """The summary without anything private (a private hand before the battle ends): what
        every post, receipt and public file is rendered from."""

    def order_view(self, order: Any, player: str, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        """Context for ``templates/<system>/check.j2`` (how the order reads). Its ``warnings``: what
        the order will cost that the player may not mean, each a dict with a ``kind`` that
        ``templates/<system>/warning.j2`` words (check.j2's 「※注意」 lines; ``check --json``)."""

    def public_order_view(self, order: Any, player: str, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        """``order_view`` for the thread (receipts): without anything private (the hand)."""

    def order_data(self, order: Any, player: str, state: dict[str, Any], ctx: Context,
                   place: Any = None) -> dict[str, Any]:
        """The order as plain JSON data: ``"order"`` of ``pbf check --json`` (docs/check.md).
        ``place(line, column) -> (line, column)`` moves a position of the order text to where the
        player's own text has it (a whole post); None: positions stay as they are."""

    def notices(self, state: dict[str, Any], ctx: Context) -> dict[str, dict[str, Any]]:
        """Per player, context for ``templates/<system>/notice.j2`` (private notice); may be {}."""

    def template_filters(self) -> dict[str, Any]:
        """Extra jinja2 filters the system's templates use; may be {}."""

    def catalogue(self, data: Any, options: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
        """What a GM or player can choose (``pbf list``), by kind (``characters``, ``riders``,
        ``monsters``, ``cards``, …): plain data for ``templates/<system>/list.j2``. An entry for
        a character, rider or monster carries ``id``, ``name`` and ``names`` (every name it goes
        by, which an order header may use for its player)."""


IMMUTABLE = frozenset((str, int, bool, float, type(None)))


def copy_state(value: Any) -> Any:
    """A copy of plain state data (dicts, lists, scalars) that a resolver may change freely: what
    ``copy.deepcopy`` gave, without its memo and per-type dispatch (a resolver copies the state
    every turn; benchmarks/bench.py). Strings, numbers, None and booleans are immutable and shared:
    a list of them (a hand, a deck) is copied in one call."""
    kind = type(value)
    if kind is dict:
        out = value.copy()
        for key, item in out.items():
            if type(item) not in IMMUTABLE:
                out[key] = copy_state(item)
        return out
    if kind is list:
        for item in value:
            if type(item) not in IMMUTABLE:
                return [copy_state(item) for item in value]
        return value.copy()
    if isinstance(value, dict):  # a dict subclass (ruamel's CommentedMap): a plain dict
        return {key: copy_state(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_state(item) for item in value]
    return value
