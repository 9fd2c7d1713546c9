"""Reading an orders file into one order text per player (product.md, "Orders file").

A player's order starts at a line beginning with the name in brackets — ``[美鈴]``,
``【美鈴】`` or ``［美鈴］`` — and runs until the next such line; it may continue on the
header's own line. Lines starting with ``#`` are comments. Names match after NFKC.
"""

from __future__ import annotations

import re
import unicodedata

from ..errors import PbfError, Problem, nearest
from ..record import record

# through re's own cache: compiled when an orders file is read, not at every import
_HEADER = r"^(?P<lead>[ \t\u3000]*)(?P<open>[\[【［])(?P<name>[^\]】］]*)(?P<close>[\]】］])"
_COMMENT = r"^[ \t\u3000]*[#＃]"


@record(frozen=True)
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


# Encodings an orders file may come in (product.md asks for UTF-8; GMs on Windows save from
# Notepad as "ANSI", which on a Japanese system is CP932).
_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
_DETECTED = ("utf-8", "cp932", "euc-jp")


def decode(raw: bytes, source: str, encoding: str | None = None) -> str:
    """An orders file's bytes as text, with newlines made ``\n``.

    Without ``encoding``: a BOM decides (UTF-8, UTF-16); else UTF-8, else CP932 (Shift_JIS as
    Windows writes it) or EUC-JP, whichever reads as Japanese (as for threads). With ``encoding`` (``--input-encoding``), only that one. Bytes that the
    encoding(s) cannot read are an error naming the line and the byte.
    """
    if encoding is not None:
        candidates = ("utf-8-sig",) if _codec(encoding) == "utf-8" else (encoding,)
    else:
        candidates = next(((codec,) for bom, codec in _BOMS if raw.startswith(bom)), _DETECTED)
    readings = []
    for codec in candidates:
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        if codec.startswith("utf") or encoding is not None:
            readings = [text]
            break
        readings.append(text)
    if not readings:
        raise PbfError(_undecodable(raw, source, candidates))
    if len(readings) == 1:  # UTF-8 (or the one codec given): thread.py is not needed (start-up)
        text = readings[0]
    else:
        from .thread import _japanese_score  # CP932 or EUC-JP: the one that reads as Japanese

        text = max(readings, key=_japanese_score)
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _codec(encoding: str) -> str:
    import codecs

    return codecs.lookup(encoding).name


def _undecodable(raw: bytes, source: str, codecs: tuple[str, ...]) -> Problem:
    """Where the first of ``codecs`` fails: line, byte column and the byte itself."""
    try:
        raw.decode(codecs[0])
    except UnicodeDecodeError as exc:
        start = exc.start
    else:  # pragma: no cover - only called after every codec failed
        start = 0
    line_start = raw.rfind(b"\n", 0, start) + 1
    names = ["UTF-8" if c.startswith("utf-8") else c.upper() for c in codecs]
    return Problem(
        f"{source} は{'でも'.join(names)}{'でも' if len(names) > 1 else 'では'}読めません（{names[0]}として読めないバイト 0x{raw[start]:02X}、"
        f"この行の{start - line_start + 1}バイト目）。 / the file is in none of these encodings: {', '.join(names)}",
        line=raw[:start].count(b"\n") + 1,
        hint="UTF-8 か Shift_JIS（CP932）で保存し直すか、--input-encoding で文字コードを指定してください。",
    )


def norm_name(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip()


def fold_name(name: str) -> str:
    """How a character's names are compared: NFKC, case-folded, inner spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def unknown_player(raw_name: str, players: list[str], aliases: "Aliases | None" = None, **where: int) -> Problem:
    """A name that is not a player of the campaign, with the players and the nearest name."""
    suggestion = nearest(norm_name(raw_name), [norm_name(p) for p in players])
    shown = [f"{p}（{aliases[p][0]}）" if aliases and aliases.get(p) else p for p in players]
    return Problem(
        f"このキャンペーンにいないプレイヤーです（参加者：{'、'.join(shown)}）。 / unknown player",
        text=raw_name,
        hint=f"もしかして「{suggestion}」？" if suggestion else None,
        **where,
    )


Aliases = dict[str, list[str]]  # a player -> the names of their character (name first)


def find_player(raw_name: str, players: list[str], aliases: Aliases | None = None, **where: int) -> "str | Problem":
    """Who a written name means: a player's name (NFKC); else a name of a character (e.g. ナイト,
    Knight) when exactly one player plays it. A Problem when it means nobody, or several players."""
    if raw_name in players:  # as written (the common case; names are unique after NFKC)
        return raw_name
    name = norm_name(raw_name)
    for player in players:
        if norm_name(player) == name:
            return player
    want = fold_name(raw_name)
    matches = [p for p in players if want in {fold_name(a) for a in (aliases or {}).get(p, [])}]
    if len(matches) == 1:
        return matches[0]
    if matches:
        return Problem(
            f"このキャラクターのプレイヤーが複数います（{'、'.join(matches)}）。プレイヤーの名前で書いてください。"
            " / more than one player plays it",
            text=raw_name,
            **where,
        )
    return unknown_player(raw_name, players, aliases, **where)


def split_orders(
    text: str, players: list[str], problems: "list[Problem] | None" = None, aliases: Aliases | None = None
) -> dict[str, OrderText]:
    """Split the file's text by player. A header names the player, or their character when that
    is unambiguous (``aliases``). Every problem of the file is reported at once: raised, or, when
    a ``problems`` list is given, added to it (so the orders can be checked too)."""
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
        if re.match(_COMMENT, line):
            if current is not None:
                current[3].append("")
            continue
        header = re.match(_HEADER, line)
        if header:
            close()
            current = None
            raw_name = header["name"]
            column = header.end() + 1
            player = find_player(raw_name, players, aliases, line=number, column=header.start("name") + 1)
            if isinstance(player, Problem):
                problems.append(player)
                ignored = True
                continue
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
