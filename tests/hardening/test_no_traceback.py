"""The reproductions of issue 12 that ended in a traceback: each is a row (arguments, exit
code, a fragment of the Japanese message); no row prints a traceback or changes a file."""

import io
import os
import subprocess
import sys

import pytest

from pbf import campaign as campaigns

from .conftest import tree_digest

BIG = "1" * 4400
LONG = "x" * 5000

# (id, argv with placeholders, exit code, message fragment)
ROWS = [
    ("aim-4400-digits", ["check", "RIDER", "--player", "城戸", "隙狙い" + BIG], 1, "数が大きすぎます"),
    ("super-evasion-4400-digits", ["check", "RIDER", "--player", "城戸", "超回避" + BIG], 1, "数が大きすぎます"),
    ("threshold-4400-digits", ["check", "RIDER", "--player", "城戸", f"超回避2: 達成値{BIG}以上なら"], 1, "数が大きすぎます"),
    ("dice-ethiopic-digit", ["turn", "ALT", "--orders", "ORDERS", "--dice", "፩", "--dry-run"], 1, "ダイスの目（1〜6）ではありません"),
    ("dice-5000-digits", ["turn", "ALT", "--orders", "ORDERS", "--dice", "1" * 5000, "--dry-run"], 1, "ダイスの目（1〜6）ではありません"),
    ("dice-empty", ["turn", "ALT", "--orders", "ORDERS", "--dice", "", "--dry-run"], 2, "--dice の値が空です"),
    ("deadline-empty", ["turn", "ALT", "--thread", "ORDERS", "--deadline", ""], 2, "--deadline の値が空です"),
    ("deadline-year-9999", ["deadline", "ALT", "9999-12-31 23:59"], 1, "締切の年は2000〜2999年です"),
    ("next-deadline-year-9999", ["turn", "ALT", "--orders", "ORDERS", "--next-deadline", "9999-12-31 23:59"], 1, "締切の年"),
    ("status-encoding-bogus", ["status", "ALT", "--thread", "ORDERS", "--encoding", "bogus"], 2, "文字コード「bogus」が分かりません"),
    ("turn-encoding-not-text", ["turn", "ALT", "--orders", "ORDERS", "--encoding", "rot13"], 2, "文字の文字コードではありません"),
    ("set-encoding-rot13", ["set", "ALT", "encoding=rot13"], 1, "板の文字コードに使えません"),
    ("new-encoding-utf16", ["new", "NEWDIR", "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                            "--set", "encoding=utf-16"], 1, "板の文字コードに使えません"),
    ("new-under-a-file", ["new", "AFILE/sub", "--system", "alterego", "--player", "A=plain", "--player", "B=plain"], 1,
     "キャンペーンを作れません"),
    ("new-in-proc", ["new", "/proc/pbf-x", "--system", "alterego", "--player", "A=plain", "--player", "B=plain"], 1,
     "キャンペーンを作れません"),
    ("new-300-character-name", ["new", "x" * 300, "--system", "alterego", "--player", "A=plain", "--player", "B=plain"], 1,
     "File name too long"),
    ("orders-symlink-loop", ["turn", "ALT", "--orders", "LOOP", "--dry-run"], 1, "を読めません"),
    ("orders-too-long", ["turn", "ALT", "--orders", LONG, "--dry-run"], 1, "を読めません"),
    ("orders-under-a-file", ["turn", "ALT", "--orders", "AFILE/x", "--dry-run"], 1, "を読めません"),
    ("orders-proc-self-mem", ["turn", "ALT", "--orders", "/proc/self/mem", "--dry-run"], 1, "を読めません"),
    ("show-too-long", ["show", LONG], 1, "File name too long"),
    ("demo-keep-existing", ["demo", "--keep", "AFILE"], 1, "すでにあり"),
]


@pytest.fixture
def places(tmp_path, pbf, camp):
    rider = tmp_path / "rider"
    code, _, err = pbf("new", rider, "--system", "rider", "--player", "城戸=ryuki", "--player", "浅倉=jinshu",
                       "--seed", "s")
    assert code == 0, err
    orders = tmp_path / "orders.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    afile = tmp_path / "afile"
    afile.write_text("a file\n", "utf-8")
    os.symlink(tmp_path / "loop", tmp_path / "loop")
    return {"ALT": str(camp), "RIDER": str(rider), "ORDERS": str(orders), "AFILE": str(afile),
            "LOOP": str(tmp_path / "loop"), "NEWDIR": str(tmp_path / "new")}


def fill(arg, places):
    """``AFILE/x`` → the path of the fixture's file, then ``/x``; other arguments as they are."""
    head, sep, rest = arg.partition("/")
    return places[head] + sep + rest if head in places else arg


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_no_traceback(row, places, pbf, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _, argv, expected_code, fragment = row
    argv = [fill(arg, places) for arg in argv]
    before = tree_digest(tmp_path)
    code, out, err = pbf(*argv)
    assert code == expected_code, (out, err)
    assert fragment in err
    assert "Traceback" not in err
    assert tree_digest(tmp_path) == before


def test_stdin_that_is_not_utf8(camp, pbf, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe\x80"), encoding="utf-8"))
    code, _, err = pbf("check", camp, "--player", "A", "-")
    assert code == 1 and "標準入力が UTF-8 ではありません" in err


def test_an_argument_that_is_not_utf8(camp, pbf):
    code, _, err = pbf("check", camp, "--player", "A\udcff", "弱")
    assert code == 2 and "引数" in err and "UTF-8 ではありません" in err


def run_cli(*argv, env=None, stdout=subprocess.PIPE):
    return subprocess.run([sys.executable, "-m", "pbf", *map(str, argv)], stdout=stdout,
                          stderr=subprocess.PIPE, env={**os.environ, **(env or {})})


def test_an_ascii_terminal(camp):
    done = run_cli("show", camp, env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert "HP 20/20" in done.stdout.decode("utf-8")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_after_the_commit_says_the_turn_is_saved(camp, tmp_path):
    orders = tmp_path / "o.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    with open("/dev/full", "wb") as full:
        done = run_cli("turn", camp, "--orders", orders, stdout=full)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 1 and "Traceback" not in err and "Exception ignored" not in err
    assert "第2ターンは保存しました" in err and f"pbf log {camp} --turn 2" in err
    assert campaigns.load(camp).turn == 2
