"""In-process paths made cheaper for issue 13 (no timings: benchmarks/bench.py prints them)."""

from __future__ import annotations

import copy

from pbf.systems.base import copy_state


def test_copy_state_is_a_deep_copy_of_plain_data():
    state = {"turn": 3, "winner": None, "fighters": {"城戸": {"hp": 20, "deck": {"sword": 1}, "used_once": ["a"],
                                                         "survive": [{"turns": 2}]}}, "initiative": ["城戸", "蓮"]}
    copied = copy_state(state)
    assert copied == copy.deepcopy(state) and list(copied) == list(state)
    copied["fighters"]["城戸"]["deck"]["sword"] = 0
    copied["fighters"]["城戸"]["used_once"].append("b")
    copied["fighters"]["城戸"]["survive"][0]["turns"] = 1
    copied["initiative"].reverse()
    assert state["fighters"]["城戸"] == {"hp": 20, "deck": {"sword": 1}, "used_once": ["a"], "survive": [{"turns": 2}]}
    assert state["initiative"] == ["城戸", "蓮"]


def test_split_post_without_limits_is_one_post_and_still_refuses_what_the_board_cannot_encode():
    import pytest

    from pbf.board.boardfit import split_post
    from pbf.errors import PbfError

    assert split_post(["一", "二"], None, None, footer="［pbf］") == ["一\n二\n［pbf］"]
    with pytest.raises(PbfError, match="U\\+1F600"):
        split_post(["一", "😀"], None, None)
    with pytest.raises(PbfError, match="U\\+1F600"):
        split_post(["一"], None, None, footer="😀")
