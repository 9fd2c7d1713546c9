"""Orders read the way a GM reads them, seventh pass (issue 19): a later line of talk that holds an
order word (初手から殴りにいきますｗ under the order) passed over with a warning when the post reads
without it, and 超回避 said in a newcomer's words (回避のときはHPを1点使って…, ただ、アドベントの攻撃には
使わないでください). Each case goes through the reading ``pbf check`` makes."""

from __future__ import annotations

import pytest

from pbf.errors import OrderError
from pbf.turn.check import read_for_check


def read(camp, player, text):
    return read_for_check(camp, player, text)


def warned(notes):
    return [n.format() for n in notes if n.severity == "warning"]


@pytest.mark.parametrize("text, canonical", [
    ("【行動】ストライクベントで隙狙い1\n初手から殴りにいきますｗ", "ストライクベント / 隙狙い 1"),
    ("【行動】\n留まる\nガードベント\n\nあ、今回はFVまだ温存で。あとでドカンといきます", "ガードベント"),
    ("【行動】ソードベント/受け\n【GMさんへ】受けの判定よろしくです～", "ソードベント / 受け"),
    ("【行動】アドベント / 受動: 攻撃ならソードベント / 受け\n受けはそのソードでやります", "アドベント / 受動: 攻撃ならソードベント / 受け"),
])
def test_a_later_line_of_talk_is_passed_over_with_a_warning(camps, text, canonical):
    got, notes = read(camps["rd"], "城戸" if "FV" in text or "アドベント" in text else "刃", text)
    assert got == canonical
    talk = [w for w in warned(notes) if "雑談として読みませんでした" in w]
    assert len(talk) == 1 and "行動として読めないので" in talk[0]


@pytest.mark.parametrize("text", [
    "【行動】ソードベント\nやっぱりストライクにするわｗ",  # a correction
    "【行動】ソードベント\n阻止しないのは近づく時だけね",  # a condition
    "【行動】ソードベント\n今回は攻撃なしでｗ",  # a negation
])
def test_a_later_line_that_may_change_the_order_is_never_passed_over(camps, text):
    """What a line of talk may hold that changes the order above: a correction, a condition or a
    scope, a negation. Such a line is read or refused, never passed over as chat."""
    try:
        got, notes = read(camps["rd"], "城戸", text)
    except OrderError:
        return
    assert not any("行動として読めないので" in n.format() for n in notes), got


def test_among_three_a_line_of_talk_that_names_a_fighter_is_not_passed_over(camps):
    """Among three or more a name may say whom the order is against: such a line is no talk."""
    text = "【行動】ソードベント\n北岡優先でいくぜ…"
    try:
        got, notes = read(camps["three"], "城戸", text)
    except OrderError:
        return
    assert not any("行動として読めないので" in n.format() for n in notes), got


@pytest.mark.parametrize("text, canonical", [
    ("【行動】トリックベントを使います。回避のときはHPを1点使って超回避します。", "トリックベント / 超回避 1"),
    ("【行動】回避のときにHPを2点使います。", "超回避 2"),
    ("【行動】\nその場に留まって、ストライクベントを使います。\n隙狙いで相手の防御力を1点無視したいです。", "ストライクベント / 隙狙い 1"),
    ("【行動】\n回避のときはHPを2点使って超回避します。ただ、アドベントの攻撃には使わないでください。",
     "超回避 2: 本体の攻撃と庇うときだけ"),
    ("【行動】ソードベント\n超回避は2点でお願いします。ただ、アドベントの攻撃には使わないでください。",
     "ソードベント / 超回避 2: 本体の攻撃と庇うときだけ"),
])
def test_super_evasion_and_aim_in_a_newcomers_words(camps, text, canonical):
    got, _notes = read(camps["rd"], "城戸" if "ストライク" in text or "ソード" in text or "HPを2" in text else "刃", text)
    assert got == canonical
