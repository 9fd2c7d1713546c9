"""Damaged campaign files as data (issue 12): a file, an edit, the message it must give.

Each row damages a copy of a campaign two turns in and runs a command: exit 1, a Japanese
message naming the file and what is wrong, never a traceback, and no file changed.
"""

import os
import re
import shutil

import pytest

from .conftest import tree_digest

BILLION = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
    for p, c in zip("abcdefgh", "bcdefghi")
) + "turn: 2\n"
DEEP = "turn: 2\nx: " + "[" * 100_000 + "]" * 100_000 + "\n"

# (id, file, edit, payload, command, expected fragment)
DAMAGED = [
    ("state-turn-minus-1", "state.yaml", "sub", ("turn: 2", "turn: -1"), "show", "turn"),
    ("state-turn-0", "state.yaml", "sub", ("turn: 2", "turn: 0"), "turn", "記録"),
    ("state-turn-1", "state.yaml", "sub", ("turn: 2", "turn: 1"), "turn", "合いません"),
    ("state-turn-true", "state.yaml", "sub", ("turn: 2", "turn: true"), "show", "turn"),
    ("state-turn-3", "state.yaml", "sub", ("turn: 2", "turn: 3"), "log", "合いません"),
    ("state-billion-laughs", "state.yaml", "write", BILLION, "show", "アンカーか別名"),
    ("state-deep", "state.yaml", "write", DEEP, "show", "入れ子が深すぎます"),
    ("history-file-deep", "history/0002/dice.yaml", "write", "draws: " + "[" * 100_000 + "]" * 100_000 + "\n",
     "replay", "入れ子が深すぎます"),
    ("history-billion-laughs", "history/0001/dice.yaml", "write", BILLION, "verify", "history/0001/dice.yaml"),
    ("toml-deep", "campaign.toml", "append", "x = " + "[" * 100_000 + "]" * 100_000 + "\n", "show",
     "campaign.toml の入れ子が深すぎます"),
    ("state-a-folder", "state.yaml", "mkdir", None, "show", "state.yaml"),
    ("toml-a-folder", "campaign.toml", "mkdir", None, "show", "campaign.toml"),
    ("history-a-file", "history", "file", None, "show", "history がフォルダではありません"),
    ("history-file-a-folder", "history/0002/post.txt", "mkdir", None, "log", "post.txt"),
    ("lock-a-folder", ".pbf.lock", "mkdir", None, "undo", ".pbf.lock がフォルダです"),
    ("lock-a-symlink", ".pbf.lock", "symlink", "elsewhere", "undo", ".pbf.lock がシンボリックリンクです"),
    # the archive a replay resolves again
    ("history-state-hp-abc", "history/0001/state.yaml", "re", (r"(?m)^(  A:\n(?:    .*\n)*?    hp:) .*$", r"\1 abc"),
     "replay", "第1ターンが一致しません：history/0001/state.yaml"),
    ("history-turn-0-state-hp-abc", "history/0000/state.yaml", "re",
     (r"(?m)^(  A:\n(?:    .*\n)*?    hp:) .*$", r"\1 abc"), "replay", "history/0000/state.yaml の fighters.A.hp：整数のはずが文字列"),
    ("history-draws-x", "history/0002/dice.yaml", "re", (r"(?m)^draws: .*$", "draws: [x]"), "verify",
     "history/0002/dice.yaml の draws[0]：整数のはずが文字列"),
    ("deadline-year-9999", "deadline.yaml", "write", "turn: 3\ndeadline: '9999-12-31 23:59'\n", "turn",
     "deadline.yaml の締切の年は2000〜2999年です"),
    # a campaign's own data/ and templates/
    ("data-common-empty", "data/common.yaml", "write", "", "show", "data/common.yaml の形が正しくありません"),
    ("data-common-missing-keys", "data/common.yaml", "write", "techniques: []\n", "show", "techniques・cards が必要です"),
    ("data-anchors", "data/common.yaml", "write", BILLION, "show", "アンカーか別名"),
    ("template-syntax-error", "templates/alterego/status.j2", "write", "ok\n{% if %}\n", "show",
     "2行目：テンプレート"),
    ("template-undefined", "templates/alterego/status.j2", "write", "{{ nothing.here }}\n", "show",
     "status.j2 を使えません（'nothing' is undefined）"),
    # values of state.yaml against the game's schema: the key path and the line
    ("hp-abc", "state.yaml", "re", (r"(?m)^(  A:\n(?:    .*\n)*?    hp:) .*$", r"\1 abc"), "show", "fighters.A.hp：整数のはずが文字列"),
    ("hp-null", "state.yaml", "re", (r"(?m)^(  A:\n(?:    .*\n)*?    hp:) .*$", r"\1 null"), "turn", "fighters.A.hp：整数のはずが空"),
    ("hp-list", "state.yaml", "re", (r"(?m)^(  A:\n(?:    .*\n)*?    hp:) .*$", r"\1 [1, 2]"), "show", "fighters.A.hp"),
    ("hp-missing", "state.yaml", "re", (r"(?m)^(  A:\n(?:    .*\n)*?)    hp: .*\n", r"\1"), "show", "「hp」がありません"),
    ("hp-minus-5", "state.yaml", "re", (r"(?m)^(  A:\n(?:    .*\n)*?    hp:) .*$", r"\1 -5"), "show", "-5 は範囲外です"),
    ("hp-2.5", "state.yaml", "re", (r"(?m)^(  A:\n(?:    .*\n)*?    hp:) .*$", r"\1 2.5"), "show", "整数のはずが小数"),
    ("hp-nan", "state.yaml", "re", (r"(?m)^(  A:\n(?:    .*\n)*?    hp:) .*$", r"\1 .nan"), "show", "数でない値"),
    ("soul-99", "state.yaml", "re", (r"(?m)^(  A:\n(?:    .*\n)*?    soul:) .*$", r"\1 99"), "show", "fighters.A.soul：99 は範囲外です（0〜9）"),
    ("fighters-3", "state.yaml", "re", (r"(?ms)^fighters:\n.*", "fighters: 3\n"), "show", "fighters：表のはずが数"),
    ("distance-far", "state.yaml", "re", (r"(?m)^distance: .*$", "distance: far"), "show", "distance：整数のはずが文字列"),
    ("distance-100", "state.yaml", "re", (r"(?m)^distance: .*$", "distance: 100"), "show", "100 は範囲外です（0〜6）"),
    ("hand-a-scalar", "state.yaml", "re", (r"(?m)^(  A:\n(?:    .*\n)*?    hand:) .*$", r"\1 弱"), "show", "fighters.A.hand：リストのはずが"),
    ("deck-5", "state.yaml", "re", (r"(?m)^(  A:\n(?:    .*\n)*?    deck:) .*$", r"\1 5"), "show", "fighters.A.deck：リストのはずが"),
    ("card-x-in-hand", "state.yaml", "re", (r"(?m)^(  A:\n(?:    .*\n)*?    hand:) .*$", r"\1 [X]"), "show", "fighters.A.hand[0]：「X」は使えません"),
    ("unknown-character", "state.yaml", "re", (r"(?m)^(  A:\n    character:) .*$", r"\1 nobody"), "show", "fighters.A.character：「nobody」"),
    ("extra-fighter", "state.yaml", "append", "", "show", "プレイヤーでない「C」"),
    ("toml-trip-5", "campaign.toml", "re", (r'(?m)^(\[players\.A\]\n)', '\\1trip = 5\n'), "show", "trip は文字列です"),
]

