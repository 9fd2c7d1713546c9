"""Reading a forum thread into posts (docs/forum.md, "Reading a thread").

Two formats are accepted, detected from the text:

* a 2ch-style ``.dat`` file — one post per line, ``name<>mail<>date ID<>body<>title``
  (the title only on the first line). The post number is the line number. The body is HTML:
  ``<br>`` is a line break (2ch writes it as `` <br> ``; one space on each side is dropped),
  other tags are removed (an anchor ``<a ...>&gt;&gt;12</a>`` becomes ``>>12``) and entities
  are unescaped. The name may carry a trip as ``NAME </b>◆TRIP <b>`` or ``NAME ◆TRIP``.
* the text a reader gets by copying a 2ch-style read.cgi page — each post starts with a header
  line such as ``12 名前：美鈴 ◆Ab3dEf6hIj [sage] 投稿日：2026/11/29(日) 21:03:11.52 ID:AbCd1234``
  (``名前：``, ``[mail]`` and ``投稿日：`` may be missing; old-style ``12 ：NAME：DATE`` works too)
  and runs to the next header. A line is a header only if its number is greater than the previous
  header's, so a body that quotes a header does not start a post. Lines before the first header
  (the thread title, menus) are ignored. Copied bodies are plain text: no entity unescaping.

Rulings:

* Encoding: UTF-8 (a BOM is dropped) first, else CP932 (Shift_JIS with the Windows extensions).
  Bytes that are neither raise :class:`PbfError` naming the line (of the encoding that read
  further) and the byte.
* The first non-blank line decides the format: with four or more ``<>`` it is a ``.dat``, and
  then every non-blank line must be a ``.dat`` line (blank lines at the very end are ignored;
  a blank line in the middle is an error, since it would shift the post numbers). Otherwise the
  text must contain at least one read.cgi header; a text with none is reported at its first
  non-blank line.
* ``Post.name`` is NFKC-normalised, trimmed, inner whitespace collapsed, the trip removed; a
  board's trailing ID tag such as ``(ワッチョイ 7f3e-Abcd)`` is moved to ``Post.suffix``.
  ``Post.trip`` is the trip without ``◆``, exactly as shown (not normalised).
* ``Post.posted_at`` is a *naive* datetime in the board's own time (JST on Japanese boards), as
  the board shows it; deadlines are compared in the same clock. ``None`` when the date field is
  not a date (a deleted post's ``あぼーん``).
"""

from __future__ import annotations

import html
import os
import re
import textwrap
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .errors import PbfError, Problem

__all__ = [
    "Post",
    "read_thread",
    "decode_thread",
    "parse_thread_text",
    "normalize_name",
    "split_trip",
    "parse_board_datetime",
]


@dataclass(frozen=True)
class Post:
    """One post of a thread."""

    number: int  # 1-based post number (レス番号)
    name: str  # NFKC-normalised, trip and ID tag removed
    trip: str | None  # without ◆, exactly as shown
    mail: str  # "" when none
    posted_at: datetime | None  # naive, board time (JST)
    post_id: str | None  # the ID:xxxx of the day, without "ID:"
    body: str  # plain text, "\n" line breaks
    date_text: str = ""  # the date field as shown, for messages
    suffix: str | None = None  # a board's ID tag after the name, e.g. "(ワッチョイ 7f3e-Abcd)"
    source_line: int = 0  # line of the thread file where the post starts

    @property
    def anchor(self) -> str:
        """How the thread refers to this post: ``>>12``."""
        return f">>{self.number}"

    @property
    def lines(self) -> list[str]:
        return self.body.split("\n")


# -- names and trips ------------------------------------------------------------------------

_SUFFIX_RE = re.compile(r"\s*(\([^()\s]+\s+[0-9A-Za-z+/]{4}-[0-9A-Za-z+/]{4}(?:\s*\[[^\]]*\])?\))\s*$")


