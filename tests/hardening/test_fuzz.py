"""Fuzz tests (hypothesis): the order grammars, the orders-file reader, the thread reader and a
whole turn never raise anything but pbf's own errors; and (below) properties of a turn's result
that an independent oracle checks: HP, the cards, the archive's bytes, what the thread sees.

Bounded by default (a few hundred examples per test); ``PBF_FUZZ=20000 pytest tests/hardening``
for a long run.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbf import campaign as campaigns
from pbf.turn.zero import new_campaign
from pbf.turn.check import check_order
from pbf.turn.run import run_turn
from pbf.errors import PbfError
from pbf.board.forum import collect_orders
from pbf.systems.base import Player
from pbf.board.thread import load_thread

from .conftest import fuzz_examples

FUZZ = settings(max_examples=fuzz_examples(), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# pieces an order is made of, mixed with anything at all
ALTEREGO_WORDS = ["弱", "強", "→", "←", "↑", "C", "(", ")", "L", "H", "6", "4", "8", "->", "<-", "^", " ", "\n",
                  "【", "】", "[", "]", "A", "B", "C(弱←)", "０", "\u3000", "\x1b", "\u2028", "#"]
RIDER_WORDS = ["隙狙い", "超回避", "回避", "攻撃", "移動", "近", "中", "遠", "ソードベント", "ガードベント",
               "ファイナルベント", "アドベント", "城戸", "浅倉", "：", ":", "／", "/", "\n", " ", "達成値", "以上なら",
               "0", "1", "2", "99", "9999", "イベントファイナル", "「", "」", "aim", "super evasion", "\x00"]


def orders_text(words):
    return st.lists(st.one_of(st.sampled_from(words), st.text(max_size=6)), max_size=30).map("".join)


@pytest.fixture(scope="module")
def campaigns_made(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    alt = new_campaign(root / "alt", "alterego", [Player("A", "plain"), Player("B", "plain")], seed="f",
                           options={"hands": "free"})
    rider = new_campaign(root / "rider", "rider", [Player("城戸", "ryuki"), Player("浅倉", "jinshu")], seed="f")
    return {"alterego": alt, "rider": rider}


GAMES = {"alterego": (ALTEREGO_WORDS, "A", "B"), "rider": (RIDER_WORDS, "城戸", "浅倉")}


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_orders_never_crash(campaigns_made, game, data):
    words, first, _ = GAMES[game]
    try:
        check_order(campaigns_made[game], first, data.draw(orders_text(words)))
    except PbfError:
        pass


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_a_whole_turn_never_crashes(campaigns_made, game, data):
    words, first, second = GAMES[game]
    a, b = data.draw(orders_text(words)), data.draw(orders_text(words))
    try:
        record = run_turn(campaigns_made[game], f"【{first}】\n{a}\n【{second}】\n{b}\n")
    except PbfError:
        return
    assert "\x1b" not in record.post and "\x00" not in record.post


DAT_PIECES = ["<>", "</b>◆", " <b>", "◆", "&#9670;", "&#x25c6;", "&amp;", "<br>", "\n", "2026/11/29(日) 21:00:00.00",
              "ID:", "【行動】", "名前：", "投稿日：", "1 ", "2 ", "99 ", "城戸", "KidoRyuki1", "\r\n", "\ufeff", ""]


@FUZZ
@given(st.lists(st.one_of(st.sampled_from(DAT_PIECES), st.text(max_size=8)), max_size=60).map("".join),
       st.sampled_from(["utf-8", "cp932", "euc-jp"]))
def test_the_thread_reader_never_crashes(text, encoding):
    raw = text.encode(encoding, "replace")
    try:
        thread = load_thread(raw)
    except PbfError:
        return
    try:
        collect_orders(thread.posts, {"城戸": "KidoRyuki1", "A": None}, gm=("GM", "GmTrip1234"))
    except PbfError:
        pass


@FUZZ
@given(st.binary(max_size=400))
def test_any_bytes_as_a_thread_or_an_orders_file(raw):
    from pbf.board.orders import decode

    for read in (lambda: load_thread(raw), lambda: decode(raw, "orders.txt")):
        try:
            read()
        except PbfError:
            pass


# -- properties an independent oracle checks (issue 21) ----------------------------------------------
#
# The tests above only show that nothing but a PbfError escapes. These check that what comes out is
# right: the HP a turn leaves (rider: recomputed from the dice faces by the page's formulas, in
# tests/rider_oracle.py; Alter EGO: from the techniques' damage in the character data), the cards
# (hand + deck + discard is always the 40-card deck), the archive (replaying a turn gives the same
# bytes) and the public outputs (never six card symbols in a row out of a private hand).

import copy  # noqa: E402
import shutil  # noqa: E402
from pathlib import Path  # noqa: E402
from collections import Counter  # noqa: E402

from rider_oracle import assert_hp  # noqa: E402

ORACLE = settings(max_examples=fuzz_examples(120), deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
CARD_SYMBOLS = "弱強→←↑"


def _parsed(campaign, record, state):
    """The orders of a resolved turn, read again from its canonical form (name TAB order)."""
    out = {name: None for name in state["fighters"]}
    for line in record.canonical.splitlines():
        name, _, text = line.partition("\t")
        out[name] = campaign.system.parse_order(text, name, state, campaign.ctx)
    return out


def _turns(campaign, start, texts_of, turns):
    """Up to ``turns`` turns from ``start`` (turn 0 with a few of its fields drawn), each from the
    state the last one left: (before, record)."""
    state = start
    for _ in range(turns):
        if state.get("winner") is not None:
            return
        try:
            record = run_turn(campaign, texts_of(state), state=state)
        except PbfError:
            return
        yield state, record
        state = record.state


def _rider_order(data, campaign, fighter):
    """An order a player could write: at most one of each part, cards from the rider's own deck, so
    that most orders are accepted (the ones that are not end the run of turns)."""
    cards = campaign.ctx.data.cards
    held = [c for c, n in fighter["deck"].items() if n > 0 and c not in fighter["used_once"]]
    active = [cards[c]["name"] for c in held if cards[c].get("phase") != "passive"]
    passive = [cards[c]["name"] for c in held if cards[c].get("phase") != "active"]
    parts = [["近寄る", "近寄る", "離れる", "近へ", "中へ", "遠へ"], ["阻止しない", "近寄るなら阻止しない"], active,
             [f"受動: {c}" for c in passive] + [f"受動: 攻撃なら{c}" for c in passive],
             ["隙狙い 1", "隙狙い 1", "攻撃しない"], ["超回避 1", "超回避 2", "超回避 3", "超回避 2: 達成値5以上なら"]]
    chosen = [data.draw(st.one_of(st.just(""), st.sampled_from(part))) if part else "" for part in parts]
    if "ファイナルベント" in chosen:
        chosen[4] = ""
    return " / ".join(c for c in chosen if c)


@pytest.fixture(scope="module")
def rider_duel(tmp_path_factory):
    root = tmp_path_factory.mktemp("oracle")
    return new_campaign(root / "rider", "rider", [Player("城戸", "ryuki"), Player("浅倉", "jinshu")], seed="o",
                            options={"hp": 8})


@ORACLE
@given(data=st.data())
def test_rider_hp_is_what_the_dice_and_the_rules_say(rider_duel, data):
    """HP after each turn = HP before − the damage the page's formulas give for the rolled faces
    (never taken from the resolver's own damage events); 0 HP and only 0 HP is out."""
    start = copy.deepcopy(rider_duel.state)
    start["distance"] = data.draw(st.sampled_from(["近", "近", "中", "遠"]))
    for f in start["fighters"].values():
        f["vent"] = data.draw(st.sampled_from([None, "sword_vent", "guard_vent", "strike_vent"]))
    turn = lambda state: "".join(f"【{name}】\n{_rider_order(data, rider_duel, f)}\n"  # noqa: E731
                                 for name, f in state["fighters"].items())
    turns = list(_turns(rider_duel, start, turn, data.draw(st.integers(1, 6))))
    for before, record in turns:
        assert_hp(before, record.state, record.events, rider_duel.ctx.data, _parsed(rider_duel, record, before))


@pytest.fixture(scope="module")
def alterego_private(tmp_path_factory):
    root = tmp_path_factory.mktemp("oracle")
    return new_campaign(root / "alt", "alterego", [Player("美鈴", "meiling"), Player("楓", "kaede")], seed="o",
                            options={"hands": "private"})


def _plot_from_hand(data, hand, soul):
    """A plot a player could write: up to 5 cards of the hand, maybe a cancel before one of them
    (two discards from what is left), maybe a word of noise."""
    cards = data.draw(st.permutations(hand).map(lambda p: list(p[:5])))
    cards = cards[:data.draw(st.integers(0, len(cards)))]
    text = "".join(cards)
    left = list(hand)
    for c in cards:
        left.remove(c)
    if cards and len(left) >= 2 and data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(cards) - 1))
        text = "".join(cards[:at]) + f"C({left[0]}{left[1]})" + "".join(cards[at:])
    return text + data.draw(st.sampled_from(["", "", " ", "\n", "なし" if not cards else ""]))


