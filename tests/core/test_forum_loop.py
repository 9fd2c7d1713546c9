"""The forum loop from ``pbf new`` to the last results post, as a GM and players use it on a real
thread (docs/forum.md): a turn is taken once, public output never holds a private hand or the
seed, turn 0 is a real turn, orders that were posted are never silently read as missing, the
deadline lives in the campaign, receipts fit the board."""

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import tree_digest

from pbf.board.boardfit import board_lines

FIXTURES = Path(__file__).parent.parent / "forum" / "fixtures"
SEED = "loop-secret-seed"


def dat_line(name, body, time="21:00:00.00", day="29(日)", title=""):
    body = body.replace("\n", " <br> ")
    return f"{name}<>sage<>2026/11/{day} {time} ID:AbCd1234<> {body} <>{title}"


class Thread:
    """A growing CP932 .dat thread, as a board would serve it."""

    def __init__(self, path: Path):
        self.path = path
        self.lines = [dat_line("GM </b>◆GmTrip1234 <b>", "対戦スレです", "20:00:00.00", title="【PBF】テストスレ")]
        self.write()

    def post(self, name, body, time="21:00:00.00", day="29(日)"):
        self.lines.append(dat_line(name, body, time, day))
        self.write()
        return len(self.lines)

    def paste(self, text, time="23:00:00.00", day="29(日)"):
        """The GM pastes pbf's output (split parts are separate posts)."""
        for part in text.split("――――――――――（ここで次の書き込みへ）――――――――――"):
            if part.strip():
                self.post("GM </b>◆GmTrip1234 <b>", part.strip(), time, day)

    def write(self):
        self.path.write_bytes(("\n".join(self.lines) + "\n").encode("cp932"))


def new_alterego(tmp_path, pbf, *extra, hands="free"):
    camp = tmp_path / "camp"
    code, out, err = pbf("new", camp, "--system", "alterego", "--player", "A◆Ab3dEf6hIj=plain",
                         "--player", "B=plain", "--seed", SEED, "--set", f"hands={hands}",
                         "--set", "gm=GM◆GmTrip1234", *extra)
    assert code == 0, err
    return camp, out


# -- 1. a turn is taken once -------------------------------------------------------------------

def test_a_second_turn_from_the_same_posts_is_refused_and_log_reprints_it(tmp_path, pbf):
    camp, _ = new_alterego(tmp_path, pbf)
    thread = Thread(tmp_path / "t.dat")
    thread.post("A </b>◆Ab3dEf6hIj <b>", "【行動】弱")
    thread.post("B", "【行動】←")
    code, first, err = pbf("turn", camp, "--thread", thread.path)
    assert code == 0, err
    before = tree_digest(camp)
    code, out, err = pbf("turn", camp, "--thread", thread.path)  # the GM re-runs before pasting
    assert code == 1 and out == ""
    assert "第1ターンはすでに処理済みです" in err and f"pbf log {camp} --turn 1" in err
    assert tree_digest(camp) == before
    code, again, _ = pbf("log", camp, "--turn", "1")
    assert code == 0 and again == first
    # chat after the turn does not make a new turn either
    thread.post("A </b>◆Ab3dEf6hIj <b>", "いい勝負でした")
    assert pbf("turn", camp, "--thread", thread.path)[0] == 1
    # a new order does
    thread.post("B", "【行動】弱", "21:30:00.00")
    code, _, err = pbf("turn", camp, "--thread", thread.path)
    assert code == 0, err
    meta = (camp / "history" / "0002" / "turn.yaml").read_text("utf-8")
    assert "first_post: 4" in meta and "last_post: 5" in meta and "B: 5" in meta


def test_after_undo_the_window_opens_again(tmp_path, pbf):
    camp, _ = new_alterego(tmp_path, pbf)
    thread = Thread(tmp_path / "t.dat")
    thread.post("A </b>◆Ab3dEf6hIj <b>", "【行動】弱→")
    thread.post("B", "【行動】↑")
    code, first, _ = pbf("turn", camp, "--thread", thread.path)
    thread.paste(first)  # even with the results post already in the thread
    assert pbf("undo", camp)[0] == 0
    code, again, err = pbf("turn", camp, "--thread", thread.path)
    assert code == 0, err
    assert again == first
    assert pbf("replay", camp)[0] == 0


