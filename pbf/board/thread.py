"""Reading a forum thread into posts (docs/forum.md, "Reading a thread").

Three formats are accepted, detected from the text:

* a 2ch-style ``.dat`` file — one post per line, ``name<>mail<>date ID<>body<>title``
  (the title only on the first line). The post number is the line number. The body is HTML:
  ``<br>`` is a line break (2ch writes it as `` <br> ``; one space on each side is dropped),
  other tags are removed (an anchor ``<a ...>&gt;&gt;12</a>`` becomes ``>>12``) and entities
  are unescaped. Only the server's markup ``NAME </b>◆TRIP <b>`` makes a trip: a ◆ typed in
  the name (or written as ``&#9670;``) is part of the name, so ``城戸◆KidoRyuki1`` is not 城戸.
  The markup before the name (``</b>◆TRIP <b>城戸``) is no board's either: the post is read as
  城戸 without a trip, and the thread's warnings say so.
* a したらば (JBBS) ``rawmode.cgi`` dat — ``NUM<>name<>mail<>date<>body<>title<>ID``: the post
  number is the first field (deleted posts may be missing), the title only on the first line,
  the ID in the last field. Usually EUC-JP.
* the text a reader gets by copying a 2ch-style read.cgi page — each post starts with a header
  line such as ``12 名前：美鈴 ◆Ab3dEf6hIj [sage] 投稿日：2026/11/29(日) 21:03:11.52 ID:AbCd1234``
  (``名前：``, ``[mail]`` and ``投稿日：`` may be missing; old-style ``12 ：NAME：DATE`` works too)
  and runs to the next header. Newer page layouts put the number, the name and the date on
  lines of their own: a header may span up to four lines, starting with the post number. A line is a header only if its number is greater than the previous
  header's, so a body that quotes a header does not start a post. Lines before the first header
  (the thread title, menus) are ignored. Copied bodies are plain text: no entity unescaping.

Rulings:

* Encoding: UTF-8 (a BOM is dropped) first; else CP932 (Shift_JIS with the Windows extensions)
  or EUC-JP, whichever reads the bytes (when both do, the one whose text looks like Japanese:
  more kana and fewer half-width katakana). ``encoding=`` forces one. Bytes that no candidate
  reads raise :class:`PbfError` naming the line (of the encoding that read further) and the byte.
* The first non-blank line decides the format: with four or more ``<>`` it is a ``.dat``, and
  then every non-blank line must be a ``.dat`` line (blank lines at the very end are ignored;
  a blank line in the middle is an error, since it would shift the post numbers). Otherwise the
  text must contain at least one read.cgi header; a text with none is reported at its first
  non-blank line.
* ``Post.name`` is NFKC-normalised, trimmed, inner whitespace collapsed, the trip removed; a
  board's trailing ID tag such as ``(ワッチョイ 7f3e-Abcd)`` is moved to ``Post.suffix``, and the
  other decorations boards add after a name are dropped (:func:`split_trip`).
  ``Post.trip`` is the trip without ``◆``, exactly as shown (not normalised).
* ``Post.posted_at`` is a *naive* datetime in the board's own time (JST on Japanese boards), as
  the board shows it; deadlines are compared in the same clock. ``None`` when the date field is
  not a date (a deleted post's ``あぼーん``).
"""

from __future__ import annotations

import os
import re
import textwrap
import unicodedata
from dataclasses import field
from datetime import datetime
from pathlib import Path

from ..errors import PbfError, Problem
from ..record import record

__all__ = [
    "Post",
    "Thread",
    "load_thread",
    "read_thread",
    "decode_thread",
    "parse_thread_text",
    "normalize_name",
    "split_trip",
    "parse_board_datetime",
]


@record(frozen=True)
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


@record(frozen=True)
class Thread:
    """A thread file as read: its posts and what identifies it."""

    posts: list[Post]
    title: str  # the thread's title ("" when the file does not carry one)
    format: str  # "dat" | "shitaraba" | "copy"
    encoding: str  # what the bytes were read as
    warnings: list[Problem] = field(default_factory=list)  # lines read in a way worth a word

    def fingerprint(self) -> str:
        """SHA-256 over the first post (number, name, date, body): which thread this is, even
        when the file has grown since."""
        import hashlib

        if not self.posts:
            return ""
        first = self.posts[0]
        text = f"{first.number}\n{first.name}\n{first.date_text}\n{first.body}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- names and trips ------------------------------------------------------------------------