def _hp_by_the_data(campaign, before, events):
    """Alter EGO: each hit takes its technique's damage (character data), a guarded 必殺技 1, a
    guarded normal technique 0; never more than the HP left."""
    data, players = campaign.ctx.data, campaign.ctx.players
    damage = {name: {t.name: t for t in data.characters[p.character].techniques} for name, p in players.items()}
    hp = {n: f["hp"] for n, f in before["fighters"].items()}
    for e in events:
        if e["type"] == "hit":
            tech = damage[e["actor"]][e["technique"]]
            hp[e["target"]] -= min(hp[e["target"]], tech.damage)
        elif e["type"] == "guard":
            tech = damage[e["attacker"]][e["technique"]]
            hp[e["actor"]] -= min(hp[e["actor"]], 0 if tech.cls == "normal" else min(1, tech.damage))
    return hp


def _runs_of_six(hand):
    """Every run of six card symbols a private hand could be printed as (as kept, and sorted)."""
    from pbf.systems.alterego.system import CARD_ORDER

    out = set()
    for order in (list(hand), sorted(hand, key=lambda c: CARD_ORDER.get(c, 9))):
        text = "".join(order)
        out.update(text[i:i + 6] for i in range(len(text) - 5))
    return out


@pytest.fixture(scope="module")
def alterego_free(tmp_path_factory):
    root = tmp_path_factory.mktemp("oracle")
    return new_campaign(root / "alt", "alterego", [Player("美鈴", "meiling"), Player("楓", "kaede")], seed="o",
                            options={"hands": "free", "hp": 6})


