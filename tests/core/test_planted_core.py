"""Core, forum and archive behaviour that a small slip would change unnoticed (issue 21, "The
tests themselves"): the board's clock, its line limit, verify, export, the site's turn links,
pbf set's start-only values, integers in state.yaml, the length of a name, pbf list options."""

from __future__ import annotations

import re
import tomllib
from datetime import datetime, timedelta, timezone
from html.parser import HTMLParser

import pytest
from conftest import tree_digest

from pbf import campaign as campaigns
from pbf.turn.run import post_parts
from pbf.board.boardfit import fits, split_post
from pbf.board.forum import board_now, parse_timezone
from pbf.campaign.catalogue import toml_value


def _new(pbf, path, *args, system="alterego", players=("A=plain", "B=plain")):
    argv = ["new", path, "--system", system, "--seed", "planted"]
    for p in players:
        argv += ["--player", p]
    code, _, err = pbf(*argv, *args)
    assert code == 0, err
    return path


def _turns(pbf, tmp_path, camp, n, orders="[A]弱\n[B]→\n"):
    path = tmp_path / "orders.txt"
    path.write_text(orders, "utf-8")
    for _ in range(n):
        code, _, err = pbf("turn", camp, "--orders", path)
        assert code == 0, err
    return camp


# -- the board's clock -------------------------------------------------------------------------------

def test_the_board_clock_jst_is_utc_plus_nine_hours(monkeypatch):
    monkeypatch.delenv("PBF_NOW", raising=False)
    assert parse_timezone("JST").utcoffset(None) == timedelta(hours=9)
    utc = datetime.now(timezone.utc).replace(tzinfo=None)
    jst = board_now("JST")
    assert abs(jst - (utc + timedelta(hours=9))) < timedelta(minutes=1)
    assert abs(board_now("UTC") - utc) < timedelta(minutes=1)
    assert abs(board_now("+09:00") - jst) < timedelta(minutes=1)


# -- the board's line limit ------------------------------------------------------------------------

def _lines(post):
    """The lines of a post as the board shows them (a file's final newline ends its last line)."""
    return len(post.removesuffix("\n").split("\n"))


@pytest.mark.parametrize("limit", [3, 8, 32])
def test_a_post_of_exactly_max_lines_fits_and_one_line_more_does_not(limit):
    exact = "\n".join(f"行{i}" for i in range(limit))
    assert fits(exact, limit, None) and not fits(exact + "\n一行多い", limit, None)
    assert split_post(exact.split("\n"), limit, None) == [exact]  # one post, not numbered
    over = split_post((exact + "\n一行多い").split("\n"), limit, None)
    assert len(over) == 2 and all(_lines(p) <= limit for p in over), over


def test_a_turn_post_is_split_exactly_when_it_has_more_lines_than_max_lines(tmp_path, pbf):
    free = _turns(pbf, tmp_path, _new(pbf, tmp_path / "free", "--set", "hands=free"), 1)
    (whole,) = post_parts(campaigns.load(free), 1)
    length = _lines(whole)
    assert length > 4
    exact = _new(pbf, tmp_path / "exact", "--set", "hands=free", "--set", f"max_lines={length}")
    assert post_parts(campaigns.load(_turns(pbf, tmp_path, exact, 1)), 1) == [whole]
    short = _new(pbf, tmp_path / "short", "--set", "hands=free", "--set", f"max_lines={length - 1}")
    parts = post_parts(campaigns.load(_turns(pbf, tmp_path, short, 1)), 1)
    assert len(parts) >= 2 and all(_lines(p) <= length - 1 for p in parts), [_lines(p) for p in parts]


# -- pbf verify ----------------------------------------------------------------------------------------

