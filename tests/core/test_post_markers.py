"""The post around the order (issue 19, docs/forum.md section 3): every shape of the marker that
players write is read the same way by ``pbf check`` on the whole post and by the thread reader
(``pbf status`` / ``pbf turn --thread``), and whatever pbf passed over or read in another shape is
said under the receipt (※), after the check's reading and in the turn's notes.

Fixtures (CP932 .dat, one post a line): ``tests/forum/fixtures/markers.dat`` — one Alter EGO
player a shape, each posting 弱→強 — and ``epilogue.dat``, the winner's イベントファイナル posted
after a rider battle's end, with chat before it and no marker.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbf.board.thread import load_thread

FIXTURES = Path(__file__).parent.parent / "forum" / "fixtures"
MARKERS = FIXTURES / "markers.dat"
EPILOGUE = FIXTURES / "epilogue.dat"
READING = "弱→強（３枚）"  # how 弱→強 reads for the plain character

# (player, post, the note said about the post, or None when nothing was passed over)
READ = [
    ("コロン", 2, None),  # 【行動】：弱→強 — the colon belongs to the marker
    ("無印", 3, "1行目 1文字目：「行動：」を【行動】として読みました（目印は【行動】です）。"),
    ("プロット", 4, "1行目 1文字目：「【プロット】」を【行動】として読みました（目印は【行動】です）。"),
    ("空白", 5, "1行目 1文字目：「【 行動 】」を【行動】として読みました（目印は【行動】です）。"),
    ("全角", 6, "1行目 1文字目：「［行動］」を【行動】として読みました（目印は【行動】です）。"),
    ("半角", 7, "1行目 1文字目：「[行動]」を【行動】として読みました（目印は【行動】です）。"),
    ("途中", 8, "1行目 5文字目：「了解です【行動】弱→強」行の途中の【行動】から後ろを行動として読みました"
               "（【行動】は行の先頭に書いてください）。"),
    ("次行", 10, None),  # 【行動】, a blank line, then the order
    ("返信", 11, "1行目 1文字目：「>>2」はアンカー（返信先）なので、行動から外して読みました。"),
    ("前置き", 12, "1行目 1文字目：「>>3」はアンカー（返信先）なので、行動から外して読みました。"),
    ("後置き", 13, "1行目 5文字目：「>>4」はアンカー（返信先）なので、行動から外して読みました。"),
    ("訂正", 15, "1行目 1文字目：「弱弱」は、後にもう一つ【行動】があるので行動として読んでいません"
               "（最後の【行動】から後ろが行動です）。"),
]
EMPTY = "2行目：「【行動】」【行動】の後ろに行動がありません。"
MENTION = "1行目 1文字目：「【行動】は行の先頭に書くんですね」【行動】は文の中の言葉として書かれているので、行動の目印として読んでいません。"


def _campaign(tmp_path, pbf, player: str) -> Path:
    camp = tmp_path / "camp"
    code, _, err = pbf("new", camp, "--system", "alterego", "--player", f"{player}=plain", "--player", "相手=plain",
                       "--seed", "markers", "--set", "hands=free")
    assert code == 0, err
    return camp


def _body(number: int, path: Path = MARKERS) -> str:
    """The post as a player would paste it into ``pbf check`` (the thread reader's own body)."""
    return next(p.body for p in load_thread(path).posts if p.number == number)


def _receipt(out: str, player: str) -> str:
    """One player's part of the receipts (from ■NAME to the next ■)."""
    block = next(b for b in out.split("\n■") if b.startswith(player + "："))
    return block.split("\n\n締切")[0]


def test_the_fixture_holds_each_shape():
    bodies = {p.name: p.body for p in load_thread(MARKERS).posts}
    assert bodies["コロン"] == "よろしくお願いします\n【行動】：弱→強"
    assert bodies["前置き"] == ">>3 【行動】弱→強" and bodies["後置き"] == "【行動】>>4 弱→強"
    assert bodies["空"] == "考え中です\n【行動】"


@pytest.mark.parametrize("player,post,note", READ, ids=[case[0] for case in READ])
def test_each_shape_reads_the_same_in_check_status_and_turn(tmp_path, pbf, player, post, note):
    camp = _campaign(tmp_path, pbf, player)

    # pbf check on the whole post: the reading, then the note
    code, out, err = pbf("check", camp, "--player", player, _body(post))
    assert code == 0, err
    assert READING in out
    notes = [line for line in out.splitlines() if line.startswith("※")]
    # an earlier order in the post, not read, is a warning: the reading of the other order is named
    warned = "注意：" if note and "後にもう一つ" in note else ""
    assert notes == ([f"※{warned}{note}"] if note else [])

    # pbf status on the thread: 受理 from that post, the same reading, the note under it
    code, out, err = pbf("status", camp, "--thread", MARKERS)
    assert code == 0, err
    receipt = _receipt(out, player)
    assert receipt.startswith(f"{player}：受理（>>{post}）") and READING in receipt
    shown = [line for line in receipt.splitlines() if line.startswith("※")]
    assert shown == ([f"※>>{post} 【{player}】 {note}"] if note else [])

    # pbf turn on the thread: the order as read is the archive's, the note is the turn's
    code, _, err = pbf("turn", camp, "--thread", MARKERS)
    assert code == 0, err
    orders = (camp / "history" / "0001" / "orders.txt").read_text("utf-8")
    assert f"# >>{post}\n【{player}】\n弱→強\n" in orders
    meta = (camp / "history" / "0001" / "turn.yaml").read_text("utf-8")
    assert (note in meta) if note else ("として読みました" not in meta and "アンカー" not in meta)
    if note:
        assert f"pbf: >>{post} 【{player}】 {note}" in err


def test_an_empty_marker_is_a_problem_not_a_pass(tmp_path, pbf):
    camp = _campaign(tmp_path, pbf, "空")
    code, out, err = pbf("check", camp, "--player", "空", _body(9))
    assert code == 1 and out == "" and f"【空】 {EMPTY}" in err and "Traceback" not in err

    code, out, err = pbf("status", camp, "--thread", MARKERS)
    assert code == 0, err
    receipt = _receipt(out, "空")
    assert receipt.startswith("空：エラー（>>9）") and f"・>>9 【空】 {EMPTY}" in receipt
    assert "カードなし" not in receipt  # not read as the empty plot

    before = sorted(p.name for p in (camp / "history").iterdir())
    code, out, err = pbf("turn", camp, "--thread", MARKERS)
    assert code == 1 and out == "" and f">>9 【空】 {EMPTY}" in err
    assert sorted(p.name for p in (camp / "history").iterdir()) == before  # nothing written


def test_the_marker_as_a_word_in_a_sentence_is_chat_and_said(tmp_path, pbf):
    camp = _campaign(tmp_path, pbf, "文中")
    code, out, err = pbf("check", camp, "--player", "文中", _body(14))
    assert code == 1 and f"【文中】 {MENTION}" in err

    code, out, err = pbf("status", camp, "--thread", MARKERS)
    assert code == 0, err
    receipt = _receipt(out, "文中")
    assert receipt.startswith("文中：未提出") and f"※>>14 【文中】 {MENTION}" in receipt


def test_every_player_of_the_fixture_in_one_reading():
    """The thread reader alone, all the players at once: who has an order, with what notes."""
    from pbf.board.forum import collect_orders

    posts = load_thread(MARKERS).posts
    names = [name for name, _, _ in READ] + ["空", "文中"]
    c = collect_orders(posts, {name: None for name in names})
    assert {name: o.text for name, o in c.orders.items()} == {**{name: "弱→強" for name, _, _ in READ}, "空": ""}
    assert [p.message for p in c.orders["空"].problems] == ["【行動】の後ろに行動がありません。 / nothing after the marker"]
    assert c.missing == ["文中"]
    for name, post, note in READ:
        assert [n.format() for n in c.notes(name)] == ([f">>{post} 【{name}】 {note}"] if note else [])


# -- the winner's epilogue after a rider battle's end --------------------------------------------

def _decided(tmp_path, pbf) -> Path:
    """A rider duel at 1 HP played to its end: 城戸 wins (the seed decides)."""
    camp = tmp_path / "rider"
    code, _, err = pbf("new", camp, "--system", "rider", "--player", "刃=jinshu", "--player", "城戸=ryuki",
                       "--seed", "epilogue", "--set", "hp=1")
    assert code == 0, err
    orders = tmp_path / "orders.txt"
    orders.write_text("[刃] 近寄る / ソードベント\n[城戸] 近寄る / ソードベント\n", encoding="utf-8")
    code, _, err = pbf("turn", camp, "--orders", orders)
    assert code == 0, err
    assert "winner: 城戸" in (camp / "state.yaml").read_text("utf-8")
    return camp


FINALE = ("4行目 1文字目：「イベントファイナル：月光の下で剣を収める」【行動】がないので、「イベントファイナル:」で始まるこの行を"
          "決着後の演出として読みました（前の行は雑談として読み飛ばしました）。")


def test_the_winners_epilogue_without_a_marker_is_read(tmp_path, pbf):
    camp = _decided(tmp_path, pbf)

    code, out, err = pbf("check", camp, "--player", "城戸", _body(2, EPILOGUE))
    assert code == 0, err
    assert "イベントファイナル：月光の下で剣を収める" in out and f"※{FINALE}" in out

    code, out, err = pbf("status", camp, "--thread", EPILOGUE)
    assert code == 0, err
    receipt = _receipt(out, "城戸")
    assert receipt.startswith("城戸：受理（>>2）") and f"※>>2 【城戸】 {FINALE}" in receipt
    # the loser's chat mentions the word in mid-line: chat, as before
    assert _receipt(out, "刃").startswith("刃：未提出") and "雑談として扱いました" in _receipt(out, "刃")

    code, out, err = pbf("turn", camp, "--thread", EPILOGUE)
    assert code == 0, err
    assert "【イベントファイナル】城戸\n月光の下で剣を収める" in out
    assert "月光の下で剣を収める" in (camp / "state.yaml").read_text("utf-8")
    assert pbf("replay", camp)[0] == 0


def test_before_the_end_an_epilogue_line_without_a_marker_is_chat(tmp_path, pbf):
    camp = tmp_path / "rider"
    assert pbf("new", camp, "--system", "rider", "--player", "刃=jinshu", "--player", "城戸=ryuki", "--seed", "e")[0] == 0
    code, out, err = pbf("status", camp, "--thread", EPILOGUE)
    assert code == 0, err
    receipt = _receipt(out, "城戸")
    assert receipt.startswith("城戸：未提出") and "（>>2）に【行動】がないため、雑談として扱いました" in receipt
