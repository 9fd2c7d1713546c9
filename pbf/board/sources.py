"""The turn's orders as written: each player's text and where it came from (a file, a thread's
post), and the orders read from a thread with what the reading noted."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from ..record import record

if TYPE_CHECKING:
    from typing import Any, Callable
    from ..errors import Problem


@record(frozen=True)
class OrderSource:
    """One player's order text and how to place a problem in it for the user."""

    player: str
    text: str
    place: Callable[[Problem], Problem]
    where: str | None = None  # the thread post it came from (">>12")
    # what leaves no order to read, found before the game reads it (an empty 【行動】), already
    # placed in the post: reported as the order's problems, and the text is not read
    problems: tuple[Problem, ...] = ()


@record
class OrderSources:
    """The turn's orders as written, by player, with the problems of the file itself
    (unknown players, two orders for one player, text before the first header)."""

    by_player: dict[str, OrderSource]
    problems: list[Problem] = field(default_factory=list)


# -- orders from a forum thread (docs/forum.md) ----------------------------------------------------

@record
class ThreadOrders:
    collected: Any  # pbf.forum.Collected
    orders_text: str  # what the archive keeps as orders.txt
    sources: OrderSources
    meta: dict[str, Any] = field(default_factory=dict)  # turn.yaml: the thread, the window, the posts read
    notes: list[Problem] = field(default_factory=list)  # everything worth a word, for the receipts and stderr
    read_upto: int | None = None  # the last post the previous turn read, when it read this thread
    deadline: str | None = None  # "YYYY-MM-DD HH:MM", the deadline the window was read with
