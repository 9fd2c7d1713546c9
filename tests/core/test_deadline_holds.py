"""Issue 20, "The deadline holds": undo gives the re-opened turn its own deadline back, pbf turn
before the deadline says so and stops (unless --early), pbf deadline shows the year and refuses
a past date, status says 締切を過ぎました by the clock only, timezone takes zone names, and
pbf undo --dry-run says what an undo would do. The clock is the environment variable PBF_NOW
(board time), as docs/forum.md documents it for scripts."""

import sys
import zoneinfo
from datetime import datetime

import pytest
from conftest import tree_digest

from pbf.board import forum

GM = "GM </b>◆GmTrip1234 <b>"
A = "A </b>◆Ab3dEf6hIj <b>"


class Thread:
    """A CP932 .dat thread; each post is stamped with the board's time."""

    def __init__(self, path):
        self.path = path
        self.lines = []
        self.post(GM, "対戦スレです", "2026/12/07(月) 20:00:00.00", title="【PBF】締切テスト")

    def post(self, name, body, when, title=""):
        body = body.replace("\n", " <br> ")
        self.lines.append(f"{name}<>sage<>{when} ID:AbCd1234<> {body} <>{title}")
        self.path.write_bytes(("\n".join(self.lines) + "\n").encode("cp932"))
        return len(self.lines)

    def paste(self, text, when):
        for part in text.split("――――――――――（ここで次の書き込みへ）――――――――――"):
            if part.strip():
                self.post(GM, part.strip(), when)


@pytest.fixture
def clock(monkeypatch):
    """Set the board's clock: clock("2026-12-08 21:59")."""
    return lambda when: monkeypatch.setenv("PBF_NOW", when)


def new_campaign(tmp_path, pbf, *extra):
    camp = tmp_path / "camp"
    code, _, err = pbf("new", camp, "--system", "alterego", "--player", "A◆Ab3dEf6hIj=plain", "--player", "B=plain",
                       "--seed", "deadline-seed", "--set", "hands=free", "--set", "gm=GM◆GmTrip1234", *extra)
    assert code == 0, err
    return camp


def read(camp, *parts):
    return camp.joinpath(*parts).read_text("utf-8")


# -- undo keeps the deadline of the turn it re-opens (a silent failure on main) ---------------------

def test_undo_restores_the_deadline_the_turn_was_taken_under(tmp_path, pbf, clock):
    clock("2026-12-07 20:00")
    camp = new_campaign(tmp_path, pbf, "--deadline", "2026-12-08 22:00")
    thread = Thread(tmp_path / "t.dat")
    thread.post(A, "【行動】弱", "2026/12/08(火) 21:00:00.00")
    thread.post("B", "【行動】←", "2026/12/08(火) 21:10:00.00")
    clock("2026-12-08 23:00")
    code, post, err = pbf("turn", camp, "--thread", thread.path, "--next-deadline", "2026-12-10 22:00")
    assert code == 0, err
    thread.paste(post, "2026/12/08(火) 23:05:00.00")
    code, undone, err = pbf("undo", camp)
    assert code == 0, err
    # six days after turn 1's deadline, A posts another order: late for the re-opened turn 1
    late = thread.post(A, "【行動】強強", "2026/12/14(月) 21:00:00.00")
    clock("2026-12-14 21:30")
    code, post, err = pbf("turn", camp, "--thread", thread.path)
    assert code == 0, err
    orders = read(camp, "history", "0001", "orders.txt")
    assert "【A】\n弱" in orders and "強強" not in orders  # main: 強強 was taken, exit 0, no message
    assert f">>{late}の行動は締切後" in err and "遅刻" in err
    assert "やり直す第1ターンの締切：2026/12/8(火) 22:00" in undone
    meta = read(camp, "history", "0001", "turn.yaml")
    assert "deadline: 2026-12-08 22:00" in meta and "遅刻" in meta
    # the next turn's deadline, announced when turn 1 was first taken, still stands
    assert "次回締切：12/10(木) 22:00" in post and "取り消した第1ターンのときに決めた" in err
    assert "turn: 2" in read(camp, "deadline.yaml") and "2026-12-10 22:00" in read(camp, "deadline.yaml")
    assert pbf("replay", camp)[0] == 0


