"""The forum workflow through the command line: orders from a thread, receipts, deadlines,
commit-reveal, board limits and encodings (docs/forum.md)."""


from conftest import tree_digest

from pbf.board.boardfit import board_bytes, board_lines
from pbf.board.forum import commitment


def dat_line(name, body, time="21:00:00.00", title=""):
    body = body.replace("\n", " <br> ")
    return f"{name}<>sage<>2026/11/29(日) {time} ID:AbCd1234<>{body}<>{title}"


def write_dat(tmp_path, lines, encoding="cp932", name="thread.dat"):
    path = tmp_path / name
    path.write_bytes(("\n".join(lines) + "\n").encode(encoding))
    return path


def new_campaign(tmp_path, pbf, *extra):
    path = tmp_path / "camp"
    code, _, err = pbf("new", path, "--system", "alterego", "--player", "A◆Ab3dEf6hIj=plain", "--player", "B=plain",
                       "--seed", "forum", "--set", "hands=free", *extra)
    assert code == 0, err
    return path


def test_a_turn_straight_from_a_cp932_dat_thread(tmp_path, pbf):
    camp = new_campaign(tmp_path, pbf)
    thread = write_dat(tmp_path, [
        dat_line("GM", "第1ターンの行動をどうぞ", title="オルタリゴ対戦スレ"),
        dat_line("A </b>◆Ab3dEf6hIj <b>", "よろしく\n【行動】\n弱→"),
        dat_line("B", "【行動】弱弱"),
        dat_line("A </b>◆Ab3dEf6hIj <b>", "やっぱりこちらで\n【行動】弱→→弱強"),  # corrected: the last one wins
        dat_line("A </b>◆Wr0ngTr1p <b>", "【行動】↑↑↑"),  # impersonation
        dat_line("B", "雑談です"),
    ])
    code, out, err = pbf("turn", camp, "--thread", thread)
    assert code == 0, err
    assert "なりすまし" in err and ">>5" in err
    archived = (camp / "history" / "0001" / "orders.txt").read_text("utf-8")
    assert "弱→→弱強" in archived and "↑↑↑" not in archived and "弱弱" in archived
    assert out.rstrip().endswith("［pbf］第1ターン結果")
    code, _, _ = pbf("replay", camp)
    assert code == 0


def test_the_next_window_starts_after_the_results_post(tmp_path, pbf):
    camp = new_campaign(tmp_path, pbf)
    first = [dat_line("A </b>◆Ab3dEf6hIj <b>", "【行動】弱"), dat_line("B", "【行動】←")]
    code, post, err = pbf("turn", camp, "--thread", write_dat(tmp_path, first))
    assert code == 0, err
    second = first + [dat_line("GM", post.strip()), dat_line("B", "【行動】→")]
    code, out, err = pbf("turn", camp, "--thread", write_dat(tmp_path, second), "--json")
    assert code == 0, err
    orders = (camp / "history" / "0002" / "orders.txt").read_text("utf-8")
    assert "→" in orders and "\n【A】\n" not in orders  # A posted nothing after the results post


def test_receipts_accepted_error_missing(tmp_path, pbf):
    camp = new_campaign(tmp_path, pbf)
    thread = write_dat(tmp_path, [dat_line("A </b>◆Ab3dEf6hIj <b>", "【行動】↑→弱弱"), dat_line("B", "雑談\n【行動】弱X弱")], "utf-8")
    before = tree_digest(camp)
    code, out, err = pbf("status", camp, "--thread", thread)
    assert code == 0, err
    assert "■A：受理（>>1）" in out and "前ジャンプ" in out
    assert "■B：エラー（>>2）" in out and ">>2" in out and "「X」" in out
    assert tree_digest(camp) == before
    code, out, _ = pbf("status", camp, "--thread", write_dat(tmp_path, [dat_line("B", "【行動】弱")]))
    assert "■A：未提出" in out


