"""The natural-order corpora (issue 19): every order is read, and the figures are held.

``tests/corpus/alterego.yaml`` and ``tests/corpus/rider.yaml`` were written as players write, by
persona, without looking at the grammar (see their headers). No clear order may be misread (a
misread is the worst bug); the shares read as meant and of unclear orders refused or warned may
not fall below what this version reaches (the issue's bar is 95% and 90%: see the README).
"""

from __future__ import annotations

import pytest

from corpus.runner import figures, run

# (read as meant, unclear refused or warned) — the second corpora were written later, by another
# hand, and were read by this version only once it was written: they show how it does on orders
# it was not tuned to
FLOOR = {"alterego": (0.94, 0.88), "rider": (0.90, 0.90), "alterego-2": (0.92, 0.88), "rider-2": (0.75, 0.92)}
SIZE = {"alterego": 300, "rider": 300, "alterego-2": 160, "rider-2": 160}


@pytest.mark.parametrize("game", ["alterego", "rider", "alterego-2", "rider-2"])
def test_corpus(game, tmp_path):
    outcomes = run(game, tmp_path)
    assert len(outcomes) >= SIZE[game]
    f = figures(outcomes)
    misread = [(o.entry["text"], o.read, o.entry["means"]) for o in outcomes if o.status == "misread"]
    assert misread == []
    meant, handled = FLOOR[game]
    assert f["meant"] / f["clear"] >= meant, f
    assert f["handled"] / f["unclear"] >= handled, f