def test_after_undo_deadline_yaml_status_and_turn_use_the_restored_deadline(tmp_path, pbf, clock):
    clock("2026-12-07 20:00")
    camp = new_campaign(tmp_path, pbf, "--deadline", "2026-12-08 22:00")
    orders = tmp_path / "o.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    clock("2026-12-08 22:30")
    assert pbf("turn", camp, "--orders", orders, "--next-deadline", "2026-12-10 22:00")[0] == 0
    assert pbf("undo", camp)[0] == 0
    stored = read(camp, "deadline.yaml")
    assert "turn: 1" in stored and "deadline: 2026-12-08 22:00" in stored
    thread = Thread(tmp_path / "t.dat")
    thread.post(A, "【行動】弱", "2026/12/08(火) 21:00:00.00")
    code, out, _ = pbf("status", camp, "--thread", thread.path)
    assert code == 0 and "締切：12/8(火) 22:00" in out and "締切を過ぎました" in out
    # a turn undone that had no deadline gives none back (and keeps the next turn's)
    clock("2026-12-08 22:40")
    assert pbf("turn", camp, "--orders", orders)[0] == 0
    assert pbf("deadline", camp, "2026-12-12 22:00")[0] == 0  # turn 2's
    clock("2026-12-12 22:30")
    assert pbf("turn", camp, "--orders", orders, "--next-deadline", "2026-12-14 22:00")[0] == 0
    assert pbf("undo", camp)[0] == 0
    assert "deadline: 2026-12-12 22:00" in read(camp, "deadline.yaml")  # turn 2's own, back


# -- turn before the deadline says so and stops (a silent failure on main) -----------------------

def test_turn_before_the_deadline_says_so_and_stops(tmp_path, pbf, clock):
    clock("2026-12-07 20:00")
    camp = new_campaign(tmp_path, pbf)
    assert pbf("deadline", camp, "2026-12-08 22:00")[0] == 0
    thread = Thread(tmp_path / "t.dat")
    thread.post(A, "【行動】弱", "2026/12/08(火) 21:00:00.00")
    thread.post("B", "【行動】←", "2026/12/08(火) 21:10:00.00")
    clock("2026-12-08 21:58:30")
    before = tree_digest(camp)
    code, out, err = pbf("turn", camp, "--thread", thread.path)
    assert code == 1 and out == ""  # main: resolved at once, exit 0
    assert "第1ターンの締切（2026/12/8(火) 22:00）はまだです（あと2分）" in err
    assert "12/8(火) 22:01 から処理できます" in err and "--early" in err and "Traceback" not in err
    assert tree_digest(camp) == before
    # the correction posted in time is what the turn reads
    thread.post("B", "【行動】弱", "2026/12/08(火) 22:00:30.00")
    clock("2026-12-08 22:00:40")  # the deadline minute: posts are still on time
    code, _, err = pbf("turn", camp, "--thread", thread.path)
    assert code == 1 and "締切（2026/12/8(火) 22:00）の分の最中です" in err
    assert tree_digest(camp) == before
    clock("2026-12-08 22:01")
    code, post, err = pbf("turn", camp, "--thread", thread.path)
    assert code == 0, err
    assert "【B】\n弱" in read(camp, "history", "0001", "orders.txt")
    assert "締切前に処理しました" not in post and "early" not in read(camp, "history", "0001", "turn.yaml")


def test_the_hold_counts_real_time_and_covers_an_orders_file(tmp_path, pbf, clock):
    clock("2026-12-01 12:00")
    camp = new_campaign(tmp_path, pbf, "--deadline", "2026-12-08 22:00")
    orders = tmp_path / "o.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    clock("2026-12-06 20:59:10")
    code, _, err = pbf("turn", camp, "--orders", orders)
    assert code == 1 and "あと2日1時間1分" in err


