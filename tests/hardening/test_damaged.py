"""Damaged campaign files as data (issue 12): a file, an edit, the message it must give.

Each row damages a copy of a campaign two turns in and runs a command: exit 1, a Japanese
message naming the file and what is wrong, never a traceback, and no file changed.
"""

import os
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
]


def damage(path, name, edit, payload):
    target = path / name
    if edit == "sub":
        text = target.read_text("utf-8")
        assert payload[0] in text
        target.write_text(text.replace(payload[0], payload[1], 1), "utf-8")
    elif edit == "write":
        target.write_text(payload, "utf-8")
    elif edit == "append":
        target.write_text(target.read_text("utf-8") + payload, "utf-8")
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
