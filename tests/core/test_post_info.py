"""What the posts and the GM's commands tell (issue 20, "The post tells the thread what happened"):
the results post's list of the posts not taken, receipts' superseded posts and their one 書き方
help, the notices to send, a dry run that says so, pbf new's stdout, the campaign's output
encoding, pbf reveal, Japanese usage errors, pbf show's deadline, orders and --hands."""

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import tree_digest

from pbf.cli.parser import _ARGPARSE_JA

SEED = "post-info-seed"


def dat_line(name, body, time="21:00:00.00", day="29(日)", title=""):
    body = body.replace("\n", " <br> ")
    return f"{name}<>sage<>2026/11/{day} {time} ID:AbCd1234<> {body} <>{title}"


def write_thread(path: Path, posts) -> Path:
    lines = [dat_line("GM", "対戦スレです", "20:00:00.00", title="【PBF】テストスレ")]
    lines += [dat_line(*post) for post in posts]
    path.write_bytes(("\n".join(lines) + "\n").encode("cp932"))
    return path


def new_campaign(tmp_path, pbf, *extra, hands="private", name="camp"):
    camp = tmp_path / name
    code, out, err = pbf("new", camp, "--system", "alterego", "--player", "美鈴◆Mei1ingAb3=meiling",
                         "--player", "楓=kaede", "--seed", SEED, "--set", f"hands={hands}", *extra)
    assert code == 0, err
    return camp, out, err


def hands_of(camp, pbf):
    code, out, _ = pbf("show", camp, "--json")
    return {name: f["hand"] for name, f in json.loads(out)["fighters"].items()}


def plot(hand, n=2):
    """A legal plot from a hand: its first n cards that are not 強 alone (any cards will do)."""
    return "".join(hand[:n])


MEI = "美鈴 </b>◆Mei1ingAb3 <b>"


def eventful_thread(tmp_path, hands):
    """>>2 美鈴's order, >>3 an impostor (美鈴 without the trip), >>4 楓's first order, >>5 楓's
    correction (supersedes >>4), >>6 美鈴 after the deadline (late: >>2 runs)."""
    return write_thread(tmp_path / "t.dat", [
        (MEI, f"【行動】{plot(hands['美鈴'])}", "20:10:00.00"),
        ("美鈴", "【行動】↑↑↑", "20:20:00.00"),
        ("楓", f"【行動】{plot(hands['楓'], 1)}", "20:30:00.00"),
        ("楓", f"直します\n【行動】{plot(hands['楓'])}", "20:40:00.00"),
        (MEI, f"【行動】{plot(hands['美鈴'], 3)}", "22:05:13.00"),
    ])


# -- the results post lists the posts not taken -------------------------------------------------------

def test_the_results_post_lists_the_posts_not_taken_and_why(tmp_path, pbf):
    camp, _, _ = new_campaign(tmp_path, pbf)
    hands = hands_of(camp, pbf)
    thread = eventful_thread(tmp_path, hands)
    code, post, err = pbf("turn", camp, "--thread", thread, "--deadline", "2026-11-29 22:00")
    assert code == 0, err
    section = post.split("■採用しなかった書き込み\n", 1)[1].split("\n\n", 1)[0]
    lines = section.split("\n")
    assert lines == [
        "・>>3（名前は美鈴、トリップなし）：登録されたトリップと違うため無視（なりすましの疑い）",
        "・>>4（楓）：>>5で書き直されたため",
        "・>>6（美鈴）：締切の後（11/29 22:05）の書き込みのため無効（遅刻）。美鈴の行動は>>2のもの",
    ]
    # public: no card of a private hand in the section (the late post's plot is not repeated)
    assert plot(hands["美鈴"], 3) not in section and "↑↑↑" not in section
    meta = (camp / "history" / "0001" / "turn.yaml").read_text("utf-8")
    assert "not_taken:" in meta and "reason: superseded" in meta
    assert pbf("replay", camp)[0] == 0