def test_deadline_makes_later_posts_late(tmp_path, pbf):
    camp = new_campaign(tmp_path, pbf)
    thread = write_dat(tmp_path, [
        dat_line("A </b>◆Ab3dEf6hIj <b>", "【行動】弱", time="20:59:00.00"),
        dat_line("B", "【行動】弱", time="21:00:30.00"),
        dat_line("A </b>◆Ab3dEf6hIj <b>", "【行動】強", time="21:01:00.00"),
    ])
    code, out, err = pbf("status", camp, "--thread", thread, "--deadline", "2026-11-29 21:00")
    assert code == 0 and "遅刻" in out and ">>3" in out
    code, _, err = pbf("turn", camp, "--thread", thread, "--deadline", "2026/11/29 21:00")
    assert code == 0, err
    assert "【A】\n弱" in (camp / "history" / "0001" / "orders.txt").read_text("utf-8")


def test_commit_reveal_mismatch_counts_as_missing(tmp_path, pbf):
    camp = new_campaign(tmp_path, pbf, "--set", "orders=commit")
    code, out, _ = pbf("commit", "--campaign", camp, "--player", "A", "弱→→弱強")
    assert code == 0
    commit_line, reveal_line = out.strip().split("\n")[-2:]
    thread = write_dat(tmp_path, [
        dat_line("A </b>◆Ab3dEf6hIj <b>", commit_line),
        dat_line("B", "【コミット】" + commitment("弱弱", "salt1")),
        dat_line("A </b>◆Ab3dEf6hIj <b>", reveal_line),
        dat_line("B", "【公開】弱弱弱 salt1"),  # not what B committed to
    ])
    code, out, err = pbf("turn", camp, "--thread", thread)
    assert code == 0, err
    assert "一致しません" in err
    assert "B：未提出" in out or "未提出" in out
    canonical = (camp / "history" / "0001" / "dice.yaml").read_text("utf-8")
    assert "A\\t弱→→弱強" in canonical or "弱→→弱強" in canonical


def test_commit_checks_the_order_when_given_the_campaign(tmp_path, pbf):
    camp = new_campaign(tmp_path, pbf)
    code, _, err = pbf("commit", "--campaign", camp, "--player", "A", "弱Q")
    assert code == 1 and "「Q」" in err


def test_a_long_post_is_split_to_fit_the_board(tmp_path, pbf):
    camp = new_campaign(tmp_path, pbf, "--set", "max_bytes=400", "--set", "max_lines=12")
    orders = tmp_path / "o.txt"
    orders.write_text("[A]弱弱→弱弱\n[B]→弱弱→弱\n", "utf-8")
    code, out, err = pbf("turn", camp, "--orders", orders)
    assert code == 0, err
    folder = camp / "history" / "0001"
    parts = sorted(folder.glob("post-*.txt"))
    assert len(parts) >= 2
    for part in parts:
        text = part.read_text("utf-8").rstrip("\n")
        assert board_bytes(text, "cp932") <= 400 and board_lines(text) <= 12
        assert text.endswith("［pbf］第1ターン結果")
    assert pbf("replay", camp)[0] == 0


def test_cp932_output(tmp_path, pbf):
    import subprocess
    import sys

    camp = new_campaign(tmp_path, pbf)
    orders = tmp_path / "o.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    done = subprocess.run([sys.executable, "-m", "pbf", "turn", str(camp), "--orders", str(orders),
                           "--encoding", "cp932", "--dry-run"], capture_output=True)
    assert done.returncode == 0, done.stderr.decode("utf-8")
    text = done.stdout.decode("cp932")
    assert "［pbf］第1ターン結果" in text
    assert not (camp / "history" / "0001").exists()


def test_everything_pbf_posts_survives_cp932(tmp_path, pbf):
    camp = new_campaign(tmp_path, pbf)
    orders = tmp_path / "o.txt"
    orders.write_text("[A]↑→弱弱\n[B]弱強\n", "utf-8")
    assert pbf("turn", camp, "--orders", orders)[0] == 0
    post = (camp / "history" / "0001" / "post.txt").read_text("utf-8")
    assert post.encode("cp932").decode("cp932") == post


