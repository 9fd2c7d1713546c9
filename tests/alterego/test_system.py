"""The system object: options, data, players, state, summary, views, purity, templates, demo."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbf.dice import Dice
from pbf.errors import PbfError
from pbf.events import event_dicts
from pbf.systems.alterego import SYSTEM
from pbf.systems.alterego.plot import Cancel, Card, Plot
from pbf.systems.base import Player

from .conftest import make_ctx, make_state, parse_orders, play, render_post

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


# -- options -----------------------------------------------------------------------------------


def test_options_coerce_strings():
    assert SYSTEM.coerce_option("hands", "Open") == "open"
    assert SYSTEM.coerce_option("hp", "30") == 30
    assert SYSTEM.coerce_option("turn_limit", "10") == 10


@pytest.mark.parametrize("key, value", [("hands", "secret"), ("hp", "many"), ("hp", "0"), ("colour", "red")])
def test_bad_options_are_japanese_errors(key, value):
    with pytest.raises(PbfError) as info:
        SYSTEM.coerce_option(key, value)
    assert key in str(info.value)


def test_default_options():
    assert SYSTEM.default_options["hands"] == "private"
    assert SYSTEM.default_options["hp"] == 20
    assert SYSTEM.default_options["start_distance"] == 2
    assert SYSTEM.default_options["max_distance"] == 6
    assert SYSTEM.default_options["hand_size"] == 7


# -- data --------------------------------------------------------------------------------------


def test_bundled_characters():
    data = SYSTEM.load_data(None)
    assert {"meiling", "plain", "kaede", "gonzo", "hikari"} <= set(data.characters)
    ec = data.characters["meiling"].technique("energy_cannon")
    assert (ec.name, ec.command, ec.cls, ec.kind, ec.reach, ec.damage) == ("エナジーキャノン", "↑→弱", "special", "weak", 3, 3)
    assert [t.id for t in data.characters["plain"].techniques] == [t.id for t in data.common]
    supers = [cid for cid, c in data.characters.items() if any(t.cls == "super" for t in c.techniques)]
    assert len(supers) >= 2
    for cid, c in data.characters.items():
        if cid != "plain":
            assert any(t.cls in ("special", "super") for t in c.techniques), cid


def test_deck_is_40_cards():
    deck = SYSTEM.load_data(None).deck()
    assert Counter(deck) == {"弱": 12, "強": 6, "→": 8, "←": 8, "↑": 6}


# The seed's table, copied verbatim from 「技のかち合い」 (row = mine, column = theirs).
SEED_TABLE = """
\t弱攻撃に\t強攻撃に\tガードに\t投げに\tジャンプに\t対空技に
弱攻撃は\t＼\t（△）\t×\t○\t×\t○
強攻撃は\t（△）\t＼\t○\t（○）\t×\t（○）
ガードは\t○\t×\t＼\t×\t―\t○
投げは\t×\t（×）\t○\t＼\t×\t×
ジャンプは\t○\t○\t―\t○\t＼\t×
対空技は\t×\t（×）\t×\t○\t○\t＼
"""


def test_matchup_table_is_the_seed_table():
    """Every cell, parentheses included, as the data file writes it and as the resolver reads it."""
    from ruamel.yaml import YAML

    from pbf.systems.alterego.data import DATA_DIR

    header, *rows = [line.split("\t") for line in SEED_TABLE.strip("\n").splitlines()]
    raw = YAML(typ="safe").load((DATA_DIR / "matchups.yaml").read_text("utf-8"))
    label_to_kind = {label: kind for kind, label in raw["kinds"].items()}
    columns = [label_to_kind[h.removesuffix("に")] for h in header[1:]]
    assert columns == list(raw["kinds"])  # the data's column order is the seed's
    m = SYSTEM.load_data(None).matchups
    assert len(rows) == 6
    for mine_label, *cells in rows:
        mine = label_to_kind[mine_label.removesuffix("は")]
        assert [str(c) for c in raw["table"][mine]] == cells, mine
        for theirs, cell in zip(columns, cells):
            assert m.result(mine, theirs) == cell.strip("（）"), (mine, theirs)


def test_matchup_table_parentheses_count_as_plain():
    m = SYSTEM.load_data(None).matchups
    assert m.result("weak", "strong") == "△"
    assert m.result("strong", "throw") == "○"
    assert m.result("throw", "strong") == "×"
    assert m.result("guard", "jump") == "―"


def test_campaign_data_adds_characters(tmp_path):
    (tmp_path / "characters").mkdir()
    (tmp_path / "characters" / "plain.yaml").write_text("id: plain\nname: 無名\ntechniques: []\n", "utf-8")
    data = SYSTEM.load_data(HERE / "data")
    assert "tester" in data.characters
    data = SYSTEM.load_data(tmp_path)
    assert data.characters["plain"].name == "無名"  # replaced by id


def test_bad_character_data(tmp_path):
    (tmp_path / "characters").mkdir()
    (tmp_path / "characters" / "x.yaml").write_text(
        "id: x\nname: X\ntechniques:\n  - {id: a, name: A, command: 弱強→, kind: throw, reach: 0}\n", "utf-8"
    )
    with pytest.raises(PbfError, match="弱強"):
        SYSTEM.load_data(tmp_path)


def test_check_players(data):
    SYSTEM.check_players({"A": Player("A", "plain"), "B": Player("B", "meiling")}, data)
    with pytest.raises(PbfError) as info:
        SYSTEM.check_players({"A": Player("A", "nobody"), "B": Player("B", "plain")}, data)
    assert "meiling" in str(info.value) and "nobody" in str(info.value)
    with pytest.raises(PbfError, match="１対１"):
        SYSTEM.check_players({"A": Player("A", "plain")}, data)


# -- state -------------------------------------------------------------------------------------


def test_new_state_private(data):
    ctx = make_ctx(data, {"美鈴": "meiling", "名無し": "plain"}, hands="private")
    state = SYSTEM.new_state(ctx, Dice.seeded("s", 0, ""))
    again = SYSTEM.new_state(ctx, Dice.seeded("s", 0, ""))
    assert state == again
    assert list(state["fighters"]) == ["美鈴", "名無し"]
    assert state["distance"] == 2 and state["turn"] == 0 and state["winner"] is None
    for f in state["fighters"].values():
        assert f["hp"] == 20 and f["soul"] == 0
        assert len(f["hand"]) == 7 and len(f["deck"]) == 33
        assert Counter(f["hand"] + f["deck"]) == Counter(data.deck())


def test_new_state_free_has_no_cards(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="free")
    state = SYSTEM.new_state(ctx, Dice.fixed([]))  # no draws at all
    assert list(state["fighters"]) == ["A", "B"]  # not vacuously true for an empty fighter list
    assert all(f["hand"] == [] and f["deck"] == [] for f in state["fighters"].values())


def test_summary_shape(data):
    ctx = make_ctx(data, {"美鈴": "meiling", "名無し": "plain"}, hands="private")
    state = SYSTEM.new_state(ctx, Dice.seeded("s", 0, ""))
    state["fighters"]["名無し"]["charging"] = "strong"
    s = SYSTEM.summary(state, ctx)
    assert set(s) >= {"system", "turn", "distance", "winner", "fighters"}
    assert s["system"] == "alterego"
    f = s["fighters"]["美鈴"]
    assert {"character", "hp", "alive", "soul", "hand", "locked"} <= set(f)
    assert f["character"] == "meiling" and f["alive"] is True and f["locked"] is False
    assert s["fighters"]["名無し"]["locked"] is True and s["fighters"]["名無し"]["charging"] == "強攻撃"


def test_order_view_and_notices(data):
    ctx = make_ctx(data, {"A": "meiling", "B": "plain"}, hands="private")
    state = make_state(ctx, 2, {"A": {"hand": list("弱弱↑→強←←"), "soul": 3}})
    order = SYSTEM.parse_order("↑→弱C(←←)強弱", "A", state, ctx)
    view = SYSTEM.order_view(order, "A", state, ctx)
    assert [t.get("name") for t in view["techniques"]] == ["エナジーキャノン", None, "強攻撃", "弱攻撃"]
    assert view["techniques"][0]["class_name"] == "必殺技"
    assert view["techniques"][1]["cancel"] and view["techniques"][1]["discards"] == "←←"
    assert view["techniques"][2]["skipped"] is True
    assert view["techniques"][3]["void"] is False  # the 強攻撃 before it is skipped by the cancel
    view = SYSTEM.order_view(SYSTEM.parse_order("強弱", "A", state, ctx), "A", state, ctx)
    assert view["techniques"][1]["void"] is True
    notices = SYSTEM.notices(state, ctx)
    assert notices["A"]["hand"] == list("弱弱↑→強←←") and notices["A"]["soul"] == 3
    assert SYSTEM.notices(state, make_ctx(data, {"A": "meiling", "B": "plain"}, hands="free")) == {}


# -- resolver: purity, determinism, invariants --------------------------------------------------


def test_resolve_does_not_mutate_input(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="private")
    state = SYSTEM.new_state(ctx, Dice.seeded("s", 0, ""))
    frozen = copy.deepcopy(state)
    hand = state["fighters"]["A"]["hand"]
    order = Plot(tuple(Card(c) for c in hand[:3]))
    new, _ = SYSTEM.resolve(state, {"A": order, "B": None}, Dice.seeded("s", 1, "x"), ctx)
    assert state == frozen
    assert new is not state and new["turn"] == 1


def test_cancel_fails_when_cards_are_gone(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="private")
    state = make_state(ctx, 1, {"A": {"soul": 3, "hand": ["弱"]}})
    order = Plot((Cancel(("↑", "↑")), Card("弱")))  # not validated: e.g. a hand-edited state
    _, events = SYSTEM.resolve(state, {"A": order, "B": None}, Dice.fixed([]), ctx)
    (cancel,) = [e for e in event_dicts(events) if e["type"] == "cancel"]
    assert cancel["ok"] is False and cancel["reason"] == "cards"


CARDS = ["弱", "強", "→", "←", "↑"]
BUNDLED = SYSTEM.load_data(None)
plots = st.lists(st.sampled_from(CARDS), max_size=5).map("".join)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["plain", "meiling", "kaede", "gonzo", "hikari"]),
    st.sampled_from(["plain", "meiling", "kaede", "gonzo", "hikari"]),
    st.integers(0, 6),
    st.lists(st.tuples(plots, plots), min_size=1, max_size=4),
    st.integers(0, 9),
    st.integers(0, 9),
)
def test_invariants(a, b, distance, turns, soul_a, soul_b):
    data = BUNDLED
    ctx = make_ctx(data, {"A": a, "B": b}, hands="free")
    state = make_state(ctx, distance, {"A": {"soul": soul_a}, "B": {"soul": soul_b}})
    for order_a, order_b in turns:
        if state["winner"] is not None:
            break
        orders = {
            name: ("" if (state["fighters"][name]["stance"] or state["fighters"][name]["charging"]) else text)
            for name, text in (("A", order_a), ("B", order_b))
        }
        first, events_1 = play(ctx, state, orders)
        second, events_2 = play(ctx, state, orders)
        assert first == second and event_dicts(events_1) == event_dicts(events_2)  # deterministic
        assert 0 <= first["distance"] <= 6
        for name in ("A", "B"):
            before, after = state["fighters"][name], first["fighters"][name]
            assert 0 <= after["hp"] <= before["hp"]  # HP never increases
            lost = sum(e["amount"] for e in event_dicts(events_1) if e["type"] == "damage" and e["target"] == name)
            assert before["hp"] - after["hp"] == lost
            assert 0 <= after["soul"] <= 9
        for e in event_dicts(events_1):
            assert "actor" in e and "step" in e
        state = first


def test_private_hands_flow(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="private")
    state = SYSTEM.new_state(ctx, Dice.seeded("seed", 0, ""))
    for turn in range(1, 12):
        orders = {}
        for name in ("A", "B"):
            f = state["fighters"][name]
            orders[name] = "" if (f["stance"] or f["charging"]) else "".join(f["hand"][:3])
        parsed = {n: SYSTEM.parse_order(t, n, state, ctx) for n, t in orders.items()}
        text = "".join(f"{n}\t{SYSTEM.canonical_order(o)}\n" for n, o in sorted(parsed.items()))
        state, _ = SYSTEM.resolve(state, parsed, Dice.seeded("seed", turn, text), ctx)
        for f in state["fighters"].values():
            assert len(f["hand"]) == 7
            assert Counter(f["hand"] + f["deck"] + f["discard"]) == Counter(data.deck())
        if state["winner"]:
            break


# -- templates ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def env():
    """The renderer's own environment (the one pbf uses), so the tests see what users see."""
    from pbf.render import environment

    return environment(SYSTEM)


