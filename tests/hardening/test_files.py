"""Issue 21: files of the wrong kind in a campaign folder, the site's own files, the export's
public files, and a damaged archive refused by every command that reads it."""

import os
import subprocess
import sys

import pytest

from cli_support import tree_digest


def run_pbf(*argv, timeout: float = 30) -> subprocess.CompletedProcess:
    """pbf in a subprocess with a timeout: a command that hangs fails the test instead of the suite."""
    return subprocess.run([sys.executable, "-m", "pbf", *map(str, argv)], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONIOENCODING": "utf-8"})


def kinds(root):
    """tree_digest with the special files in it (a FIFO stays a FIFO)."""
    out = tree_digest(root)
    out.update({str(p.relative_to(root)): "fifo" for p in root.rglob("*") if p.is_fifo()})
    return out


# -- a FIFO (or any special file) never hangs a command ----------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
@pytest.mark.parametrize("name, command", [
    ("state.yaml", "show"),
    ("campaign.toml", "show"),
    ("campaign.toml", "log"),
    ("deadline.yaml", "show"),
    ("history/0001/state.yaml", "replay"),
    ("history/0001/turn.yaml", "log"),
    ("history/0001/post.txt", "log"),
    ("history/0001/events.yaml", "replay"),
])
def test_a_fifo_in_the_campaign_is_named_and_refused_at_once(camp, name, command):
    target = camp / name
    target.unlink(missing_ok=True)
    os.mkfifo(target)
    before = kinds(camp)
    try:
        done = run_pbf(command, camp)
    except subprocess.TimeoutExpired:
        pytest.fail(f"pbf {command} hangs on a FIFO as {name}")
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert f"「{name}」は普通のファイルではなく名前付きパイプ（FIFO）です" in done.stderr, done.stderr
    assert kinds(camp) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_fifo_as_a_campaign_data_file_is_refused(camp):
    (camp / "data" / "characters").mkdir(parents=True)
    os.mkfifo(camp / "data" / "characters" / "cards.yaml")
    before = kinds(camp)
    try:
        done = run_pbf("show", camp)
    except subprocess.TimeoutExpired:
        pytest.fail("pbf show hangs on a FIFO in data/")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "cards.yaml" in done.stderr and "普通のファイルではなく" in done.stderr
    assert kinds(camp) == before


# -- pbf html never deletes files it did not write ----------------------------------------------

def test_html_keeps_a_cname_and_other_files_it_did_not_write(pbf, camp, tmp_path):
    site = tmp_path / "site"
    assert pbf("html", camp, site)[0] == 0
    (site / "CNAME").write_text("battle.example.org\n", "utf-8")
    (site / "notes").mkdir()
    (site / "notes" / "a.txt").write_text("mine", "utf-8")
    orders = tmp_path / "o2.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    assert pbf("turn", camp, "--orders", orders)[0] == 0
    code, out, err = pbf("html", camp, site)
    assert code == 0, err
    assert (site / "CNAME").read_text("utf-8") == "battle.example.org\n"
    assert (site / "notes" / "a.txt").read_text("utf-8") == "mine"
    assert (site / "turn-0002.html").is_file()
    assert "そのまま残しました：CNAME、notes" in err  # said, not silent
    listed = (site / ".pbf-html-files").read_text("utf-8").splitlines()
    assert [n for n in listed if not n.startswith("#")] == ["index.html", "turn-0001.html", "turn-0002.html"]


def test_html_replaces_only_the_pages_of_its_own_last_build(pbf, camp, tmp_path):
    site = tmp_path / "site"
    orders = tmp_path / "o2.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    assert pbf("turn", camp, "--orders", orders)[0] == 0
    assert pbf("html", camp, site)[0] == 0
    assert pbf("undo", camp)[0] == 0
    assert pbf("html", camp, site)[0] == 0
    assert not (site / "turn-0002.html").exists()  # its own page of the undone turn goes
    assert sorted(p.name for p in site.iterdir()) == [".pbf-html-files", "index.html", "turn-0001.html"]


def test_html_refuses_a_foreign_file_with_the_name_of_a_page_and_changes_nothing(pbf, camp, tmp_path):
    site = tmp_path / "site"
    assert pbf("html", camp, site)[0] == 0
    orders = tmp_path / "o2.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    assert pbf("turn", camp, "--orders", orders)[0] == 0
    (site / "turn-0002.html").write_text("<p>mine</p>", "utf-8")  # not in the list of the last build
    before = tree_digest(site)
    code, _, err = pbf("html", camp, site)
    assert code == 1 and "turn-0002.html は pbf html の書いたファイルではありません" in err and "Traceback" not in err
    assert tree_digest(site) == before


def test_html_still_refuses_a_folder_it_never_built(pbf, camp, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "CNAME").write_text("x\n", "utf-8")
    before = tree_digest(site)
    code, _, err = pbf("html", camp, site)
    assert code == 1 and "pbf html の作ったサイトではありません" in err
    assert tree_digest(site) == before


# -- the export writes public files from their content and only the files pbf reads -------------

def test_the_export_drops_gm_comments_and_files_pbf_does_not_read(pbf, camp, tmp_path):
    assert pbf("deadline", camp, "2030-01-01 22:00")[0] == 0
    deadline = camp / "deadline.yaml"
    deadline.write_text(deadline.read_text("utf-8") + "# GMメモ：Bは遅刻しがち\n", "utf-8")
    state = camp / "state.yaml"
    state.write_text("# GMメモ：Aの中の人は初心者\n" + state.read_text("utf-8"), "utf-8")
    turn_yaml = camp / "history" / "0001" / "turn.yaml"
    turn_yaml.write_text(turn_yaml.read_text("utf-8") + "# GMメモ：次は手加減\n", "utf-8")
    (camp / "data" / "characters").mkdir(parents=True)
    (camp / "data" / "gm-notes.txt").write_text("Bの本名は…", "utf-8")
    (camp / "templates").mkdir()
    (camp / "templates" / "draft.txt").write_text("没案", "utf-8")
    (camp / "templates" / "common").mkdir()
    code, out, err = pbf("export", camp, tmp_path / "pub")
    assert code == 0, err
    pub = tmp_path / "pub"
    for path in pub.rglob("*"):
        if path.is_file():
            assert "GMメモ" not in path.read_text("utf-8"), path
    assert not (pub / "data" / "gm-notes.txt").exists() and not (pub / "templates" / "draft.txt").exists()
    assert "入れませんでした：data/gm-notes.txt、templates/draft.txt" in err
    assert "2030-01-01 22:00" in (pub / "deadline.yaml").read_text("utf-8")
    assert pbf("replay", pub)[0] == 0


def test_the_export_carries_the_data_and_templates_pbf_reads(pbf, camp, tmp_path):
    from pbf import resources
    from pbf.systems.alterego import data as alterego_data

    bundled = resources.bundled("templates")
    some = next(p for p in sorted(bundled.rglob("*.j2")) if "html" not in p.parts)
    rel = some.relative_to(bundled)
    (camp / "templates" / rel).parent.mkdir(parents=True)
    (camp / "templates" / rel).write_text(some.read_text("utf-8"), "utf-8")
    character = alterego_data.DATA_DIR / "characters" / "plain.yaml"
    (camp / "data" / "characters").mkdir(parents=True)
    (camp / "data" / "characters" / "plain.yaml").write_text(
        "# GMメモ：調整前\n" + character.read_text("utf-8"), "utf-8")
    assert pbf("show", camp)[0] == 0
    code, _, err = pbf("export", camp, tmp_path / "pub")
    assert code == 0, err
    pub = tmp_path / "pub"
    assert (pub / "templates" / rel).read_text("utf-8") == some.read_text("utf-8")
    copied = (pub / "data" / "characters" / "plain.yaml").read_text("utf-8")
    assert "GMメモ" not in copied
    from pbf import yamlio

    assert yamlio.load_plain(copied, "c") == yamlio.load_plain(character.read_text("utf-8"), "c")
    assert "入れませんでした" not in err
    assert pbf("show", pub)[0] == 0 and pbf("replay", pub)[0] == 0


# -- a damaged archive is refused by log, replay and export ---------------------------------------

def _second_turn(pbf, camp, tmp_path):
    orders = tmp_path / "o2.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    assert pbf("turn", camp, "--orders", orders)[0] == 0


BOMB = 'a: &a ["x", "x"]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c]\n'


@pytest.mark.parametrize("damage, named", [
    ("delete history/0000", "history/0000/"),
    ("delete history/0001/orders.txt", "history/0001/orders.txt"),
    ("delete history/0001/post.txt", "history/0001/post.txt"),
    ("garble history/0001/turn.yaml", "history/0001/turn.yaml"),
    ("bomb history/0001/turn.yaml", "history/0001/turn.yaml"),
    ("odd history/0001/turn.yaml", "history/0001/turn.yaml"),
    ("garble history/0001/events.yaml", "history/0001/events.yaml"),
    ("odd history/0001/events.yaml", "history/0001/events.yaml"),
    ("other history/0001/events.yaml", "history/0001/events.yaml"),
])
def test_a_damaged_archive_is_refused_by_log_replay_and_export(pbf, camp, tmp_path, damage, named):
    import shutil

    _second_turn(pbf, camp, tmp_path)
    how, where = damage.split(" ")
    target = camp / where
    if how == "delete":
        shutil.rmtree(target) if target.is_dir() else target.unlink()
    elif how == "garble":
        target.write_text("key: [unclosed\n", "utf-8")
    elif how == "bomb":
        target.write_text(BOMB, "utf-8")
    elif how == "odd":
        target.write_text("rules_version: many\n" if target.name == "turn.yaml" else "- type: 5\n", "utf-8")
    else:  # a well-formed events.yaml that is not what the turn gave
        target.write_text("- type: damage\n  target: A\n  amount: 99\n", "utf-8")
    before = tree_digest(camp)
    # a well-formed record that is not what the turn gave: only a replay can tell (log reads the form)
    for command in ("replay", "export") if how == "other" else ("log", "replay", "export"):
        argv = (command, camp, tmp_path / "pub") if command == "export" else (command, camp)
        code, out, err = pbf(*argv)
        assert code == 1, (command, out, err)
        assert named in err and "Traceback" not in err, (command, err)
        assert tree_digest(camp) == before
    assert not (tmp_path / "pub").exists()
