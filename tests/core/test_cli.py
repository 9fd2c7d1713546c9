"""The command line contract of product.md, through the real Alter EGO system."""

import json

from conftest import tree_digest

EXAMPLE_1 = "[A] 弱弱\n[B] 弱→→弱強\n"


def write(tmp_path, name, text, encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def test_new_writes_the_campaign_and_prints_the_commitment(tmp_path, pbf):
    code, out, err = pbf("new", tmp_path / "c", "--system", "alterego", "--player", "美鈴=meiling",
                         "--player", "名無し=plain", "--seed", "abc")
    assert code == 0, err
    assert "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" in out  # sha256("abc")
    for name in ("campaign.toml", "state.yaml", "history/0000/state.yaml", "history/0000/dice.yaml"):
        assert (tmp_path / "c" / name).is_file()
    toml = (tmp_path / "c" / "campaign.toml").read_text("utf-8")
    assert 'system = "alterego"' in toml and "美鈴" in toml


def test_new_refuses_an_unknown_character_and_writes_nothing(tmp_path, pbf):
    code, out, err = pbf("new", tmp_path / "c", "--system", "alterego", "--player", "美鈴=nobody")
    assert code == 1
    assert "nobody" in err and "meiling" in err
    assert not (tmp_path / "c").exists()


def test_new_refuses_a_non_empty_folder_and_unknown_options(tmp_path, pbf):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "x").write_text("keep")
    code, _, err = pbf("new", tmp_path / "c", "--system", "alterego", "--player", "A=plain")
    assert code == 1 and "空ではありません" in err
    code, _, err = pbf("new", tmp_path / "d", "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
                     "--set", "hand=free")
    assert code == 1 and "hands" in err and not (tmp_path / "d").exists()


def test_usage_errors_exit_2(tmp_path, pbf):
    code, _, _ = pbf("turn", tmp_path)
    assert code == 2


def test_turn_archives_everything_and_prints_the_post(tmp_path, pbf, seed_campaign):
    orders = write(tmp_path, "o.txt", EXAMPLE_1)
    code, out, err = pbf("turn", seed_campaign, "--orders", orders)
    assert code == 0, err
    turn = seed_campaign / "history" / "0001"
    for name in ("orders.txt", "post.txt", "state.yaml", "events.yaml", "dice.yaml"):
        assert (turn / name).is_file(), name
    assert (turn / "orders.txt").read_text("utf-8") == EXAMPLE_1
    assert (turn / "post.txt").read_text("utf-8") == out
    assert (turn / "state.yaml").read_bytes() == (seed_campaign / "state.yaml").read_bytes()


def test_dry_run_writes_nothing(tmp_path, pbf, seed_campaign):
    before = tree_digest(seed_campaign)
    code, out, _ = pbf("turn", seed_campaign, "--orders", write(tmp_path, "o.txt", EXAMPLE_1), "--dry-run")
    assert code == 0 and out
    assert tree_digest(seed_campaign) == before