def test_posts_between_the_parts_of_a_split_results_post_are_read(tmp_path, pbf):
    camp, _ = new_alterego(tmp_path, pbf, "--set", "max_lines=12")
    thread = Thread(tmp_path / "t.dat")
    thread.post("A </b>◆Ab3dEf6hIj <b>", "【行動】弱→弱")
    thread.post("B", "【行動】↑→弱")
    code, post, _ = pbf("turn", camp, "--thread", thread.path)
    parts = post.split("――――――――――（ここで次の書き込みへ）――――――――――")
    assert len(parts) >= 2
    thread.paste(parts[0])
    thread.post("B", "【行動】←←", "23:05:00.00")  # B writes turn 2 after reading part 1
    thread.paste("".join("――――――――――（ここで次の書き込みへ）――――――――――" + p for p in parts[1:]))
    thread.post("A </b>◆Ab3dEf6hIj <b>", "【行動】弱", "23:30:00.00")
    code, _, err = pbf("turn", camp, "--thread", thread.path)
    assert code == 0, err
    orders = (camp / "history" / "0002" / "orders.txt").read_text("utf-8")
    assert "←←" in orders and "【A】" in orders


# -- 2. public by construction -------------------------------------------------------------------

def hands_of(camp, pbf):
    code, out, _ = pbf("show", camp, "--json")
    return {name: f["hand"] for name, f in json.loads(out)["fighters"].items()}


def assert_public(text, hands, where):
    assert SEED not in text, where
    assert not re.search(r"手札：\S", text), where
    for hand in hands.values():
        if len(hand) >= 3:
            assert "".join(hand) not in text, where
            assert "".join(sorted(hand)) not in text, where


def test_receipts_with_private_hands_say_why_but_not_which_card(tmp_path, pbf):
    camp, _ = new_alterego(tmp_path, pbf, hands="private")
    hands = hands_of(camp, pbf)
    missing = next(c for c in "弱強→←↑" if c not in hands["A"])
    thread = Thread(tmp_path / "t.dat")
    thread.post("A </b>◆Ab3dEf6hIj <b>", f"【行動】{missing}")
    thread.post("B", f"【行動】{hands['B'][0]}")
    code, out, err = pbf("status", camp, "--thread", thread.path)
    assert code == 0, err
    assert_public(out, hands, "receipts")
    assert "■A：エラー（>>2）" in out and "手札にないカード" in out and f"「{missing}」" not in out
    assert "■B：受理（>>3）" in out
    assert " / " not in out  # Japanese only in what goes to the thread
    assert f"「{missing}」" in err and "非公開" in err  # the GM alone sees which card


def test_turn_zero_writes_the_notices_and_the_opening_post(tmp_path, pbf):
    camp, out = new_alterego(tmp_path, pbf, "--deadline", "2026-12-05 22:00", hands="private")
    hands = hands_of(camp, pbf)
    zero = camp / "history" / "0000"
    for name, hand in hands.items():
        notice = (zero / "notices" / f"{name}.txt").read_text("utf-8")
        assert "".join(hand) in notice and "第1ターン" in notice
    opening = (zero / "post.txt").read_text("utf-8")
    assert opening in out  # printed by pbf new
    assert_public(opening, hands, "opening post")
    for needed in ("A（◆Ab3dEf6hIj）", "手札は非公開", "12/5(土) 22:00", "【行動】", "［pbf］バトル開始"):
        assert needed in opening
    assert pbf("log", camp, "--turn", "0")[1] == opening


