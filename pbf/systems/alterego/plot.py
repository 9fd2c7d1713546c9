"""Orders: the lark grammar (grammar/alterego.lark), its Transformer, and the plot objects.

A plot is what one player wrote: cards left to right, with cancel markers. Positions are kept
as line/column of the player's own text (1-based) so that problems point at what they typed.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cached_property, lru_cache
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ...errors import OrderError, Problem, nearest
from ...resources import lark_parser
from ...record import record

CARD_OF_TERMINAL = {"WEAK": "弱", "STRONG": "強", "FORWARD": "→", "BACK": "←", "UP": "↑"}
WORDS = ["light", "weak", "heavy", "strong", "forward", "fwd", "back", "guard", "up", "jump", "cancel"]
CARD_HELP = "使えるカード：弱(L) 強(H) →(6, ->) ←(4, <-) ↑(8, ^)、技の名前（ジャンプ、投げ…）／キャンセルは C(弱←)"
CHAT_HELP = "行動の後ろに雑談は書けません。雑談は【行動】の行より前に書いてください。"


@record(frozen=True)
class Card:
    """One plotted card."""

    symbol: str  # 弱 強 → ← ↑
    line: int = 1
    column: int = 1
    text: str = ""  # as the player wrote it


@record(frozen=True)
class Cancel:
    """キャンセル: before the technique it skips; discards two hand cards."""

    discards: tuple[str, ...]
    line: int = 1
    column: int = 1
    text: str = ""


@record(frozen=True)
class Plot:
    """One player's order, as written (cards and cancel markers, left to right)."""

    items: tuple[Card | Cancel, ...] = ()

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
        return "".join(item.symbol if isinstance(item, Card) else f"C({''.join(item.discards)})" for item in self.items)


def fold(text: str) -> str:
    """The key words are looked up by: hiragana as katakana, ASCII in lower case (same length)."""
    return "".join(chr(ord(ch) + 0x60) if "ぁ" <= ch <= "ゖ" else ch.lower() for ch in text)


# A word ends at a separator, a card symbol or a bracket (弱→ジャンプ強 is three words).
_STOPS = set(" \t\n\r\u3000,、・/.。弱強→←↑⇒➡⇐⬅⇑⬆<>-^()[]{}「」【】〔〕")


def word_end(norm: str, pos: int) -> int:
    """End of the unreadable word at ``pos``: an ASCII word, or a run of other characters."""
    end = pos
    if norm[pos : pos + 1].isascii():
        while end < len(norm) and norm[end].isascii() and norm[end].isalpha():
            end += 1
        return max(end, pos + 1)
    while end < len(norm) and norm[end] not in _STOPS and not norm[end].isascii():
        end += 1
    return max(end, pos + 1)


def _ascii_boundary(folded: str, start: int, end: int) -> bool:
    """An ASCII word (jaku, energy cannon) is read only as a whole word, never inside another."""
    before = folded[start - 1 : start]
    after = folded[end : end + 1]
    if folded[start].isascii() and before.isascii() and before.isalnum():
        return False
    return not (folded[end - 1].isascii() and after.isascii() and after.isalnum())


_TABLES: dict[int, tuple[dict[str, str], dict[str, str], dict[str, str]]] = {}


def _word_table(words: dict[str, str] | None) -> tuple[dict[str, str], dict[str, str]]:
    """``words`` folded for lookup (folded word -> cards, folded word -> the word as written),
    built once per words dict (the data keeps one per character)."""
    if not words:
        return {}, {}
    kept = _TABLES.get(id(words))
    if kept is None or kept[0] is not words:
        table: dict[str, str] = {}
        shown: dict[str, str] = {}
        for word, cards in words.items():
            key = fold(unicodedata.normalize("NFKC", word))
            if key and key not in table:
                table[key], shown[key] = cards, word
        kept = _TABLES[id(words)] = (words, table, shown)
    return kept[1], kept[2]


_CARD_TEXT = set("弱強→←↑ \t\n\u3000")


def _only_cards(norm: str) -> bool:
    """A plot of card symbols only (the common case): no word to look up."""
    return all(ch in _CARD_TEXT for ch in norm)