def test_turn_json_shape(tmp_path, pbf, seed_campaign):
    code, out, _ = pbf("turn", seed_campaign, "--orders", write(tmp_path, "o.txt", EXAMPLE_1), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["turn"] == 1
    assert all("type" in e and "actor" in e for e in data["events"])
    state = data["state"]
    assert state["system"] == "alterego" and state["turn"] == 1 and state["winner"] is None
    assert set(state["fighters"]) == {"A", "B"}
    for fighter in state["fighters"].values():
        assert {"character", "hp", "alive", "soul", "hand", "locked"} <= set(fighter)
    hp_loss = {name: 0 for name in state["fighters"]}
    for event in data["events"]:
        if event["type"] == "damage":
            hp_loss[event["target"]] += event["amount"]
    for name, fighter in state["fighters"].items():
        assert fighter["hp"] == 20 - hp_loss[name]
    code, out, _ = pbf("show", seed_campaign, "--json")
    assert json.loads(out) == state


def test_bad_orders_list_every_problem_and_change_nothing(tmp_path, pbf, seed_campaign):
    before = tree_digest(seed_campaign)
    text = "[A] 弱X\n[C] 弱\n[B] 弱弱弱弱弱弱\n"
    code, out, err = pbf("turn", seed_campaign, "--orders", write(tmp_path, "o.txt", text))
    assert code == 1 and not out
    assert "Traceback" not in err
    assert "1行目" in err and "「X」" in err  # unknown card, where and what
    assert "2行目" in err and "「C」" in err  # unknown player
    assert "3行目" in err and "【B】" in err  # more than 5 cards
    assert tree_digest(seed_campaign) == before


def test_two_orders_for_one_player(tmp_path, pbf, seed_campaign):
    code, _, err = pbf("turn", seed_campaign, "--orders", write(tmp_path, "o.txt", "[A]弱\n[A]強\n"))
    assert code == 1 and "二つ" in err


def test_orders_file_in_neither_utf8_nor_cp932(tmp_path, pbf, seed_campaign):
    before = tree_digest(seed_campaign)
    bad = tmp_path / "o.txt"
    bad.write_bytes("[A] 弱弱\n".encode("utf-8") + b"[B] \x81\x20\n")
    code, _, err = pbf("turn", seed_campaign, "--orders", bad)
    assert code == 1 and "UTF-8" in err and "CP932" in err and "2行目" in err
    assert tree_digest(seed_campaign) == before


def test_missing_and_malformed_campaign_files(tmp_path, pbf, seed_campaign):
    orders = write(tmp_path, "o.txt", EXAMPLE_1)
    code, _, err = pbf("turn", tmp_path / "nowhere", "--orders", orders)
    assert code == 1 and "ありません" in err
    toml = seed_campaign / "campaign.toml"
    good = toml.read_text("utf-8")
    toml.write_text(good + "\n[options\n", "utf-8")
    code, _, err = pbf("turn", seed_campaign, "--orders", orders)
    assert code == 1 and "campaign.toml" in err and "行目" in err
    toml.write_text(good, "utf-8")
    state = seed_campaign / "state.yaml"
    state.write_text("turn: [\n", "utf-8")
    before = tree_digest(seed_campaign)
    code, _, err = pbf("turn", seed_campaign, "--orders", orders)
    assert code == 1 and "state.yaml" in err and "Traceback" not in err
    assert tree_digest(seed_campaign) == before
    toml.unlink()
    code, _, err = pbf("show", seed_campaign)
    assert code == 1 and "campaign.toml" in err


def test_a_gm_comment_in_state_yaml_survives_a_turn(tmp_path, pbf, seed_campaign):
    state = seed_campaign / "state.yaml"
    state.write_text("# GMメモ：第1ターンは様子見\n" + state.read_text("utf-8"), "utf-8")
    code, _, err = pbf("turn", seed_campaign, "--orders", write(tmp_path, "o.txt", EXAMPLE_1))
    assert code == 0, err
    assert state.read_text("utf-8").startswith("# GMメモ：第1ターンは様子見\n")
    assert "turn: 1" in state.read_text("utf-8")


def _plot_from_hand(pbf, path, count=3):
    """Orders that are valid for the current state: the first cards of each hand."""
    state = json.loads(pbf("show", path, "--json")[1])
    lines = []
    for name, fighter in state["fighters"].items():
        cards = "" if fighter["locked"] else "".join(fighter["hand"][:count])
        lines.append(f"[{name}] {cards}")
    return "\n".join(lines) + "\n"


def test_same_campaign_and_orders_give_byte_identical_files(tmp_path, pbf):
    """Private hands: decks shuffled and drawn from the seeded stream, four turns, twice."""
    trees = []
    for name in ("one", "two"):
        path = tmp_path / name
        assert pbf("new", path, "--system", "alterego", "--player", "美鈴=meiling", "--player", "名無し=plain",
                   "--seed", "same")[0] == 0
        for _ in range(4):
            code, _, err = pbf("turn", path, "--orders", write(tmp_path, "o.txt", _plot_from_hand(pbf, path)))
            assert code == 0, err
        assert (path / "history" / "0004" / "notices" / "美鈴.txt").is_file()
        trees.append(tree_digest(path))
    assert trees[0] == trees[1]


def test_seed_example_1_through_the_cli(tmp_path, pbf, seed_campaign):
    """Distance 2, A 弱弱, B 弱→→弱強: both whiff, B steps to 0, A's second 弱 beats B's throw."""
    code, out, err = pbf("turn", seed_campaign, "--orders", write(tmp_path, "o.txt", EXAMPLE_1), "--json")
    assert code == 0, err
    events = json.loads(out)["events"]
    whiffs = [e["actor"] for e in events if e["type"] == "whiff"]
    assert sorted(whiffs[:2]) == ["A", "B"]
    hits = [e for e in events if e["type"] == "hit"]
    assert [(h["actor"], h["target"], h["technique"]) for h in hits] == [("A", "B", "弱攻撃")]
    assert json.loads(out)["state"]["distance"] == 0
    assert json.loads(out)["state"]["fighters"]["B"]["hp"] == 19


def test_seed_example_2_through_the_cli(tmp_path, pbf, seed_campaign):
    """Distance 2, A 弱弱弱, B ↑→弱弱: B jumps in, A gets 隙, B's two 弱 hit, A knocked back 1."""
    code, out, err = pbf("turn", seed_campaign, "--orders", write(tmp_path, "o.txt", "[A]弱弱弱\n[B]↑→弱弱\n"), "--json")
    assert code == 0, err
    data = json.loads(out)
    hits = [(e["actor"], e["target"]) for e in data["events"] if e["type"] == "hit"]
    assert hits == [("B", "A"), ("B", "A")]
    assert any(e["type"] == "suki" and e["actor"] == "A" for e in data["events"])
    assert data["state"]["distance"] == 2
    assert data["state"]["fighters"]["A"]["hp"] == 18
    code, post, _ = pbf("show", seed_campaign)
    assert "距離2" in post


def test_a_card_not_in_hand_and_a_locked_fighter(tmp_path, pbf):
    path = tmp_path / "c"
    assert pbf("new", path, "--system", "alterego", "--player", "A=plain", "--player", "B=plain",
               "--seed", "hands")[0] == 0
    hand = json.loads(pbf("show", path, "--json")[1])["fighters"]["A"]["hand"]
    absent = next(card for card in "弱強→←↑" if card not in hand) if len(set(hand)) < 5 else None
    before = tree_digest(path)
    if absent:
        code, _, err = pbf("turn", path, "--orders", write(tmp_path, "o.txt", f"[A]{absent}\n[B]\n"))
        assert code == 1 and "手札" in err and "【A】" in err
    too_many = hand[0] * (hand.count(hand[0]) + 1)
    code, _, err = pbf("turn", path, "--orders", write(tmp_path, "o.txt", f"[A]{too_many[:5]}\n[B]\n"))
    assert code == 1 and "手札" in err
    assert tree_digest(path) == before
    code, _, err = pbf("check", path, "--player", "A", too_many[:5])
    assert code == 1 and "手札" in err


def test_check_says_when_a_fighter_is_locked(tmp_path, pbf, seed_campaign):
    code, out, _ = pbf("check", seed_campaign, "--player", "A", "弱→←")
    assert code == 0 and "弱攻撃" in out and "前進" in out
    assert pbf("turn", seed_campaign, "--orders", write(tmp_path, "o.txt", "[A]強\n[B]\n"))[0] == 0
    code, out, _ = pbf("check", seed_campaign, "--player", "A", "")
    assert code == 0 and "プロットなし" in out
    code, _, err = pbf("check", seed_campaign, "--player", "A", "弱")
    assert code == 1 and "強攻撃" in err


def test_replay_undo_and_replay_catching_a_tampered_post(tmp_path, pbf, seed_campaign):
    orders = write(tmp_path, "o.txt", EXAMPLE_1)
    assert pbf("turn", seed_campaign, "--orders", orders)[0] == 0
    first = tree_digest(seed_campaign)
    code, out, _ = pbf("replay", seed_campaign)
    assert code == 0 and "一致" in out
    code, out, _ = pbf("undo", seed_campaign)
    assert code == 0
    assert (seed_campaign / "history" / "undone" / "0001" / "post.txt").is_file()
    assert json.loads(pbf("show", seed_campaign, "--json")[1])["turn"] == 0
    assert pbf("turn", seed_campaign, "--orders", orders)[0] == 0
    again = {k: v for k, v in tree_digest(seed_campaign).items() if not k.startswith("history/undone/")}
    assert again == first
    post = seed_campaign / "history" / "0001" / "post.txt"
    post.write_text(post.read_text("utf-8").replace("A", "Ａ", 1), "utf-8")
    code, _, err = pbf("replay", seed_campaign)
    assert code == 1 and "post.txt" in err


def test_undo_with_nothing_to_undo(pbf, seed_campaign):
    before = tree_digest(seed_campaign)
    code, _, err = pbf("undo", seed_campaign)
    assert code == 1 and "取り消すターン" in err
    assert tree_digest(seed_campaign) == before


def test_verify_checks_the_seed_and_every_die(tmp_path, pbf, seed_campaign):
    assert pbf("turn", seed_campaign, "--orders", write(tmp_path, "o.txt", EXAMPLE_1), "--dice", "3")[0] == 0
    code, out, err = pbf("verify", seed_campaign, "--seed", "test-seed")
    assert code == 0, err
    code, _, err = pbf("verify", seed_campaign, "--seed", "wrong")
    assert code == 1 and "コミットメント" in err


def test_malformed_dice_list(tmp_path, pbf, seed_campaign):
    before = tree_digest(seed_campaign)
    code, _, err = pbf("turn", seed_campaign, "--orders", write(tmp_path, "o.txt", EXAMPLE_1), "--dice", "4,7")
    assert code == 1 and "「7」" in err
    assert tree_digest(seed_campaign) == before


def test_log_prints_every_post_in_order(tmp_path, pbf, seed_campaign):
    posts = []
    for text in (EXAMPLE_1, "[A]←\n[B]→\n"):
        code, out, _ = pbf("turn", seed_campaign, "--orders", write(tmp_path, "o.txt", text))
        posts.append(out)
    code, out, _ = pbf("log", seed_campaign)
    assert code == 0 and out == posts[0] + "\n" + posts[1]


def test_demo_prints_posts(pbf):
    code, out, err = pbf("demo")
    assert code == 0, err
    assert out.count("ターン") >= 4


def test_show_prints_one_fact_a_line(tmp_path, pbf, seed_campaign):
    code, out, _ = pbf("show", seed_campaign)
    assert code == 0
    assert out.splitlines()[:4] == ["【Alter EGO ―オルタリゴ―】バトル開始前", "A ●・・○ B（距離2）",
                                    "A（名無し）　HP 20/20　ゲージ 0", "B（名無し）　HP 20/20　ゲージ 0"]
    rider = tmp_path / "rider"
    assert pbf("new", rider, "--system", "rider", "--player", "刃=jinshu", "--player", "城戸=ryuki")[0] == 0
    code, out, _ = pbf("show", rider)
    assert code == 0 and out.splitlines()[0].startswith("【ライダーバトル】")
    assert any(line.startswith("刃（刃襲）HP 20/20") for line in out.splitlines())


def test_fixed_dice_reproduce_the_seeds_dice_example_in_a_post(tmp_path, pbf):
    """刃襲 (攻撃力4) attacks; the GM's dice 4,1,1,5,4,4 give 7, shown BCDice-style, and are archived."""
    camp = tmp_path / "rider"
    # the seed "z" puts them at 近 at turn 0 (the initiative and the starting distance are rolled then)
    assert pbf("new", camp, "--system", "rider", "--player", "刃=jinshu", "--player", "北岡=zolda", "--seed", "z")[0] == 0
    orders = write(tmp_path, "o.txt", "[刃]留まる\n[北岡]留まる / 攻撃しない\n")
    # 刃 has the higher 運動性 and goes first: 刃's attack (4 dice), then 北岡's evasion (運動性 2).
    code, out, err = pbf("turn", camp, "--orders", orders, "--dice", "4,1,1,5,4,4,2,3")
    assert code == 0, err
    assert "(4B6) ＞ 4,7[1,1,5],4,4 ＞ 達成値7" in out
    from pbf import yamlio

    record = yamlio.plain(yamlio.load((camp / "history" / "0001" / "dice.yaml").read_text("utf-8"), "d"))
    assert record["fixed"] == [4, 1, 1, 5, 4, 4, 2, 3]
    assert record["draws"][:8] == [3, 0, 0, 4, 3, 3, 1, 2]
    assert pbf("replay", camp)[0] == 0
    assert pbf("verify", camp)[0] == 0


def test_replay_and_verify_with_a_missing_archive_file(tmp_path, pbf, seed_campaign):
    assert pbf("turn", seed_campaign, "--orders", write(tmp_path, "o.txt", EXAMPLE_1))[0] == 0
    (seed_campaign / "history" / "0001" / "dice.yaml").unlink()
    for command in ("replay", "verify"):
        code, _, err = pbf(command, seed_campaign)
        assert code == 1 and "history/0001/dice.yaml" in err and "Traceback" not in err


def test_verify_catches_a_changed_die(tmp_path, pbf, seed_campaign):
    rider = tmp_path / "rider"
    assert pbf("new", rider, "--system", "rider", "--player", "刃=jinshu", "--player", "城戸=ryuki", "--seed", "v")[0] == 0
    assert pbf("turn", rider, "--orders", write(tmp_path, "o.txt", "[刃]近寄る\n[城戸]離れる\n"))[0] == 0
    assert pbf("verify", rider)[0] == 0
    dice = rider / "history" / "0001" / "dice.yaml"
    text = dice.read_text("utf-8")
    first = text.split("draws:")[1].split(",")[0].strip(" [\n-")
    dice.write_text(text.replace(first, str(int(first) + 1), 1), "utf-8")
    code, _, err = pbf("verify", rider)
    assert code == 1 and "1個目のダイス" in err