def test_missing_repeat_reuses_last_turns_order(tmp_path, pbf):
    camp = new_campaign(tmp_path, pbf, "--set", "missing=repeat")
    orders = tmp_path / "o.txt"
    orders.write_text("[A]弱\n[B]←\n", "utf-8")
    assert pbf("turn", camp, "--orders", orders)[0] == 0
    orders.write_text("[A]→\n", "utf-8")
    code, out, err = pbf("turn", camp, "--orders", orders)
    assert code == 0, err
    assert "継続" in out
    from pbf import yamlio

    record = yamlio.plain(yamlio.load((camp / "history" / "0002" / "dice.yaml").read_text("utf-8"), "d"))
    assert "B\t←\n" in record["orders_canonical"]


def test_bad_thread_inputs(tmp_path, pbf):
    camp = new_campaign(tmp_path, pbf)
    before = tree_digest(camp)
    bad = tmp_path / "bad.txt"
    bad.write_text("これはスレッドではありません\nただのメモ\n", "utf-8")
    code, _, err = pbf("turn", camp, "--thread", bad)
    assert code == 1 and "行目" in err
    raw = tmp_path / "raw.dat"
    raw.write_bytes(b"A<>sage<>2026/11/29 ID:x<>\x81\x20\xff<>t\n")
    code, _, err = pbf("turn", camp, "--thread", raw)
    assert code == 1 and "Traceback" not in err
    thread = write_dat(tmp_path, [dat_line("A </b>◆Ab3dEf6hIj <b>", "【行動】弱")])
    code, _, err = pbf("turn", camp, "--thread", thread, "--since", "9")
    assert code == 1 and "9" in err
    code, _, err = pbf("turn", camp, "--thread", thread, "--deadline", "11/29 21時")
    assert code == 1 and ("締切" in err or "deadline" in err)
    assert tree_digest(camp) == before


def test_replay_passes_on_every_demo_and_fails_on_a_tampered_one(tmp_path, pbf):
    kept = tmp_path / "kept"
    code, _, err = pbf("demo", "--keep", kept)
    assert code == 0, err
    demos = sorted(p for p in kept.iterdir() if (p / "campaign.toml").is_file())
    assert len(demos) >= 2
    for path in demos:
        code, out, err = pbf("replay", path)
        assert code == 0, (path.name, err)
    state = demos[0] / "history" / "0002" / "state.yaml"
    state.write_text(state.read_text("utf-8").replace("hp: ", "hp: 1", 1), "utf-8")
    code, _, err = pbf("replay", demos[0])
    assert code == 1 and "第2ターン" in err and "state.yaml" in err


def test_a_rider_turn_from_a_readcgi_copy_in_cp932(tmp_path, pbf):
    camp = tmp_path / "rider"
    code, _, err = pbf("new", camp, "--system", "rider", "--player", "刃◆JinShu0001=jinshu",
                       "--player", "城戸=ryuki", "--seed", "copy")
    assert code == 0, err
    copied = (
        "【ライダーバトル】刃 vs 城戸\n"
        "1 名前：GM [sage] 投稿日：2026/11/29(日) 21:00:00.00 ID:GmGm0001\n"
        "第1ターンどうぞ\n"
        "\n"
        "2 名前：刃 ◆JinShu0001 [sage] 投稿日：2026/11/29(日) 21:03:11.52 ID:AbCd1234\n"
        "【行動】\n"
        "近寄る / ソードベント\n"
        "\n"
        "3 名前：城戸 投稿日：2026/11/29(日) 21:04:00.00 ID:EfGh5678\n"
        "【行動】move away / Strike Vent\n"
    )
    thread = tmp_path / "copy.txt"
    thread.write_bytes(copied.encode("cp932"))
    code, out, err = pbf("turn", camp, "--thread", thread)
    assert code == 0, err
    assert "ソードベント" in out and "ストライクベント" in out
    assert out.rstrip().endswith("［pbf］第1ターン結果")
    assert pbf("replay", camp)[0] == 0
