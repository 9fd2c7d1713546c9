"""Values that could only break later are refused when they are given (issue 21, Low): a rider
twice in the initiative, options out of their range or form, and a trip a board cannot write."""

from __future__ import annotations

import re
import tomllib

import pytest
from cli_support import tree_digest

from pbf.board.thread import load_thread


def _rider(pbf, path, *players):
    code, _, err = pbf("new", path, "--system", "rider", "--seed", "checks",
                       *[arg for p in (players or ("刃=jinshu", "龍=ryuki")) for arg in ("--player", p)])
    assert code == 0, err
    return path


def _alterego(pbf, path, *sets):
    code, _, err = pbf("new", path, "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                       "--seed", "checks", *[arg for s in sets for arg in ("--set", s)])
    return code, err


def _initiative(camp):
    line = next(l for l in (camp / "state.yaml").read_text("utf-8").split("\n") if l.startswith("initiative:"))
    return [n for n in line.split("[", 1)[1].rstrip("]").split(", ") if n]


def _set_initiative(camp, names):
    text = (camp / "state.yaml").read_text("utf-8")
    text = re.sub(r"^initiative: .*$", "initiative: [" + ", ".join(names) + "]", text, count=1, flags=re.M)
    (camp / "state.yaml").write_text(text, "utf-8")


# -- the rider initiative ------------------------------------------------------------------------

def test_a_rider_twice_in_the_initiative_is_refused_by_every_command(tmp_path, pbf):
    camp = _rider(pbf, tmp_path / "c")
    _set_initiative(camp, ["刃", "刃"])
    orders = tmp_path / "o.txt"
    orders.write_text("[刃] 近寄る\n[龍] 離れる\n", "utf-8")
    before = tree_digest(camp)
    for argv in (("show", camp), ("turn", camp, "--orders", orders), ("check", camp, "--player", "刃", "近寄る")):
        code, out, err = pbf(*argv)
        assert code == 1, (argv, out)
        assert "state.yaml の initiative[1]" in err and "「刃」が二回" in err and "3行目" in err, err
        assert "Traceback" not in err
    assert tree_digest(camp) == before


def test_a_living_rider_left_out_of_the_initiative_is_refused(tmp_path, pbf):
    camp = _rider(pbf, tmp_path / "c")
    _set_initiative(camp, ["刃"])
    code, _, err = pbf("show", camp)
    assert code == 1 and "生きている「龍」がいません" in err


def test_the_initiative_may_keep_a_fallen_rider_or_be_empty(tmp_path, pbf):
    """The fallen stay in the order where they were (the resolver skips them); an empty order is a
    state from before rules version 2, rolled at the start of turn 1."""
    camp = _rider(pbf, tmp_path / "c", "刃=jinshu", "龍=ryuki", "蓮=knight")
    order = _initiative(camp)
    assert sorted(order) == sorted(["刃", "龍", "蓮"])
    fallen = order[-1]
    lines = (camp / "state.yaml").read_text("utf-8").split("\n")
    start = lines.index(f"  {fallen}:")
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("    hp:"):
            lines[i] = "    hp: 0"
        if lines[i].startswith("    alive:"):
            lines[i] = "    alive: false"
            break
    (camp / "state.yaml").write_text("\n".join(lines), "utf-8")
    code, out, err = pbf("show", camp)
    assert code == 0, err
    _set_initiative(camp, order[:-1])
    assert pbf("show", camp)[0] == 0
    _set_initiative(camp, [])
    assert pbf("show", camp)[0] == 0
    _set_initiative(camp, order[:1])  # a living one left out is still refused
    assert pbf("show", camp)[0] == 1


# -- options ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "sets, words",
    [
        (["start_distance=99"], "start_distance は 0〜6（max_distance 以下）"),
        (["start_distance=5", "max_distance=3"], "start_distance は 0〜3（max_distance 以下）"),
        (["order_marker=【行\n動】"], "order_marker に改行は使えません"),
        (["order_marker=【行動】\x07"], "order_marker に制御文字（U+0007）は使えません"),
        (["gm=◆"], "◆の前に名前がありません"),
        (["gm=◆Ab3dEf6hIj"], "◆の前に名前がありません"),
        (["gm=【x】"], "名前に括弧「【」は使えません"),
        (["gm=[GM]"], "名前に括弧「[」は使えません"),
        (["gm=GM◆abc"], "◆の後はトリップ"),
        (["gm=GM◆Ab3dEf6hIj◆x"], "◆の後はトリップ"),
        (["gm=G\nM"], "名前に改行は使えません"),
    ],
)
def test_pbf_new_refuses_an_option_that_could_only_break_later(tmp_path, pbf, sets, words):
    code, err = _alterego(pbf, tmp_path / "c", "hands=free", *sets)
    assert code == 1 and words in err, err
    assert "Traceback" not in err
    assert not (tmp_path / "c").exists()