_SUFFIX_RE = re.compile(r"\s*(\([^()\s]+\s+[0-9A-Za-z+/]{4}-[0-9A-Za-z+/]{4}(?:\s*\[[^\]]*\])?\))\s*$")
_TRIP = r"◆\s*([./0-9A-Za-z+]{6,16})"  # used through re's own cache, as the patterns below
# What boards add after a name (after NFKC), stripped from its end one at a time: どんぐり's
# level tags (``警備員[Lv.5][新芽]``), 忍法帖 (``忍法帖【Lv=10,xxxPT】``), a cap's ``★``, and
# fusianasan's host name in parentheses (it has a dot; an ID tag is kept as the suffix instead).
_DECORATIONS = (
    re.compile(r"\s*(?:\[[^\[\]]*\]\s*)+$"),  # [Lv.5][新芽], [苗], [sage-like tags]
    re.compile(r"\s*忍法帖\s*【[^】]*】\s*$"),
    re.compile(r"\s*★+\s*$"),
    re.compile(r"\s*\([^()\s]*\.[^()\s]*\)\s*$"),  # (p1234-ipbf01.tokyo.ocn.ne.jp)
)
_ROLE_WORD = re.compile(r"\s+(?:警備員|ハンター)$")  # どんぐり's role word before the level tags