def test_verify_refuses_a_turn_whose_orders_hash_was_changed(tmp_path, pbf):
    camp = _turns(pbf, tmp_path, _new(pbf, tmp_path / "c", "--set", "hands=free"), 2)
    assert pbf("verify", camp)[0] == 0
    dice = camp / "history" / "0001" / "dice.yaml"
    text = dice.read_text("utf-8")
    true_hash = re.search(r"^orders_sha256: ([0-9a-f]{64})$", text, re.M)[1]
    forged = ("0" if true_hash[0] != "0" else "1") + true_hash[1:]
    dice.write_text(text.replace(true_hash, forged), "utf-8")
    code, out, err = pbf("verify", camp)
    assert code == 1 and "第1ターンの行動のハッシュが記録と違います" in err, (out, err)
    assert "一致しました" not in out


# -- pbf export ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("inside", ["public", "site/public", "history/public"])
def test_export_into_a_folder_inside_the_campaign_is_refused(tmp_path, pbf, inside):
    camp = _turns(pbf, tmp_path, _new(pbf, tmp_path / "c", "--set", "hands=free"), 1)
    before = tree_digest(camp)
    code, _, err = pbf("export", camp, camp / inside)
    assert code == 1 and "キャンペーンのフォルダの中" in err, err
    assert tree_digest(camp) == before and not (camp / inside).exists()
    assert pbf("export", camp, tmp_path / "public")[0] == 0  # beside it is fine


# -- the site's turn links -------------------------------------------------------------------------------

class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rel: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("rel") in ("prev", "next"):
            self.rel[attrs["rel"]] = attrs["href"]


def test_every_turn_page_links_to_the_turns_before_and_after_it(tmp_path, pbf):
    camp = _turns(pbf, tmp_path, _new(pbf, tmp_path / "c", "--set", "hands=free"), 4)
    site = tmp_path / "site"
    assert pbf("html", camp, site)[0] == 0
    turns = [1, 2, 3, 4]
    for turn in turns:
        links = _Links()
        links.feed((site / f"turn-{turn:04d}.html").read_text("utf-8"))
        want = {}
        if turn > 1:
            want["prev"] = f"turn-{turn - 1:04d}.html"
        if turn < turns[-1]:
            want["next"] = f"turn-{turn + 1:04d}.html"
        assert links.rel == want, (turn, links.rel)
        assert all((site / href).is_file() for href in links.rel.values())


# -- pbf set and start-only values ------------------------------------------------------------------------

@pytest.mark.parametrize("to", ["private", "open"])
def test_set_refuses_to_leave_a_value_chosen_only_at_the_start(tmp_path, pbf, to):
    camp = _turns(pbf, tmp_path, _new(pbf, tmp_path / "c", "--set", "hands=free"), 1)
    before = tree_digest(camp)
    code, _, err = pbf("set", camp, f"hands={to}")
    assert code == 1 and "hands の free はキャンペーンを作るときだけ選べる値" in err, err
    assert tree_digest(camp) == before
    assert tomllib.loads((camp / "campaign.toml").read_text("utf-8"))["options"]["hands"] == "free"


# -- integers in state.yaml -------------------------------------------------------------------------------

def _replace_line(path, pattern, new):
    text = path.read_text("utf-8")
    changed, count = re.subn(pattern, new, text, count=1, flags=re.M)
    assert count == 1, pattern
    path.write_text(changed, "utf-8")


