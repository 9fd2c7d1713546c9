"""Reading orders: grammar aliases, widths, cancel syntax, errors with where and why."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbf.errors import OrderError
from pbf.systems.alterego import SYSTEM
from pbf.systems.alterego.plot import Plot, parse_plot, parser
from pbf.systems.alterego.reading import read_plot

from .conftest import make_ctx, make_state


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("弱→→弱強", "弱→→弱強"),
        ("LHlh", "弱強弱強"),
        ("ＬＨｌｈ", "弱強弱強"),
        ("-> <- ^", "→←↑"),
        ("＞＜＾", "→←↑"),
        ("6 4 8", "→←↑"),
        ("６４８", "→←↑"),
        ("light heavy forward back up", "弱強→←↑"),
        ("weak strong fwd guard jump", "弱強→←↑"),
        ("弱、弱・→,→ / 弱", "弱弱→→弱"),
        ("  弱\n\t弱  ", "弱弱"),
        ("￩￫", "←→"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_card_aliases(text, canonical):
    assert parse_plot(text).canonical() == canonical


@pytest.mark.parametrize(
    "text",
    ["C(弱←)弱", "c(L,4)弱", "Ｃ（弱，←）弱", "キャンセル[弱 ←]弱", "ｷｬﾝｾﾙ［弱、←］弱", "cancel{light back}弱", "C「弱←」弱", "C【弱←】弱"],
)
def test_cancel_spellings(text):
    plot = parse_plot(text)
    assert plot.canonical() == "C(弱←)弱"
    assert plot.cancels[0].discards == ("弱", "←")
    assert plot.cards == ("弱",)


def _problems(text):
    with pytest.raises(OrderError) as info:
        parse_plot(text)
    return info.value.problems


def test_unknown_character_has_column_and_text():
    (p,) = _problems("弱x弱")
    assert (p.line, p.column, p.text) == (1, 2, "x")
    assert "カード" in p.message and p.hint


def test_unknown_word_is_one_problem_with_suggestion():
    (p,) = _problems("jmp")
    assert (p.column, p.text) == (1, "jmp")
    assert "jump" in p.hint


def test_columns_are_of_the_original_text_after_full_width():
    (p,) = _problems("ＬＬ＃")  # （？ and ！ are punctuation a GM reads past: issue 19）
    assert (p.column, p.text) == (3, "＃")


def test_position_on_second_line():
    (p,) = _problems("弱\n強y")
    assert (p.line, p.column, p.text) == (2, 2, "y")


def test_all_problems_are_collected():
    problems = _problems("弱x強y")
    assert [(p.column, p.text) for p in problems] == [(2, "x"), (4, "y")]


@pytest.mark.parametrize(
    "text, column, words",
    [
        ("C(弱)弱", 1, "２枚"),
        ("C(弱←→)弱", 1, "２枚"),
        ("C 弱", 3, "かっこ"),
        ("C(弱←", 4, "閉じて"),
        ("弱)", 2, "開きかっこ"),
        ("(弱", 1, "キャンセル"),
    ],
)
def test_cancel_syntax_errors(text, column, words):
    problems = _problems(text)
    assert problems[0].column == column
    assert words in problems[0].message


@pytest.mark.parametrize("text, column", [("弱C強←弱", 3), ("弱C", 2), ("C 弱→→", 3)])
def test_marker_without_brackets_is_one_problem(text, column):
    """One problem once: the cards after a marker without brackets are not each reported again."""
    (p,) = _problems(text)
    assert p.column == column and "かっこ" in p.message


def test_two_markers_without_brackets_are_two_problems():
    assert [p.column for p in _problems("C強弱C弱")] == [2, 5]


def test_parser_is_built_once():
    """One parser per process, and it reads a sample order to its cards and cancel."""
    from lark import Token, Tree

    assert parser() is parser()
    card = lambda kind, text: Tree("card", [Token(kind, text)])  # noqa: E731
    assert parser().parse("C(弱←)弱→") == Tree("start", [
        Tree("cancel", [Token("CANCEL", "C"), card("WEAK", "弱"), card("BACK", "←")]),
        card("WEAK", "弱"),
        card("FORWARD", "→"),
    ])
    plot = parse_plot("C(弱←)弱→")
    assert plot.canonical() == "C(弱←)弱→" and plot.cancels[0].discards == ("弱", "←") and plot.cards == ("弱", "→")


@pytest.mark.parametrize(
    "character, text, names",
    [
        ("meiling", "↑→←強", ["ジャンプ", "彩光蓮華掌"]),
        ("meiling", "↑→弱弱", ["エナジーキャノン", "弱攻撃"]),
        ("kaede", "↑→↑弱", ["ジャンプ", "旋風脚"]),
        ("hikari", "↑←→弱", ["ジャンプ", "スターシュート"]),
        ("gonzo", "↑←→弱", ["ジャンプ", "岩石落とし"]),
        ("plain", "↑←→弱", ["後ろジャンプ", "前進", "弱攻撃"]),
        ("plain", "↑弱強", ["対空技", "強攻撃"]),  # equal lengths: the earlier wins
        ("hikari", "↑↑弱", ["ライジングアロー"]),
        ("hikari", "↑↑↑弱", ["ジャンプ", "ライジングアロー"]),
    ],
)
def test_longer_command_starting_later_wins(data, character, text, names):
    reading = read_plot(parse_plot(text), data.characters[character])
    assert [r.technique.name for r in reading] == names
    assert "".join(r.cards for r in reading) == text


def test_longest_match_meiling(data):
    plot = parse_plot("↑→弱")
    meiling = read_plot(plot, data.characters["meiling"])
    plain = read_plot(plot, data.characters["plain"])
    assert [r.technique.name for r in meiling] == ["エナジーキャノン"]
    assert [r.technique.name for r in plain] == ["前ジャンプ", "弱攻撃"]


def test_throw_is_always_weak_strong(data):
    for cid, character in data.characters.items():
        reading = read_plot(parse_plot("弱強"), character)
        assert [r.technique.id for r in reading] == ["throw"], cid


def test_reading_of_seed_examples(data):
    plain = data.characters["plain"]
    assert [r.technique.name for r in read_plot(parse_plot("弱→→弱強"), plain)] == ["弱攻撃", "前進", "前進", "投げ"]
    assert [r.technique.name for r in read_plot(parse_plot("↑→弱弱"), plain)] == ["前ジャンプ", "弱攻撃", "弱攻撃"]
    assert [r.technique.name for r in read_plot(parse_plot("↑弱↑←↑"), plain)] == ["対空技", "後ろジャンプ", "ジャンプ"]


# -- validation against the state (parse_order) ----------------------------------------------


def _private(data, hand, **fighter):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="private")
    state = make_state(ctx, 2, {"A": {"hand": list(hand), **fighter}})
    return ctx, state


def test_more_than_five_cards(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="free")
    state = make_state(ctx)
    with pytest.raises(OrderError) as info:
        SYSTEM.parse_order("弱弱弱弱弱弱", "A", state, ctx)
    (p,) = info.value.problems
    assert p.column == 6 and "5枚" in p.message
    assert SYSTEM.parse_order("弱弱弱弱弱", "A", state, ctx).cards == ("弱",) * 5


def test_cards_must_be_in_hand_counting_multiplicity(data):
    ctx, state = _private(data, "弱弱←↑↑→強")
    assert SYSTEM.parse_order("弱弱強", "A", state, ctx)
    with pytest.raises(OrderError) as info:
        SYSTEM.parse_order("弱弱弱強強", "A", state, ctx)
    assert [(p.column, p.text) for p in info.value.problems] == [(3, "弱"), (5, "強")]
    assert "手札" in info.value.problems[0].hint


def test_free_hands_take_any_cards(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="free")
    state = make_state(ctx)
    assert SYSTEM.parse_order("強強強強強", "A", state, ctx).cards == ("強",) * 5


def test_cancel_discards_must_be_in_hand_and_not_plotted(data):
    ctx, state = _private(data, "弱←↑↑→強弱")
    assert SYSTEM.parse_order("C(↑↑)弱", "A", state, ctx)
    with pytest.raises(OrderError) as info:
        SYSTEM.parse_order("C(弱弱)弱", "A", state, ctx)
    (p,) = info.value.problems
    assert p.column == 1 and "捨てる" in p.message


def test_cancel_must_come_before_a_technique(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="free")
    state = make_state(ctx)
    for text in ["弱C(弱←)", "C(弱←)C(弱←)弱"]:
        with pytest.raises(OrderError) as info:
            SYSTEM.parse_order(text, "A", state, ctx)
        assert "キャンセルの後" in info.value.problems[0].message


@pytest.mark.parametrize("lock", [{"stance": True}, {"charging": "strong"}])
def test_locked_fighter_plots_nothing(data, lock):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="free")
    state = make_state(ctx, 2, {"A": lock})
    with pytest.raises(OrderError) as info:
        SYSTEM.parse_order(" 弱", "A", state, ctx)
    (p,) = info.value.problems
    assert (p.line, p.column, p.text) == (1, 2, "弱")
    assert SYSTEM.parse_order("", "A", state, ctx) == Plot()


# -- canonical form is the same for every spelling -------------------------------------------

SPELLINGS = {
    "弱": ["弱", "L", "l", "Ｌ", "ｌ", "light", "weak"],
    "強": ["強", "H", "h", "Ｈ", "heavy", "strong"],
    "→": ["→", "->", "6", "６", "forward", "fwd"],  # > after 弱/強 is refused as ambiguous (issue 19)
    "←": ["←", "<-", "4", "４", "back", "guard"],
    "↑": ["↑", "^", "8", "８", "＾", "up", "jump"],
}
SEPARATORS = ["", " ", "　", "、", ",", "\n"]


@st.composite
def spelled_plots(draw):
    cards = draw(st.lists(st.sampled_from(list(SPELLINGS)), max_size=6))
    cancel_at = draw(st.one_of(st.none(), st.integers(0, max(len(cards) - 1, 0))))
    parts, canonical = [], []
    for i, card in enumerate(cards):
        if cancel_at == i:
            d1, d2 = draw(st.sampled_from(list(SPELLINGS))), draw(st.sampled_from(list(SPELLINGS)))
            marker = draw(st.sampled_from(["C", "c", "Ｃ", "キャンセル", "cancel"]))
            opening, closing = draw(st.sampled_from([("(", ")"), ("[", "]"), ("（", "）"), ("［", "］")]))
            inner = draw(st.sampled_from(SPELLINGS[d1])) + " " + draw(st.sampled_from(SPELLINGS[d2]))
            parts.append(f"{marker}{opening}{inner}{closing}")
            canonical.append(f"C({d1}{d2})")
        parts.append(draw(st.sampled_from(SPELLINGS[card])))
        parts.append(draw(st.sampled_from(SEPARATORS)))
        canonical.append(card)
    # words need a separator from the next token (e.g. "up" + "light")
    return " ".join(parts), "".join(canonical)


@settings(max_examples=150, deadline=None)
@given(spelled_plots())
def test_canonical_is_stable_across_spellings(case):
    text, canonical = case
    plot = parse_plot(text)
    assert plot.canonical() == canonical
    assert parse_plot(plot.canonical()).canonical() == canonical


# -- the plot memo (plot.parse_plot) and the reading memo (reading.read_plot) ------------------

def test_a_text_is_read_once_per_words_dict():
    """The same text with the same words gives the same (immutable) Plot, without lark; with
    another words dict it is read again, and may read otherwise (ジャンプ is a word of the data)."""
    words = {"ジャンプ": "↑"}
    first = parse_plot("ジャンプ弱", words)
    assert parse_plot("ジャンプ弱", words) is first
    assert first.canonical() == "↑弱"
    other = {"ジャンプ": "↑→"}  # equal text, a different dict: not mistaken for the first
    assert parse_plot("ジャンプ弱", other).canonical() == "↑→弱"
    with pytest.raises(OrderError):
        parse_plot("ジャンプ弱")  # no words at all: ジャンプ is not a card


def test_a_refused_text_is_refused_every_time():
    """Problems are never kept: the second reading of a bad plot raises the same problems again."""
    problems = []
    for _ in range(2):
        with pytest.raises(OrderError) as caught:
            parse_plot("弱→jmp")
        problems.append([(p.column, p.text) for p in caught.value.problems])
    assert problems[0] == problems[1] == [(3, "jmp")]


def test_the_memo_is_bounded(monkeypatch):
    from pbf.systems.alterego import plot as plot_mod

    monkeypatch.setattr(plot_mod, "_READ", {})
    monkeypatch.setattr(plot_mod, "_READ_MAX", 3)
    for text in ("弱", "強", "→", "←", "↑"):
        parse_plot(text)
    assert 1 <= len(plot_mod._READ) <= 3
    assert parse_plot("弱").canonical() == "弱"


def test_a_plot_is_read_once_per_character():
    data = SYSTEM.load_data(None)  # the bundled characters
    meiling, kaede = data.characters["meiling"], data.characters["kaede"]
    plot = parse_plot("↑→弱")
    reading = read_plot(plot, meiling)
    assert read_plot(plot, meiling) is reading
    assert [t.technique.name for t in reading] == ["エナジーキャノン"]
    assert [t.technique.name for t in read_plot(plot, kaede)] == ["前ジャンプ", "弱攻撃"]  # not 美鈴's reading