def test_the_opening_post_of_a_rider_duel_says_who_goes_first(tmp_path, pbf):
    camp = tmp_path / "r"
    code, out, err = pbf("new", camp, "--system", "rider", "--player", "刃=jinshu", "--player", "城戸=ryuki",
                         "--seed", SEED)
    assert code == 0, err
    opening = (camp / "history" / "0000" / "post.txt").read_text("utf-8")
    assert "刃：" in opening and "城戸：" in opening and "近寄る / ソードベント" in opening
    state = json.loads(pbf("show", camp, "--json")[1])
    if state["initiative"]:
        assert f"先攻：{state['initiative'][0]}" in opening


# -- 3/4. never silent: formats, decorations, warnings ---------------------------------------------

def format_campaign(tmp_path, pbf):
    camp = tmp_path / "fmt"
    code, _, err = pbf("new", camp, "--system", "alterego", "--player", "門番◆n4B51Z5iQI=plain",
                       "--player", "美鈴=plain", "--seed", SEED, "--set", "hands=free")
    assert code == 0, err
    return camp


@pytest.mark.parametrize("fixture", ["decorated.dat", "copy-multiline.txt"])
def test_decorated_names_and_multi_line_headers_are_read(tmp_path, pbf, fixture):
    camp = format_campaign(tmp_path, pbf)
    code, out, err = pbf("status", camp, "--thread", FIXTURES / fixture)
    assert code == 0, err
    assert "■門番：受理（>>2）" in out and "■美鈴：受理（>>3）" in out


def test_a_shitaraba_euc_jp_dat_and_a_marker_in_mid_line(tmp_path, pbf):
    camp = format_campaign(tmp_path, pbf)
    code, out, err = pbf("status", camp, "--thread", FIXTURES / "shitaraba.dat")
    assert code == 0, err
    assert "■門番：受理（>>2）" in out
    # 「了解です 【行動】↑→弱」: read, and said so under the receipt (docs/forum.md, section 3)
    assert "■美鈴：受理（>>4）" in out and "※>>4 【美鈴】 1行目 6文字目：「了解です 【行動】↑→弱」行の途中の【行動】から後ろを行動として読みました" in out
    code, _, err = pbf("turn", camp, "--thread", FIXTURES / "shitaraba.dat", "--dry-run")
    assert code == 0 and "行の途中の【行動】から後ろを行動として読みました" in err


def test_a_forced_input_encoding(tmp_path, pbf):
    camp = format_campaign(tmp_path, pbf)
    code, _, err = pbf("status", camp, "--thread", FIXTURES / "shitaraba.dat", "--input-encoding", "utf-8")
    assert code == 1 and "utf-8 として読めません" in err
    assert pbf("status", camp, "--thread", FIXTURES / "shitaraba.dat", "--input-encoding", "euc-jp")[0] == 0


def test_players_who_posted_without_an_order_are_named(tmp_path, pbf):
    camp, _ = new_alterego(tmp_path, pbf)
    thread = Thread(tmp_path / "t.dat")
    thread.post("A </b>◆Ab3dEf6hIj <b>", "弱→でいきます")  # forgot the marker
    code, out, err = pbf("status", camp, "--thread", thread.path)
    assert "■A：未提出" in out and "（>>2）に【行動】がない" in out


def test_no_post_of_any_player_and_not_a_thread(tmp_path, pbf):
    camp, _ = new_alterego(tmp_path, pbf)
    thread = Thread(tmp_path / "t.dat")
    thread.post("名無しさん", "観戦してます")
    code, out, _ = pbf("status", camp, "--thread", thread.path)
    assert code == 0 and "参加者の書き込みが一つもありません" in out
    junk = tmp_path / "junk.txt"
    junk.write_text("これはスレッドではありません\n", "utf-8")
    before = tree_digest(camp)
    code, out, err = pbf("turn", camp, "--thread", junk)
    assert code == 1 and "スレッドの形式が読めません" in err and "1行目" in err
    assert tree_digest(camp) == before


# -- 5. the deadline lives in the campaign ------------------------------------------------------------

