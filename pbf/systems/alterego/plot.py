"""Orders: the lark grammar (grammar/alterego.lark), its Transformer, and the plot objects.

A plot is what one player wrote: cards left to right, with cancel markers. Positions are kept
as line/column of the player's own text (1-based) so that problems point at what they typed.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ...errors import OrderError, Problem, nearest
from ...resources import lark_parser

CARD_OF_TERMINAL = {"WEAK": "弱", "STRONG": "強", "FORWARD": "→", "BACK": "←", "UP": "↑"}
WORDS = ["light", "weak", "heavy", "strong", "forward", "fwd", "back", "guard", "up", "jump", "cancel"]
CARD_HELP = "使えるカード：弱(L) 強(H) →(6, ->) ←(4, <-) ↑(8, ^)／キャンセルは C(弱←)"


@dataclass(frozen=True)
class Card:
    """One plotted card."""

    symbol: str  # 弱 強 → ← ↑
    line: int = 1
    column: int = 1
    text: str = ""  # as the player wrote it


@dataclass(frozen=True)
class Cancel:
    """キャンセル: before the technique it skips; discards two hand cards."""

    discards: tuple[str, ...]
    line: int = 1
    column: int = 1
    text: str = ""


@dataclass(frozen=True)
class Plot:
    """One player's order, as written (cards and cancel markers, left to right)."""

    items: tuple[Card | Cancel, ...] = ()

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(i.symbol for i in self.items if isinstance(i, Card))

    @property
    def cancels(self) -> tuple[Cancel, ...]:
        return tuple(i for i in self.items if isinstance(i, Cancel))

    def canonical(self) -> str:
        out = []
        for item in self.items:
            out.append(item.symbol if isinstance(item, Card) else f"C({''.join(item.discards)})")
        return "".join(out)


class _Source:
    """NFKC per character, remembering where each normalised character came from."""

    def __init__(self, text: str):
        self.text = text
        self.origin: list[int] = []
        parts = []
        for i, ch in enumerate(text):
            norm = unicodedata.normalize("NFKC", ch)
            parts.append(norm)
            self.origin.extend([i] * len(norm))
        self.norm = "".join(parts)
        self.origin.append(len(text))

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
        line, column, text = source.where(pos)
        word_end = pos
        while word_end < len(source.norm) and source.norm[word_end].isascii() and source.norm[word_end].isalpha():
            word_end += 1
        hint = CARD_HELP
        if word_end > pos + 1:
            guess = nearest(source.norm[pos:word_end].lower(), WORDS, cutoff=0.6)
            if guess:
                hint = f"もしかして「{guess}」？　{CARD_HELP}"
        if word_end > pos + 1:
            line, column, text = source.where(pos, word_end)
        return Problem("カードとして読めない文字です。", line=line, column=column, text=text, hint=hint)
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


def parse_plot(text: str) -> Plot:
    """Syntax only: text → Plot. Raises OrderError with every problem found."""
    source = _Source(text or "")
    problems: list[Problem] = []
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
            # skip a whole unknown word at once ("jmp" is one problem, not three)
            pos = error.pos_in_stream
            end = pos
            while end < len(source.norm) and source.norm[end].isascii() and source.norm[end].isalpha():
                end += 1
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
        raise OrderError(problems)
    return plot
