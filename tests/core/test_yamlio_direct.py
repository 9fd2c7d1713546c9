"""pbf's own YAML documents take a direct way (pbf.yamlio): the same bytes as ruamel.yaml, faster."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbf import campaign as campaigns, yamlio
from pbf.systems.base import Player
from pbf.turn.zero import new_campaign
from pbf.turn.replay import replay
from pbf.turn.run import run_turn
from pbf.board.boardfit import board_safe, survives
from pbf.cli.demo import demo_campaigns, play

from conftest import tree_digest

# words as pbf's documents hold them, and the characters that make YAML quote or escape a word
TRICKY = list(":#,[]{}'\"\\\t\n\r\x00\x85\xa0\u2028\u3000\ufeff\ue000😀-?&*!|>%@`.~<=+ ") + ["ー", "→", "ｱ", "é"]
ALPHABET = st.sampled_from(list(string.ascii_letters + string.digits + " _/()") + ["美", "鈴", "弱", "↑"] + TRICKY)
SPECIAL = st.sampled_from(
    ["", " ", "null", "True", "yes", "n", "~", "12", "-3", "1.5", "1e3", "0x1F", "0o7", "1_000", "2026-11-29",
     "8308500dc3", "4e2b", "---", "...", "<<", "=", "- a", "a: b", "a #b", "x:", "a ", " a", "近寄る / ソードベント",
     "美鈴\t弱弱\n名無し\t\n", "a\nb", "a\tb"]
)
WORDS = st.one_of(st.text(ALPHABET, max_size=8), SPECIAL)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False), WORDS)
DATA = st.recursive(
    SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(WORDS, inner, max_size=4)),
    max_leaves=25,
)
DOCUMENTS = st.one_of(st.dictionaries(WORDS, DATA, max_size=5), st.lists(DATA, max_size=5))
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))


def ruamel_text(data):
    return yamlio.dump(yamlio.merge_into(None, data))


@SETTINGS
@given(DOCUMENTS)
def test_the_direct_text_is_ruamels_text(data):
    text = yamlio.dump_data(data)
    assert text == ruamel_text(data)
    direct = yamlio._emit(data)
    if direct is not None:  # and what the direct way wrote, it reads back as ruamel.yaml does
        assert yamlio._read(direct) == yamlio.plain(yamlio.load(direct, "x")) == data


@settings(max_examples=1000, deadline=None)
@given(SCALARS)
def test_each_word_is_written_as_ruamel_writes_it(word):
    for data in ({"key": word}, [word], [{"key": word, "list": [word, word]}], {"key": [word]}):
        direct = yamlio._emit(data)
        assert direct is None or direct == ruamel_text(data)


def test_the_direct_way_writes_quoted_and_escaped_words_as_ruamel_does():
    data = {"orders_canonical": "美鈴\t弱弱\n名無し\t\n", "sha": "8308500dc3", "empty": "", "draws": [1, 2],
            "none": [], "map": {}, "turn": 3, "winner": None, "alive": True, "list": [{"a": [1]}, [2, 3], "x"]}
    assert yamlio._emit(data) == ruamel_text(data)
    for word in ("null", "12", "a: b", "1e3", "2026-11-29", "a\nb", " a", "x\u3000"):
        assert yamlio._emit({"w": word}) is None  # quoted by ruamel.yaml: its way
        assert yamlio.dump_data({"w": word}) == ruamel_text({"w": word})


KEYS = st.sampled_from(["turn", "hp", "美鈴", "hand", "deck", "x y"])
NESTED = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
                      max_leaves=15)


@SETTINGS
@given(st.dictionaries(KEYS, NESTED, max_size=5), st.dictionaries(KEYS, NESTED, max_size=5))
def test_merging_into_pbfs_own_text_is_merging_into_its_document(old, new):
    old_text = yamlio.dump_data(old)
    try:
        document = yamlio.load(old_text, "x")
    except Exception:  # a few exotic words ruamel.yaml itself cannot read back
        return
    text, merged = yamlio.merge_text(old_text, yamlio.load_plain(old_text, "x"), new)
    expected = yamlio.merge_into(document, new)
    assert text == yamlio.dump(expected)
    assert merged == yamlio.plain(expected)


def test_merging_keeps_a_gms_comment_and_key_order():
    old_text = "turn: 1  # GMメモ\nfighters:\n  美鈴:\n    hp: 20\n    hand: [弱, 強]\n"
    text, merged = yamlio.merge_text(old_text, yamlio.load_plain(old_text, "x"),
                                     {"turn": 2, "fighters": {"美鈴": {"hand": ["弱"], "hp": 17}}, "winner": None})
    assert text == "turn: 2  # GMメモ\nfighters:\n  美鈴:\n    hp: 17\n    hand: [弱]\nwinner: null\n"
    assert list(merged["fighters"]["美鈴"]) == ["hp", "hand"]


@pytest.fixture(scope="module")
def demo_folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("demos")
    out = []
    for source in demo_campaigns():
        play(source, root, _Null())
        out.append(root / source.name)
    return out


class _Null:
    def write(self, text: str) -> int:
        return len(text)


def test_every_document_of_the_demos_is_read_the_direct_way(demo_folders):
    """state.yaml, events, dice: pbf's own documents never need ruamel.yaml to be read."""
    files = [p for folder in demo_folders for p in sorted(folder.rglob("*.yaml"))]
    assert len(files) > 40
    for path in files:
        text = path.read_text("utf-8")
        assert yamlio._read(text) is not None, path
        assert yamlio.load_plain(text, "x") == yamlio.plain(yamlio.load(text, "x"))