def test_the_deadline_is_stored_used_printed_and_archived(tmp_path, pbf, monkeypatch):
    monkeypatch.setenv("PBF_NOW", "2026-11-29 20:00")  # the board's clock as the story goes
    camp, _ = new_alterego(tmp_path, pbf)
    assert pbf("deadline", camp, "")[0] == 1  # refused, not ignored
    code, out, _ = pbf("deadline", camp, "2026-11-29 21:30")
    assert code == 0 and "11/29(日) 21:30" in out
    thread = Thread(tmp_path / "t.dat")
    thread.post("A </b>◆Ab3dEf6hIj <b>", "【行動】弱", "21:10:00.00")
    thread.post("B", "【行動】←", "21:20:00.00")
    thread.post("A </b>◆Ab3dEf6hIj <b>", "【行動】強", "21:45:00.00")  # late: the stored deadline counts
    monkeypatch.setenv("PBF_NOW", "2026-11-29 21:50")
    code, out, _ = pbf("status", camp, "--thread", thread.path)
    assert "締切：11/29(日) 21:30" in out and "遅刻" in out and "締切を過ぎました" in out
    code, post, err = pbf("turn", camp, "--thread", thread.path, "--next-deadline", "2026-12-01 22:00")
    assert code == 0, err
    assert "次回締切：12/1(火) 22:00" in post
    meta = (camp / "history" / "0001" / "turn.yaml").read_text("utf-8")
    assert "deadline: 2026-11-29 21:30" in meta and "next_deadline: 2026-12-01 22:00" in meta and "遅刻" in meta
    orders = (camp / "history" / "0001" / "orders.txt").read_text("utf-8")
    assert "強" not in orders
    code, out, _ = pbf("status", camp, "--thread", thread.path)
    assert "締切：12/1(火) 22:00" in out  # the next turn's, stored by --next-deadline
    thread.post("B", "【行動】弱", "21:00:00.00", day="30(月)")
    monkeypatch.setenv("PBF_NOW", "2026-12-01 22:01")
    code, _, err = pbf("turn", camp, "--thread", thread.path)
    assert code == 0 and "締切が決まっていません" in err  # asked for, not invented
    assert pbf("replay", camp)[0] == 0


# -- receipts fit the board; commit mode; GM dice ---------------------------------------------------

def test_receipts_for_four_riders_fit_32_lines(tmp_path, pbf):
    camp = tmp_path / "royale"
    players = ["城戸=ryuki@東", "蓮=knight@東", "北岡=zolda@西", "刃=jinshu@西"]
    code, _, err = pbf("new", camp, "--system", "rider", *sum((["--player", p] for p in players), []),
                       "--seed", SEED, "--set", "max_lines=32")
    assert code == 0, err
    thread = Thread(tmp_path / "t.dat")
    for name, order in [("城戸", "近寄る / ソードベント / 受動: ファイナルベントならリフレクトベント"),
                        ("蓮", "近寄る: 北岡 / ソードベント / 受動: 攻撃ならガードベント / 隙狙い 1"),
                        ("北岡", "離れる / シュートベント"), ("刃", "近寄る / ソードメンチ")]:
        thread.post(name, f"雑談です\n【行動】\n{order}")
    code, out, err = pbf("status", camp, "--thread", thread.path)
    assert code == 0, err
    parts = out.split("――――――――――（ここで次の書き込みへ）――――――――――")
    assert len(parts) >= 2
    assert all(board_lines(p.strip("\n")) <= 32 for p in parts)
    assert "［pbf］" not in out  # receipts never end a turn window


def test_commit_mode_receipts_show_committed_players(tmp_path, pbf):
    from pbf.board.forum import make_commit

    camp, _ = new_alterego(tmp_path, pbf, "--set", "orders=commit", "--set", "order_marker=《行動》")
    commit_line, _ = make_commit("弱弱", "salt1")
    thread = Thread(tmp_path / "t.dat")
    thread.post("A </b>◆Ab3dEf6hIj <b>", commit_line)
    code, out, _ = pbf("status", camp, "--thread", thread.path)
    assert "■A：コミット済み（>>2）" in out and "■B：未提出" in out
    assert "【コミット】を、締切の後に【公開】" in out


