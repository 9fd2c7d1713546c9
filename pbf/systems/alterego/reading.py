"""技を読み取る: the plotted cards, left to right, become techniques by longest match.

Seed: 「コマンドと同じ順番のカードの組み合わせが出来た所で技が成立します。ただし、複数の
コマンドと重複している場合はコマンドの長い方を優先します。」 The longer command wins also when
it starts later and overlaps (美鈴 ↑→←強 is ジャンプ + 彩光蓮華掌). A cancel marker separates the
reading: the cards on either side of it never form one command together.
"""

from __future__ import annotations


from .data import Character, Technique
from .plotted import Cancel, Card, Plot, Split
from ...record import record


@record(frozen=True)
class ReadTechnique:
    technique: Technique
    cards: str
    line: int = 1
    column: int = 1
    split: bool = False  # written with a separator between its cards (弱 強 is still 投げ)


@record(frozen=True)
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


def _longest_at(symbols: str, start: int, end: int, table: dict[str, Technique], longest: int) -> int:
    """Length of the longest command in ``symbols[start:end]`` that starts at ``start`` (0: none)."""
    for size in range(min(longest, end - start), 0, -1):
        if symbols[start : start + size] in table:
            return size
    return 0


def _adjacent(first: Card, second: Card) -> bool:
    """Written side by side, or both from one word (エナジーキャノン stands for three cards)."""
    return first.line == second.line and second.column in (first.column, first.column + len(first.text or "x"))


def read_cards(cards: list[Card], table: dict[str, Technique]) -> list[ReadTechnique]:
    """Left to right, the command at a position is the longest one starting there, unless a
    strictly longer command starts inside it: then it is cut before that one (複数のコマンドと
    重複している場合はコマンドの長い方を優先します). Equal lengths: the earlier one wins."""
    longest = max(len(c) for c in table)
    symbols = "".join(c.symbol for c in cards)
    end = len(symbols)
    out: list[ReadTechnique] = []
    i = 0
    while i < end:
        size = _longest_at(symbols, i, end, table, longest)
        cut = True
        while cut and size > 1:
            cut = False
            for inner in range(i + 1, i + size):
                if _longest_at(symbols, inner, end, table, longest) > size:
                    size = _longest_at(symbols, i, inner, table, longest)
                    cut = True
                    break
        if size == 0:  # a card no command starts with (only with odd data): skip it
            i += 1
            continue
        command = symbols[i : i + size]
        split = any(not _adjacent(a, b) for a, b in zip(cards[i : i + size - 1], cards[i + 1 : i + size]))
        out.append(ReadTechnique(table[command], command, cards[i].line, cards[i].column, split))
        i += size
    return out


# (id(plot), id(character)) -> (plot, character, reading): both are immutable, so a plot is read
# once per character (the plot reader hands out one Plot per text; a replay or a bot reads the
# same plots again and again). The objects are kept with the reading, so an id is never mistaken
# for another object's. Bounded: cleared when full.
_READINGS: dict[tuple[int, int], tuple[Plot, Character, tuple[ReadTechnique | CancelMark, ...]]] = {}
_READINGS_MAX = 4096


def read_plot(plot: Plot, character: Character) -> tuple[ReadTechnique | CancelMark, ...]:
    """The plot's techniques and cancel markers, left to right."""
    key = (id(plot), id(character))
    kept = _READINGS.get(key)
    if kept is not None and kept[0] is plot and kept[1] is character:
        return kept[2]
    reading = tuple(_read(plot, character))
    if len(_READINGS) >= _READINGS_MAX:
        _READINGS.clear()
    _READINGS[key] = (plot, character, reading)
    return reading


def forget_readings() -> None:
    """Forget every reading kept (benchmarks/bench.py measures a cold turn with it)."""
    _READINGS.clear()


def _read(plot: Plot, character: Character) -> list[ReadTechnique | CancelMark]:
    table = commands(character)
    out: list[ReadTechnique | CancelMark] = []
    segment: list[Card] = []
    for item in plot.items:
        if isinstance(item, Split):  # ｜: the cards on either side never form one command
            out.extend(read_cards(segment, table))
            segment = []
        elif isinstance(item, Cancel):
            out.extend(read_cards(segment, table))
            segment = []
            out.append(CancelMark(item.discards, item.line, item.column))
        else:
            segment.append(item)
    out.extend(read_cards(segment, table))
    return out
