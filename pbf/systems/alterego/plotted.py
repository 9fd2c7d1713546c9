"""The plot objects: the cards, cancel markers and separators one player wrote, left to right.

Apart from the reader (plot.py) so that the technique reading (reading.py) can use them without
importing the reader, which uses the technique reading for moves named apart.
"""

from __future__ import annotations

from functools import cached_property

from ...errors import Problem
from ...record import field, record


@record(frozen=True)
class Card:
    """One plotted card."""

    symbol: str  # 弱 強 → ← ↑
    line: int = 1
    column: int = 1
    text: str = ""  # as the player wrote it
    named: bool = field(default=False, compare=False)  # from a technique's name (ジャンプ, 弱攻撃), not a card's


@record(frozen=True)
class Cancel:
    """キャンセル: before the technique it skips; discards two hand cards."""

    discards: tuple[str, ...]
    line: int = 1
    column: int = 1
    text: str = ""


@record(frozen=True)
class Split:
    """｜ between two cards: they never form one command (独自裁定, docs/rules/alterego.md)."""

    line: int = 1
    column: int = 1
    text: str = "|"
    symbol = "|"


@record(frozen=True)
class Plot:
    """One player's order, as written (cards and cancel markers, left to right), and the notes
    of its reading (what was passed over or corrected: pbf.errors.Problem)."""

    items: tuple[Card | Cancel | Split, ...] = ()
    notes: tuple[Problem, ...] = field(default=(), compare=False)

    # worked out once per plot (a plot is immutable; the parser hands out one per text)
    @cached_property
    def cards(self) -> tuple[str, ...]:
        return tuple(i.symbol for i in self.items if isinstance(i, Card))

    @cached_property
    def cancels(self) -> tuple[Cancel, ...]:
        return tuple(i for i in self.items if isinstance(i, Cancel))

    def canonical(self) -> str:
        return self._canonical

    @cached_property
    def _canonical(self) -> str:
        return "".join(item.symbol if not isinstance(item, Cancel) else f"C({''.join(item.discards)})" for item in self.items)