# cards, and the commands of the two characters' techniques (美鈴: エナジーキャノン ↑→弱, 彩光蓮華掌 →←強;
# 楓: 旋風脚 →↑弱, 朧月 ←→強), so that specials and guards meet often enough
FREE_PLOTS = st.tuples(st.lists(st.sampled_from([*CARD_SYMBOLS, "←", "↑→弱", "→←強", "→↑弱", "←→強"]), max_size=4)
                       .map(lambda chunks: "".join(chunks)[:5]), st.integers(0, 4), st.booleans()).map(
    lambda t: t[0][:t[1]] + ("C(弱←)" if t[2] and t[1] < len(t[0]) else "") + t[0][t[1]:])


@ORACLE
@given(data=st.data())
def test_alterego_hp_is_what_the_techniques_deal(alterego_free, data):
    """HP after each turn = HP before − the damage of each technique that hit (its data), 1 for a
    guarded 必殺技 / 特殊必殺技, 0 for a guarded normal one; a fighter at 0 is knocked out."""
    campaign = alterego_free
    start = copy.deepcopy(campaign.state)
    start["distance"] = data.draw(st.integers(0, 3))
    for f in start["fighters"].values():
        f["soul"] = data.draw(st.sampled_from([0, 3, 6, 9]))
    turn = lambda state: "".join(f"【{name}】\n{data.draw(FREE_PLOTS)}\n" for name in state["fighters"])  # noqa: E731
    for before, record in _turns(campaign, start, turn, data.draw(st.integers(1, 6))):
        after = record.state
        assert {n: f["hp"] for n, f in after["fighters"].items()} == _hp_by_the_data(campaign, before, record.events)
        knocked = {e["actor"] for e in record.events if e["type"] == "ko"}
        assert knocked == {n for n, f in after["fighters"].items() if f["hp"] == 0}