def normalize_name(name: str) -> str:
    """NFKC, trimmed, runs of whitespace as one space: how names are compared."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def split_trip(raw: str) -> tuple[str, str | None, str | None]:
    """``"美鈴 ◆Ab3dEf6hIj"`` → ``("美鈴", "Ab3dEf6hIj", None)``: (name, trip, suffix).

    The name is normalised (:func:`normalize_name`); a trailing ID tag like
    ``(ワッチョイ 7f3e-Abcd)`` is returned as the suffix.
    """
    text = raw
    trip = None
    m = re.search(r"◆\s*([./0-9A-Za-z+]{6,16})", text)
    if m:
        trip = m.group(1)
        text = text[: m.start()] + " " + text[m.end():]
    name = normalize_name(text)
    suffix = None
    sm = _SUFFIX_RE.search(name)
    if sm:
        suffix = sm.group(1)
        name = name[: sm.start()].strip()
    return name, trip, suffix


# -- dates ------------------------------------------------------------------------------------

_DATE_RE = re.compile(
    r"(?P<y>\d{4}|\d{2})/(?P<mo>\d{1,2})/(?P<d>\d{1,2})\s*(?:\([^)]{0,4}\))?\s*"
    r"(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:\.(?P<f>\d{1,6}))?)?"
)


def parse_board_datetime(text: str) -> datetime | None:
    """``2026/11/29(日) 21:03:11.52`` → a naive datetime (board time); ``None`` if none."""
    m = _DATE_RE.search(unicodedata.normalize("NFKC", text))
    if not m:
        return None
    year = int(m["y"])
    if year < 100:
        year += 2000
    frac = m["f"] or ""
    micro = int((frac + "000000")[:6]) if frac else 0
    try:
        return datetime(year, int(m["mo"]), int(m["d"]), int(m["h"]), int(m["mi"]), int(m["s"] or 0), micro)
    except ValueError:
        return None


def _split_date_id(field: str) -> tuple[datetime | None, str | None]:
    norm = unicodedata.normalize("NFKC", field)
    post_id = None
    m = re.search(r"ID:\s*(\S+)", norm)
    if m:
        post_id = m.group(1)
    return parse_board_datetime(norm), post_id


# -- decoding ---------------------------------------------------------------------------------


def _first_bad_line(data: bytes, encoding: str) -> tuple[int, int, int]:
    """(line, byte column (1-based), byte value) of the first undecodable line."""
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            raw.decode(encoding)
        except UnicodeDecodeError as e:
            return number, e.start + 1, raw[e.start]
    return 0, 0, 0  # pragma: no cover - only called after a failure


def decode_thread(data: bytes) -> tuple[str, str]:
    """Bytes → (text, encoding): ``"utf-8"`` (BOM dropped) or ``"cp932"``."""
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp932"), "cp932"
    except UnicodeDecodeError:
        pass
    u_line, u_col, u_byte = _first_bad_line(data[3:] if data.startswith(b"\xef\xbb\xbf") else data, "utf-8")
    s_line, s_col, s_byte = _first_bad_line(data, "cp932")
    if s_line >= u_line:
        line, col, byte, enc = s_line, s_col, s_byte, "CP932（Shift_JIS）"
    else:
        line, col, byte, enc = u_line, u_col, u_byte, "UTF-8"
    raise PbfError(
        Problem(
            f"スレッドの文字コードが読めません。UTF-8 としても CP932（Shift_JIS）としても"
            f"読めないバイト 0x{byte:02X} があります（{enc}として{col}バイト目）。 / "
            "the thread is neither UTF-8 nor CP932",
            line=line,
            hint="スレッドをUTF-8かShift_JISで保存し直してください。",
        )
    )


# -- .dat -------------------------------------------------------------------------------------

_BR_RE = re.compile(r" ?<br\s*/?> ?", re.IGNORECASE)
_TAG_RE = re.compile(r"<[^>]*>")


def _html_to_text(fragment: str) -> str:
    text = _BR_RE.sub("\n", fragment)
    text = _TAG_RE.sub("", text)
    return html.unescape(text)


def _dat_body(field: str) -> str:
    if field.startswith(" "):
        field = field[1:]
    if field.endswith(" "):
        field = field[:-1]
    text = _html_to_text(field)
    lines = [line.rstrip() for line in text.split("\n")]
    return "\n".join(lines).strip("\n")


def _is_dat_line(line: str) -> bool:
    return line.count("<>") >= 4


def _parse_dat(lines: list[str]) -> list[Post]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    posts: list[Post] = []
    for number, line in enumerate(lines, start=1):
        if not _is_dat_line(line):
            raise _neither_format(number, line, dat=True)
        fields = line.split("<>")
        name_field, mail, date_field, body = fields[0], fields[1], fields[2], fields[3]
        name, trip, suffix = split_trip(html.unescape(_TAG_RE.sub(" ", name_field)))
        posted_at, post_id = _split_date_id(_TAG_RE.sub("", date_field))
        posts.append(
            Post(
                number=number,
                name=name,
                trip=trip,
                mail=html.unescape(_TAG_RE.sub("", mail)).strip(),
                posted_at=posted_at,
                post_id=post_id,
                body=_dat_body(body),
                date_text=html.unescape(_TAG_RE.sub("", date_field)).strip(),
                suffix=suffix,
                source_line=number,
            )
        )
    return posts


# -- read.cgi copy -----------------------------------------------------------------------------

_HEADER_RE = re.compile(
    r"^\s*(?P<num>\d{1,6})\s*:?\s*"
    r"(?:名前\s*:\s*)?"
    r"(?P<name>.*?)"
    r"\s*(?:\[(?P<mail>[^\]]*)\])?"
    r"\s*:?\s*"
    r"(?:投稿日\s*:\s*)?"
    r"(?P<date>(?:\d{4}|\d{2})/\d{1,2}/\d{1,2}\s*(?:\([^)]{0,4}\))?\s*\d{1,2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)"
    r"(?:\s*ID:\s*(?P<id>\S+))?"
    r"(?P<rest>.*)$"
)


_HEADER_HINT_RE = re.compile(r"^\s*\d.*\d/\d{1,2}/\d")


def _match_header(line: str) -> re.Match[str] | None:
    norm = unicodedata.normalize("NFKC", line)
    if not _HEADER_HINT_RE.match(norm):  # cheap test first: most lines are body text
        return None
    return _HEADER_RE.match(norm)


def _copy_body(lines: list[str]) -> str:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return textwrap.dedent("\n".join(lines))


def _parse_copy(lines: list[str]) -> list[Post]:
    headers: list[tuple[int, re.Match[str]]] = []
    last = 0
    for index, line in enumerate(lines):
        m = _match_header(line)
        if m and int(m["num"]) > last:
            headers.append((index, m))
            last = int(m["num"])
    if not headers:
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is None:
            raise PbfError("スレッドが空です。 / the thread is empty")
        raise _neither_format(first + 1, lines[first], dat=False)
    posts: list[Post] = []
    for k, (index, m) in enumerate(headers):
        end = headers[k + 1][0] if k + 1 < len(headers) else len(lines)
        name, trip, suffix = split_trip(m["name"])
        posts.append(
            Post(
                number=int(m["num"]),
                name=name,
                trip=trip,
                mail=(m["mail"] or "").strip(),
                posted_at=parse_board_datetime(m["date"]),
                post_id=m["id"],
                body=_copy_body(lines[index + 1 : end]),
                date_text=m["date"].strip(),
                suffix=suffix,
                source_line=index + 1,
            )
        )
    return posts


def _neither_format(line_no: int, line: str, *, dat: bool) -> PbfError:
    shown = line.strip()
    if len(shown) > 40:
        shown = shown[:40] + "…"
    if dat and not line.strip():
        why = "空行があります（.dat は1行に1レスです）。"
    elif dat:
        why = ".dat の行（名前<>メール<>日付 ID<>本文<>タイトル）ではありません。"
    else:
        why = (
            "2ch形式の .dat でも、read.cgi のページをコピーしたもの"
            "（レスの見出し「12 名前：美鈴 投稿日：2026/11/29(日) 21:03:11.52 ID:…」）でもありません。"
        )
    return PbfError(
        Problem(
            f"スレッドの形式が読めません：{why} / the thread is neither a .dat file nor a read.cgi copy",
            line=line_no,
            text=shown or None,
        )
    )


# -- entry points ------------------------------------------------------------------------------


def parse_thread_text(text: str) -> list[Post]:
    """Already-decoded thread text → posts (format detected)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        raise PbfError("スレッドが空です。 / the thread is empty")
    if _is_dat_line(first):
        # a .dat starts at its first line: leading blank lines would shift the numbers
        if not lines[0].strip():
            raise _neither_format(1, lines[0], dat=True)
        return _parse_dat(lines)
    return _parse_copy(lines)


def read_thread(source: "str | os.PathLike[str] | bytes") -> list[Post]:
    """A thread file (path) or its bytes → posts, detecting the encoding and the format."""
    if isinstance(source, (bytes, bytearray)):
        data = bytes(source)
    else:
        path = Path(source)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise PbfError(f"スレッドのファイルがありません：{path} / no such file") from None
        except OSError as e:
            raise PbfError(f"スレッドのファイルが読めません：{path}（{e.strerror}） / cannot read") from None
    text, _encoding = decode_thread(data)
    return parse_thread_text(text)