def test_a_turn_with_nothing_to_list_has_no_section_and_an_older_archive_replays(tmp_path, pbf):
    camp, _, _ = new_campaign(tmp_path, pbf)
    hands = hands_of(camp, pbf)
    thread = eventful_thread(tmp_path, hands)
    assert pbf("turn", camp, "--thread", thread, "--deadline", "2026-11-29 22:00")[0] == 0
    # the same turn as a pbf from before the section archived it: no not_taken, no section
    folder = camp / "history" / "0001"
    meta = folder / "turn.yaml"
    text = meta.read_text("utf-8")
    kept = re.sub(r"^not_taken:\n(?:[- ] .*\n)+", "", text, flags=re.M)
    assert kept != text and "not_taken" not in kept
    meta.write_text(kept, "utf-8")
    post = (folder / "post.txt").read_text("utf-8")
    old = re.sub(r"■採用しなかった書き込み\n(?:・.*\n)+\n", "", post)
    assert old != post
    (folder / "post.txt").write_text(old, "utf-8")
    code, out, err = pbf("replay", camp)
    assert code == 0, err
    # a turn from an orders file takes every post it reads: no section
    hands = hands_of(camp, pbf)
    orders = tmp_path / "o.txt"
    orders.write_text(f"[美鈴] {plot(hands['美鈴'])}\n[楓] {plot(hands['楓'])}\n", "utf-8")
    code, post, err = pbf("turn", camp, "--orders", orders)
    assert code == 0, err
    assert "採用しなかった" not in post
    assert pbf("replay", camp)[0] == 0


def test_every_demo_replays_with_its_section(tmp_path, pbf):
    kept = tmp_path / "kept"
    code, out, err = pbf("demo", "--keep", kept)
    assert code == 0, err
    assert "■採用しなかった書き込み\n・>>3（楓）：>>6で書き直されたため" in out
    for demo in ("demo-alterego", "demo-rider", "demo-rider-royale"):
        code, _, err = pbf("replay", kept / demo)
        assert code == 0, (demo, err)


# -- receipts --------------------------------------------------------------------------------------

def test_receipts_list_superseded_posts_and_say_how_to_write_once(tmp_path, pbf):
    camp, _, _ = new_campaign(tmp_path, pbf)
    hands = hands_of(camp, pbf)
    thread = eventful_thread(tmp_path, hands)
    code, receipts, err = pbf("status", camp, "--thread", thread, "--deadline", "2026-11-29 22:00")
    assert code == 0, err
    assert "■美鈴：受理（>>2）" in receipts and "■楓：受理（>>5）" in receipts
    assert "※>>4の行動は、後の>>5で書き直されたので使いません。" in receipts
    assert receipts.count("書き方：") == 1
    assert receipts.index("書き方：") > receipts.index("■楓：")  # after the players, not inside one
    # pbf check keeps its help
    code, out, _ = pbf("check", camp, "--player", "楓", plot(hands["楓"]))
    assert code == 0 and out.count("書き方：") == 1


# -- pbf turn's messages -----------------------------------------------------------------------------

def test_turn_says_which_private_notices_to_send_with_their_paths(tmp_path, pbf):
    camp, _, _ = new_campaign(tmp_path, pbf)
    hands = hands_of(camp, pbf)
    orders = tmp_path / "o.txt"
    orders.write_text(f"[美鈴] {plot(hands['美鈴'])}\n[楓] {plot(hands['楓'])}\n", "utf-8")
    code, post, err = pbf("turn", camp, "--orders", orders)
    assert code == 0, err
    paths = re.findall(r"^  (\S+)さんへ：(.+)$", err, flags=re.M)
    assert [name for name, _ in paths] == ["美鈴", "楓"]
    for name, path in paths:
        assert Path(path) == camp / "history" / "0001" / "notices" / f"{name}.txt" and Path(path).is_file()
    assert "非公開の通知" not in post


def test_a_free_hands_turn_has_no_notices_to_send(tmp_path, pbf):
    camp, _, _ = new_campaign(tmp_path, pbf, hands="free")
    orders = tmp_path / "o.txt"
    orders.write_text("[美鈴] 弱弱\n[楓] 弱\n", "utf-8")
    code, _, err = pbf("turn", camp, "--orders", orders)
    assert code == 0 and "非公開の通知" not in err


def test_a_dry_run_says_first_on_stderr_that_nothing_was_written(tmp_path, pbf):
    camp, _, _ = new_campaign(tmp_path, pbf, hands="free")
    orders = tmp_path / "o.txt"
    orders.write_text("[美鈴] 弱弱\n[楓] 弱\n", "utf-8")
    before = tree_digest(camp)
    code, post, err = pbf("turn", camp, "--orders", orders, "--dry-run")
    assert code == 0
    assert err.splitlines()[0].startswith("pbf: 試し実行（--dry-run）です。") and "何も書き込んでいません" in err
    assert "【Alter EGO ―オルタリゴ―】第1ターン" in post and "試し実行" not in post
    assert tree_digest(camp) == before
    code, _, err = pbf("turn", camp, "--orders", orders)
    assert code == 0 and "試し実行" not in err