class _Source:
    """NFKC per character, remembering where each normalised character came from; then the
    words of ``words`` (ジャンプ, エナジーキャノン, なし …) replaced by the cards they stand for."""

    def __init__(self, text: str, words: dict[str, str] | None = None):
        self.text = text
        self.origin: list[int] = []
        parts = []
        i = 0
        while i < len(text):
            j = i + 1  # a half-width kana with its sound mark is one character (ｼﾞ → ジ)
            while j < len(text) and text[j] in "\uff9e\uff9f":
                j += 1
            norm = unicodedata.normalize("NFKC", text[i:j])
            parts.append(norm)
            self.origin.extend([i] * len(norm))
            i = j
        self.norm = "".join(parts)
        self.origin.append(len(text))
        self.words, self.shown = _word_table(words)  # folded word -> cards / -> as the data spells it
        if self.words and not _only_cards(self.norm):
            self._replace_words()

    def _replace_words(self) -> None:
        folded = fold(self.norm)
        longest = max(len(k) for k in self.words)
        out: list[str] = []
        origin: list[int] = []
        i = 0
        while i < len(folded):
            for size in range(min(longest, len(folded) - i), 0, -1):
                cards = self.words.get(folded[i : i + size])
                if cards is not None and _ascii_boundary(folded, i, i + size):
                    out.append(cards)
                    origin.extend([self.origin[i]] * len(cards))
                    i += size
                    break
            else:
                out.append(self.norm[i])
                origin.append(self.origin[i])
                i += 1
        origin.append(self.origin[len(folded)])
        self.norm, self.origin = "".join(out), origin

    def where(self, start: int, end: int | None = None) -> tuple[int, int, str]:
        """Line, column (1-based) and original text of a normalised span."""
        o_start = self.origin[min(start, len(self.origin) - 1)]
        o_end = self.origin[min(end, len(self.origin) - 1)] if end is not None else o_start + 1
        if o_end <= o_start:
            o_end = o_start + 1
        before = self.text[:o_start]
        line = before.count("\n") + 1
        column = o_start - (before.rfind("\n") + 1) + 1
        return line, column, self.text[o_start:o_end]

    def suggestion(self, word: str) -> str | None:
        """The nearest known word (English card words, or the data's words) for a 「もしかして」."""
        key = fold(word)
        ascii_word = key.isascii()
        pool = {w: w for w in WORDS} if ascii_word else {}
        pool.update({k: self.shown[k] for k in self.words if k.isascii() == ascii_word and len(k) > 1})
        guess = nearest(key, list(pool), cutoff=0.6)
        return pool[guess] if guess else None


@lru_cache(maxsize=1)
def parser() -> Lark:
    """Built once per process (LALR), and kept in pbf's cache between processes."""
    return lark_parser("alterego", parser="lalr")  # tokens carry their positions; no rule needs them


class _ToPlot(Transformer):
    def __init__(self, source: _Source, problems: list[Problem], unbracketed: set[int]):
        super().__init__()
        self.source = source
        self.problems = problems
        self.unbracketed = unbracketed  # markers already reported for their missing brackets

    def card(self, tokens: list[Token]) -> Card:
        (tok,) = tokens
        line, column, text = self.source.where(tok.start_pos, tok.end_pos)
        return Card(CARD_OF_TERMINAL[tok.type], line, column, text)

    def cancel(self, children: list) -> Cancel:
        marker: Token = children[0]
        cards: list[Card] = children[1:]
        line, column, text = self.source.where(marker.start_pos, marker.end_pos)
        if len(cards) != 2 and marker.start_pos not in self.unbracketed:
            self.problems.append(
                Problem(
                    f"キャンセルで捨てるカードは２枚です（{len(cards)}枚書かれています）。",
                    line=line, column=column, text=text, hint="例：C(弱←)",
                )
            )
        return Cancel(tuple(c.symbol for c in cards), line, column, text)

    def start(self, items: list) -> Plot:
        return Plot(tuple(items))


def _syntax_problem(error: UnexpectedInput, source: _Source) -> Problem:
    if isinstance(error, UnexpectedCharacters):
        pos = error.pos_in_stream
        end = word_end(source.norm, pos)
        line, column, text = source.where(pos, end)
        word = source.norm[pos:end]
        guess = source.suggestion(word) if end > pos + 1 or not word.isascii() else None
        if guess is not None:
            hint = f"もしかして「{guess}」？　{CARD_HELP}"
        elif not word.isascii() and end > pos + 1:
            hint = CHAT_HELP
        else:
            hint = CARD_HELP
        return Problem("カードとして読めない語です。", line=line, column=column, text=text, hint=hint)
    assert isinstance(error, UnexpectedToken)
    tok = error.token
    if tok.type == "$END" and "_OPEN" in error.expected:
        marker = error.interactive_parser.parser_state.value_stack[-1]
        line, column, text = source.where(marker.start_pos, marker.end_pos)
        return Problem("キャンセルの後には、捨てる２枚をかっこで書きます。", line=line, column=column, text=text, hint="例：C(弱←)")
    if tok.type == "$END":
        end = len(source.norm)
        line, column, _ = source.where(max(end - 1, 0))
        return Problem("キャンセルのかっこが閉じていません。", line=line, column=column, text=source.text[-1:] or None, hint="例：C(弱←)")
    line, column, text = source.where(tok.start_pos, tok.end_pos)
    if "_OPEN" in error.expected:
        return Problem("キャンセルの後には、捨てる２枚をかっこで書きます。", line=line, column=column, text=text, hint="例：C(弱←)")
    if tok.type == "_OPEN":
        return Problem("かっこはキャンセル（C）の後にだけ書けます。", line=line, column=column, text=text, hint="例：C(弱←)")
    if tok.type == "_CLOSE":
        return Problem("閉じかっこに対応する開きかっこがありません。", line=line, column=column, text=text)
    return Problem(f"ここに「{text}」は書けません。", line=line, column=column, text=text, hint=CARD_HELP)