def _post(ctx, state, orders, dice=None):
    parsed = parse_orders(ctx, state, orders)
    new, events = SYSTEM.resolve(state, parsed, dice or Dice.fixed([]), ctx)
    return render_post(ctx, state, new, events, parsed), new


def test_post_seed_example_1(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="free")
    post, _ = _post(ctx, make_state(ctx), {"A": "弱弱", "B": "弱→→弱強"})
    assert "第1ターン" in post
    assert "４．A「弱攻撃」　B「投げ」" in post
    assert "Aの弱攻撃がBにヒット！" in post
    assert "A ●○ B（距離0・密着）" in post
    assert "手札" not in post


def test_post_seed_example_2_names_what_each_side_counts_as(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="free")
    post, _ = _post(ctx, make_state(ctx), {"A": "弱弱弱", "B": "↑→弱弱"})
    assert "B：↑→弱弱　＝「前ジャンプ」「弱攻撃」「弱攻撃」" in post
    assert "２．A「弱攻撃」　B「弱攻撃」（空中）" in post
    assert "かち合い：Aの弱攻撃（×）対 Bの弱攻撃（ジャンプ扱い・○）" in post
    assert "弱攻撃の連打でAは１マス後退。（距離２）" in post


def test_post_moves_of_one_step_show_the_distance_once(data):
    """技は１つずつ同時に行う: both moves, then the distance they leave."""
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="free")
    post, new = _post(ctx, make_state(ctx, 0), {"A": "→", "B": "←"})
    assert "　AはBを押し込む。\n　Bは後退。（距離０）\n" in post
    assert new["distance"] == 0


