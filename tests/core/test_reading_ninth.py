"""Orders read the way a GM reads them, ninth pass (issue 19): corpus 15's rider misreads and
corpus 16's first reading. Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


@pytest.mark.parametrize("text", [
    "【行動】最も問い相手に近寄る / ソードベント",  # 遠い typed とい: 問い
    "【行動】一番と追い相手に近寄る / ソードベント",  # 遠い typed と+追い, across a particle
])
def test_an_ime_slip_of_a_phrase_before_its_particle_is_read_by_its_reading(camps, text):
    """The phrase an IME converted wrongly is read by its reading also when a particle ties it to
    the next word (に 近寄る): before, its kanji were passed over and the move went to the nearest
    fighter — the opposite of what was meant."""
    got, notes = read_for_check(camps["three"], "城戸", text)
    assert got == "近寄る: 最も遠い相手 / ソードベント"
    assert any("を「最も遠い相手」と読みました" in n.format() for n in notes)
