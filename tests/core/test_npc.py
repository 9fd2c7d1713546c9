"""The NPC opponent (docs/npc.md): chosen from the state before the turn and the seed only,
committed before any order is read, revealed in the results post, recomputed by replay and
verify; a whole campaign played through pbf turn."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from cli_support import run_cli, tree_digest
from pbf import campaign as campaigns
from pbf import yamlio
from pbf.dice import Dice
from pbf.turn.run import run_turn
from pbf.npc import decide, npc_dice, npc_levels
from pbf.npc.search import LEVELS


@pytest.fixture
def pbf(capsys):
    return lambda *argv: run_cli(capsys, *argv)


@pytest.fixture(autouse=True)
def tiny_budget(monkeypatch):
    """Tests use tiny budgets (the levels' definitions stay; fewer scenarios)."""
    monkeypatch.setitem(LEVELS, "normal", {**LEVELS["normal"], "scenarios": 2, "max_coarse": 8})
    monkeypatch.setitem(LEVELS, "hard", {**LEVELS["hard"], "scenarios": 2, "max_coarse": 8, "refine": 1})


def new_rider(pbf, tmp_path: Path, npc: str = "NPC:blade_wolf", *more: str) -> Path:
    folder = tmp_path / "battle"
    code, out, err = pbf("new", folder, "--system", "rider", "--player", "城戸=ryuki",
                         "--player", f"ミラーモンスター={npc}", "--seed", "npc-seed", *more)
    assert code == 0, err
    return folder


def orders(tmp_path: Path, text: str, name: str = "o.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def turn_meta(folder: Path, turn: int) -> dict:
    return yamlio.load_plain((folder / "history" / f"{turn:04d}" / "turn.yaml").read_text("utf-8"), "turn.yaml")


def test_player_spec_marks_an_npc_with_its_level():
    p = campaigns.parse_player_spec("ミラーモンスター=NPC:blade_wolf")
    assert (p.name, p.character, p.npc) == ("ミラーモンスター", "blade_wolf", "normal")
    p = campaigns.parse_player_spec("影=npc:hard:knight")
    assert (p.character, p.npc) == ("knight", "hard")
    assert campaigns.parse_player_spec("城戸=ryuki").npc is None


def test_an_unknown_level_is_refused_and_nothing_is_made(pbf, tmp_path):
    code, out, err = pbf("new", tmp_path / "b", "--system", "rider", "--player", "城戸=ryuki",
                         "--player", "影=NPC:expert:knight")
    assert code == 1 and "random / normal / hard" in err and "Traceback" not in err
    assert not (tmp_path / "b").exists()


def test_the_npc_option_names_a_player(pbf, tmp_path):
    folder = tmp_path / "b"
    code, _, err = pbf("new", folder, "--system", "rider", "--player", "城戸=ryuki", "--player", "影=knight",
                       "--set", "npc=影:hard", "--seed", "x")
    assert code == 0, err
    assert npc_levels(campaigns.load(folder).ctx) == {"影": "hard"}
    code, _, err = pbf("new", tmp_path / "c", "--system", "rider", "--player", "城戸=ryuki", "--player", "影=knight",
                       "--set", "npc=誰か")
    assert code == 1 and "誰か" in err and not (tmp_path / "c").exists()


def test_the_opening_post_commits_turn_one(pbf, tmp_path):
    folder = new_rider(pbf, tmp_path)
    post = (folder / "history" / "0000" / "post.txt").read_text("utf-8")
    c = campaigns.load(folder)
    d = decide(c.system, c.ctx, c.state, c.seed, "ミラーモンスター", "normal")
    assert "■第1ターンのNPCの行動（コミット）" in post
    assert d.commitment in post
    assert d.commitment == hashlib.sha256((d.text + "\n" + d.salt).encode()).hexdigest()
    assert d.salt not in post and d.text not in post.split("■第1ターン")[1].split("\n")[1]


def test_the_choice_is_the_same_whatever_the_players_post(pbf, tmp_path):
    folder = new_rider(pbf, tmp_path)
    c = campaigns.load(folder)
    seen = set()
    for text in ("【城戸】近寄る / ソードベント\n", "【城戸】離れる / ファイナルベント\n", "",
                 "【城戸】受け / ソードベント\n【ミラーモンスター】近寄る\n"):
        record = run_turn(c, text)
        seen.add(repr(record.meta["npc"]))
        assert record.meta["npc"]["ミラーモンスター"]["commitment"] in (folder / "history/0000/post.txt").read_text("utf-8")
    assert len(seen) == 1


def test_the_choice_is_a_pure_function_of_state_seed_and_turn(pbf, tmp_path):
    folder = new_rider(pbf, tmp_path)
    c = campaigns.load(folder)
    a = decide(c.system, c.ctx, c.state, c.seed, "ミラーモンスター", "normal")
    b = decide(c.system, c.ctx, c.state, c.seed, "ミラーモンスター", "normal")
    assert (a.text, a.salt, a.commitment) == (b.text, b.salt, b.commitment)
    other = decide(c.system, c.ctx, c.state, "another seed", "ミラーモンスター", "normal")
    assert other.salt != a.salt
    # its own stream: never the players' dice of the turn
    assert npc_dice(c.seed, 1, "ミラーモンスター").draw() != Dice.seeded(c.seed, 1, "").draw()


def test_a_posted_order_for_the_npc_is_not_read_and_the_post_reveals_it(pbf, tmp_path):
    folder = new_rider(pbf, tmp_path)
    code, out, err = pbf("turn", folder, "--orders", orders(tmp_path, "【城戸】近寄る\n【ミラーモンスター】離れる / 超回避 2\n"))
    assert code == 0, err
    meta = turn_meta(folder, 1)
    npc = meta["npc"]["ミラーモンスター"]
    assert any("NPCです" in n for n in meta["notes"])
    assert "■NPCの行動（公開）" in out
    assert f"【公開】{npc['order']} {npc['salt']}" in out
    assert re.search(r"NPC（普通）ミラーモンスター：.+（期待ダメージ[0-9.]+）", out)
    assert "■第2ターンのNPCの行動（コミット）" in out and meta["npc_next"][0]["commitment"] in out
    canonical = yamlio.load_plain((folder / "history/0001/dice.yaml").read_text("utf-8"), "dice.yaml")["orders_canonical"]
    assert f"ミラーモンスター\t{npc['order']}\n" in canonical


def test_npc_explain_off_leaves_the_reason_out(pbf, tmp_path):
    folder = new_rider(pbf, tmp_path, "NPC:blade_wolf", "--set", "npc_explain=off")
    code, out, err = pbf("turn", folder, "--orders", orders(tmp_path, "【城戸】近寄る\n"))
    assert code == 0, err
    assert "期待ダメージ" not in out and "NPC（普通）" not in out
    assert "【公開】" in out and "NPC ミラーモンスター：" in out


def play_out(pbf, folder: Path, tmp_path: Path, texts: list[str], limit: int = 60) -> int:
    turn = 0
    while turn < limit:
        text = texts[turn % len(texts)]
        code, out, err = pbf("turn", folder, "--orders", orders(tmp_path, text, f"o{turn}.txt"))
        if code == 1 and "決着" in err:
            break
        assert code == 0, err
        turn += 1
        if "勝者" in out or "引き分け" in out or campaigns.load(folder).state.get("winner") is not None:
            break
    return turn


def test_an_npc_plays_a_whole_rider_campaign_and_replay_and_verify_check_it(pbf, tmp_path):
    folder = new_rider(pbf, tmp_path, "NPC:random:blade_wolf", "--set", "turn_limit=30")
    played = play_out(pbf, folder, tmp_path, ["【城戸】近寄る\n", "【城戸】\n", "【城戸】隙狙い 1\n",
                                              "【城戸】離れる\n"])
    assert played >= 2
    assert campaigns.load(folder).state["winner"] is not None
    code, out, err = pbf("replay", folder)
    assert code == 0, out + err
    code, out, err = pbf("verify", folder)
    assert code == 0, err
    assert out.count("NPC（ミラーモンスター）の行動を") == played


def test_two_npcs_play_alter_ego_through_pbf_turn(pbf, tmp_path):
    folder = tmp_path / "ae"
    code, _, err = pbf("new", folder, "--system", "alterego", "--player", "美鈴=NPC:normal:meiling",
                       "--player", "名無し=NPC:hard:plain", "--seed", "ae-seed", "--set", "turn_limit=4")
    assert code == 0, err
    played = play_out(pbf, folder, tmp_path, [""], limit=4)
    assert played >= 1
    meta = turn_meta(folder, 1)
    assert set(meta["npc"]) == {"美鈴", "名無し"} and meta["npc"]["名無し"]["level"] == "hard"
    assert pbf("replay", folder)[0] == 0
    assert pbf("verify", folder)[0] == 0


def test_an_npc_never_reads_a_private_hand(pbf, tmp_path):
    """Alter EGO with private hands: changing the opponent's hand leaves the NPC's choice."""
    folder = tmp_path / "ae"
    code, _, err = pbf("new", folder, "--system", "alterego", "--player", "美鈴=meiling",
                       "--player", "名無し=NPC:plain", "--seed", "hand-seed")
    assert code == 0, err
    c = campaigns.load(folder)
    a = decide(c.system, c.ctx, c.state, c.seed, "名無し", "normal")
    state = yamlio.load_plain(c.state_text, "state.yaml")
    hand = state["fighters"]["美鈴"]["hand"]
    state["fighters"]["美鈴"]["hand"] = ["強"] * len(hand)
    b = decide(c.system, c.ctx, state, c.seed, "名無し", "normal")
    assert a.text == b.text


def tamper(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_replay_and_verify_fail_when_the_npc_order_was_changed(pbf, tmp_path):
    folder = new_rider(pbf, tmp_path)
    assert pbf("turn", folder, "--orders", orders(tmp_path, "【城戸】近寄る\n"))[0] == 0
    meta = turn_meta(folder, 1)
    npc = meta["npc"]["ミラーモンスター"]
    forged = "近寄る / 超回避 1" if npc["order"] != "近寄る / 超回避 1" else "離れる"
    path = folder / "history/0001/turn.yaml"  # the NPC's order is the first order line (quoted when it holds a colon)
    line = next(line for line in path.read_text("utf-8").splitlines() if line.startswith("    order: "))
    tamper(path, line, f"    order: {forged}")
    code, out, err = pbf("replay", folder)
    assert code == 1 and "NPC" in out + err
    code, out, err = pbf("verify", folder)
    assert code == 1 and "NPC" in err


def test_a_public_export_replays_from_the_revealed_order_and_checks_its_commitment(pbf, tmp_path):
    folder = new_rider(pbf, tmp_path)
    assert pbf("turn", folder, "--orders", orders(tmp_path, "【城戸】近寄る\n"))[0] == 0
    public = tmp_path / "public"
    assert pbf("export", folder, public)[0] == 0
    assert "npc-seed" not in (public / "campaign.toml").read_text("utf-8")
    code, out, err = pbf("replay", public)
    assert code == 0, out + err
    salt = turn_meta(public, 1)["npc"]["ミラーモンスター"]["salt"]
    tamper(public / "history/0001/turn.yaml", f"salt: {salt}", "salt: 0000000000000000")
    code, out, err = pbf("replay", public)
    assert code == 1 and "コミットメント" in out + err


def test_the_receipts_show_the_npc_commitment(pbf, tmp_path):
    folder = new_rider(pbf, tmp_path)
    opening = (folder / "history/0000/post.txt").read_text("utf-8")
    body = opening.rstrip("\n").replace("\n", "<br>")
    dat = tmp_path / "t.dat"
    dat.write_text(f"GM<>sage<>2026/12/01(火) 20:00:00.00 ID:gm<>{body}<>ライダーバトル\n"
                   "城戸<>sage<>2026/12/01(火) 21:00:00.00 ID:ab<>【行動】近寄る / ソードベント<>\n", "utf-8")
    before = tree_digest(folder)
    code, out, err = pbf("status", folder, "--thread", dat)
    assert code == 0, err
    c = campaigns.load(folder)
    d = decide(c.system, c.ctx, c.state, c.seed, "ミラーモンスター", "normal")
    assert f"■ミラーモンスター：NPC（普通）：行動は決まっています（コミット {d.commitment}）" in out
    assert d.salt not in out
    assert tree_digest(folder) == before


def test_a_poisoned_cache_is_caught_by_replay(pbf, tmp_path, monkeypatch):
    """pbf turn keeps the committed next decision in pbf's cache; replay never trusts it."""
    import json

    from pbf import resources
    from pbf.npc.turns import _fingerprint

    monkeypatch.setenv("PBF_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(resources, "_DIRS", {})
    folder = new_rider(pbf, tmp_path)
    assert pbf("turn", folder, "--orders", orders(tmp_path, "【城戸】近寄る\n"))[0] == 0
    c = campaigns.load(folder)
    key = _fingerprint(c, c.state, c.seed)
    kept = json.loads(resources.cache_get("npc", key))
    assert kept["ミラーモンスター"]["order"] == decide(c.system, c.ctx, c.state, c.seed, "ミラーモンスター", "normal").text
    forged = "離れる / 超回避 1" if kept["ミラーモンスター"]["order"] != "離れる / 超回避 1" else "近寄る"
    kept["ミラーモンスター"]["order"] = forged
    resources.cache_put("npc", key, json.dumps(kept, ensure_ascii=False).encode("utf-8"))
    assert pbf("turn", folder, "--orders", orders(tmp_path, "【城戸】\n", "o2.txt"))[0] == 0
    assert turn_meta(folder, 2)["npc"]["ミラーモンスター"]["order"] == forged
    code, out, err = pbf("replay", folder)
    assert code == 1 and "第2ターン" in out + err and "NPC" in out + err


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_no_level_reads_a_private_hand_for_its_threats(pbf, tmp_path, monkeypatch, level):
    """The opponents' predicted plots (the threats) come from hands the NPC may believe in, never
    from the real one: over several seeds and turns, changing the opponent's hand (same size)
    changes no choice at any level."""
    monkeypatch.setitem(LEVELS, level, {**LEVELS[level], "scenarios": 6, "first": 6, "threats": 2})
    folder = tmp_path / "ae"
    code, _, err = pbf("new", folder, "--system", "alterego", "--player", "美鈴=meiling",
                       "--player", "名無し=NPC:plain", "--seed", "hand-seed")
    assert code == 0, err
    c = campaigns.load(folder)
    state = yamlio.load_plain(c.state_text, "state.yaml")
    other = yamlio.load_plain(c.state_text, "state.yaml")
    size = len(other["fighters"]["美鈴"]["hand"])
    other["fighters"]["美鈴"]["hand"] = ["↑"] * size
    for seed in ("s1", "s2", "s3"):
        a = decide(c.system, c.ctx, state, seed, "名無し", level)
        b = decide(c.system, c.ctx, other, seed, "名無し", level)
        assert (a.text, a.note) == (b.text, b.note)


def test_the_opening_post_and_show_mark_the_npc_with_its_level(pbf, tmp_path):
    """The player list says who pbf plays: 「NAME（NPC・普通）」 in the opening post, the level in
    pbf show and in show --json (``npc``); a player's line is as before, and so is the results
    post's list (an archive made before the mark still replays)."""
    folder = new_rider(pbf, tmp_path)
    post = (folder / "history" / "0000" / "post.txt").read_text("utf-8")
    assert "・ミラーモンスター（NPC・普通）：ブレードウルフ" in post and "・城戸：龍騎" in post
    code, out, err = pbf("show", folder)
    assert code == 0, err
    assert "ミラーモンスター（ブレードウルフ・NPC・普通）HP" in out and "城戸（龍騎）HP" in out
    code, out, err = pbf("show", folder, "--json")
    assert code == 0, err
    assert '"npc": "普通"' in out and out.count('"npc"') == 1
    assert pbf("turn", folder, "--orders", orders(tmp_path, "【城戸】近寄る\n"))[0] == 0
    post = (folder / "history" / "0001" / "post.txt").read_text("utf-8")
    assert "ミラーモンスター（ブレードウルフ）HP" in post and "NPC・普通" not in post
    ae = tmp_path / "ae"
    code, _, err = pbf("new", ae, "--system", "alterego", "--player", "美鈴=meiling", "--player", "名無し=plain",
                       "--set", "npc=名無し:hard", "--seed", "x")
    assert code == 0, err
    assert "・名無し（NPC・強い）：名無し" in (ae / "history" / "0000" / "post.txt").read_text("utf-8")
    code, out, err = pbf("show", ae)
    assert code == 0 and "名無し（NPC・強い）　HP" in out and "美鈴　HP" in out, err


class _Counting:
    """A model of a game with ten orders whose worth is known: order k is worth k (a turn's
    outcome is the order itself, whatever the reply and the dice), for testing the search."""

    def __init__(self, keyed: bool = False):
        self.turns = 0
        if keyed:
            self.order_key = lambda order: order

    def legal(self, state, name):
        return list(range(10))

    def useful(self, state, name):
        return self.legal(state, name)

    def coarse(self, state, name):
        return self.legal(state, name)

    def variants(self, order, state, name, legal):
        return []

    def combine(self, base, better, legal):
        return None

    def others(self, state, name):
        return [o for o in ("A", "B") if o != name]

    def likely(self, state, name, other, rng):
        return rng.below(3)  # three replies

    def simulate(self, state, orders, rng):
        self.turns += 1
        return {"worth": orders["A"], "winner": None}

    def value(self, before, after, name):
        return float(after["worth"]) if name == "A" else 0.0

    def dealt(self, before, after, name):
        return 0.0


def test_the_race_keeps_the_best_order_and_weighs_the_worst_on_fewer_scenarios():
    from pbf.npc.search import choose

    spend = {**LEVELS["hard"], "scenarios": 16, "first": 4, "keep": 2, "threats": 0, "predict": 0}
    model = _Counting()
    LEVELS["_test"] = spend
    try:
        order, note = choose(model, {}, "A", "_test", npc_dice("s", 1, "A"))
    finally:
        del LEVELS["_test"]
    assert order == 9 and note["score"] == 9.0
    # 10 orders on 4 scenarios, 5 on 8, 3 on 16 (and the two kept on all 16): fewer than 10 x 16
    assert model.turns == 10 * 4 + 5 * 4 + 3 * 8 < 10 * 16


def test_a_pair_of_orders_met_twice_is_played_once_when_the_turn_depends_on_the_orders_alone():
    from pbf.npc.search import choose

    spend = {**LEVELS["normal"], "scenarios": 12, "first": 12, "threats": 0, "predict": 0}
    model = _Counting(keyed=True)
    LEVELS["_test"] = spend
    try:
        order, _ = choose(model, {}, "A", "_test", npc_dice("s", 1, "A"))
    finally:
        del LEVELS["_test"]
    assert order == 9 and model.turns <= 10 * 3  # at most one turn per (order, reply): three replies


def test_a_turn_decided_by_an_older_search_replays_from_its_committed_order(pbf, tmp_path, monkeypatch):
    """A campaign played with an earlier version of the search (one that chose otherwise) still
    replays and verifies: its NPC orders cannot be recomputed, so they are taken as archived, their
    commitment and salt checked, and verify says so; an order changed since is still caught."""
    from pbf import resources
    from pbf.npc import search

    monkeypatch.setenv("PBF_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(resources, "_DIRS", {})
    folder = new_rider(pbf, tmp_path)
    with monkeypatch.context() as old:
        choose = search.choose
        old.setattr(search, "SEARCH_VERSION", 1)
        old.setattr(search, "choose", lambda model, state, name, level, dice: choose(model, state, name, "random", dice))
        for k, text in enumerate(["【城戸】近寄る\n", "【城戸】\n", "【城戸】離れる\n"]):
            assert pbf("turn", folder, "--orders", orders(tmp_path, text, f"o{k}.txt"))[0] == 0
    assert turn_meta(folder, 1)["npc"]["ミラーモンスター"]["search"] == 1
    code, out, err = pbf("replay", folder)
    assert code == 0, out + err
    code, out, err = pbf("verify", folder)
    assert code == 0, err
    assert out.count("以前の版の探索で決めたもので") == 3
    npc = turn_meta(folder, 2)["npc"]["ミラーモンスター"]
    forged = "近寄る / 超回避 1" if npc["order"] != "近寄る / 超回避 1" else "離れる"
    tamper(folder / "history/0002/turn.yaml", f"order: {npc['order']}", f"order: {forged}")
    code, out, err = pbf("replay", folder)
    assert code == 1 and "コミットメント" in out + err


def test_a_record_without_a_search_version_is_of_the_first_search():
    from pbf.npc.turns import older_search

    assert older_search({"影": {"level": "normal", "order": "近寄る"}}) == ["影"]
    assert older_search({"影": {"level": "random", "order": "近寄る"}}) == []
    assert older_search(None) == []