def normalize_name(name: str) -> str:
    """NFKC, trimmed, runs of whitespace as one space: how names are compared."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def split_trip(raw: str, trips: bool = True) -> tuple[str, str | None, str | None]:
    """``"美鈴 ◆Ab3dEf6hIj"`` → ``("美鈴", "Ab3dEf6hIj", None)``: (name, trip, suffix).

    The name is normalised (:func:`normalize_name`); a trailing ID tag like
    ``(ワッチョイ 7f3e-Abcd)`` is returned as the suffix; the decorations a board adds after
    a name (``警備員[Lv.5][新芽]``, ``忍法帖【…】``, ``★``, a host name) are dropped, so that
    ``門番 警備員[Lv.5][新芽] ◆n4B51Z5iQI`` is 門番 with trip n4B51Z5iQI.
    """
    text = raw
    trip = None
    m = re.search(_TRIP, text) if trips else None  # trips=False: a .dat's ◆ outside the markup
    if m:
        trip = m.group(1)
        text = text[: m.start()] + " " + text[m.end():]
    name = normalize_name(text)
    suffix = None
    changed = True
    while changed:
        changed = False
        sm = _SUFFIX_RE.search(name)
        if sm and sm.start() > 0:
            suffix = suffix or sm.group(1)
            name, changed = name[: sm.start()].strip(), True
        for pattern in _DECORATIONS:
            dm = pattern.search(name)
            if dm and dm.start() > 0:
                name, changed = name[: dm.start()].strip(), True
                if pattern is _DECORATIONS[0]:
                    name = _ROLE_WORD.sub("", name)
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


_CANDIDATES = ("cp932", "euc-jp")


# What counts for a reading (kana, kanji, ASCII) and what counts against it (half-width katakana,
# the private use area): counted by re rather than a loop over a whole thread in Python.
_NOT_JAPANESE = r"[^\u3041-\u30ff\u4e00-\u9fff\x00-\x7f]"  # through re's cache: rarely needed
_UNLIKELY = r"[\uff61-\uff9f\ue000-\uf8ff]"


def _japanese_score(text: str) -> int:
    """How much ``text`` looks like Japanese: kana and kanji count, half-width katakana and
    unusual symbols (what the wrong one of CP932/EUC-JP tends to give) count against."""
    return len(text) - len(re.findall(_NOT_JAPANESE, text)) - 2 * len(re.findall(_UNLIKELY, text))


def decode_thread(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """Bytes → (text, encoding): ``"utf-8"`` (BOM dropped), ``"cp932"`` or ``"euc-jp"``.
    ``encoding`` forces one (any codec Python knows)."""
    if encoding:
        return _decode_forced(data, encoding), encoding
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    readings = []
    for candidate in _CANDIDATES:
        try:
            readings.append((data.decode(candidate), candidate))
        except UnicodeDecodeError:
            continue
    if len(readings) == 1:  # the usual case: the other codec cannot read it (no score to compare)
        return readings[0]
    if readings:
        text, name = max(readings, key=lambda r: _japanese_score(r[0]))
        return text, name
    u_line, u_col, u_byte = _first_bad_line(data[3:] if data.startswith(b"\xef\xbb\xbf") else data, "utf-8")
    s_line, s_col, s_byte = _first_bad_line(data, "cp932")
    if s_line >= u_line:
        line, col, byte, enc = s_line, s_col, s_byte, "CP932（Shift_JIS）"
    else:
        line, col, byte, enc = u_line, u_col, u_byte, "UTF-8"
    raise PbfError(
        Problem(
            f"スレッドの文字コードが読めません。UTF-8、CP932（Shift_JIS）、EUC-JP のどれとしても"
            f"読めないバイト 0x{byte:02X} があります（{enc}として{col}バイト目）。 / "
            "the thread is neither UTF-8, CP932 nor EUC-JP",
            line=line,
            hint="スレッドをUTF-8かShift_JISで保存し直すか、--input-encoding で文字コードを指定してください。",
        )
    )


def _decode_forced(data: bytes, encoding: str) -> str:
    import codecs

    try:
        codec = codecs.lookup(encoding)
    except LookupError:
        raise PbfError(
            Problem(f"文字コード「{encoding}」が分かりません（例：utf-8, cp932, euc-jp）。 / unknown encoding", text=encoding)
        ) from None
    try:
        text = data.decode(codec.name)
    except UnicodeDecodeError:
        line, col, byte = _first_bad_line(data, codec.name)
        raise PbfError(
            Problem(
                f"スレッドが {encoding} として読めません（{col}バイト目の 0x{byte:02X}）。 / not {encoding}",
                line=line,
                hint="--input-encoding を外すと文字コードを自動で判定します。",
            )
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


# -- .dat -------------------------------------------------------------------------------------

def _unescape(text: str) -> str:
    """``html.unescape``; html (with its table of entities, about 1 ms to import) is loaded only
    for a text that has an entity."""
    if "&" not in text:
        return text
    import html

    return html.unescape(text)


_BR_RE = re.compile(r" ?<br\s*/?> ?", re.IGNORECASE)
_TAG_RE = re.compile(r"<[^>]*>")


def _html_to_text(fragment: str) -> str:
    text = _BR_RE.sub("\n", fragment)
    text = _TAG_RE.sub("", text)
    return _unescape(text)


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


_DAT_TRIP_RE = re.compile(r"</b>\s*◆\s*([./0-9A-Za-z+]{6,16})\s*<b>")


def _dat_post(number: int, name_field: str, mail: str, date_field: str, body: str, source_line: int,
              post_id: str | None = None, warnings: list[Problem] | None = None) -> Post:
    # only the server's markup makes a trip: a ◆ typed (or written as an entity) is part of the name
    trip = None
    marked = _DAT_TRIP_RE.search(name_field)
    if marked:
        trip = marked.group(1)
        before = _unescape(_TAG_RE.sub(" ", name_field[: marked.start()])).strip()
        after = _unescape(_TAG_RE.sub(" ", name_field[marked.end():])).strip()
        name_field = name_field[: marked.start()] + " " + name_field[marked.end():]
        if not before and after:
            # a board writes the trip after the name (NAME </b>◆TRIP <b>): a trip before it was
            # written by hand into the file, so it proves nothing
            trip = None
            if warnings is not None:
                warnings.append(
                    Problem(
                        f"レス{number}の名前欄は、トリップ◆{marked.group(1)}が名前の前にあります。掲示板はトリップを"
                        "名前の後に付けるので、これは本物のトリップではありません：トリップなしとして読みました。"
                        " / a trip before the name is not the board's: read without a trip",
                        line=source_line,
                        text=_shorten(" ".join(_unescape(_TAG_RE.sub(" ", marked.string)).split())),
                    )
                )
    name, _, suffix = split_trip(_unescape(_TAG_RE.sub(" ", name_field)), trips=False)
    posted_at, found_id = _split_date_id(_TAG_RE.sub("", date_field))
    return Post(
        number=number,
        name=name,
        trip=trip,
        mail=_unescape(_TAG_RE.sub("", mail)).strip(),
        posted_at=posted_at,
        post_id=post_id or found_id,
        body=_dat_body(body),
        date_text=_unescape(_TAG_RE.sub("", date_field)).strip(),
        suffix=suffix,
        source_line=source_line,
    )


def _parse_dat(lines: list[str], warnings: list[Problem] | None = None) -> tuple[list[Post], str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    posts: list[Post] = []
    title = ""
    for number, line in enumerate(lines, start=1):
        if not _is_dat_line(line):
            raise _neither_format(number, line, dat=True)
        fields = line.split("<>")
        if number == 1 and len(fields) > 4:
            title = _unescape(fields[4]).strip()
        posts.append(_dat_post(number, fields[0], fields[1], fields[2], fields[3], number, warnings=warnings))
    return posts, title


_SHITARABA_RE = re.compile(r"^\d{1,6}<>")


def _is_shitaraba_line(line: str) -> bool:
    return bool(_SHITARABA_RE.match(line)) and line.count("<>") >= 6


def _parse_shitaraba(lines: list[str], warnings: list[Problem] | None = None) -> tuple[list[Post], str]:
    """したらば rawmode: ``NUM<>name<>mail<>date<>body<>title<>ID``; numbers must rise."""
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    posts: list[Post] = []
    title = ""
    last = 0
    for line_no, line in enumerate(lines, start=1):
        if not _is_shitaraba_line(line):
            raise _neither_format(line_no, line, dat=True, shitaraba=True)
        fields = line.split("<>")
        number = int(fields[0])
        if number <= last:
            raise PbfError(
                Problem(
                    f"したらばの dat のレス番号が前の行（{last}）より大きくありません。 / post numbers must rise",
                    line=line_no, text=fields[0],
                )
            )
        last = number
        if not title:
            title = _unescape(fields[5]).strip()
        post_id = fields[6].strip() or None
        posts.append(_dat_post(number, fields[1], fields[2], fields[3], fields[4], line_no, post_id, warnings))
    return posts, title


# -- read.cgi copy -----------------------------------------------------------------------------

# The patterns of a read.cgi copy are compiled when a copy is read (re's cache), not at import:
# a .dat never needs them.
_HEADER = (
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


_HEADER_HINT = r"^\s*\d.*\d/\d{1,2}/\d"


def _match_header(line: str) -> re.Match[str] | None:
    norm = unicodedata.normalize("NFKC", line)
    if not re.match(_HEADER_HINT, norm):  # cheap test first: most lines are body text
        return None
    return re.match(_HEADER, norm)


def _copy_body(lines: list[str]) -> str:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return textwrap.dedent("\n".join(lines))


_NUMBER_LINE = r"^\s*(\d{1,6})(?:\s|:|$)"
_ID_LINE = r"^\s*(?:(?:ID|BE)\s*:\s*\S+\s*)+$"


def _header_at(lines: list[str], index: int, last: int, skipped: list[int]) -> tuple[re.Match[str], int] | None:
    """A post header starting at ``lines[index]``: (match, lines it spans), else None.

    A header must carry the next post number (any number for the first one): a line inside a
    body that looks like a header of another number — a quoted or copied post — is body text,
    and its index goes to ``skipped`` so that the reader can say so. One line is the classic layout. Newer layouts put the number, the name and the date (and
    the ID) on lines of their own; such a header must start with the next post number, so that
    a body line that begins with a number is not taken for one."""
    norm = unicodedata.normalize("NFKC", lines[index])
    m = _match_header(lines[index])
    span = 1
    if m and last and int(m["num"]) != last + 1:
        if int(m["num"]) > last:
            skipped.append(index)
        return None
    if not m:
        number = re.match(_NUMBER_LINE, norm)
        if not number or (last and int(number.group(1)) != last + 1):
            return None
        for extra in range(1, 4):
            if index + extra >= len(lines) or not lines[index + extra].strip():
                break
            joined = " ".join(lines[index : index + extra + 1])
            m = _match_header(joined)
            if m and (not last or int(m["num"]) == last + 1) and not m["rest"].strip():
                span = extra + 1
                break
            m = None
        if m is None:
            return None
    while index + span < len(lines) and re.match(_ID_LINE, unicodedata.normalize("NFKC", lines[index + span])):
        span += 1
    return m, span


def _parse_copy(lines: list[str]) -> tuple[list[Post], str, list[Problem]]:
    headers: list[tuple[int, int, re.Match[str], str | None]] = []
    skipped: list[int] = []
    last = 0
    index = 0
    while index < len(lines):
        found = _header_at(lines, index, last, skipped)
        if found is None:
            index += 1
            continue
        m, span = found
        post_id = m["id"]
        for extra in lines[index + 1 : index + span]:
            idm = re.search(r"ID\s*:\s*(\S+)", unicodedata.normalize("NFKC", extra))
            if idm and not post_id:
                post_id = idm.group(1)
        headers.append((index, span, m, post_id))
        last = int(m["num"])
        index += span
    if not headers:
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is None:
            raise PbfError("スレッドが空です。 / the thread is empty")
        raise _neither_format(first + 1, lines[first], dat=False)
    title = next((line.strip() for line in lines[: headers[0][0]] if line.strip()), "")
    posts: list[Post] = []
    for k, (index, span, m, post_id) in enumerate(headers):
        end = headers[k + 1][0] if k + 1 < len(headers) else len(lines)
        name, trip, suffix = split_trip(m["name"])
        posts.append(
            Post(
                number=int(m["num"]),
                name=name,
                trip=trip,
                mail=(m["mail"] or "").strip(),
                posted_at=parse_board_datetime(m["date"]),
                post_id=post_id,
                body=_copy_body(lines[index + span : end]),
                date_text=m["date"].strip(),
                suffix=suffix,
                source_line=index + 1,
            )
        )
    warnings = [
        Problem(
            "レスの見出しのような行ですが、番号が直前のレスの次ではないので本文として読みました"
            "（コピーし損ねたレスがあれば、スレッドを取り直してください）。",
            line=i + 1,
            text=_shorten(lines[i]),
        )
        for i in skipped
    ]
    if any(post.trip for post in posts):
        warnings.append(
            Problem(
                "コピーしたページでは、名前に打ち込まれた◆と本物のトリップを見分けられません"
                "（トリップで本人を確かめるなら、スレッドは .dat で取ってください）。"
            )
        )
    return posts, title, warnings


def _shorten(line: str, limit: int = 40) -> str:
    shown = line.strip()
    return shown[:limit] + "…" if len(shown) > limit else shown


def _neither_format(line_no: int, line: str, *, dat: bool, shitaraba: bool = False) -> PbfError:
    shown = _shorten(line)
    if dat and not line.strip():
        why = "空行があります（.dat は1行に1レスです）。"
    elif shitaraba:
        why = "したらばの dat の行（番号<>名前<>メール<>日付<>本文<>タイトル<>ID）ではありません。"
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
    return _parse(text)[0]


def _parse(text: str) -> tuple[list[Post], str, str, list[Problem]]:
    """Text → (posts, title, format, warnings)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        raise PbfError("スレッドが空です。 / the thread is empty")
    warnings: list[Problem] = []
    if _is_shitaraba_line(first):
        posts, title = _parse_shitaraba([line for line in lines if line.strip()], warnings)
        return posts, title, "shitaraba", warnings
    if _is_dat_line(first):
        # a .dat starts at its first line: leading blank lines would shift the numbers
        if not lines[0].strip():
            raise _neither_format(1, lines[0], dat=True)
        posts, title = _parse_dat(lines, warnings)
        return posts, title, "dat", warnings
    posts, title, warnings = _parse_copy(lines)
    return posts, title, "copy", warnings


def _read_bytes(source: "str | os.PathLike[str] | bytes") -> bytes:
    if isinstance(source, (bytes, bytearray)):
        return bytes(source)
    path = Path(source)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise PbfError(f"スレッドのファイルがありません：{path} / no such file") from None
    except IsADirectoryError:
        raise PbfError(f"「{path}」はフォルダです。スレッドのファイルを指定してください。 / not a file") from None
    except OSError as e:
        raise PbfError(f"スレッドのファイルが読めません：{path}（{e.strerror}） / cannot read") from None


def load_thread(source: "str | os.PathLike[str] | bytes", encoding: str | None = None) -> Thread:
    """A thread file (path) or its bytes → :class:`Thread`, detecting the encoding and format."""
    text, used = decode_thread(_read_bytes(source), encoding)
    posts, title, fmt, warnings = _parse(text)
    return Thread(posts=posts, title=title, format=fmt, encoding=used, warnings=warnings)


def read_thread(source: "str | os.PathLike[str] | bytes", encoding: str | None = None) -> list[Post]:
    """A thread file (path) or its bytes → posts, detecting the encoding and the format."""
    return load_thread(source, encoding).posts
