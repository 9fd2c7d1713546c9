"""Reading an orders file into one order text per player (product.md, "Orders file").

A player's order starts at a line beginning with the name in brackets — ``[美鈴]``,
``【美鈴】`` or ``［美鈴］`` — and runs until the next such line; it may continue on the
header's own line. Lines starting with ``#`` are comments. Names match after NFKC.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .errors import PbfError, Problem, nearest

_HEADER = re.compile(r"^(?P<lead>[ \t\u3000]*)(?P<open>[\[【［])(?P<name>[^\]】］]*)(?P<close>[\]】］])")
_COMMENT = re.compile(r"^[ \t\u3000]*[#＃]")


@dataclass(frozen=True)
class OrderText:
    """One player's order as written, with where it starts in the file."""

    player: str
    text: str  # the header line's remainder is its first line; comment lines are blanked
    line: int  # 1-based line of the header in the file
    column: int  # 1-based column where the text starts on the header line

    def place(self, problem: Problem) -> Problem:
        """Shift a problem reported relative to ``text`` to the file's own line and column."""
        from dataclasses import replace

        problem = replace(problem, player=problem.player or self.player)
        return problem.shifted(self.line - 1, self.column - 1)


def decode(raw: bytes, source: str) -> str:
    """UTF-8 (a BOM is allowed); anything else is a clear error naming the line."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise PbfError(
            Problem(
                f"{source} が UTF-8 ではありません（{exc.start + 1}バイト目）。"
                "UTF-8 で保存し直してください。 / the file is not UTF-8",
                line=line,
                hint="Shift_JIS（CP932）で保存されていませんか？",
            )
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def norm_name(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip()


def unknown_player(raw_name: str, players: list[str], **where: int) -> Problem:
    """A name that is not a player of the campaign, with the players and the nearest name."""
    suggestion = nearest(norm_name(raw_name), [norm_name(p) for p in players])
    return Problem(
        f"このキャンペーンにいないプレイヤーです（参加者：{'、'.join(players)}）。 / unknown player",
        text=raw_name,
        hint=f"もしかして「{suggestion}」？" if suggestion else None,
        **where,
    )


def split_orders(text: str, players: list[str], problems: "list[Problem] | None" = None) -> dict[str, OrderText]:
    """Split the file's text by player. Every problem of the file is reported at once: raised,
    or, when a ``problems`` list is given, added to it (so the orders can be checked too)."""
    known = {norm_name(p): p for p in players}
    collect = problems is not None
    problems = problems if problems is not None else []
    found: dict[str, OrderText] = {}
    current: tuple[str, int, int, list[str]] | None = None
    ignored = False  # inside the block of an unknown or duplicate header

    def close() -> None:
        if current is not None:
            name, line, column, lines = current
            found[name] = OrderText(name, "\n".join(lines).rstrip(), line, column)

    for number, line in enumerate(text.split("\n"), start=1):
        if _COMMENT.match(line):
            if current is not None:
                current[3].append("")
            continue
        header = _HEADER.match(line)
        if header:
            close()
            current = None
            raw_name = header["name"]
            name = norm_name(raw_name)
            column = header.end() + 1
            if name not in known:
                problems.append(unknown_player(raw_name, players, line=number, column=header.start("name") + 1))
                ignored = True
                continue
            player = known[name]
            if player in found:
                problems.append(
                    Problem(
                        f"【{player}】の行動が二つあります（最初は{found[player].line}行目）。"
                        "一つにしてください。 / two orders for one player",
                        player=player,
                        line=number,
                        column=header.start("name") + 1,
                        text=raw_name,
                    )
                )
                ignored = True
                continue
            ignored = False
            current = (player, number, column, [line[header.end():]])
            continue
        if current is not None:
            current[3].append(line)
        elif not ignored and line.strip(" \t\u3000"):
            problems.append(
                Problem(
                    "誰の行動か分かりません。行動の前に [名前] の行を書いてください。"
                    " / text before the first [NAME] header",
                    line=number,
                    column=1,
                    text=line.strip()[:20],
                )
            )
    close()
    if problems and not collect:
        raise PbfError(problems)
    return found
