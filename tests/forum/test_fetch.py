"""A thread by its address (pbf/fetch.py; docs/forum.md, section 1a), against a real HTTP server
on 127.0.0.1 (tests/forum/board_server.py) with an injected clock: nothing waits, nothing leaves
the machine."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from cli_support import pbf, tree_digest  # noqa: F401 (the fixture)
from forum.board_server import Board
from pbf.board import fetch
from pbf.errors import PbfError

DAT = "/gameswf/dat/1700000000.dat"
READ = "/test/read.cgi/gameswf/1700000000/"
JBBS = "game/12345/1700000001"
A = "A </b>◆Ab3dEf6hIj <b>"


def dat_line(name, body, time="21:00:00.00", title="", day="2026/12/08(火)"):
    return f"{name}<>sage<>{day} {time} ID:AbCd1234<>{body.replace(chr(10), ' <br> ')}<>{title}"


def jbbs_line(number, name, body, time="21:00:00", title=""):
    return f"{number}<>{name}<>sage<>2026/12/08(火) {time}<>{body.replace(chr(10), '<br>')}<>{title}<>Id{number:04d}"


class Clock:
    """The wall clock and the board's (PBF_NOW) together; sleep moves both, at once."""

    def __init__(self, monkeypatch, start="2026-12-08 20:00:00"):
        self.now = datetime.strptime(start, "%Y-%m-%d %H:%M:%S")
        self.sleeps: list[float] = []
        self.mp = monkeypatch
        monkeypatch.setattr(fetch.SETTINGS, "wall", self.wall)
        monkeypatch.setattr(fetch.SETTINGS, "sleep", self.sleep)
        monkeypatch.setattr(fetch.SETTINGS, "timeout", 1.0)
        self._env()

    def _env(self):
        self.mp.setenv("PBF_NOW", self.now.strftime("%Y-%m-%d %H:%M:%S"))

    def wall(self):
        return self.now.timestamp()

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.advance(seconds)

    def advance(self, seconds):
        self.now += timedelta(seconds=seconds)
        self._env()


@pytest.fixture
def board():
    server = Board().start()
    yield server
    server.stop()


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


def new_campaign(tmp_path, pbf, *extra):
    path = tmp_path / "camp"
    code, _, err = pbf("new", path, "--system", "alterego", "--player", "A◆Ab3dEf6hIj=plain", "--player", "B=plain",
                       "--seed", "fetch", "--set", "hands=free", "--deadline", "2026-12-08 22:00", *extra)
    assert code == 0, err
    return path


# -- addresses --------------------------------------------------------------------------------

def test_addresses_map_to_the_best_source():
    a = fetch.parse_address("https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1700000000/l50")
    assert (a.kind, a.url) == ("shitaraba", "https://jbbs.shitaraba.net/bbs/rawmode.cgi/game/12345/1700000000/")
    a = fetch.parse_address("https://mao.5ch.net/test/read.cgi/gameswf/1700000000/-100")
    assert (a.kind, a.url, a.fallback) == ("dat", "https://mao.5ch.net/gameswf/dat/1700000000.dat",
                                           "https://mao.5ch.net/test/read.cgi/gameswf/1700000000/")
    a = fetch.parse_address("http://example.net/gameswf/dat/1700000000.dat")
    assert (a.kind, a.url, a.fallback) == ("dat", "http://example.net/gameswf/dat/1700000000.dat", None)
    a = fetch.parse_address("https://jbbs.shitaraba.net/bbs/rawmode.cgi/game/12345/1700000000/30-")
    assert (a.kind, a.url) == ("shitaraba", "https://jbbs.shitaraba.net/bbs/rawmode.cgi/game/12345/1700000000/")
    a = fetch.parse_address("https://example.org/board/thread.html?id=3")
    assert a.kind == "page" and a.url == "https://example.org/board/thread.html?id=3"
    for bad in ("ftp://example.net/x.dat", "https://", "thread.dat"):
        with pytest.raises(PbfError):
            fetch.parse_address(bad)


# -- 2ch dat: conditional and range requests ---------------------------------------------------