def test_post_cancel_in_free_hands_discards_nothing(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="free")
    state = make_state(ctx, 1, {"A": {"soul": 3}})
    post, _ = _post(ctx, state, {"A": "C(弱←)強弱", "B": ""})
    assert "◆Aのキャンセル！（ソウルゲージ３消費・残り０）強攻撃を取り消す。" in post
    assert "捨てる" not in post
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="private")
    state = make_state(ctx, 1, {"A": {"soul": 3, "hand": list("弱←強弱↑↑→"), "deck": list("弱弱弱弱")}})
    post, _ = _post(ctx, state, {"A": "C(弱←)強弱", "B": ""})
    assert "（ソウルゲージ３消費・残り０、手札の弱←を捨てる）" in post


def test_post_void_names_the_technique_that_ended_the_plot(data):
    ctx = make_ctx(data, {"A": "gonzo", "B": "plain"}, hands="free")
    state = make_state(ctx, 2, {"A": {"soul": 3}})
    post, _ = _post(ctx, state, {"A": "↑↑強弱", "B": ""})
    assert "Aは大噴火にソウルゲージを３使う！（残り０）" in post
    assert "Aの弱攻撃は無効。（大噴火の後）" in post


def test_post_missing_winner_and_open_hands(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="open")
    state = make_state(ctx, 1, {"A": {"hand": list("弱弱弱弱弱弱弱")}, "B": {"hp": 1, "hand": list("←←←←←←←")}})
    post, new = _post(ctx, state, {"A": "弱", "B": None})
    assert "B：未提出" in post and "※未提出" in post
    assert "★ 勝者：A！" in post
    assert "手札：弱弱弱弱弱弱" in post


