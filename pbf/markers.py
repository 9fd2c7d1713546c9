"""The markers of the thread: the last line of a results post and of the opening post (which
pbf writes), and where an order starts in a post (the order marker, which players write).

:mod:`pbf.forum` reads them back (where the next turn's window starts) and gives the same names;
they live here so that writing a turn does not import the forum module (start-up, benchmarks/bench.py).
"""

from __future__ import annotations

import unicodedata

OPENING_MARKER = "バトル開始"  # the opening post's footer: ［pbf］バトル開始 (turn 0)
RESULTS_PREFIX = "［pbf］"


def results_marker_line(turn: int) -> str:
    """The footer pbf puts on the last line of every results post: ``［pbf］第3ターン結果``.

    Give it as ``footer`` to :func:`pbf.boardfit.split_post` so that every part carries it
    (the detector also accepts a trailing ``（2/3）``). Every character survives CP932.
    """
    return f"{RESULTS_PREFIX}第{turn}ターン結果"


def opening_marker_line() -> str:
    """The footer of the opening post (``pbf new``): the window of turn 1 starts after it."""
    return f"{RESULTS_PREFIX}{OPENING_MARKER}"


def order_text(body: str, marker: str) -> tuple[str, int, int] | None:
    """Text after the last line starting with ``marker`` → (text, line, column_offset): how the
    thread reader (:mod:`pbf.forum`) and ``pbf check`` find the order in a post."""
    norm_marker = unicodedata.normalize("NFKC", marker).strip()
    lines = body.split("\n")
    found = None
    for index, line in enumerate(lines):
        norm = unicodedata.normalize("NFKC", line)
        stripped = norm.lstrip()
        if stripped.startswith(norm_marker):
            found = index
    if found is None:
        return None
    # position of the marker's end in the original (un-normalised) line
    line = lines[found]
    prefix_len = 0
    for cut in range(len(line) + 1):
        if unicodedata.normalize("NFKC", line[:cut]).strip() == norm_marker:
            prefix_len = cut
            break
    first = line[prefix_len:]
    text_lines = [first] + lines[found + 1 :]
    line_no = found + 1
    column_offset = prefix_len
    # the order may start on the marker's line or below it: skip blank lines
    while len(text_lines) > 1 and not text_lines[0].strip():
        text_lines.pop(0)
        line_no += 1
        column_offset = 0
    lead = len(text_lines[0]) - len(text_lines[0].lstrip())
    text_lines[0] = text_lines[0][lead:]
    column_offset += lead
    text = "\n".join(line.rstrip() for line in text_lines).strip()
    return text, line_no, column_offset


_BRACKETS = str.maketrans("[(〔〈《", "【【【【【", "")
_BRACKETS = str.maketrans({**_BRACKETS, **str.maketrans("])〕〉》", "】】】】】")})


def loose_marker(text: str, marker: str) -> tuple[int, str] | None:
    """A line beginning with the marker written with spaces inside or other brackets (【 行動 】,
    ［行動］): (line, its text)."""
    def loose(line: str) -> str:
        return "".join(unicodedata.normalize("NFKC", line).split()).translate(_BRACKETS)

    tight = loose(marker)
    for index, line in enumerate(text.split("\n")):
        if loose(line).startswith(tight):
            return index + 1, line.strip()
    return None
