"""The markers pbf writes into the thread: the last line of a results post and of the opening post.

:mod:`pbf.forum` reads them back (where the next turn's window starts) and gives the same names;
they live here so that writing a turn does not import the forum module (start-up, benchmarks/bench.py).
"""

from __future__ import annotations

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