def test_status_by_url_reads_the_dat_then_only_the_new_bytes(tmp_path, pbf, board, clock):
    camp = new_campaign(tmp_path, pbf)
    board.post_dat(DAT, dat_line("GM", "第1ターンの行動をどうぞ", title="オルタリゴ対戦スレ"), dat_line(A, "【行動】弱"))
    url = board.base + READ
    code, out, err = pbf("status", camp, "--thread", url)
    assert code == 0, err
    assert "■A：受理（>>2）" in out and "■B：未提出" in out
    assert "dat（CP932）" in err and DAT in err
    first = board.requests(DAT)[-1]
    assert "range" not in first and "gzip" in first["accept-encoding"]
    assert first["user-agent"].startswith("Monazilla/1.00 pbf/")
    copy = camp / "thread"
    assert len(list(copy.glob("*.dat"))) == 1 and list(copy.glob("*.dat"))[0].read_bytes() == board.dat_bytes(DAT)

    clock.advance(61)
    code, out, err = pbf("status", camp, "--thread", url)  # nothing new: 304
    assert code == 0, err
    assert "新しい書き込みはありません" in err and "■B：未提出" in out
    assert board.requests(DAT)[-1]["if-modified-since"]

    board.post_dat(DAT, dat_line("B", "【行動】弱弱"))
    clock.advance(61)
    size = len(board.dat_bytes(DAT)) - len(dat_line("B", "【行動】弱弱").encode("cp932")) - 1
    code, out, err = pbf("status", camp, "--thread", url)
    assert code == 0, err
    assert "■B：受理（>>3）" in out and "新しい書き込み1件を追記しました" in err
    asked = board.requests(DAT)[-1]
    assert asked["range"] == f"bytes={size - 1}-" and "gzip" not in asked.get("accept-encoding", "")
    assert list(copy.glob("*.dat"))[0].read_bytes() == board.dat_bytes(DAT)


def test_within_a_minute_status_uses_the_copy_and_turn_waits(tmp_path, pbf, board, clock):
    camp = new_campaign(tmp_path, pbf)
    board.post_dat(DAT, dat_line(A, "【行動】弱"), dat_line("B", "【行動】弱"))
    url = board.base + READ
    assert pbf("status", camp, "--thread", url)[0] == 0
    clock.advance(20)
    before = len(board.log)
    code, out, err = pbf("status", camp, "--thread", url)
    assert code == 0 and len(board.log) == before and "手元の写しを使います" in err
    clock.advance(22 * 3600)  # past the deadline; then a turn right after a status
    assert pbf("status", camp, "--thread", url)[0] == 0
    n = len(board.log)
    clock.advance(5)
    code, out, err = pbf("turn", camp, "--thread", url)
    assert code == 0, err
    assert clock.sleeps[-1] == pytest.approx(55) and len(board.log) == n + 1 and "待ってから取得します" in err


def test_the_polite_rate_is_never_exceeded(tmp_path, pbf, board, clock):
    """Twenty commands as fast as a script can run them: one request a minute at most."""
    camp = new_campaign(tmp_path, pbf)
    board.post_dat(DAT, dat_line(A, "【行動】弱"))
    url = board.base + READ
    stamps = []
    for i in range(20):
        seen = len(board.log)
        assert pbf("status", camp, "--thread", url)[0] == 0
        stamps += [clock.now] * (len(board.log) - seen)
        clock.advance(7)
    gaps = [(b - a).total_seconds() for a, b in zip(stamps, stamps[1:])]
    assert len(stamps) >= 2 and min(gaps) >= 60


