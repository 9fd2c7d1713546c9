"""The orders file reader (product.md, "Orders file")."""

import pytest

from pbf.errors import PbfError
from pbf.board.orders import decode, split_orders

PLAYERS = ["美鈴", "名無し"]


def test_three_bracket_styles_comments_and_continuation():
    text = "# 第1ターン\n[美鈴] 弱弱\n【名無し】\n弱→→\n# 考え中\n弱強\n"
    orders = split_orders(text, PLAYERS)
    assert orders["美鈴"].text == " 弱弱"
    assert (orders["美鈴"].line, orders["美鈴"].column) == (2, 5)
    assert orders["名無し"].text == "\n弱→→\n\n弱強"
    assert split_orders("［美鈴］↑", PLAYERS)["美鈴"].text == "↑"


def test_names_match_after_nfkc():
    orders = split_orders("[ﾅﾅｼ]弱\n", ["ナナシ"])
    assert orders["ナナシ"].text == "弱"


def test_missing_player_is_simply_absent():
    assert set(split_orders("[美鈴]弱", PLAYERS)) == {"美鈴"}


def test_every_problem_is_reported_with_line_and_column():
    with pytest.raises(PbfError) as info:
        split_orders("こんにちは\n[美玲]弱\n[美鈴]弱\n[美鈴]強\n", PLAYERS)
    problems = info.value.problems
    assert [(p.line, p.column) for p in problems] == [(1, 1), (2, 2), (4, 2)]
    assert "誰の行動か" in problems[0].message
    assert "いないプレイヤー" in problems[1].message and problems[1].hint == "もしかして「美鈴」？"
    assert "二つ" in problems[2].message and problems[2].player == "美鈴"


def test_problem_positions_shift_to_the_file():
    from pbf.errors import Problem

    order = split_orders("# c\n[美鈴] 弱X\n", PLAYERS)["美鈴"]
    placed = order.place(Problem("bad", line=1, column=3, text="X"))
    assert (placed.player, placed.line, placed.column) == ("美鈴", 2, 7)
    placed = order.place(Problem("bad", line=2, column=1))
    assert (placed.line, placed.column) == (3, 1)


def test_decode_reads_shift_jis_and_names_the_line_of_bytes_it_cannot_read():
    assert decode("[美鈴]弱\r\n[名無し]強\n".encode("cp932"), "orders.txt") == "[美鈴]弱\n[名無し]強\n"
    raw = "[美鈴]弱\n".encode("utf-8") + b"[\x81\x20]\n"
    with pytest.raises(PbfError) as info:
        decode(raw, "orders.txt")
    assert info.value.problems[0].line == 2
    assert "UTF-8" in info.value.problems[0].message and "0x81" in info.value.problems[0].message


def test_decode_accepts_bom_and_crlf():
    assert decode("\ufeff[美鈴]弱\r\n".encode(), "x") == "[美鈴]弱\n"


def test_headers_may_name_a_character_that_only_one_player_plays():
    players = ["蓮", "城戸", "真司", "ナイト"]
    aliases = {"蓮": ["ナイト", "Knight", "knight"], "城戸": ["龍騎", "Ryuki", "ryuki"],
               "真司": ["龍騎", "Ryuki", "ryuki"], "ナイト": ["ゾルダ", "Zolda", "zolda"]}
    problems = []
    found = split_orders("[ＫＮＩＧＨＴ] 近寄る\n[龍騎] 離れる\n", players, problems, aliases)
    assert found["蓮"].text.strip() == "近寄る"  # NFKC and case do not matter
    assert [(p.line, p.text) for p in problems] == [(2, "龍騎")] and "城戸、真司" in problems[0].message
    problems = []
    found = split_orders("[ゾルダ] 離れる\n[ナイト] 留まる\n", players, problems, aliases)
    # a player's own name wins over a character's: [ナイト] is the player ナイト, who plays ゾルダ
    assert found["ナイト"].text.strip() == "離れる" and "二つ" in problems[0].message and problems[0].line == 2
