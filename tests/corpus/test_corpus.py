"""The natural-order corpora (issue 19): every order is read, and the figures are held.

``tests/corpus/alterego.yaml`` and ``tests/corpus/rider.yaml`` were written as players write, by
persona, without looking at the grammar (see their headers). No clear order may be misread (a
misread is the worst bug); the shares read as meant and of unclear orders refused or warned may
not fall below what this version reaches (the issue's bar is 95% and 90%: see the README).
"""

from __future__ import annotations

import pytest

from corpus.runner import figures, run

# (read as meant, unclear refused or warned) — the second and third corpora were written later, each
# by another hand without the code, and read first by a version not tuned to them (docs/reading.md
# gives those first figures); the floors are what this version reaches on each
FLOOR = {"alterego": (0.955, 0.89), "rider": (0.96, 0.92), "alterego-2": (0.93, 0.88), "rider-2": (0.93, 0.96),
         "alterego-3": (0.91, 0.81), "rider-3": (0.91, 0.93), "alterego-4": (0.87, 0.91), "rider-4": (0.82, 1.0)}
SIZE = {"alterego": 300, "rider": 300, "alterego-2": 160, "rider-2": 160, "alterego-3": 200, "rider-3": 200,
        "alterego-4": 200, "rider-4": 200}


@pytest.mark.parametrize("game", list(FLOOR))
def test_corpus(game, tmp_path):
    outcomes = run(game, tmp_path)
    assert len(outcomes) >= SIZE[game]
    f = figures(outcomes)
    misread = [(o.entry["text"], o.read, o.entry["means"]) for o in outcomes if o.status == "misread"]
    assert misread == []
    meant, handled = FLOOR[game]
    assert f["meant"] / f["clear"] >= meant, f
    assert f["handled"] / f["unclear"] >= handled, f
