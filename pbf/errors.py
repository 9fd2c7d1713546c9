"""Problems reported to the user: Japanese first, with where and why, never a traceback."""

from __future__ import annotations

from dataclasses import field, replace
from .record import record


@record(frozen=True)
class Problem:
    """One thing wrong with the user's input.

    ``line`` and ``column`` are 1-based. A game system reports them relative to the order
    text it was given; the orders-file reader shifts them to the file's own lines.
    """

    message: str
    player: str | None = None
    line: int | None = None
    column: int | None = None
    text: str | None = None
    hint: str | None = None
    source: str | None = None  # where the order came from, e.g. ">>12" for a thread post
    # A problem about something private (a card not in a private hand): what may be said in
    # public instead. A public rendering shows this and drops the message, text, hint and
    # column, which would tell which card; the private notice gets the whole problem.
    public: str | None = None
    # for a note (what a reading passed over or corrected, not a problem): "note", or "warning"
    # when the order may not mean what the player wanted (the other reading is named)
    severity: str | None = None

    def shifted(self, line_offset: int, first_line_column_offset: int = 0) -> "Problem":
        if self.line is None:
            return self
        column = self.column
        if self.line == 1 and column is not None:
            column += first_line_column_offset
        return replace(self, line=self.line + line_offset, column=column)

    @property
    def private(self) -> bool:
        return self.public is not None

    def format(self, source: str | None = None, *, public: bool = False, japanese: bool = False) -> str:
        """One message for a person. ``public``: for the thread (see :attr:`public`);
        ``japanese``: without the English tail (what goes to the thread is Japanese only)."""
        hide = public and self.public is not None
        where = []
        source = source or self.source
        if source:
            where.append(source)
        if self.player:
            where.append(f"【{self.player}】")
        if self.line is not None:
            where.append(f"{self.line}行目")
        if self.column is not None and not hide:
            where.append(f"{self.column}文字目")
        head = " ".join(where)
        text = f"「{excerpt(self.text)}」" if self.text and not hide else ""
        message = self.public if hide else self.message
        if japanese:
            message = japanese_only(message)
        out = f"{head}：{text}{message}" if head else f"{text}{message}"
        if self.hint and not hide:
            out += f"\n  → {japanese_only(self.hint) if japanese else self.hint}"
        return out


EXCERPT = 40  # characters of a user's text a message quotes


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """A user's text as a message quotes it: control characters (ESC, BEL, NUL, …) shown as
    ``\x1b`` rather than sent to a terminal or a post, and at most ``limit`` characters."""
    shown = text if len(text) <= limit else text[:limit] + f"…（全{len(text):,}文字）"
    if not shown.isprintable():
        shown = "".join(ch if ch.isprintable() or ch in "\u3000" else f"\\x{ord(ch):02x}" if ord(ch) < 0x100
                        else f"\\u{ord(ch):04x}" for ch in shown)
    return shown


def japanese_only(message: str) -> str:
    """``"日本語。 / english"`` → ``"日本語。"``: messages are Japanese first, and an English
    tail (ASCII only) may follow after `` / ``; a `` / `` inside the Japanese part stays."""
    head, sep, tail = message.rpartition(" / ")
    return head.rstrip() if sep and tail.isascii() else message


class PbfError(Exception):
    """A problem with the user's input or files. The CLI prints it and exits 1."""

    def __init__(self, problems: "list[Problem] | Problem | str"):
        if isinstance(problems, str):
            problems = [Problem(problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        super().__init__("\n".join(p.format() for p in self.problems))


class OrderError(PbfError):
    """An order that cannot be read or is not allowed."""


@record
class ProblemList:
    """Collects problems so that every one of them is reported at once."""

    problems: list[Problem] = field(default_factory=list)

    def add(self, problem: Problem) -> None:
        self.problems.append(problem)

    def extend(self, problems: "list[Problem]") -> None:
        self.problems.extend(problems)

    def raise_if_any(self) -> None:
        if self.problems:
            raise PbfError(self.problems)


def nearest(word: str, candidates: "list[str]", cutoff: float = 0.5) -> str | None:
    """The known word closest to ``word`` (for 「もしかして」 suggestions)."""
    import difflib

    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    return found[0] if found else None