def test_options_at_their_limits_are_taken_as_given(tmp_path, pbf):
    code, err = _alterego(pbf, tmp_path / "c", "hands=free", "start_distance=4", "max_distance=4",
                          "gm=名無しさん@お腹いっぱい。◆Ab3dEf6hIj", "order_marker=＜行動＞")
    assert code == 0, err
    state = (tmp_path / "c" / "state.yaml").read_text("utf-8")
    assert "distance: 4\n" in state
    options = tomllib.loads((tmp_path / "c" / "campaign.toml").read_text("utf-8"))["options"]
    assert options["gm"] == "名無しさん@お腹いっぱい。◆Ab3dEf6hIj" and options["order_marker"] == "＜行動＞"


def test_pbf_set_refuses_a_gm_or_marker_of_the_wrong_form_and_changes_nothing(tmp_path, pbf):
    camp = tmp_path / "c"
    assert _alterego(pbf, camp, "hands=free")[0] == 0
    before = tree_digest(camp)
    code, _, err = pbf("set", camp, "gm=【x】", "order_marker=a\u2028b")
    assert code == 1 and "括弧「【」" in err and "order_marker に改行" in err, err
    assert tree_digest(camp) == before


def test_pbf_set_refuses_a_max_distance_below_the_distance_now(tmp_path, pbf):
    camp = tmp_path / "c"
    assert _alterego(pbf, camp, "hands=free", "start_distance=5")[0] == 0
    before = tree_digest(camp)
    code, _, err = pbf("set", camp, "max_distance=4")
    assert code == 1 and "max_distance は今の距離 5 以上" in err, err
    assert tree_digest(camp) == before
    code, out, err = pbf("set", camp, "max_distance=5")
    assert code == 0, err
    assert pbf("show", camp)[0] == 0  # state.yaml (distance 5) still fits


def test_a_campaign_toml_with_a_gm_of_the_wrong_form_is_named(tmp_path, pbf):
    camp = tmp_path / "c"
    assert _alterego(pbf, camp, "hands=free")[0] == 0
    toml = camp / "campaign.toml"
    toml.write_text(toml.read_text("utf-8").replace("[options]\n", '[options]\ngm = "◆"\n'), "utf-8")
    code, _, err = pbf("show", camp)
    assert code == 1 and "オプション gm" in err and "◆の前に名前がありません" in err, err


# -- a trip written before the name ------------------------------------------------------------------

def _dat(*rows):
    return "".join(f"{name}<>sage<>2026/11/29(日) 21:00:0{i}.00 ID:Id{i}<>{body}<>{'スレ' if i == 0 else ''}\n"
                   for i, (name, body) in enumerate(rows)).encode("utf-8")


def test_a_trip_before_the_name_in_a_dat_is_no_trip_and_is_warned_about():
    thread = load_thread(_dat(("GM", "どうぞ"), ("</b>◆KidoRyuki1 <b>城戸", "【行動】近寄る"),
                              ("城戸 </b>◆KidoRyuki1 <b>", "【行動】離れる")))
    forged, real = thread.posts[1], thread.posts[2]
    assert (forged.name, forged.trip) == ("城戸", None)
    assert (real.name, real.trip) == ("城戸", "KidoRyuki1")
    (warning,) = thread.warnings
    assert warning.line == 2 and "トリップ◆KidoRyuki1が名前の前" in warning.message
    assert warning.text == "◆KidoRyuki1 城戸"


def test_a_trip_of_a_name_typed_only_as_a_key_is_still_a_trip():
    """``#key`` alone: the board writes an empty name before the trip, and nothing after it."""
    thread = load_thread(_dat(("GM", "どうぞ"), (" </b>◆KidoRyuki1 <b>", "よろしく")))
    assert thread.posts[1].trip == "KidoRyuki1" and not thread.warnings


def test_an_order_under_a_trip_before_the_name_is_not_the_players(tmp_path, pbf):
    camp = _rider(pbf, tmp_path / "c", "城戸◆KidoRyuki1=ryuki", "蓮=knight")
    thread = tmp_path / "t.dat"
    thread.write_bytes(_dat(("GM", "どうぞ"), ("</b>◆KidoRyuki1 <b>城戸", "【行動】近寄る"), ("蓮", "【行動】離れる")))
    code, out, err = pbf("status", camp, "--thread", thread)
    assert code == 0, err
    assert "■城戸：未提出" in out and "■蓮：受理" in out
    assert "トリップ◆KidoRyuki1が名前の前にあります" in err and "なりすまし" in err