# -- pbf new -------------------------------------------------------------------------------------

def test_new_prints_the_opening_post_alone_on_stdout(tmp_path, pbf):
    camp, out, err = new_campaign(tmp_path, pbf)
    assert out == (camp / "history" / "0000" / "post.txt").read_text("utf-8")
    assert out.rstrip("\n").endswith("［pbf］バトル開始")
    assert "キャンペーン「" in err and "sha256(seed) = " in err
    for name in ("美鈴", "楓"):
        assert f"{name}さんへ：{camp / 'history' / '0000' / 'notices' / (name + '.txt')}" in err
    assert "キャンペーン「" not in out and "notices" not in out


# -- the campaign's encoding ------------------------------------------------------------------------

def run(*argv, **kwargs):
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "pbf", *map(str, argv)], capture_output=True, env=env, **kwargs)


def test_the_campaigns_encoding_is_the_output_encoding_of_posts_and_receipts(tmp_path):
    camp = tmp_path / "sjis"
    done = run("new", camp, "--system", "alterego", "--player", "美鈴=meiling", "--player", "楓=kaede",
               "--seed", "s", "--set", "hands=free", "--set", "encoding=cp932")
    assert done.returncode == 0, done.stderr.decode()
    opening = (camp / "history" / "0000" / "post.txt").read_text("utf-8")
    assert done.stdout.decode("cp932") == opening and done.stdout != opening.encode("utf-8")
    thread = write_thread(tmp_path / "t.dat", [("美鈴", "【行動】弱弱"), ("楓", "【行動】↑→弱")])
    status = run("status", camp, "--thread", thread)
    assert status.returncode == 0 and "【受付状況】" in status.stdout.decode("cp932")
    done = run("turn", camp, "--thread", thread)
    assert done.returncode == 0, done.stderr.decode()
    post = (camp / "history" / "0001" / "post.txt").read_text("utf-8")
    assert done.stdout.decode("cp932") == post
    assert run("log", camp, "--turn", "1").stdout.decode("cp932") == post
    # --encoding still decides for one run; stderr stays UTF-8
    again = run("status", camp, "--thread", thread, "--encoding", "utf-8")
    assert again.returncode == 0 and "【受付状況】" in again.stdout.decode("utf-8")
    # without the option: UTF-8, as before
    plain = tmp_path / "plain"
    done = run("new", plain, "--system", "alterego", "--player", "A=plain", "--player", "B=plain", "--seed", "s",
               "--set", "hands=free")
    assert done.stdout.decode("utf-8") == (plain / "history" / "0000" / "post.txt").read_text("utf-8")