def test_post_private_hides_hands(data):
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="private")
    state = make_state(ctx, 2, {"A": {"hand": list("弱弱弱弱弱弱弱")}, "B": {"hand": list("←←←←←←←")}})
    post, _ = _post(ctx, state, {"A": "弱", "B": "←"})
    assert "手札 7枚" in post and "手札：" not in post


def test_check_status_notice_render(env, data):
    ctx = make_ctx(data, {"A": "meiling", "B": "plain"}, hands="private")
    state = make_state(ctx, 2, {"A": {"hand": list("弱弱↑→強←←")}, "B": {"stance": True}})
    order = SYSTEM.parse_order("↑→弱C(←←)強弱", "A", state, ctx)
    check = env.get_template("alterego/check.j2").render(title=SYSTEM.title, player="A", view=SYSTEM.order_view(order, "A", state, ctx))
    assert "エナジーキャノン（↑→弱）　必殺技" in check and "キャンセル" in check and "C(捨てる２枚)" in check
    locked = env.get_template("alterego/check.j2").render(
        title=SYSTEM.title, player="B", view=SYSTEM.order_view(Plot(), "B", state, ctx)
    )
    assert "プロットなし" in locked
    status = env.get_template("alterego/status.j2").render(
        title=SYSTEM.title, summary=SYSTEM.summary(state, ctx), options=ctx.options
    )
    assert "A ●・・○ B（距離2）" in status and "ガードの構え" in status
    notice = env.get_template("alterego/notice.j2").render(
        title=SYSTEM.title, turn=1, player="A", notice=SYSTEM.notices(state, ctx)["A"]
    )
    assert "弱弱↑→強←←" in notice


