"""Making a post fit a board: its encoding and its limits (docs/forum.md, "Board limits").

Rulings:

* :func:`cp932_safe` replaces every character that does not survive a CP932 round trip with a
  CP932 look-alike: first the fixed table :data:`CP932_MAP` (the characters that Python's
  ``cp932`` codec encodes but decodes as something else — 〜 U+301C, − U+2212, ‖ U+2016, ¢ £ ¬ —
  and common ones it cannot encode at all — — U+2014, – U+2013, ¥, ©, …), then the NFKC form
  if that survives, then the character without its accents (é → e), and as a last resort
  ``〓`` (the geta mark, the customary stand-in). Any output of :func:`cp932_safe` round-trips.
* Counting (:func:`board_bytes`): a 2ch-style board stores a post as HTML, so ``&``, ``<``,
  ``>`` and ``"`` are counted as their entities (``&amp;`` ``&lt;`` ``&gt;`` ``&quot;``) and each
  line break as ``<br>`` (4 bytes), all in the board's encoding. This is what a 2ch-style
  ``bbs.cgi`` checks against its byte limit and is never less than a board that counts the
  raw text; pass ``html=False`` / ``newline="\\n"`` for a board that counts raw text.
  Lines are the post's lines (line breaks + 1).
* :func:`split_post` packs consecutive blocks (steps) greedily. Inside one post the blocks are
  joined with ``\\n``. When the result has more than one part each part begins with a numbering
  line (``（1/3）``) and every part ends with the ``footer`` line if one is given (e.g. the
  results marker); both are counted. A block that does not fit in an empty part is split at its
  line boundaries (it starts a new part). A single line that cannot fit in an empty part, or
  limits too small for the numbering and footer, raise :class:`PbfError`: pbf never cuts a line
  in the middle. Joining the parts' bodies (numbering and footer removed) with ``\\n`` gives back
  ``"\\n".join(blocks)`` (see :func:`join_parts`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from ..errors import PbfError, Problem

__all__ = [
    "CP932_MAP",
    "cp932_safe",
    "board_safe",
    "survives",
    "unsafe_chars",
    "board_bytes",
    "board_lines",
    "fits",
    "split_post",
    "join_parts",
    "DEFAULT_NUMBERING",
    "PART_BREAK",
]

# Characters that do not survive CP932 → their CP932 look-alikes (every target round-trips).
CP932_MAP: dict[str, str] = {
    # encoded by Python's cp932 but decoded as another character
    "\u301c": "\uff5e",  # 〜 WAVE DASH → ～ FULLWIDTH TILDE
    "\u2212": "\uff0d",  # − MINUS SIGN → － FULLWIDTH HYPHEN-MINUS
    "\u2016": "\u2225",  # ‖ DOUBLE VERTICAL LINE → ∥ PARALLEL TO
    "\u00a2": "\uffe0",  # ¢ → ￠
    "\u00a3": "\uffe1",  # £ → ￡
    "\u00ac": "\uffe2",  # ¬ → ￢
    # not encodable at all
    "\u2014": "\u2015",  # — EM DASH → ― HORIZONTAL BAR
    "\u2013": "\uff0d",  # – EN DASH → －
    "\u2012": "\uff0d",  # ‒ FIGURE DASH → －
    "\u2011": "\u2010",  # ‑ NON-BREAKING HYPHEN → ‐
    "\u2e3a": "\u2015\u2015",  # ⸺ → ――
    "\u2e3b": "\u2015\u2015\u2015",  # ⸻ → ―――
    "\u223c": "\uff5e",  # ∼ TILDE OPERATOR → ～
    "\u2053": "\uff5e",  # ⁓ SWUNG DASH → ～
    "\u00a5": "\uffe5",  # ¥ → ￥
    "\u203e": "\uffe3",  # ‾ OVERLINE → ￣
    "\u00a6": "\uffe4",  # ¦ → ￤
    "\u00b7": "\u30fb",  # · MIDDLE DOT → ・
    "\u2022": "\u30fb",  # • BULLET → ・
    "\u00a0": " ",  # NO-BREAK SPACE → space
    "\u2002": " ",
    "\u2003": "\u3000",  # EM SPACE → ideographic space
    "\u2009": " ",
    "\u200b": "",  # ZERO WIDTH SPACE → nothing
    "\ufeff": "",  # BOM / ZWNBSP → nothing
    "\u00a9": "(C)",  # ©
    "\u00ae": "(R)",  # ®
    "\u2122": "TM",  # ™
    "\u2715": "\u00d7",  # ✕ → ×
    "\u2716": "\u00d7",  # ✖ → ×
    "\u3094": "\u30f4",  # ゔ → ヴ
    "\u30a0": "\uff1d",  # ゠ → ＝
    "\u2043": "\u2010",  # ⁃ → ‐
    "\u02d7": "\uff0d",  # ˗ → －
}

PART_BREAK = "\n――――――――――（ここで次の書き込みへ）――――――――――\n\n"  # between the parts of a split post, printed

GETA = "\u3013"  # 〓


def survives(text: str, encoding: str = "cp932") -> bool:
    """Whether ``text`` encodes in ``encoding`` and decodes back to itself."""
    try:
        return text.encode(encoding).decode(encoding) == text
    except UnicodeError:
        return False


def unsafe_chars(text: str, encoding: str = "cp932") -> list[str]:
    """The distinct characters of ``text`` that do not survive ``encoding`` (first-seen order)."""
    out: list[str] = []
    for ch in text:
        if ch not in out and not survives(ch, encoding):
            out.append(ch)
    return out


def _fallback(ch: str, encoding: str) -> str:
    nfkc = unicodedata.normalize("NFKC", ch)
    if nfkc and nfkc != ch and survives(nfkc, encoding):
        return nfkc
    bare = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    if bare and bare != ch and survives(bare, encoding):
        return bare
    return GETA if survives(GETA, encoding) else "?"


def board_safe(text: str, encoding: str = "cp932") -> str:
    """``text`` with every character that does not survive ``encoding`` replaced."""
    if survives(text, encoding):  # the usual case, at the codec's speed: nothing to replace
        return text
    out: list[str] = []
    use_map = encoding.replace("-", "_").lower() in ("cp932", "ms932", "windows_31j", "mskanji", "ms_kanji")
    for ch in text:
        if survives(ch, encoding):
            out.append(ch)
        elif use_map and ch in CP932_MAP:
            out.append(CP932_MAP[ch])
        else:
            out.append(_fallback(ch, encoding))
    return "".join(out)


def cp932_safe(text: str) -> str:
    """``text`` rewritten so that every character survives CP932 (〜→～, −→－, —→―, …)."""
    return board_safe(text, "cp932")


# -- counting ------------------------------------------------------------------------------------

_HTML_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}  # "&" first: the others add one


def board_bytes(text: str, encoding: str = "cp932", html: bool = True, newline: str = "<br>") -> int:
    """Bytes the board counts for ``text`` (see the module docstring)."""
    if html:  # str.replace per character: str.translate looks up every character of the text
        for char, entity in _HTML_ESCAPES.items():
            if char in text:
                text = text.replace(char, entity)
    text = text.replace("\n", newline)
    try:
        return len(text.encode(encoding))
    except UnicodeEncodeError as e:
        bad = e.object[e.start : e.end]
        raise PbfError(
            Problem(
                f"投稿に掲示板の文字コード（{encoding}）で書けない文字「{bad}」（U+{ord(bad[0]):04X}）があります。"
                f" / a character cannot be written in {encoding}",
                hint="cp932_safe / board_safe で置き換えてから分割してください。",
            )
        ) from None


def board_lines(text: str) -> int:
    return text.count("\n") + 1


def fits(
    text: str,
    max_lines: int | None,
    max_bytes: int | None,
    encoding: str = "cp932",
    html: bool = True,
    newline: str = "<br>",
) -> bool:
    if max_lines is not None and board_lines(text) > max_lines:
        return False
    if max_bytes is not None and board_bytes(text, encoding, html, newline) > max_bytes:
        return False
    return True


# -- splitting -------------------------------------------------------------------------------------

DEFAULT_NUMBERING = "（{i}/{n}）"


def _numbering_line(numbering: "str | Callable[[int, int], str]", i: int, n: int) -> str:
    return numbering(i, n) if callable(numbering) else numbering.format(i=i, n=n)


def split_post(
    parts: list[str],
    max_lines: int | None,
    max_bytes: int | None,
    encoding: str = "cp932",
    numbering: "str | Callable[[int, int], str]" = DEFAULT_NUMBERING,
    footer: str | None = None,
    html: bool = True,
    newline: str = "<br>",
) -> list[str]:
    """Pack the blocks (steps) of a post into posts that each fit the board's limits.

    ``parts`` are the post's blocks in order; one post is ``"\\n".join(blocks)``. Returns the
    posts to write, numbered with ``numbering`` (a ``str.format`` template with ``i`` and ``n``,
    or a function) when there is more than one, each ending with ``footer`` if given.
    """
    blocks = list(parts) or [""]
    nl = board_bytes("\n", encoding, html, newline)

    def size(text: str) -> tuple[int, int]:
        return board_lines(text), board_bytes(text, encoding, html, newline)

    if max_lines is None and max_bytes is None:  # one post; still refused if it cannot be encoded
        for text in ([footer] if footer is not None else []) + ["\n".join(blocks)]:
            board_bytes(text, encoding, html, newline)
        return [_assemble(["\n".join(blocks)], footer)]

    # every board-counted piece is additive: size(a + "\n" + b) = size(a) + size(b) + newline
    footer_size = size(footer) if footer is not None else None
    joined = "\n".join(blocks)
    if _within(_total([size(joined)], None, footer_size, nl), max_lines, max_bytes):  # the usual case
        return [_assemble([joined], footer)]
    block_sizes = [size(b) for b in blocks]

    digits = 1
    while True:
        widest = _numbering_line(numbering, 10**digits - 1, 10**digits - 1)
        header_size = size(widest)
        chunks = _pack(blocks, block_sizes, header_size, footer_size, nl, max_lines, max_bytes, size)
        n = len(chunks)
        if len(str(n)) <= digits:
            break
        digits = len(str(n))
    return [
        _assemble([_numbering_line(numbering, i, n), "\n".join(chunk)], footer)
        for i, chunk in enumerate(chunks, start=1)
    ]


def _assemble(pieces: list[str], footer: str | None) -> str:
    if footer is not None:
        pieces = pieces + [footer]
    return "\n".join(pieces)


def _total(sizes: list[tuple[int, int]], header, footer, nl: int) -> tuple[int, int]:
    items = list(sizes)
    if header is not None:
        items.append(header)
    if footer is not None:
        items.append(footer)
    lines = sum(s[0] for s in items)
    nbytes = sum(s[1] for s in items) + nl * (len(items) - 1)
    return lines, nbytes


def _within(total: tuple[int, int], max_lines: int | None, max_bytes: int | None) -> bool:
    lines, nbytes = total
    return (max_lines is None or lines <= max_lines) and (max_bytes is None or nbytes <= max_bytes)


def _pack(blocks, block_sizes, header_size, footer_size, nl, max_lines, max_bytes, size) -> list[list[str]]:
    if not _within(_total([(1, 0)], header_size, footer_size, nl), max_lines, max_bytes):
        raise PbfError(
            Problem(
                f"掲示板の制限（{_limits(max_lines, max_bytes)}）が小さすぎて、番号と締めの行だけで一杯です。"
                " / the board limits leave no room for the post",
                hint="キャンペーンの掲示板の行数・バイト数の設定を確かめてください。",
            )
        )
    chunks: list[list[str]] = []
    current: list[str] = []
    current_sizes: list[tuple[int, int]] = []

    def room_for(sizes: list[tuple[int, int]]) -> bool:
        return _within(_total(sizes, header_size, footer_size, nl), max_lines, max_bytes)

    def flush() -> None:
        nonlocal current, current_sizes
        if current:
            chunks.append(current)
        current, current_sizes = [], []

    for block, bsize in zip(blocks, block_sizes):
        if room_for(current_sizes + [bsize]):
            current.append(block)
            current_sizes.append(bsize)
            continue
        flush()
        if room_for([bsize]):
            current, current_sizes = [block], [bsize]
            continue
        # last resort: the block alone is too big; split it at line boundaries
        for line_no, line in enumerate(block.split("\n"), start=1):
            lsize = size(line)
            if room_for(current_sizes + [lsize]):
                current.append(line)
                current_sizes.append(lsize)
                continue
            flush()
            if not room_for([lsize]):
                shown = line if len(line) <= 30 else line[:30] + "…"
                raise PbfError(
                    Problem(
                        f"1行だけで掲示板の制限（{_limits(max_lines, max_bytes)}）を超えるため分割できません。"
                        " / a single line is longer than the board allows",
                        text=shown,
                        hint="行を短くするか、掲示板の制限の設定を確かめてください。",
                    )
                )
            current, current_sizes = [line], [lsize]
    flush()
    return chunks


def _limits(max_lines: int | None, max_bytes: int | None) -> str:
    out = []
    if max_lines is not None:
        out.append(f"{max_lines}行")
    if max_bytes is not None:
        out.append(f"{max_bytes}バイト")
    return "・".join(out)


def join_parts(posts: list[str], footer: str | None = None) -> str:
    """The inverse of :func:`split_post`: drop numbering and footer lines, join with ``\\n``."""
    bodies = []
    for post in posts:
        lines = post.split("\n")
        if footer is not None:
            lines = lines[: -footer.count("\n") - 1]
        if len(posts) > 1:
            lines = lines[1:]
        bodies.append("\n".join(lines))
    return "\n".join(bodies)
