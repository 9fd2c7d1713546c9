"""The GM's command line (issue 15): pbf list, pbf set, help and completion of every command,
order headers by character name, orders files in CP932, words of the messages, exit codes,
packaging and --version."""

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

from conftest import tree_digest

from pbf import __version__, yamlio
from pbf.campaign.options import CORE_OPTIONS
from pbf.cli.parser import _DIRECTORY, _FILE, build_parser
from pbf.campaign.catalogue import KINDS
from pbf.systems import SYSTEMS, get_system

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_1 = "[A] 弱弱\n[B] 弱→→弱強\n"


def subcommands():
    parser = build_parser()
    return parser, parser._subparsers._group_actions[0].choices


def new_campaign(pbf, path, system, *players, options=()):
    args = ["new", path, "--system", system, "--seed", "gm-seed"]
    for p in players:
        args += ["--player", p]
    for o in options:
        args += ["--set", o]
    code, _, err = pbf(*args)
    assert code == 0, err
    return path


def orders_file(tmp_path, text, encoding="utf-8", name="o.txt"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def history(path, turn, name):
    return yamlio.plain(yamlio.load((path / "history" / f"{turn:04d}" / name).read_text("utf-8"), name))


# -- pbf list -----------------------------------------------------------------------------------

def test_list_walks_every_kind_of_every_game(pbf):
    code, out, err = pbf("list")
    assert code == 0, err
    for heading in ("■キャラクター", "■ライダー", "■モンスター", "■カード", "■共通の技", "■オプション（共通）"):
        assert heading in out, heading
    assert "meiling：美鈴" in out and "↑→弱　エナジーキャノン［必殺技・相性は弱攻撃］　リーチ３・威力３" in out
    assert "jinshu：刃襲（Jinshu）\n　攻撃力4　防御力2　運動性3　HP20" in out
    assert "dragreder：ドラグレッダー（Dragreder）\n　攻撃力4　防御力3　運動性3　HP15" in out
    assert "final_vent：ファイナルベント（Final Vent）［能動・1戦闘に1回］" in out
    assert out.count("order_marker = ") == 1  # the core's options once, not once per game
    for kind in KINDS:
        for system in (None, *SYSTEMS):
            args = ["list", kind] + (["--system", system] if system else [])
            code, out, err = pbf(*args)
            if (kind, system) in {("characters", "rider"), ("riders", "alterego"), ("monsters", "alterego")}:
                assert code == 1 and "Traceback" not in err and "一覧にできるもの" in err, args
            else:
                assert code == 0 and out.strip(), (args, err)


def test_list_json_gives_stats_techniques_decks_and_options(pbf):
    code, out, _ = pbf("list", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == set(SYSTEMS)
    meiling = next(c for c in data["alterego"]["characters"] if c["id"] == "meiling")
    cannon = next(t for t in meiling["techniques"] if t["cards"] == "↑→弱")
    assert (cannon["name"], cannon["reach"], cannon["damage"], cannon["class"]) == ("エナジーキャノン", 3, 3, "必殺技")
    throw = next(t for t in data["alterego"]["techniques"] if t["cards"] == "弱強")
    assert (throw["name"], throw["reach"], throw["damage"]) == ("投げ", 0, 3)
    assert sum(c["count"] for c in data["alterego"]["cards"]) == 40
    ryuki = next(r for r in data["rider"]["riders"] if r["id"] == "ryuki")
    assert (ryuki["attack"], ryuki["defense"], ryuki["mobility"], ryuki["hp"]) == (3, 2, 3, 20)
    assert ryuki["contract"]["name"] == "ドラグレッダー"
    assert {c["id"] for c in ryuki["deck"]} >= {"sword_vent", "guard_vent", "advent", "final_vent"}
    assert {m["id"] for m in data["rider"]["monsters"]} >= {"gigazelle", "buzzstinger"}
    for system in SYSTEMS:
        options = {o["key"]: o for o in data[system]["options"]}
        assert set(options) == set(CORE_OPTIONS) | set(get_system(system).default_options)
        assert all(o["meaning"] for o in options.values()), system
    assert json.loads(pbf("list", "riders", "--json")[1]).keys() == {"rider"}


def test_list_for_a_campaign_shows_its_own_data_and_option_values(tmp_path, pbf):
    camp = new_campaign(pbf, tmp_path / "c", "rider", "A=ryuki", "B=knight", options=["turn_limit=10"])
    (camp / "data").mkdir()  # a campaign's own rider (data/riders.yaml)
    (camp / "data" / "riders.yaml").write_text(
        "hero:\n  name: 勇者\n  attack: 5\n  defense: 1\n  mobility: 2\n"
        "  deck: {sword_vent: 1, guard_vent: 1, advent: 1, final_vent: 1}\n", "utf-8")
    code, out, err = pbf("list", "riders", "--campaign", camp)
    assert code == 0, err
    assert "hero：勇者\n　攻撃力5　防御力1　運動性2　HP20" in out
    code, out, _ = pbf("list", "options", "--campaign", camp)
    assert "turn_limit = 10（既定：0）" in out
    code, _, err = pbf("list", "--campaign", camp, "--system", "alterego")
    assert code == 1 and "rider" in err


def test_show_gives_each_riders_stats_and_no_empty_deck_line(tmp_path, pbf):
    camp = new_campaign(pbf, tmp_path / "c", "rider", "城戸=ryuki", "獣=gigazelle")
    code, out, _ = pbf("show", camp)
    assert code == 0
    assert "城戸（龍騎）HP 20/20\n　攻撃力3　防御力2　運動性3\n　デッキ：ソードベント×2" in out
    assert "獣（ギガゼール）HP 12/12\n　攻撃力3　防御力2　運動性4" in out
    assert json.loads(pbf("show", camp, "--json")[1])["fighters"]["城戸"]["stats"] == {
        "attack": 3, "defense": 2, "mobility": 3}
    state = camp / "state.yaml"  # the GM empties 城戸's deck by hand
    text = state.read_text("utf-8")
    for card in ("sword_vent", "guard_vent", "strike_vent", "advent", "reflect_vent", "survive", "final_vent"):
        text = re.sub(rf"({card}: )\d+", r"\g<1>0", text)
    state.write_text(text, "utf-8")
    code, out, _ = pbf("show", camp)
    assert "　デッキ：残りなし" in out and "デッキ：\n" not in out


# -- help and completion ---------------------------------------------------------------------------

def test_every_command_has_a_description_examples_and_help_for_each_option(pbf):
    parser, commands = subcommands()
    assert {"list", "set", "completion", "new", "turn"} <= set(commands)
    for name, sub in commands.items():
        code, out, err = pbf(name, "--help")
        assert code == 0, (name, err)
        assert out.startswith("使い方: pbf " + name), name
        assert sub.description and sub.description.splitlines()[0] in out, name
        assert "例：\n  pbf " in out or "例：\n  eval" in out, name
        for action in sub._actions:
            assert action.help and action.help.strip(), (name, action.dest)
            # argparse wraps long help anywhere: compare without the white space
            assert "".join(action.help.split()) in "".join(out.split()), (name, action.dest)
    code, out, _ = pbf("--help")
    assert code == 0 and all(name in out for name in commands)


def test_completion_scripts_are_made_from_the_parser(tmp_path, pbf):
    import shtab

    assert (_DIRECTORY, _FILE) == (
        {k: shtab.DIRECTORY[k] for k in _DIRECTORY}, {k: shtab.FILE[k] for k in _FILE})
    _, commands = subcommands()
    code, bash, _ = pbf("completion", "bash")
    assert code == 0
    for name in commands:
        assert re.search(rf"_shtab_pbf_subparsers=\([^)]*\b{name}\b", bash), name
    script = tmp_path / "pbf.bash"
    script.write_text(bash, "utf-8")
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    probe = (
        f'source "{script}"\n'
        'ask() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMP_LINE="$*"; '
        'COMP_POINT=${#COMP_LINE}; COMPREPLY=(); _shtab_pbf pbf "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}" 2>/dev/null; '
        'echo "${COMPREPLY[*]}"; }\n'
        'ask pbf li\nask pbf list ""\nask pbf new c --system ""\nask pbf turn c --input-e\n'
    )
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True)
    assert done.stdout.splitlines() == ["list", " ".join(KINDS), " ".join(SYSTEMS), "--input-encoding"]
    code, zsh, _ = pbf("completion", "zsh")
    assert code == 0 and zsh.startswith("#compdef pbf") and all(f"\n    {n}:" in zsh for n in commands)
    if shutil.which("zsh"):
        script = tmp_path / "_pbf"
        script.write_text(zsh, "utf-8")
        assert subprocess.run(["zsh", "-n", str(script)]).returncode == 0
    assert pbf("completion", "fish")[0] == 2


def test_readme_commands_table_lists_every_command():
    readme = (ROOT / "README.md").read_text("utf-8")
    table = readme.split("## Commands", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `pbf (\w+)", table, flags=re.M))
    _, commands = subcommands()
    assert set(commands) <= listed, set(commands) - listed


def test_options_doc_explains_every_option():
    doc = (ROOT / "docs" / "options.md").read_text("utf-8")
    for key in set(CORE_OPTIONS) | {k for s in SYSTEMS for k in get_system(s).default_options}:
        assert f"| `{key}` |" in doc, key
    assert "pbf set" in doc and "options.yaml" in doc


# -- pbf set and typed options -----------------------------------------------------------------------

def test_new_writes_numbers_as_numbers_and_old_string_numbers_still_load(tmp_path, pbf):
    camp = new_campaign(pbf, tmp_path / "c", "alterego", "A=plain", "B=plain",
                        options=["max_lines=32", "hands=free", "turn_limit=10"])
    config = tomllib.loads((camp / "campaign.toml").read_text("utf-8"))
    assert config["options"] == {"max_lines": 32, "hands": "free", "turn_limit": 10}
    toml = camp / "campaign.toml"
    toml.write_text(toml.read_text("utf-8").replace("max_lines = 32", 'max_lines = "32"'), "utf-8")
    code, _, err = pbf("turn", camp, "--orders", orders_file(tmp_path, EXAMPLE_1), "--dry-run")
    assert code == 0, err
    code, out, _ = pbf("set", camp, "turn_limit=12")  # rewrites the old string as a number too
    assert code == 0 and "turn_limit：10 → 12" in out
    assert tomllib.loads(toml.read_text("utf-8"))["options"] == {"max_lines": 32, "hands": "free", "turn_limit": 12}


def test_set_keeps_comments_records_the_change_in_the_next_turn_and_replays(tmp_path, pbf):
    camp = new_campaign(pbf, tmp_path / "c", "alterego", "A=plain", "B=plain")  # hands private
    toml = camp / "campaign.toml"
    toml.write_text("# 第1回オルタリゴ杯\n" + toml.read_text("utf-8"), "utf-8")
    empty = orders_file(tmp_path, "# 全員未提出\n")
    assert pbf("turn", camp, "--orders", empty)[0] == 0
    code, out, err = pbf("set", camp, "hands=open", "max_lines=40")
    assert code == 0, err
    assert "第2ターンから" in out and 'hands："private" → "open"' in out
    text = toml.read_text("utf-8")
    assert text.startswith("# 第1回オルタリゴ杯\n") and 'hands = "open"' in text and "max_lines = 40" in text
    pending = yamlio.plain(yamlio.load((camp / "history" / "options-pending.yaml").read_text("utf-8"), "p"))
    assert pending == {"changed": {"hands": {"before": "private", "after": "open"},
                                   "max_lines": {"before": 0, "after": 40}}}
    code, post, _ = pbf("turn", camp, "--orders", empty)
    assert code == 0 and "手札：" in post  # open hands are in the post now
    assert history(camp, 2, "options.yaml") == pending
    assert not (camp / "history" / "options-pending.yaml").exists()
    assert "手札：" not in (camp / "history" / "0001" / "post.txt").read_text("utf-8")
    code, out, err = pbf("replay", camp)  # turn 1 is replayed with the private hands it had
    assert code == 0, err
    assert pbf("verify", camp)[0] == 0
    # undo takes the turn back; the change waits for the next turn again
    assert pbf("undo", camp)[0] == 0
    assert (camp / "history" / "options-pending.yaml").is_file()
    assert pbf("set", camp, "hands=private")[0] == 0  # back to what it was: hands is no change any more
    pending = yamlio.plain(yamlio.load((camp / "history" / "options-pending.yaml").read_text("utf-8"), "p"))
    assert pending == {"changed": {"max_lines": {"before": 0, "after": 40}}}
    assert pbf("turn", camp, "--orders", empty)[0] == 0 and pbf("replay", camp)[0] == 0


def test_set_refuses_what_it_cannot_change_and_changes_nothing(tmp_path, pbf):
    camp = new_campaign(pbf, tmp_path / "c", "alterego", "A=plain", "B=plain")
    before = tree_digest(camp)
    code, _, err = pbf("set", camp, "hp=30", "hands=free", "max_line=3", "turn_limit=x", "oops")
    assert code == 1 and "5件の問題" in err and "何も書き込んでいません" in err
    assert "「hp=30」：hp はキャンペーンを作るときだけ" in err
    assert "hands の free はキャンペーンを作るときだけ選べる値" in err
    assert "「max_line」というオプションはAlter EGO ―オルタリゴ―にはありません" in err and "もしかして「max_lines」" in err
    assert "キー=値" in err
    assert tree_digest(camp) == before
    code, out, _ = pbf("set", camp, "hands=private")
    assert code == 0 and "変更なし" in out and tree_digest(camp) == before
    assert pbf("set", camp)[0] == 2


# -- order headers and --player by character name ---------------------------------------------------

def test_order_headers_accept_an_unambiguous_character_name(tmp_path, pbf):
    camp = new_campaign(pbf, tmp_path / "c", "rider", "城戸=ryuki", "蓮=knight")
    orders = orders_file(tmp_path, "[ナイト] 近寄る\n［Ryuki］ 離れる\n")
    code, out, err = pbf("turn", camp, "--orders", orders)
    assert code == 0, err
    canonical = history(camp, 1, "dice.yaml")["orders_canonical"]
    assert canonical == "城戸\t離れる\n蓮\t近寄る\n"
    code, out, err = pbf("check", camp, "--player", "knight", "近寄る")
    assert code == 0 and out.startswith("蓮（ナイト）の行動")


def test_a_character_name_two_players_share_is_refused_and_a_player_name_wins(tmp_path, pbf):
    camp = new_campaign(pbf, tmp_path / "c", "rider", "A=knight", "B=knight", "ナイト=ryuki")
    code, _, err = pbf("turn", camp, "--orders", orders_file(tmp_path, "[Knight] 近寄る\n"))
    assert code == 1 and "プレイヤーが複数います（A、B）" in err and "1行目" in err
    code, out, err = pbf("check", camp, "--player", "ナイト", "近寄る")
    assert code == 0 and out.startswith("ナイト（龍騎）")
    camp = new_campaign(pbf, tmp_path / "d", "alterego", "M=meiling", "N=plain", options=["hands=free"])
    code, _, err = pbf("turn", camp, "--orders", orders_file(tmp_path, "[美鈴] 弱\n[名無し] ←\n[楓] 弱\n"))
    assert code == 1 and "「楓」" in err and "M（美鈴）、N（名無し）" in err


# -- orders files in UTF-8, UTF-8 with BOM, CP932, UTF-16 --------------------------------------------

def test_orders_files_in_every_encoding_give_the_same_post(tmp_path, pbf, seed_campaign):
    posts = set()
    for encoding in ("utf-8", "utf-8-sig", "cp932", "utf-16"):
        path = orders_file(tmp_path, EXAMPLE_1.replace("\n", "\r\n"), encoding, f"{encoding}.txt")
        code, out, err = pbf("turn", seed_campaign, "--orders", path, "--dry-run")
        assert code == 0, (encoding, err)
        posts.add(out)
    assert len(posts) == 1
    sjis = orders_file(tmp_path, EXAMPLE_1, "cp932", "sjis.txt")
    code, _, err = pbf("turn", seed_campaign, "--orders", sjis, "--input-encoding", "utf-8", "--dry-run")
    assert code == 1 and "UTF-8では読めません" in err and "--input-encoding" in err
    assert pbf("turn", seed_campaign, "--orders", sjis, "--input-encoding", "shift_jis", "--dry-run")[0] == 0
    assert pbf("turn", seed_campaign, "--orders", sjis, "--input-encoding", "klingon")[0] == 2


# -- words of the GM's messages, exit codes -------------------------------------------------------

def test_gm_messages_read_naturally(tmp_path, pbf, seed_campaign):
    code, out, _ = pbf("commit", "--player", "刃", "近寄る")
    assert code == 0 and out.startswith("刃さんの行動：") and "【刃】" not in out
    code, out, _ = pbf("replay", seed_campaign)
    assert code == 0 and "全0ターン" not in out and "まだ処理したターンがない" in out
    code, _, err = pbf("check", seed_campaign, "--player", "A", "弱X強Y")
    assert code == 1 and "件の問題" in err and "何も書き込んでいません" not in err
    code, _, err = pbf("new", tmp_path / "r", "--system", "rider", "--player", "A=ryuki", "--player", "B=knight",
                       "--set", "hands=open")
    assert code == 1 and "「hands」というオプションはライダーバトルにはありません" in err
    assert "オプション「hands」" not in err
    camp = new_campaign(pbf, tmp_path / "p", "alterego", "A=plain", "B=plain")
    code, out, _ = pbf("verify", camp)
    assert code == 0 and "ダイス78個" not in out and "最初の手札のシャッフルの乱数" in out


def test_usage_errors_exit_2_and_demo_keep_twice_is_a_clear_error(tmp_path, pbf, seed_campaign):
    orders = orders_file(tmp_path, EXAMPLE_1)
    assert pbf("turn", seed_campaign, "--orders", orders, "--since", "3")[0] == 2
    assert pbf("turn", seed_campaign, "--orders", orders, "--deadline", "2026-11-29 22:00")[0] == 2
    assert pbf("turn", seed_campaign, "--thread", orders, "--since", "0")[0] == 2
    kept = tmp_path / "kept"
    assert pbf("demo", "--keep", kept)[0] == 0
    before = tree_digest(kept)
    code, _, err = pbf("demo", "--keep", kept)
    assert code == 1 and "空ではありません" in err and "Traceback" not in err
    assert tree_digest(kept) == before
    (tmp_path / "empty").mkdir()
    assert pbf("demo", "--keep", tmp_path / "empty")[0] == 0


# -- packaging and --version --------------------------------------------------------------------------

def test_packaging_has_its_own_name_a_license_file_and_one_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    meta = project["project"]
    assert meta["name"] != "pbf" and "version" not in meta and "version" in meta["dynamic"]
    assert project["tool"]["hatch"]["version"]["path"] == "pbf/__init__.py"
    assert meta["license"] == "MIT" and meta["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text("utf-8").startswith("MIT License")
    assert project["project"]["scripts"] == {"pbf": "pbf.cli:run"}  # main, then gc.freeze (cli.run)
    assert not list(ROOT.glob("pbf/_version*"))


def test_version_names_the_libraries_that_shape_the_files(pbf):
    from importlib.metadata import version

    code, out, _ = pbf("--version")
    assert code == 0
    first, libraries = out.splitlines()
    assert first == f"pbf {__version__}"
    for dist in ("lark", "jinja2", "ruamel.yaml"):
        assert f"{dist} {version(dist)}" in libraries


def test_the_program_freezes_the_heap_before_the_exit_and_main_does_not(tmp_path):
    """cli.run (the pbf command, python -m pbf) ends with gc.freeze, so that the interpreter's exit
    skips a collection over everything pbf loaded; its output is whole. main() in-process leaves
    the collector alone."""
    import gc
    import subprocess
    import sys

    script = ("import gc, sys; from pbf.cli import run; sys.argv = ['pbf', 'list', 'characters', '--system', 'alterego'];"
              " code = run(); print('frozen', gc.get_freeze_count() > 0); sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    assert "美鈴" in done.stdout and done.stdout.rstrip().endswith("frozen True")
    whole = subprocess.run([sys.executable, "-m", "pbf", "list", "characters", "--system", "alterego"],
                           capture_output=True, text=True, encoding="utf-8")
    assert whole.returncode == 0 and whole.stdout == done.stdout.rstrip().removesuffix("frozen True")
    before = gc.get_freeze_count()
    from pbf.cli import main

    assert main(["list", "characters", "--system", "alterego"]) == 0
    assert gc.get_freeze_count() == before