def test_check_names_what_voids_the_rest(env, data):
    ctx = make_ctx(data, {"A": "gonzo", "B": "plain"}, hands="free")
    state = make_state(ctx, 2)
    check = env.get_template("alterego/check.j2").render(
        title=SYSTEM.title, player="A", view=SYSTEM.order_view(SYSTEM.parse_order("↑↑強弱強", "A", state, ctx), "A", state, ctx)
    )
    assert "１．大噴火（↑↑強）　特殊必殺技　リーチ２・威力６　ソウルゲージ３消費（今は０：出す時に３なければ不発）" in check
    assert "２．投げ（弱強）　リーチ０・威力３　※無効（大噴火の後は出せない）" in check


def _check(env, ctx, state, player, text):
    view = SYSTEM.order_view(SYSTEM.parse_order(text, player, state, ctx), player, state, ctx)
    return env.get_template("alterego/check.j2").render(title=SYSTEM.title, player=player, view=view)


def test_check_cancel_says_discard_and_warns_without_gauge(env, data):
    """キャンセル: 手札を２枚捨て、ソウルゲージを３点消費; flagged like a 特殊必殺技 when the gauge is short."""
    ctx = make_ctx(data, {"A": "plain", "B": "plain"}, hands="private")
    state = make_state(ctx, 2, {"A": {"hand": list("弱弱↑←強←→"), "soul": 2}})
    check = _check(env, ctx, state, "A", "弱C(↑←)強")
    assert "２．キャンセル：ソウルゲージ３を払い、手札の↑←を捨てて、次の技を取り消す（今は２：使う時に３なければ失敗）" in check
    assert "払い" in check and "と手札" not in check
    state["fighters"]["A"]["soul"] = 3
    assert "（今は" not in _check(env, ctx, state, "A", "弱C(↑←)強")
    free = make_ctx(data, {"A": "plain", "B": "plain"}, hands="free")
    assert "１．キャンセル：ソウルゲージ３を払い、次の技を取り消す（今は０：使う時に３なければ失敗）" in _check(
        env, free, make_state(free), "A", "C(↑←)強"
    )