def test_the_campaigns_encoding_is_not_forced_on_a_terminal(tmp_path):
    pty = pytest.importorskip("pty")
    camp = tmp_path / "sjis"
    assert run("new", camp, "--system", "alterego", "--player", "A=plain", "--player", "B=plain", "--seed", "s",
               "--set", "hands=free", "--set", "encoding=cp932").returncode == 0
    leader, follower = pty.openpty()
    shown = b""
    try:
        child = subprocess.Popen([sys.executable, "-m", "pbf", "log", str(camp), "--turn", "0"], stdout=follower,
                                 stderr=subprocess.PIPE, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
        os.close(follower)
        while True:  # read as it writes (a full terminal buffer would block it)
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        child.communicate(timeout=60)
    finally:
        os.close(leader)
    done = child
    assert done.returncode == 0
    assert "バトル開始" in shown.decode("utf-8")  # the terminal shows UTF-8 text


def test_set_encoding_changes_the_output_and_an_empty_value_unsets_it(tmp_path, pbf):
    camp, _, _ = new_campaign(tmp_path, pbf, hands="free")
    code, out, err = pbf("set", camp, "encoding=euc-jp")
    assert code == 0, err
    assert run("log", camp, "--turn", "0").stdout.decode("euc-jp").startswith("【Alter EGO")
    assert pbf("set", camp, "encoding=")[0] == 0
    code, _, err = pbf("set", camp, "encoding=rot13")
    assert code == 1 and "板の文字コードに使えません" in err


# -- pbf reveal -----------------------------------------------------------------------------------

def test_reveal_prints_the_seed_and_the_commitment_it_matches_at_the_end(tmp_path, pbf):
    camp, _, _ = new_campaign(tmp_path, pbf, "--set", "turn_limit=1", hands="free")
    before = tree_digest(camp)
    code, out, err = pbf("reveal", camp)
    assert code == 1 and out == "" and "バトルはまだ続いています" in err and "--force" in err
    orders = tmp_path / "o.txt"
    orders.write_text("[美鈴] なし\n[楓] なし\n", "utf-8")
    assert pbf("turn", camp, "--orders", orders)[0] == 0
    assert json.loads(pbf("show", camp, "--json")[1])["winner"] == "draw"  # the turn limit
    code, out, err = pbf("reveal", camp)
    assert code == 0, err
    commitment = hashlib.sha256(SEED.encode()).hexdigest()
    assert f"シード：{SEED}\n" in out and f"sha256(seed) = {commitment}\n" in out
    assert pbf("verify", camp, "--seed", SEED)[0] == 0
    assert tree_digest(camp) != before  # (the turn), but reveal itself writes nothing:
    after = tree_digest(camp)
    pbf("reveal", camp)
    assert tree_digest(camp) == after


def test_reveal_before_the_end_needs_force_and_a_public_copy_has_no_seed(tmp_path, pbf):
    camp, _, _ = new_campaign(tmp_path, pbf, hands="free")
    code, out, _ = pbf("reveal", camp, "--force")
    assert code == 0 and f"シード：{SEED}" in out
    assert pbf("export", camp, tmp_path / "public")[0] == 0
    code, out, err = pbf("reveal", tmp_path / "public", "--force")
    assert code == 1 and out == "" and "seed がありません" in err
    # a seed that no longer matches the commitment is refused
    toml = camp / "campaign.toml"
    toml.write_text(toml.read_text("utf-8").replace(SEED, "another-seed"), "utf-8")
    code, out, err = pbf("reveal", camp, "--force")
    assert code == 1 and out == "" and "一致しません" in err


# -- usage errors are Japanese ---------------------------------------------------------------------

ENGLISH = ("required", "invalid choice", "unrecognized", "expected", "argument", "ambiguous", "error:", "usage:")


@pytest.mark.parametrize("argv, japanese", [
    ([], "次の引数が必要です：COMMAND"),
    (["bogus"], "'bogus' は選べません"),
    (["new", "x"], "次の引数が必要です：--system"),
    (["new", "x", "--system", "chess"], "'chess' は選べません"),
    (["show"], "次の引数が必要です：DIR"),
    (["show", "x", "--bogus"], "知らない引数があります：--bogus"),
    (["turn", "x", "--orders"], "--orders：値を一つ指定してください"),
    (["log", "x", "--turn", "three"], "ターンの番号は0以上の整数です"),
    (["status", "x", "--thread", "t", "--since", "0"], "書き込み番号は1以上の整数です"),
    (["list", "weapons"], "'weapons' は選べません"),
    (["check", "x", "--player"], "値を一つ指定してください"),
    (["set", "x"], "次の引数が必要です：KEY=VALUE"),
])
def test_usage_errors_are_japanese_throughout(argv, japanese, pbf):
    code, out, err = pbf(*argv)
    assert code == 2 and out == ""
    assert "使い方が正しくありません：" in err and japanese in err, err
    assert not any(word in err for word in ENGLISH), err
    assert err.startswith("使い方: pbf")


def test_argparse_speaks_english_again_after_pbf(pbf):
    import argparse

    pbf("bogus")
    assert argparse._("usage: ") == "usage: "
    assert set(_ARGPARSE_JA) >= {"the following arguments are required: %s", "invalid choice: %(value)r (choose from %(choices)s)"}


# -- pbf show --------------------------------------------------------------------------------------

def test_show_gives_the_deadline_and_who_has_an_order(tmp_path, pbf, monkeypatch):
    monkeypatch.setenv("PBF_NOW", "2026-11-29 20:00")  # the board's clock before both deadlines set here
    camp, _, _ = new_campaign(tmp_path, pbf, "--deadline", "2026-11-29 22:00")
    hands = hands_of(camp, pbf)
    code, out, _ = pbf("show", camp)
    assert code == 0
    assert "第1ターンの締切：2026/11/29(日) 22:00" in out
    assert "第1ターンの行動：キャンペーンが持っているものはありません" in out
    thread = write_thread(tmp_path / "t.dat", [(MEI, f"【行動】{plot(hands['美鈴'])}", "20:10:00.00"),
                                               ("美鈴", "【行動】↑↑↑", "20:20:00.00")])
    code, out, err = pbf("show", camp, "--thread", thread)
    assert code == 0, err
    assert "　美鈴：行動あり（>>2）\n" in out and "　楓：未提出\n" in out
    for hand in hands.values():
        assert "".join(hand) not in out  # the text view is public
    assert pbf("deadline", camp, "2026-12-01 21:30")[0] == 0
    assert "第1ターンの締切：2026/12/1(火) 21:30" in pbf("show", camp)[1]


def test_show_without_a_deadline_and_with_a_repeated_order(tmp_path, pbf):
    camp, _, _ = new_campaign(tmp_path, pbf, "--set", "missing=repeat", hands="free")
    assert "第1ターンの締切：未定" in pbf("show", camp)[1]
    orders = tmp_path / "o.txt"
    orders.write_text("[美鈴] 弱\n[楓] ←\n", "utf-8")
    assert pbf("turn", camp, "--orders", orders)[0] == 0
    code, out, _ = pbf("show", camp)
    assert "　美鈴：行動がなければ前ターンの行動を継続\n" in out and "　楓：行動がなければ前ターンの行動を継続\n" in out


def test_show_hands_is_for_the_gm(tmp_path, pbf):
    camp, _, _ = new_campaign(tmp_path, pbf)
    hands = hands_of(camp, pbf)
    code, out, err = pbf("show", camp, "--hands")
    assert code == 0
    assert "■手札（非公開・GM用）" in out and "非公開の手札を含みます" in err
    for name, hand in hands.items():
        assert f"{name}：{''.join(hand)}\n" in out
    free, _, _ = new_campaign(tmp_path, pbf, hands="free", name="free")
    code, out, err = pbf("show", free, "--hands")
    assert code == 1 and out == "" and "手札がありません" in err
    assert pbf("export", camp, tmp_path / "public")[0] == 0
    code, out, err = pbf("show", tmp_path / "public", "--hands")
    assert code == 1 and out == "" and "伏せてあります" in err
    code, _, err = pbf("show", camp, "--hands", "--json")
    assert code == 1 and "--json" in err


def test_in_commit_reveal_the_section_names_a_reveal_that_did_not_count(tmp_path, pbf):
    from pbf.board.forum import commitment

    camp, _, _ = new_campaign(tmp_path, pbf, "--set", "orders=commit", hands="free")
    thread = write_thread(tmp_path / "t.dat", [
        (MEI, "【コミット】" + commitment("弱弱", "salt1"), "20:00:00.00"),
        ("楓", "【コミット】" + commitment("↑→弱", "salt2"), "20:10:00.00"),
        (MEI, "【公開】弱強 salt1", "22:10:00.00"),  # >>4, a typo: matches nothing
        (MEI, "【公開】弱弱 salt1", "22:20:00.00"),  # >>5, the right one: >>4 is superseded by it
        ("楓", "【公開】↑→強 salt2", "22:30:00.00"),  # >>6 matches nothing: 楓 has no order
    ])
    code, post, err = pbf("turn", camp, "--thread", thread, "--deadline", "2026-11-29 22:00")
    assert code == 0, err
    section = post.split("■採用しなかった書き込み\n", 1)[1].split("\n\n", 1)[0].split("\n")
    assert section == [
        "・>>4（美鈴）：コミットと一致する>>5の【公開】を採用",
        "・>>6（楓の【公開】）：行動とソルトがコミットと一致しないため無効",
    ]
    assert pbf("replay", camp)[0] == 0


def test_show_says_who_needs_to_write_nothing(tmp_path, pbf):
    camp, _, _ = new_campaign(tmp_path, pbf, hands="free")
    orders = tmp_path / "o.txt"
    orders.write_text("[美鈴] 強\n[楓] なし\n", "utf-8")  # 美鈴 charges: next turn's order is stored
    assert pbf("turn", camp, "--orders", orders)[0] == 0
    code, out, _ = pbf("show", camp)
    assert code == 0
    assert "　美鈴：書き込み不要（ためた強攻撃が発動）\n" in out and "　楓：なし\n" in out