@pytest.mark.parametrize(
    "system, players, pattern, key",
    [
        ("alterego", ("A=plain", "B=plain"), r"^(    hp:) \d+$", "fighters.A.hp"),
        ("alterego", ("A=plain", "B=plain"), r"^(    soul:) \d+$", "fighters.A.soul"),
        ("alterego", ("A=plain", "B=plain"), r"^(distance:) \d+$", "distance"),
        ("rider", ("刃=jinshu", "龍=ryuki"), r"^(    hp:) \d+$", "fighters.刃.hp"),
        ("rider", ("刃=jinshu", "龍=ryuki"), r"^(    max_hp:) \d+$", "fighters.刃.max_hp"),
    ],
)
@pytest.mark.parametrize("boolean", ["true", "false"])
def test_a_boolean_where_state_yaml_wants_an_integer_is_refused(tmp_path, pbf, system, players, pattern, key, boolean):
    extra = ("--set", "hands=free") if system == "alterego" else ()
    camp = _new(pbf, tmp_path / "c", *extra, system=system, players=players)
    _replace_line(camp / "state.yaml", pattern, rf"\1 {boolean}")
    before = tree_digest(camp)
    code, out, err = pbf("show", camp)
    assert code == 1, out
    assert f"state.yaml の {key}：整数のはずが真偽値（{boolean}）です" in err, err
    assert tree_digest(camp) == before


# -- the length of a player's name -----------------------------------------------------------------------------

@pytest.mark.parametrize("letter", ["a", "美"])
def test_a_player_name_has_at_most_24_characters(tmp_path, pbf, letter):
    assert campaigns.MAX_NAME == 24
    longest = letter * 24
    code, _, err = pbf("new", tmp_path / "ok", "--system", "alterego", "--player", f"{longest}=plain",
                       "--player", "B=plain", "--seed", "s", "--set", "hands=free")
    assert code == 0, err
    assert longest in tomllib.loads((tmp_path / "ok" / "campaign.toml").read_text("utf-8"))["players"]
    code, _, err = pbf("new", tmp_path / "long", "--system", "alterego", "--player", f"{longest}{letter}=plain",
                       "--player", "B=plain", "--seed", "s", "--set", "hands=free")
    assert code == 1 and "長すぎます（25文字、24文字まで）" in err, err
    assert not (tmp_path / "long").exists()


# -- pbf list options is TOML -------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [True, False, 0, 32, "", "【行動】", 'say "hi" \\ back', "JST"])
def test_an_option_is_shown_as_toml_reads_it(value):
    shown = toml_value(value)
    assert tomllib.loads(f"key = {shown}")["key"] == value
    if isinstance(value, bool):
        assert shown == str(value).lower()


def _option_lines(text):
    return {m[1]: m[0] for m in re.finditer(r"^([a-z_]+) = .*?(?=（既定：|$)", text, re.M)}


def test_pbf_list_options_prints_every_default_as_a_toml_value(tmp_path, pbf, monkeypatch):
    """Every ``key = value`` line reads as TOML to the default, a boolean (``true``) included: the
    games have none today, so one is added for the test."""
    from pbf.systems.alterego.system import AlterEgo

    monkeypatch.setattr(AlterEgo, "default_options", {**AlterEgo.default_options, "sample_switch": True,
                                                      "sample_off": False})
    import json

    code, out, err = pbf("list", "options", "--system", "alterego")
    assert code == 0, err
    code, js, err = pbf("list", "options", "--system", "alterego", "--json")
    assert code == 0, err
    defaults = {o["key"]: o["default"] for o in json.loads(js)["alterego"]["options"]}
    lines = _option_lines(out)
    assert set(lines) == set(defaults)
    for key, line in lines.items():
        assert tomllib.loads(line)[key] == defaults[key], line
    assert lines["sample_switch"] == "sample_switch = true" and lines["sample_off"] == "sample_off = false"


def test_pbf_list_options_of_a_campaign_prints_values_and_defaults_as_toml(tmp_path, pbf):
    camp = _new(pbf, tmp_path / "c", "--set", "hands=free", "--set", "max_lines=32", "--set", "gm=GM◆Ab3dEf6hIj")
    code, out, err = pbf("list", "options", "--campaign", camp)
    assert code == 0, err
    config = tomllib.loads((camp / "campaign.toml").read_text("utf-8"))["options"]
    lines = _option_lines(out)
    for key, want in config.items():
        assert tomllib.loads(lines[key])[key] == want
    assert "max_lines = 32（既定：0）" in out