def test_early_is_recorded_and_shown_and_dry_run_always_runs(tmp_path, pbf, clock):
    clock("2026-12-07 20:00")
    camp = new_campaign(tmp_path, pbf, "--deadline", "2026-12-08 22:00")
    thread = Thread(tmp_path / "t.dat")
    thread.post(A, "【行動】弱", "2026/12/08(火) 21:00:00.00")
    thread.post("B", "【行動】←", "2026/12/08(火) 21:10:00.00")
    clock("2026-12-08 21:30")
    before = tree_digest(camp)
    code, post, err = pbf("turn", camp, "--thread", thread.path, "--dry-run")
    assert code == 0 and "［pbf］第1ターン結果" in post
    assert "--dry-run なので処理して見せます" in err and "締切前に処理しました" not in post
    assert tree_digest(camp) == before
    code, post, err = pbf("turn", camp, "--thread", thread.path, "--early", "--next-deadline", "2026-12-10 22:00")
    assert code == 0, err
    assert "※締切前に処理しました（GM判断）。このターンの締切は 12/8(火) 22:00 でした。" in post
    assert post == read(camp, "history", "0001", "post.txt")
    meta = read(camp, "history", "0001", "turn.yaml")
    assert "early: true" in meta and "deadline: 2026-12-08 22:00" in meta
    assert pbf("replay", camp)[0] == 0  # the post is recomputed with its line
    # --early after the deadline changes nothing and says so
    thread.paste(post, "2026/12/08(火) 21:35:00.00")
    thread.post(A, "【行動】弱", "2026/12/09(水) 21:00:00.00")
    clock("2026-12-10 22:05")
    code, post, err = pbf("turn", camp, "--thread", thread.path, "--early")
    assert code == 0, err
    assert "--early は要りません" in err and "締切前に処理しました" not in post
    assert "early" not in read(camp, "history", "0002", "turn.yaml")


def test_a_turn_without_a_deadline_is_never_held(tmp_path, pbf, clock):
    clock("2026-12-08 21:00")
    camp = new_campaign(tmp_path, pbf)
    orders = tmp_path / "o.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    code, _, err = pbf("turn", camp, "--orders", orders)
    assert code == 0, err


# -- pbf deadline shows the year and refuses a date in the past ------------------------------------

def test_deadline_shows_the_year_and_refuses_a_past_date(tmp_path, pbf, clock):
    clock("2026-12-02 08:00")
    camp = new_campaign(tmp_path, pbf)
    code, out, err = pbf("deadline", camp, "2026-12-05 22:00")
    assert code == 0 and "第1ターンの締切を 2026/12/5(土) 22:00 にしました" in out
    before = tree_digest(camp)
    code, out, err = pbf("deadline", camp, "2020-01-01 22:00")
    assert code == 1 and "2020/1/1(水) 22:00 は過去の日時です" in err and "--force" in err
    assert "今は板の時計で 2026/12/2(水) 08:00" in err
    assert tree_digest(camp) == before
    code, out, err = pbf("deadline", camp, "2020-01-01 22:00", "--force")
    assert code == 0 and "2020/1/1(水) 22:00" in out and "過去の日時です" in out
    assert "deadline: 2020-01-01 22:00" in read(camp, "deadline.yaml")