_ASCII_RUN = re.compile(r"[A-Za-z]+")
_ASCII_CARDS = re.compile(r"(?:light|weak|heavy|strong|forward|fwd|back|guard|up|jump|cancel|[lhc])+", re.I)


def _ascii_words(source: _Source) -> list[Problem]:
    """An ASCII word that is not a run of card words (hevy, ligth) is one problem for the whole
    word — the lexer alone would read its first letter as a card (h = 強) — and is blanked out
    so that the rest of the plot is still read."""
    problems = []
    for run in _ASCII_RUN.finditer(source.norm):
        if _ASCII_CARDS.fullmatch(run.group()):
            continue
        problems.append(_syntax_problem(UnexpectedCharacters(source.norm, run.start(), 1, 1), source))
        source.norm = source.norm[: run.start()] + " " * len(run.group()) + source.norm[run.end() :]
    return problems


# (text, id(words)) -> (words, plot). A plot is immutable and the same text with the same words
# always reads the same, so a text read once is not given to lark again: a replay reads the same
# few orders (弱, ←, なし …) turn after turn, and a bot that tries plots reads the same ones
# thousands of times. The words dict is kept with the plot (the data keeps one per character),
# so an id is never mistaken for another dict's. Bounded: cleared when full.
_READ: dict[tuple[str, int], tuple[Any, Plot]] = {}
_READ_MAX = 4096


def parse_plot(text: str, words: dict[str, str] | None = None) -> Plot:
    """Syntax only: text → Plot. Raises OrderError with every problem found.

    ``words``: words that stand for cards (the data's readings and technique names)."""
    key = (text, id(words))
    kept = _READ.get(key)
    if kept is not None and kept[0] is words:
        return kept[1]
    plot = _read_plot(text, words)
    if len(_READ) >= _READ_MAX:
        _READ.clear()
    _READ[key] = (words, plot)
    return plot


def forget_plots() -> None:
    """Forget every plot read: the next reading of any text goes through lark again
    (benchmarks/bench.py measures a cold parse with it)."""
    _READ.clear()


def _read_plot(text: str, words: dict[str, str] | None) -> Plot:
    source = _Source(text or "", words)
    problems: list[Problem] = _ascii_words(source)
    unbracketed: set[int] = set()

    def on_error(error: UnexpectedInput) -> bool:
        if isinstance(error, UnexpectedToken) and error.token.type == "$END" and problems and "_OPEN" not in error.expected:
            return False  # the earlier problem already explains it
        problems.append(_syntax_problem(error, source))
        if isinstance(error, UnexpectedToken) and "_OPEN" in error.expected:
            # a marker without brackets: close it empty, so that the cards after it read as cards
            # (one problem, not one per card) and it is not reported again for its card count
            unbracketed.add(error.interactive_parser.parser_state.value_stack[-1].start_pos)
            error.interactive_parser.feed_token(Token("_OPEN", "("))
            error.interactive_parser.feed_token(Token("_CLOSE", ")"))
        if isinstance(error, UnexpectedCharacters):
            # skip a whole unknown word at once ("jmp" or よろしく is one problem, not one per letter)
            pos = error.pos_in_stream
            end = word_end(source.norm, pos)
            if end > pos + 1:
                error.interactive_parser.lexer_thread.state.line_ctr.feed(source.norm[pos:end])
        return len(problems) < 20

    try:
        tree = parser().parse(source.norm, on_error=on_error)
    except UnexpectedInput as error:
        if not problems:
            problems.append(_syntax_problem(error, source))
        raise OrderError(problems) from None
    plot = _ToPlot(source, problems, unbracketed).transform(tree)
    if problems:
        raise OrderError(sorted(problems, key=lambda p: (p.line or 0, p.column or 0)))
    return plot