def test_an_aborn_is_noticed_and_named_by_turn(tmp_path, pbf, board, clock):
    camp = new_campaign(tmp_path, pbf)
    board.post_dat(DAT, dat_line("GM", "開始", title="スレ"), dat_line(A, "【行動】弱"), dat_line("B", "【行動】弱弱"))
    url = board.base + READ
    clock.advance(22 * 3600)
    code, post, err = pbf("turn", camp, "--thread", url, "--next-deadline", "2026-12-09 22:00")
    assert code == 0, err
    archived = camp / "history" / "0001" / "thread.dat"
    assert archived.read_bytes() == board.dat_bytes(DAT)
    meta = (camp / "history" / "0001" / "turn.yaml").read_text("utf-8")
    assert "source:" in meta and url in meta and "kind: dat" in meta
    # あぼーん of >>2, shorter: a Range from the old size gets 416 → whole; the turn is named
    board.dats[DAT][1] = "あぼーん<>あぼーん<>あぼーん<>あぼーん<>"
    board.post_dat(DAT, dat_line("GM", post.strip()))
    clock.advance(3600)
    code, out, err = pbf("status", camp, "--thread", url)
    assert code == 0, err
    assert "全部取得し直しました" in err and "第1ターンが読んだ >>2 が、今のスレッドでは変わっています" in err
    assert archived.read_bytes() != board.dat_bytes(DAT)  # the archive keeps what was read
    statuses = [r.get("range") for r in board.requests(DAT)]
    assert statuses[-1] is None and statuses[-2] is not None


def test_a_board_that_refuses_its_dat_is_read_from_the_read_cgi_page(tmp_path, pbf, board, clock):
    camp = new_campaign(tmp_path, pbf)
    board.post_dat(DAT, dat_line(A, "【行動】弱→"), dat_line("B", "【行動】弱"))
    board.refuse_dat.add(DAT)
    code, out, err = pbf("status", camp, "--thread", board.base + READ)
    assert code == 0, err
    assert "HTTP 403" in err and "read.cgi のページ" in err
    assert "■A：受理（>>1）" in out and "■B：受理（>>2）" in out


def test_shitaraba_rawmode_from_the_next_post(tmp_path, pbf, board, clock):
    camp = new_campaign(tmp_path, pbf)
    board.post_shitaraba(JBBS, jbbs_line(1, "GM", "開始", title="したらばスレ"), jbbs_line(2, A, "【行動】弱"))
    url = f"{board.base}/bbs/read.cgi/{JBBS}/"
    code, out, err = pbf("status", camp, "--thread", url)
    assert code == 0, err
    assert "■A：受理（>>2）" in out and "rawmode.cgi" in err
    board.post_shitaraba(JBBS, jbbs_line(3, "B", "【行動】弱弱"))
    clock.advance(60)
    code, out, err = pbf("status", camp, "--thread", url)
    assert code == 0, err
    assert "■B：受理（>>3）" in out
    assert board.log[-1]["path"] == f"/bbs/rawmode.cgi/{JBBS}/2-"
    assert "新しい書き込み1件を追記しました" in err


# -- failures: a clear message, exit 1, nothing changed ------------------------------------------

def _refused(tmp_path, pbf, url, *needles, before=None):
    camp = tmp_path / "camp"
    before = tree_digest(camp)
    code, out, err = pbf("status", camp, "--thread", url)
    assert code == 1 and out == "" and "Traceback" not in err
    for needle in needles:
        assert needle in err
    assert tree_digest(camp) == before
    return err


def test_network_error_after_retries(tmp_path, pbf, clock):
    new_campaign(tmp_path, pbf)
    err = _refused(tmp_path, pbf, "http://127.0.0.1:9/test/read.cgi/gameswf/1700000000/", "スレッドを取得できませんでした",
                   "つながりません", "手元の写しはまだありません")
    assert clock.sleeps == [5.0, 20.0] and "もう一度取得します" in err


def test_a_board_that_goes_away_leaves_the_copy_for_offline(tmp_path, pbf, board, clock):
    camp = new_campaign(tmp_path, pbf)
    board.post_dat(DAT, dat_line(A, "【行動】弱"))
    url = board.base + READ
    assert pbf("status", camp, "--thread", url)[0] == 0
    board.script[DAT] = [503, 503, 503]
    clock.advance(60)
    err = _refused(tmp_path, pbf, url, "HTTP 503", "--offline で手元の写しを使ってください")
    code, out, err = pbf("status", camp, "--thread", url, "--offline")
    assert code == 0 and "■A：受理（>>1）" in out and "--offline" in err