RIDER_DAMAGED = [
    ("rider-player-not-in-state", "campaign.toml", "append", '\n[players."北岡"]\ncharacter = "zolda"\n', "show",
     "「北岡」がありません"),
    ("rider-deck-count-x", "state.yaml", "re", (r"(?m)^(      sword_vent:) .*$", r"\1 x"), "show", "deck.sword_vent：整数のはずが文字列"),
    ("rider-initiative-unknown", "state.yaml", "re", (r"(?m)^initiative: .*$", "initiative: [城戸, 北岡]"), "show",
     "initiative[1]：「北岡」は使えません"),
    ("rider-alive-no", "state.yaml", "re", (r"(?m)^(    alive:) .*$", r'\1 "no"'), "show", "alive：true か false のはずが文字列"),
    ("rider-distance-far", "state.yaml", "re", (r"(?m)^distance: .*$", "distance: far"), "show", "distance：「far」は使えません"),
    ("rider-hp-above-max", "state.yaml", "re", (r"(?m)^(    hp:) .*$", r"\1 21"), "show", "max_hp（20）を超えています"),
]


def damage(path, name, edit, payload):
    target = path / name
    if edit == "sub":
        text = target.read_text("utf-8")
        assert payload[0] in text
        target.write_text(text.replace(payload[0], payload[1], 1), "utf-8")
    elif edit == "write":
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(payload, "utf-8")
    elif edit == "append":
        text = target.read_text("utf-8")
        if name == "state.yaml":  # a fighter copied from A under another name
            block = re.search(r"(?m)^  A:\n(?:    .*\n)+", text)[0]
            payload = block.replace("  A:", "  C:", 1)
        target.write_text(text + payload, "utf-8")
    elif edit == "re":
        text = target.read_text("utf-8")
        new = re.sub(payload[0], payload[1], text, count=1)
        assert new != text, payload
        target.write_text(new, "utf-8")
    elif edit == "mkdir":
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()
        target.mkdir()
    elif edit == "file":
        shutil.rmtree(target)
        target.write_text("not a folder\n", "utf-8")
    elif edit == "symlink":
        if target.exists():
            target.unlink()
        os.symlink(path.parent / payload, target)


@pytest.fixture
def camp2(camp, pbf, tmp_path):
    orders = tmp_path / "o2.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    code, _, err = pbf("turn", camp, "--orders", orders)
    assert code == 0, err
    (tmp_path / "o3.txt").write_text("[A]弱\n[B]弱\n", "utf-8")
    return camp


@pytest.mark.parametrize("case", DAMAGED, ids=[row[0] for row in DAMAGED])
def test_a_damaged_file_is_named_and_nothing_changes(case, camp2, pbf, tmp_path):
    _, name, edit, payload, command, expected = case
    damage(camp2, name, edit, payload)
    before = tree_digest(camp2)
    argv = [command, camp2] + (["--orders", tmp_path / "o3.txt"] if command == "turn" else [])
    code, out, err = pbf(*argv)
    assert code == 1, (out, err)
    assert expected in err
    assert "Traceback" not in err
    assert tree_digest(camp2) == before
    assert not (camp2 / "history" / "undone").exists()


@pytest.fixture
def rider(tmp_path, pbf):
    path = tmp_path / "rider"
    code, _, err = pbf("new", path, "--system", "rider", "--player", "城戸=ryuki", "--player", "浅倉=jinshu",
                       "--seed", "s")
    assert code == 0, err
    return path


@pytest.mark.parametrize("case", RIDER_DAMAGED, ids=[row[0] for row in RIDER_DAMAGED])
def test_a_damaged_rider_state_is_named_and_nothing_changes(case, rider, pbf):
    _, name, edit, payload, command, expected = case
    damage(rider, name, edit, payload)
    before = tree_digest(rider)
    code, out, err = pbf(command, rider)
    assert code == 1, (out, err)
    assert expected in err and "行目" in err
    assert "Traceback" not in err
    assert tree_digest(rider) == before
