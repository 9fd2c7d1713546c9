"""Orders read the way a GM reads them, eighth pass (issue 19): a cheer under the order
(いけードラグレッダー！), an idiom of luck (あとは運に任せる！), and a line of talk that adds an option of
its own (隙狙い2もつけとくかな…) never passed over. Each case goes through the reading ``pbf check``
makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


def passed_over(notes):
    return [w for w in warned(notes) if "雑談として読みませんでした" in w]


@pytest.mark.parametrize("camp, player, text, canonical", [
    ("three", "城戸", ">>17 逃げんなｗ\n【行動】アドベント／攻撃：北岡、蓮\nいけードラグレッダー！", "アドベント / 攻撃: 北岡, 蓮"),
    ("three", "蓮", "締切前ギリギリｗ\n【行動】トリックベント／中へ：北岡／超回避１：本体の攻撃だけ\nあとは運に任せる！",
     "中へ: 北岡 / トリックベント / 超回避 1: 本体の攻撃だけ"),
])
def test_a_cheer_under_the_order_is_talk(camps, camp, player, text, canonical):
    got, notes = read_for_check(camps[camp], player, text)
    assert got == canonical
    assert len(passed_over(notes)) == 1


@pytest.mark.parametrize("text", [
    "【行動】近寄る／ソードベント\n隙狙い2もつけとくかな…",  # an option the rest does not name
    "【行動】近寄る／隙狙い1\n隙狙い2のほうがいいかな…",  # the same option with another number
    "【行動】近寄る／ソードベント\n超回避1も！",
])
def test_a_line_of_talk_that_adds_an_option_is_never_passed_over(camps, text):
    try:
        got, notes = read_for_check(camps["rd"], "城戸", text)
    except OrderError:
        return
    assert not passed_over(notes), got