def test_a_turn_with_physical_dice_says_so(tmp_path, pbf):
    camp = tmp_path / "r"
    assert pbf("new", camp, "--system", "rider", "--player", "刃=jinshu", "--player", "城戸=ryuki", "--seed", SEED)[0] == 0
    orders = tmp_path / "o.txt"
    orders.write_text("[刃] 近寄る\n[城戸] 留まる\n", "utf-8")
    code, post, err = pbf("turn", camp, "--orders", orders, "--dice", "3,4,5")
    assert code == 0, err
    assert "GMのダイス 3個" in post
    assert pbf("replay", camp)[0] == 0


# -- a whole campaign from a thread, checked for secrets ---------------------------------------------

def public_outputs(camp: Path) -> list[tuple[str, str]]:
    files = []
    for path in sorted((camp / "history").rglob("*")):
        if path.is_file() and (path.name.startswith("post") or path.name == "turn.yaml"):
            files.append((str(path), path.read_text("utf-8")))
    return files


def test_a_private_hands_campaign_played_from_a_thread_leaks_nothing(tmp_path, pbf):
    camp, out = new_alterego(tmp_path, pbf, hands="private")
    public = [("new", out)]  # pbf new's stdout is the opening post alone
    thread = Thread(tmp_path / "t.dat")
    seen_hands = [hands_of(camp, pbf)]
    for turn in range(1, 5):
        hands = hands_of(camp, pbf)
        day = f"{20 + turn}(月)"  # the weekday is not read
        deadline = f"2026-11-{20 + turn} 22:00"
        thread.post("A </b>◆Ab3dEf6hIj <b>", "【行動】弱X", "20:00:00.00", day)  # a typo first
        code, receipts, _ = pbf("status", camp, "--thread", thread.path, "--deadline", deadline)
        public.append((f"status {turn}", receipts))
        assert "■A：エラー" in receipts
        thread.post("A </b>◆Ab3dEf6hIj <b>", f"直します\n【行動】{hands['A'][0]}", "20:30:00.00", day)
        thread.post("A </b>◆Wr0ngTr1p <b>", "【行動】↑↑↑", "20:40:00.00", day)  # an impostor
        thread.post("B", f"【行動】{hands['B'][0]}{hands['B'][1]}", "21:00:00.00", day)
        thread.post("B", "【行動】強強強", "22:30:00.00", day)  # late
        code, receipts, _ = pbf("status", camp, "--thread", thread.path, "--deadline", deadline)
        public.append((f"status {turn}", receipts))
        assert "■A：受理" in receipts and "なりすまし" in receipts and "遅刻" in receipts
        code, post, err = pbf("turn", camp, "--thread", thread.path, "--deadline", deadline)
        assert code == 0, err
        public.append((f"turn {turn}", post))
        assert pbf("turn", camp, "--thread", thread.path, "--deadline", deadline)[0] == 1  # re-run refused
        if turn == 2:
            assert pbf("undo", camp)[0] == 0
            code, again, err = pbf("turn", camp, "--thread", thread.path, "--deadline", deadline)
            assert code == 0 and again == post, err
        thread.paste(post, "23:00:00.00", day)
        seen_hands.append(hands_of(camp, pbf))
        public.append((f"log {turn}", pbf("log", camp, "--turn", str(turn))[1]))
    public += public_outputs(camp)
    for where, text in public:
        for hands in seen_hands:
            assert_public(text, hands, where)
    assert pbf("replay", camp)[0] == 0