def test_check_shows_the_longer_command_that_starts_later(env, data):
    ctx = make_ctx(data, {"A": "meiling", "B": "kaede"}, hands="free")
    state = make_state(ctx, 2)
    check = _check(env, ctx, state, "A", "↑→←強")
    assert "１．ジャンプ（↑）\n２．彩光蓮華掌（→←強）　特殊必殺技" in check
    assert "１．ジャンプ（↑）\n２．旋風脚（→↑弱）" in _check(env, ctx, state, "B", "↑→↑弱")


def test_post_renders_every_event_type(data):
    """A long battle renders without template errors (StrictUndefined), and the battle really
    produces the event types it is meant to exercise (the other types: the cases and the demo)."""
    ctx = make_ctx(data, {"A": "kaede", "B": "gonzo"}, hands="free")
    state = make_state(ctx, 2, {"A": {"soul": 9}, "B": {"soul": 9}})
    seen = set()
    for a, b in [("↑→弱弱", "←"), ("弱弱", "→弱強"), ("強", "C(弱弱)弱強弱"), ("", "↑"), ("←→強", "↑↑強"), ("弱弱弱", "弱強")]:
        if state["winner"]:
            break
        fa, fb = state["fighters"]["A"], state["fighters"]["B"]
        a = "" if fa["stance"] or fa["charging"] else a
        b = "" if fb["stance"] or fb["charging"] else b
        parsed = parse_orders(ctx, state, {"A": a, "B": b})
        state_next, events = SYSTEM.resolve(state, parsed, Dice.fixed([]), ctx)
        seen |= {e.type for e in events}
        post = render_post(ctx, state, state_next, events, parsed)
        assert "処理結果" in post and "{{" not in post and "None" not in post
        state = state_next
    assert seen >= {"plot", "locked", "technique", "cancel", "charge", "move", "push", "whiff", "clash", "super",
                    "hit", "damage", "soul", "suki", "knockdown"}


# -- demo --------------------------------------------------------------------------------------


def test_demo_campaign_plays(tmp_path):
    """The bundled demo, played by pbf demo's own code, uses every technique family."""
    import io

    from pbf.cli import demo

    c = demo.play(ROOT / "campaigns" / "demo-alterego", tmp_path, io.StringIO())
    turn = c.turn
    kinds = Counter()
    for e in demo.archived_events(c):
        kinds[e["type"]] += 1
        if e["type"] == "hit":
            kinds["hit:" + e["technique"]] += 1
        if e["type"] == "move":
            kinds["move:" + e["how"]] += 1
    assert turn >= 4
    for needed in ["move:forward_jump", "hit:投げ", "guard", "stance", "charge", "hit:朧月", "cancel", "technique"]:
        assert kinds[needed], needed
    assert any(k.startswith("hit:") and k[4:] in ("エナジーキャノン", "朧月") for k in kinds)


def _containers(value, path=()):
    """(path, id) of every dict and list inside value."""
    if isinstance(value, dict):
        yield path, id(value)
        for key, item in value.items():
            yield from _containers(item, path + (key,))
    elif isinstance(value, list):
        yield path, id(value)
        for index, item in enumerate(value):
            yield from _containers(item, path + (index,))


def test_copy_battle_is_a_deep_copy_of_the_state(data):
    """The resolver's copy (state.copy_battle) equals copy_state's and shares no dict or list
    with the state it copies, a key a GM added included."""
    from pbf.systems.alterego.state import copy_battle
    from pbf.systems.base import copy_state

    ctx = make_ctx(data, {"A": "plain", "B": "plain"})
    state = make_state(ctx, fighters={"A": {"hand": ["弱", "→"], "deck": ["強"], "discard": ["↑"]}})
    state["note"] = {"gm": ["memo"]}
    state["fighters"]["B"]["extra"] = [{"x": 1}]
    copied = copy_battle(state)
    assert copied == copy_state(state) == state
    theirs = dict(_containers(state))
    assert not set(map(id, theirs.values())) & {i for _, i in _containers(copied)}