def test_a_campaign_written_by_ruamel_yaml_alone_is_byte_identical_and_replays(tmp_path, monkeypatch):
    """The direct way changes no byte: a campaign played with ruamel.yaml writing every document
    equals one played with the direct way, and each replays with the other."""
    trees = []
    for name, direct in (("ruamel", False), ("direct", True)):
        with monkeypatch.context() as patch:
            if not direct:
                patch.setattr(yamlio, "_emit", lambda data: None)
                patch.setattr(yamlio, "_read", lambda text: None)
            for source in demo_campaigns():
                play(source, tmp_path / name, _Null())
        trees.append(tree_digest(tmp_path / name))
    assert trees[0] == trees[1]
    for source in demo_campaigns():
        assert replay(campaigns.load(tmp_path / "ruamel" / source.name)) == []


def test_a_gm_edit_goes_through_ruamel_and_replays(tmp_path):
    players = [Player("A", "plain"), Player("B", "plain")]
    c = new_campaign(tmp_path / "c", "alterego", players, seed="s", options={"hands": "free"})
    campaigns.commit_turn(c, run_turn(c, "[A]弱\n[B]→\n"))
    state = c.path / "state.yaml"
    state.write_text(state.read_text("utf-8").replace("distance: ", "distance:  ") + "# GMメモ\n", "utf-8")
    c = campaigns.load(c.path)
    campaigns.commit_turn(c, run_turn(c, "[A]←\n[B]弱\n"))
    assert (c.path / "history" / "0002" / "before.yaml").is_file()
    assert state.read_text("utf-8").endswith("# GMメモ\n")
    campaigns.commit_turn(c, run_turn(c, "[A]\n[B]→\n"))
    assert state.read_text("utf-8").endswith("# GMメモ\n")
    assert replay(campaigns.load(c.path)) == []


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list("abc 美鈴〜−—～①㈱\u00a5\u00a0\u200b\ufeff😀ゔ・") + ["\u3094", "\u2028"]), max_size=12),
       st.sampled_from(["cp932", "utf-8", "shift_jis", "euc_jp"]))
def test_a_text_that_survives_the_board_encoding_is_kept_whole(text, encoding):
    """board_safe's shortcut (the whole text survives) gives what its character loop gives."""
    if survives(text, encoding):
        assert all(survives(ch, encoding) for ch in text)
        assert board_safe(text, encoding) == text


def test_a_number_too_long_for_python_is_a_clear_error():
    from pbf.errors import PbfError

    with pytest.raises(PbfError, match="state.yaml の YAML が読めません"):
        yamlio.load_plain("turn: " + "1" * 5000 + "\n", "state.yaml")