def test_a_rider_duel_played_from_a_thread_leaks_no_seed(tmp_path, pbf):
    camp = tmp_path / "duel"
    code, out, _ = pbf("new", camp, "--system", "rider", "--player", "刃◆JinShu0001=jinshu",
                       "--player", "城戸◆KidoRyuki1=ryuki", "--seed", SEED, "--set", "gm=GM◆GmTrip1234")
    assert code == 0
    public = [("new", out)]
    thread = Thread(tmp_path / "t.dat")
    thread.post("刃 </b>◆JinShu0001 <b>", "【行動】近寄る / ソードメンチ")  # typo
    thread.post("城戸", "【行動】ファイナルベント")  # impostor (no trip)
    code, receipts, _ = pbf("status", camp, "--thread", thread.path)
    assert "ソードベント" in receipts and "なりすまし" in receipts
    public.append(("status", receipts))
    thread.post("刃 </b>◆JinShu0001 <b>", "【行動】近寄る / ソードベント")
    thread.post("城戸 </b>◆KidoRyuki1 <b>", "【行動】\n留まる / ガードベント")
    code, post, err = pbf("turn", camp, "--thread", thread.path)
    assert code == 0, err
    public.append(("turn", post))
    assert pbf("turn", camp, "--thread", thread.path)[0] == 1
    public += public_outputs(camp)
    for where, text in public:
        assert SEED not in text, where
    assert pbf("replay", camp)[0] == 0


def test_replay_of_a_turn_made_under_other_rules_says_so(tmp_path, pbf):
    camp, _ = new_alterego(tmp_path, pbf)
    orders = tmp_path / "o.txt"
    orders.write_text("[A] 弱→\n[B] ↑\n", "utf-8")
    assert pbf("turn", camp, "--orders", orders)[0] == 0
    meta = camp / "history" / "0001" / "turn.yaml"
    assert "rules_version: 3" in meta.read_text("utf-8")
    meta.unlink()  # as archived before turn.yaml existed: rules version 1
    post = camp / "history" / "0001" / "post.txt"
    post.write_text(post.read_text("utf-8").replace("■オープン", "■オープン（旧）"), "utf-8")
    code, _, err = pbf("replay", camp)
    assert code == 1 and "ルール版 1" in err and "ルール版 3" in err


@pytest.mark.parametrize("encoding", ["utf-8-sig", "cp932", "euc-jp"])
def test_orders_files_in_every_board_encoding(tmp_path, pbf, encoding):
    camp, _ = new_alterego(tmp_path, pbf)
    orders = tmp_path / "o.txt"
    orders.write_bytes("# 第1ターン\n【A】弱→弱\n［B］↑→弱\n".encode(encoding))
    code, post, err = pbf("turn", camp, "--orders", orders)
    assert code == 0, err
    assert "弱→弱" in (camp / "history" / "0001" / "orders.txt").read_text("utf-8")


def test_a_fighter_who_cannot_plot_is_not_missing_in_the_receipts(tmp_path, pbf):
    camp, _ = new_alterego(tmp_path, pbf)
    state = camp / "state.yaml"
    text = state.read_text("utf-8")
    state.write_text(text.replace("stance: false", "stance: true", 1), "utf-8")  # A holds a guard stance
    thread = Thread(tmp_path / "t.dat")
    thread.post("B", "【行動】弱")
    code, out, err = pbf("status", camp, "--thread", thread.path)
    assert code == 0, err
    assert "■A：行動不要" in out and "ガードの構えが続く" in out and "■A：未提出" not in out


def test_a_marker_written_with_spaces_is_read_and_named_in_the_receipts(tmp_path, pbf):
    camp, _ = new_alterego(tmp_path, pbf)
    thread = Thread(tmp_path / "t.dat")
    thread.post("A </b>◆Ab3dEf6hIj <b>", "【 行動 】弱→")
    code, out, _ = pbf("status", camp, "--thread", thread.path)
    assert code == 0
    assert "■A：受理（>>2）" in out and "※>>2 【A】 1行目 1文字目：「【 行動 】」を【行動】として読みました" in out


@pytest.mark.parametrize("command", ["status", "turn"])
def test_a_deadline_past_the_year_range_is_refused_wherever_it_is_given(tmp_path, pbf, command):
    camp, _ = new_alterego(tmp_path, pbf)
    thread = Thread(tmp_path / "t.dat")
    thread.post("A </b>◆Ab3dEf6hIj <b>", "【行動】弱")
    before = tree_digest(camp)
    code, _, err = pbf(command, camp, "--thread", thread.path, "--deadline", "9999-12-31 23:59")
    assert code == 1 and "締切の年は2000〜2999年です" in err and "Traceback" not in err
    assert tree_digest(camp) == before
