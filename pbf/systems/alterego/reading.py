"""技を読み取る: the plotted cards, left to right, become techniques by longest match.

Seed: 「コマンドと同じ順番のカードの組み合わせが出来た所で技が成立します。ただし、複数の
コマンドと重複している場合はコマンドの長い方を優先します。」 A cancel marker separates the
reading: the cards on either side of it never form one command together.
"""

from __future__ import annotations

from dataclasses import dataclass

from .data import Character, Technique
from .plot import Cancel, Card, Plot


@dataclass(frozen=True)
class ReadTechnique:
    technique: Technique
    cards: str
    line: int = 1
    column: int = 1


@dataclass(frozen=True)
class CancelMark:
    discards: tuple[str, ...]
    line: int = 1
    column: int = 1


def commands(character: Character) -> dict[str, Technique]:
    """Command → technique; a character's own technique overrides a common one."""
    table: dict[str, Technique] = {}
    for tech in character.techniques:
        table[tech.command] = tech
    return table


def read_cards(cards: list[Card], table: dict[str, Technique]) -> list[ReadTechnique]:
    longest = max(len(c) for c in table)
    out: list[ReadTechnique] = []
    i = 0
    while i < len(cards):
        for size in range(min(longest, len(cards) - i), 0, -1):
            command = "".join(c.symbol for c in cards[i : i + size])
            if command in table:
                out.append(ReadTechnique(table[command], command, cards[i].line, cards[i].column))
                i += size
                break
        else:  # a card no command starts with (only with odd data): skip it
            i += 1
    return out


def read_plot(plot: Plot, character: Character) -> list[ReadTechnique | CancelMark]:
    table = commands(character)
    out: list[ReadTechnique | CancelMark] = []
    segment: list[Card] = []
    for item in plot.items:
        if isinstance(item, Cancel):
            out.extend(read_cards(segment, table))
            segment = []
            out.append(CancelMark(item.discards, item.line, item.column))
        else:
            segment.append(item)
    out.extend(read_cards(segment, table))
    return out