@ORACLE
@given(data=st.data())
def test_alterego_cards_are_conserved_and_no_hand_reaches_the_thread(alterego_private, data):
    """With private hands: every card of the 40 is always in exactly one of hand, deck and discard,
    the hand is refilled to 7; and nothing the thread sees (the post, its parts, the public notes,
    the public summary) holds a run of six card symbols out of a hand."""
    campaign = alterego_private
    deck = Counter(campaign.ctx.data.deck())

    def orders(state):
        return "".join(f"【{name}】\n{_plot_from_hand(data, f['hand'], f['soul'])}\n"
                       for name, f in state["fighters"].items() if data.draw(st.integers(0, 5)))  # sometimes missing

    start = copy.deepcopy(campaign.state)
    start["distance"] = data.draw(st.integers(0, 3))
    for f in start["fighters"].values():
        f["soul"] = data.draw(st.sampled_from([0, 3, 6, 9]))
        spent = data.draw(st.integers(0, len(f["deck"])))  # a battle further on: the deck runs out sooner
        f["discard"], f["deck"] = f["deck"][:spent], f["deck"][spent:]
    for before, record in _turns(campaign, start, orders, data.draw(st.integers(1, 6))):
        after = record.state
        for name, f in after["fighters"].items():
            assert Counter(f["hand"]) + Counter(f["deck"]) + Counter(f["discard"]) == deck, name
            assert len(f["hand"]) == int(campaign.ctx.options.get("hand_size", 7)), name
        public = [record.post, *record.parts, *(str(n) for n in record.meta.get("notes", []) or [])]
        public.append(str(campaign.system.public_summary(after, campaign.ctx)))
        for name in after["fighters"]:
            for hand in (before["fighters"][name]["hand"], after["fighters"][name]["hand"]):
                for run in _runs_of_six(hand):
                    for text in public:
                        assert run not in text, (name, run, text)


REPLAY = settings(max_examples=fuzz_examples(15), deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture(scope="module")
def made_on_disk(tmp_path_factory):
    """Two campaigns made by `pbf new`, copied for each example."""
    from pbf.cli import main

    root = tmp_path_factory.mktemp("replay")
    for name, argv in {"alterego": ["--system", "alterego", "--player", "美鈴=meiling", "--player", "楓=kaede"],
                       "rider": ["--system", "rider", "--player", "城戸=ryuki", "--player", "浅倉=jinshu",
                                 "--set", "hp=8"]}.items():
        assert main(["new", str(root / name), *argv, "--seed", "replay"]) == 0
    return root


@pytest.mark.parametrize("game", ["alterego", "rider"])
@REPLAY
@given(data=st.data())
def test_a_turn_replayed_from_its_archive_gives_the_same_bytes(made_on_disk, tmp_path_factory, pbf, game, data):
    """Turns run by `pbf turn` from fuzzed (mostly valid) orders: `pbf replay` resolves every archived
    turn again and finds the same bytes, and the same orders run on a second copy give the same files."""
    import tempfile

    from cli_support import tree_digest

    with tempfile.TemporaryDirectory(dir=tmp_path_factory.getbasetemp()) as tmp:
        copies = [Path(tmp) / "one", Path(tmp) / "two"]
        for copy_ in copies:
            shutil.copytree(made_on_disk / game, copy_)
        for number in range(data.draw(st.integers(1, 3))):
            campaign = campaigns.load(copies[0])
            if campaign.state.get("winner") is not None:
                break
            if game == "rider":
                text = "".join(f"【{n}】\n{_rider_order(data, campaign, f)}\n" for n, f in campaign.state["fighters"].items())
            else:
                text = "".join(f"【{n}】\n{_plot_from_hand(data, f['hand'], f['soul'])}\n"
                               for n, f in campaign.state["fighters"].items())
            orders = Path(tmp) / f"orders{number}.txt"
            orders.write_text(text, "utf-8")
            codes = [pbf("turn", copy_, "--orders", orders)[0] for copy_ in copies]
            assert codes[0] == codes[1]
            if codes[0] != 0:
                break
        code, out, err = pbf("replay", copies[0])
        assert code == 0, out + err
        assert tree_digest(copies[0]) == tree_digest(copies[1])