def test_5xx_then_success(tmp_path, pbf, board, clock):
    camp = new_campaign(tmp_path, pbf)
    board.post_dat(DAT, dat_line(A, "【行動】弱"))
    board.script[DAT] = [503, 502]
    code, out, err = pbf("status", camp, "--thread", board.base + READ)
    assert code == 0, err
    assert "HTTP 503" in err and "HTTP 502" in err and clock.sleeps == [5.0, 20.0] and "■A：受理" in out


def test_a_slow_server_times_out(tmp_path, pbf, board, clock, monkeypatch):
    new_campaign(tmp_path, pbf)
    monkeypatch.setattr(fetch.SETTINGS, "timeout", 0.3)
    monkeypatch.setattr(fetch.SETTINGS, "backoff", ())
    board.slow = 1.0
    board.script[DAT] = ["slow"]
    _refused(tmp_path, pbf, board.base + READ, "タイムアウト")


def test_not_a_thread(tmp_path, pbf, board, clock):
    new_campaign(tmp_path, pbf)
    board.script["/news/index.html"] = [("html", "<html><body><p>ようこそ</p><p>今日の話題</p></body></html>".encode("cp932"))]
    _refused(tmp_path, pbf, board.base + "/news/index.html", "スレッドとして読めません")
    board.script[DAT] = [("html", b"<html><body>moved</body></html>")]
    _refused(tmp_path, pbf, board.base + READ, "dat ではありません")
    _refused(tmp_path, pbf, board.base + "/other/dat/1.dat", "HTTP 404")


def test_an_undecodable_thread(tmp_path, pbf, board, clock):
    new_campaign(tmp_path, pbf)
    path = "/gameswf/dat/1700000009.dat"
    board.dats[path] = ["x"]
    board.modified[path] = 1_700_000_000.0
    board.script[path] = [("html", b"\xff\xfe\x80\x80<>\xff<>\x81<>body<>\n")]
    _refused(tmp_path, pbf, board.base + path, "文字コードが読めません")


def test_shitaraba_error_and_2ch_kako(tmp_path, pbf, board, clock):
    new_campaign(tmp_path, pbf)
    _refused(tmp_path, pbf, f"{board.base}/bbs/read.cgi/game/1/999/", "板がエラーを返しました", "STORAGE IN")
    kako = "<html><body>このスレッドは過去ログ倉庫に格納されています</body></html>".encode("cp932")
    board.script[DAT] = [("html", kako)]
    _refused(tmp_path, pbf, board.base + READ, "過去ログ倉庫")


def test_a_redirect_to_another_host_is_refused(tmp_path, pbf, board, clock):
    new_campaign(tmp_path, pbf)
    board.script[DAT] = [("redirect", "http://localhost.invalid/x.dat")]
    _refused(tmp_path, pbf, board.base + READ, "別のホスト")


def test_offline_uses_the_copy_and_refuses_without_one(tmp_path, pbf, board, clock):
    camp = new_campaign(tmp_path, pbf)
    url = board.base + READ
    code, out, err = pbf("status", camp, "--thread", url, "--offline")
    assert code == 1 and "手元の写しがありません" in err
    board.post_dat(DAT, dat_line(A, "【行動】弱"))
    assert pbf("status", camp, "--thread", url)[0] == 0
    n = len(board.log)
    clock.advance(600)
    code, out, err = pbf("status", camp, "--thread", url, "--offline")
    assert code == 0 and len(board.log) == n and "■A：受理" in out and "--offline" in err


def test_one_request_in_flight_per_host(board, clock, tmp_path):
    import threading

    board.post_dat(DAT, dat_line(A, "【行動】弱"))
    board.slow = 0.2
    paths = [f"/gameswf/dat/17000000{i:02d}.dat" for i in range(4)]
    for path in paths:
        board.script[path] = ["slow"]
    threads = [threading.Thread(target=fetch.request, args=(board.base + p, {}, "127.0.0.1", print)) for p in paths]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(board.log) == 4 and board.most_in_flight == 1


# -- the campaign's thread --------------------------------------------------------------------