def test_a_past_first_or_next_deadline_is_said(tmp_path, pbf, clock):
    clock("2026-12-02 08:00")
    camp = tmp_path / "c"
    code, _, err = pbf("new", camp, "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                       "--set", "hands=free", "--deadline", "2025-12-05 22:00")
    assert code == 0 and "注意：第1ターンの締切 2025/12/5(金) 22:00 は過去の日時です" in err
    orders = tmp_path / "o.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    code, _, err = pbf("turn", camp, "--orders", orders, "--next-deadline", "2025-12-06 22:00")
    assert code == 0 and "注意：第2ターンの締切 2025/12/6(土) 22:00 は過去の日時です" in err


# -- status says 締切を過ぎました by the clock only ------------------------------------------------------

def test_status_says_the_deadline_passed_only_by_the_clock(tmp_path, pbf, clock):
    clock("2026-12-07 20:00")
    camp = new_campaign(tmp_path, pbf, "--deadline", "2026-12-08 22:00")
    thread = Thread(tmp_path / "t.dat")
    thread.post(A, "【行動】弱", "2026/12/08(火) 21:00:00.00")
    late = thread.post(A, "【行動】強", "2026/12/08(火) 22:05:00.00")  # the board's clock runs ahead
    clock("2026-12-08 21:50")
    code, out, err = pbf("status", camp, "--thread", thread.path)
    assert code == 0, err
    assert "締切を過ぎました" not in out and "締切（12/8(火) 22:00）までは書き直せます" in out
    assert f">>{late}の行動は締切後（2026/12/08 22:05:00）のため無効です（遅刻）" in out
    assert "まだ締切前です" in err and "timezone" in err
    clock("2026-12-08 22:01")
    code, out, err = pbf("status", camp, "--thread", thread.path)
    assert "締切を過ぎました" in out and "まだ締切前です" not in err


# -- timezone: the names GMs know, through zoneinfo -------------------------------------------------

@pytest.mark.parametrize("zone, label", [
    ("Asia/Tokyo", "12/8(火) 22:00"), ("JST", "12/8(火) 22:00"), ("+09:00", "12/8(火) 22:00（+09:00）"),
    ("Europe/London", "12/8(火) 22:00（Europe/London）"), ("europe/london", "12/8(火) 22:00（europe/london）"),
])
def test_timezone_takes_zone_names(tmp_path, pbf, clock, zone, label):
    clock("2026-12-07 20:00")
    camp = new_campaign(tmp_path, pbf, "--set", f"timezone={zone}", "--deadline", "2026-12-08 22:00")
    assert f"第１ターンの締切：{label}" in read(camp, "history", "0000", "post.txt")


def test_summer_time_is_counted_in_real_time(tmp_path, pbf, clock, monkeypatch):
    clock("2026-03-27 12:00")
    camp = new_campaign(tmp_path, pbf, "--set", "timezone=Europe/London", "--deadline", "2026-03-29 22:00")
    orders = tmp_path / "o.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    clock("2026-03-28 22:00")  # the clocks go forward at 01:00 on the 29th: 23 hours, not 24
    code, _, err = pbf("turn", camp, "--orders", orders)
    assert code == 1 and "（あと23時間）" in err
    # without PBF_NOW, the clock is the computer's, in the board's zone
    monkeypatch.delenv("PBF_NOW")
    got = forum.board_now("Europe/London")
    real = datetime.now(zoneinfo.ZoneInfo("Europe/London")).replace(tzinfo=None)
    assert abs((real - got).total_seconds()) < 60


@pytest.mark.parametrize("zone, words", [
    ("Asia/Tokio", "近いもの：Asia/Tokyo"), ("Mars/Olympus", "というタイムゾーンはありません"), ("9時", "timezone は JST"),
])
def test_a_wrong_zone_is_refused_with_a_hint(tmp_path, pbf, zone, words):
    code, _, err = pbf("new", tmp_path / "c", "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                       "--set", f"timezone={zone}")
    assert code == 1 and words in err and "Traceback" not in err
    assert not (tmp_path / "c").exists()


@pytest.fixture
def no_tz_database(monkeypatch):
    """A machine without the IANA database (Windows without the tzdata package)."""
    monkeypatch.setitem(sys.modules, "tzdata", None)  # importing it fails
    forum._zone.cache_clear()
    zoneinfo.ZoneInfo.clear_cache()
    zoneinfo.reset_tzpath(to=[])
    yield
    zoneinfo.reset_tzpath()
    zoneinfo.ZoneInfo.clear_cache()
    forum._zone.cache_clear()


def test_a_zone_name_without_the_tz_database_is_a_clear_message(tmp_path, pbf, no_tz_database):
    code, _, err = pbf("new", tmp_path / "c", "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                       "--set", "timezone=Europe/London")
    assert code == 1 and "Traceback" not in err
    assert "タイムゾーンのデータ（IANA）がありません" in err and "pip install tzdata" in err and "+09:00" in err
    assert not (tmp_path / "c").exists()
    code, _, err = pbf("new", tmp_path / "d", "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                       "--set", "timezone=+01:00", "--deadline", "2030-01-01 22:00")
    assert code == 0, err  # an offset needs no database


# -- the clock for scripts ---------------------------------------------------------------------------

def test_a_clock_that_cannot_be_read_is_refused_before_anything_is_written(tmp_path, pbf, clock):
    clock("12/8 22時")
    code, _, err = pbf("new", tmp_path / "c", "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                       "--deadline", "2026-12-08 22:00")
    assert code == 1 and "環境変数 PBF_NOW の日時が読めません" in err and "Traceback" not in err
    assert not (tmp_path / "c").exists()
    clock("")  # empty: the computer's clock
    assert forum.board_now("JST").year >= 2026


# -- pbf undo --dry-run ---------------------------------------------------------------------------------

def test_undo_dry_run_says_which_turn_and_the_reopened_deadline_and_window(tmp_path, pbf, clock):
    clock("2026-12-07 20:00")
    camp = new_campaign(tmp_path, pbf, "--deadline", "2026-12-08 22:00")
    thread = Thread(tmp_path / "t.dat")
    thread.paste(read(camp, "history", "0000", "post.txt"), "2026/12/07(月) 20:05:00.00")
    first = thread.post(A, "【行動】弱", "2026/12/08(火) 21:00:00.00")
    last = thread.post("B", "【行動】←", "2026/12/08(火) 21:10:00.00")
    clock("2026-12-08 23:00")
    code, post, err = pbf("turn", camp, "--thread", thread.path, "--next-deadline", "2026-12-10 22:00")
    assert code == 0, err
    before = tree_digest(camp)
    code, out, err = pbf("undo", camp, "--dry-run")
    assert code == 0, err
    assert tree_digest(camp) == before
    assert "pbf undo は第1ターンを取り消します（--dry-run：何も書き込んでいません）" in out
    assert "やり直す第1ターンの締切：2026/12/8(火) 22:00（このターンを処理したときの締切。締切は過ぎています" in out
    assert "「［pbf］バトル開始」の書き込みの後から（なければスレッドの最初から）読みます" in out
    assert f"「【PBF】締切テスト」の >>{first}〜>>{last} です" in out
    assert "第2ターンの締切（2026/12/10(木) 22:00）は、やり直しの pbf turn が次回締切に使います" in out
    # turn 2, from the same thread: the window starts after what turn 1 read
    thread.paste(post, "2026/12/08(火) 23:05:00.00")
    thread.post(A, "【行動】弱", "2026/12/09(水) 21:00:00.00")
    clock("2026-12-10 21:00")
    assert pbf("turn", camp, "--thread", thread.path, "--early")[0] == 0
    read_upto = len(thread.lines) - 2  # the results post and A's order: turn 1 read up to before them
    code, out, _ = pbf("undo", camp, "--dry-run")
    assert "pbf undo は第2ターンを取り消します" in out
    assert "締切：2026/12/10(木) 22:00（このターンを処理したときの締切。締切まであと1時間）" in out
    assert f"第1ターンが読んだ >>{read_upto} の次（>>{read_upto + 1}）から読みます" in out
    assert "次回締切に使います" not in out  # turn 2 set none
    code, out, _ = pbf("undo", camp)
    assert "第2ターンを取り消しました" in out and "やり直す第2ターンの締切：2026/12/10(木) 22:00" in out


def test_undo_dry_run_of_nothing_and_of_a_turn_without_a_deadline(tmp_path, pbf, clock):
    clock("2026-12-08 21:00")
    camp = new_campaign(tmp_path, pbf)
    code, _, err = pbf("undo", camp, "--dry-run")
    assert code == 1 and "取り消すターンがありません" in err
    orders = tmp_path / "o.txt"
    orders.write_text("[A]弱\n[B]弱\n", "utf-8")
    assert pbf("turn", camp, "--orders", orders)[0] == 0
    code, out, _ = pbf("undo", camp, "--dry-run")
    assert code == 0 and "やり直す第1ターンの締切：なし" in out and "行動ファイル（--orders）から読みました" in out
    assert (camp / "history" / "0001").is_dir()