def test_new_and_thread_store_the_url(tmp_path, pbf, board, clock):
    url = board.base + READ
    code, _, err = pbf("new", tmp_path / "bad", "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                       "--thread", "ftp://example.net/x.dat")
    assert code == 1 and "http://" in err and not (tmp_path / "bad").exists()
    camp = new_campaign(tmp_path, pbf, "--thread", url)
    assert url in (camp / "threads.yaml").read_text("utf-8")
    board.post_dat(DAT, dat_line(A, "【行動】弱"), dat_line("B", "【行動】弱"))
    code, out, err = pbf("status", camp)
    assert code == 0, err
    assert "■A：受理" in out and board.base + READ in err
    code, out, err = pbf("thread", camp)
    assert code == 0 and f"Part1：{url}" in out
    code, _, err = pbf("thread", camp, "not a url")
    assert code == 1 and "http://" in err
    clock.advance(22 * 3600)
    code, post, err = pbf("turn", camp)
    assert code == 0, err
    assert post.rstrip().endswith("［pbf］第1ターン結果")
    assert pbf("replay", camp)[0] == 0


# -- pbf watch --------------------------------------------------------------------------------

def test_watch_prints_the_changes_and_takes_the_turn_at_the_deadline(tmp_path, pbf, board, clock):
    clock.advance(105 * 60)  # 21:45, the deadline 22:00
    url = board.base + READ
    camp = new_campaign(tmp_path, pbf, "--thread", url)
    board.post_dat(DAT, dat_line("GM", "開始", title="スレ"), dat_line(A, "【行動】弱", time="21:40:00.00"))
    plan = {2: dat_line("B", "【行動】弱弱", time="21:52:00.00"), 4: dat_line(A, "【行動】弱→", time="21:59:30.00")}
    sleeps = []

    def sleep(seconds):  # the players post while pbf sleeps
        sleeps.append(seconds)
        clock.advance(seconds)
        line = plan.pop(len(sleeps), None)
        if line:
            board.post_dat(DAT, line)

    fetch.SETTINGS.sleep = sleep
    code, out, err = pbf("watch", camp, "--every", "5", "--take-turn", "--next-deadline", "2026-12-09 22:00")
    assert code == 0, err
    first, rest = out.split("変わった受付", 1)
    assert "■A：受理（>>2）" in first and "■B：未提出" in first
    assert "■B：受理（>>3）" in rest.split("―――")[1] and "■A：" not in rest.split("―――")[1]
    assert "締切後の最終の受付" in out and "■A：受理（>>4）" in out.split("締切後の最終の受付")[1]
    assert out.rstrip().endswith("［pbf］第1ターン結果")
    assert (camp / "history" / "0001" / "thread.dat").exists()
    assert sleeps[:3] == [300, 300, 300] and min(sleeps) >= 0
    fetched_at = [r for r in board.requests(DAT)]
    assert len(fetched_at) == len(sleeps) + 1
    assert "次の取得" in err


def test_watch_refuses_a_fetch_interval_under_a_minute(tmp_path, pbf):
    camp = new_campaign(tmp_path, pbf)
    code, _, err = pbf("watch", camp, "--every", "0.5")
    assert code == 2 and "1分以上" in err


def test_ctrl_c_stops_watch_cleanly(tmp_path, pbf, board, clock):
    clock.advance(105 * 60)
    camp = new_campaign(tmp_path, pbf, "--thread", board.base + READ)
    board.post_dat(DAT, dat_line(A, "【行動】弱"))

    def interrupted(seconds):
        raise KeyboardInterrupt

    fetch.SETTINGS.sleep = interrupted
    before = {k: v for k, v in tree_digest(camp).items() if not k.startswith("thread/")}
    code, out, err = pbf("watch", camp, "--take-turn")
    assert code == 130 and "中断しました" in err and "■A：受理" in out
    assert {k: v for k, v in tree_digest(camp).items() if not k.startswith("thread/")} == before
    assert not list((camp / "history").glob(".*")) and not (camp / "history" / "0001").exists()


# -- a whole campaign from the board, and the next thread ----------------------------------------

def test_a_whole_campaign_from_the_board_with_the_next_thread(tmp_path, pbf, board, clock):
    url = board.base + READ
    camp = new_campaign(tmp_path, pbf, "--thread", url)
    board.post_dat(DAT, dat_line("GM", "対戦スレです", time="20:00:00.00", title="オルタリゴ対戦スレ"))
    # turn 1: receipts twice while the players post, then the turn after the deadline
    board.post_dat(DAT, dat_line(A, "【行動】弱", time="20:10:00.00"))
    code, out, err = pbf("status", camp)
    assert code == 0, err
    assert "■B：未提出" in out
    board.post_dat(DAT, dat_line("B", "【行動】弱弱", time="20:30:00.00"))
    clock.advance(3600)
    code, out, err = pbf("status", camp)
    assert code == 0, err
    assert "■B：受理（>>3）" in out
    ranges = [r.get("range") for r in board.requests(DAT)]
    assert ranges[0] is None and ranges[1] and ranges[1].startswith("bytes=")  # only the new bytes
    clock.advance(3600 + 60)  # 22:01
    code, post, err = pbf("turn", camp, "--next-deadline", "2026-12-09 22:00")
    assert code == 0, err
    board.post_dat(DAT, dat_line("GM", post.strip().replace("\n", "\n"), time="22:05:00.00"))
    # turn 2 with pbf watch: B posts while pbf watches; the turn is taken at the deadline
    clock.advance(22 * 3600)  # 12/9 20:01
    board.post_dat(DAT, dat_line(A, "【行動】弱弱", time="20:00:00.00", day="2026/12/09(水)"))
    plan = {1: dat_line("B", "【行動】→", time="20:40:00.00", day="2026/12/09(水)")}
    sleeps = []

    def sleep(seconds):
        sleeps.append(seconds)
        clock.advance(seconds)
        if len(sleeps) in plan:
            board.post_dat(DAT, plan.pop(len(sleeps)))

    fetch.SETTINGS.sleep = sleep
    code, post2, err = pbf("watch", camp, "--every", "30", "--take-turn", "--next-deadline", "2026-12-10 22:00")
    assert code == 0, err
    assert "変わった受付" in post2 and post2.rstrip().endswith("［pbf］第2ターン結果")
    orders = (camp / "history" / "0002" / "orders.txt").read_text("utf-8")
    assert "弱弱" in orders and "→" in orders
    post2 = post2.split("――― ")[-1].split("―――\n", 1)[-1]
    post2 = post2[post2.index("【Alter EGO"):] if "処理結果" in post2 else post2
    results = post2[post2.rindex("【Alter EGO ―オルタリゴ―】第2ターン"):]
    board.post_dat(DAT, dat_line("GM", results.strip(), time="22:05:00.00", day="2026/12/09(水)"))
    # the thread is full: the next thread, on したらば; A posts in the old one before noticing
    url2 = f"{board.base}/bbs/read.cgi/{JBBS}/"
    code, _, err = pbf("thread", camp, url2, "--next")
    assert code == 0, err
    code, opening, err = pbf("log", camp, "--turn", "2", "--next-thread")
    assert code == 0, err
    assert "次スレ（Part2）" in opening and f"前スレ：{url}" in opening and "第3ターンの締切：12/10(木) 22:00" in opening
    board.post_shitaraba(JBBS, jbbs_line(1, "GM", opening.strip().replace("\n", "<br>"), time="22:10:00", title="対戦スレ Part2"))
    clock.advance(3600)
    board.post_dat(DAT, dat_line(A, "【行動】弱→", time="23:00:00.00", day="2026/12/09(水)"))
    board.post_shitaraba(JBBS, jbbs_line(2, "B", "【行動】←"))
    code, out, err = pbf("status", camp)
    assert code == 0, err
    assert "■A：受理（Part1>>" in out and "■B：受理（Part2>>2）" in out
    clock.advance(24 * 3600)
    code, post3, err = pbf("turn", camp)
    assert code == 0, err
    assert post3.rstrip().endswith("［pbf］第3ターン結果")
    third = camp / "history" / "0003"
    meta = (third / "turn.yaml").read_text("utf-8")
    assert "order_threads:" in meta and "part: 2" in meta
    assert (third / "thread.dat").read_bytes().decode("euc-jp").startswith("1<>GM")
    assert "【行動】弱→" in (third / "thread-part1.dat").read_bytes().decode("cp932")
    assert pbf("replay", camp)[0] == 0
    code, _, err = pbf("export", camp, tmp_path / "public")
    assert code == 0, err
    assert (tmp_path / "public" / "history" / "0003" / "thread-part1.dat").exists()


def test_a_shorter_dat_answers_416_and_is_fetched_whole(tmp_path, pbf, board, clock):
    camp = new_campaign(tmp_path, pbf)
    board.post_dat(DAT, dat_line(A, "【行動】弱"), dat_line("B", "【行動】弱弱"), dat_line("B", "雑談です"))
    url = board.base + READ
    assert pbf("status", camp, "--thread", url)[0] == 0
    board.dats[DAT].pop()  # the last post deleted: the dat is shorter
    board.modified[DAT] += 60
    clock.advance(60)
    code, out, err = pbf("status", camp, "--thread", url)
    assert code == 0, err
    assert [r["status"] for r in board.requests(DAT)] == [200, 416, 200]
    assert "短くなりました" in err and "■B：受理（>>2）" in out


def test_any_other_page_is_read_as_a_copied_read_cgi_page(tmp_path, pbf, board, clock):
    camp = new_campaign(tmp_path, pbf)
    page = ("<html><head><title>対戦スレ</title><script>var x = '1 名前：偽';</script></head><body><dl>"
            "<dt>1 ：<a href=\"mailto:sage\"><b>GM</b></a>：2026/12/08(火) 20:00:00.00 ID:Gm000001<dd> 開始です <br><br>"
            "<dt>2 ：<b>A</b>◆Ab3dEf6hIj ：2026/12/08(火) 20:05:00.00 ID:AbCd1234<dd> よろしく <br> 【行動】弱→ <br><br>"
            "<dt>3 ：<b>B</b>：2026/12/08(火) 20:06:00.00 ID:BbCd1234<dd> 【行動】弱 &amp; <br><br></dl></body></html>")
    board.script["/thread/42.html"] = [("html", page.encode("cp932"))]
    code, out, err = pbf("status", camp, "--thread", board.base + "/thread/42.html")
    assert code == 0, err
    assert "■A：受理（>>2）" in out and "■B：エラー（>>3）" in out and "コピーとして読む" in err


def test_in_the_turn_across_two_threads_the_order_posted_last_counts(tmp_path, pbf, board, clock):
    url = board.base + READ
    camp = new_campaign(tmp_path, pbf, "--thread", url)
    board.post_dat(DAT, dat_line("GM", "対戦スレ", time="20:00:00.00", title="対戦スレ"))
    url2 = f"{board.base}/bbs/read.cgi/{JBBS}/"
    assert pbf("thread", camp, url2, "--next")[0] == 0
    board.post_shitaraba(JBBS, jbbs_line(1, "GM", "次スレです", time="20:01:00", title="対戦スレ Part2"))
    board.post_dat(DAT, dat_line(A, "【行動】弱", time="20:10:00.00"), dat_line("B", "【行動】弱弱", time="20:20:00.00"))
    board.post_shitaraba(JBBS, jbbs_line(2, A, "【行動】←", time="20:05:00"), jbbs_line(3, "B", "【行動】→", time="20:30:00"))
    clock.advance(2 * 3600 + 60)
    code, post, err = pbf("turn", camp)
    assert code == 0, err
    orders = (camp / "history" / "0001" / "orders.txt").read_text("utf-8")
    assert "# Part1>>2\n【A】\n弱\n" in orders and "# Part2>>3\n【B】\n→\n" in orders
    meta = (camp / "history" / "0001" / "turn.yaml").read_text("utf-8")
    assert "order_threads:\n  A: 1\n  B: 2\n" in meta
    assert "Aの行動は前スレ（Part1>>2）の書き込みです" in err
    assert pbf("replay", camp)[0] == 0


def test_show_tells_who_has_posted_from_the_url(tmp_path, pbf, board, clock):
    camp = new_campaign(tmp_path, pbf)
    board.post_dat(DAT, dat_line(A, "【行動】弱"))
    code, out, err = pbf("show", camp, "--thread", board.base + READ)
    assert code == 0, err
    assert "行動あり" in out and "未提出" in out and DAT in err
