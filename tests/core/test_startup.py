"""Start-up: each command loads only what it needs (issue 13). No timings here (benchmarks/
bench.py prints them); these check what is imported and that the lazily built parser is the
same parser."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pbf.cli.parser import _COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[2]


def _subparsers(parser):
    return parser._subparsers._group_actions[0].choices


def test_every_command_is_named_for_the_lazy_parser():
    assert tuple(_subparsers(build_parser())) == _COMMANDS


@pytest.mark.parametrize("name", _COMMANDS)
def test_the_command_alone_is_built_as_in_the_whole_parser(name):
    whole, alone = _subparsers(build_parser())[name], _subparsers(build_parser(name))
    assert list(alone) == [name]
    assert alone[name].format_help() == whole.format_help()


def _modules_after(args: list[str], tmp_path: Path) -> set[str]:
    """The modules loaded once ``pbf ARGS`` has run (in a fresh interpreter)."""
    code = (
        "import sys, json\nfrom pbf.cli import main\n"
        f"status = main({args!r})\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("demo", ["demo-alterego", "demo-rider"])
def test_show_loads_neither_the_order_parser_nor_the_resolver(demo, tmp_path):
    kept = tmp_path / "kept"
    subprocess.run([sys.executable, "-m", "pbf", "demo", "--keep", str(kept)], capture_output=True, check=True)
    loaded = _modules_after(["show", str(kept / demo)], tmp_path)
    assert "jinja2" in loaded  # it did render
    assert not {m for m in loaded if m == "lark" or m.endswith((".resolver", ".plot", ".orders", ".checks"))}


def test_templates_read_a_dicts_keys_as_jinja2_does():
    import jinja2

    from pbf.render import _Environment

    env = _Environment(undefined=jinja2.StrictUndefined)
    event = {"actor": "城戸", "items": 3}
    assert env.from_string("{{ e.actor }}").render(e=event) == "城戸"
    # a name a dict has as an attribute is still the attribute, as in jinja2
    assert env.from_string("{{ e.items() | list | length }}").render(e=event) == "2"
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ e.target }}").render(e=event)


def test_a_turn_from_an_orders_file_and_check_load_neither_forum_nor_thread(tmp_path):
    from pbf.cli import main

    campaign, orders = tmp_path / "c", tmp_path / "orders.txt"
    assert main(["new", str(campaign), "--system", "rider", "--player", "城戸=ryuki", "--player", "蓮=knight",
                 "--seed", "s"]) == 0
    orders.write_text("[城戸] 近寄る\n[蓮] 留まる\n", "utf-8")
    for args in (["turn", str(campaign), "--orders", str(orders), "--dry-run"], ["check", str(campaign), "--player", "城戸", "近寄る"]):
        loaded = _modules_after(args, tmp_path)
        assert "pbf.turn.check" in loaded and not {"pbf.board.forum", "pbf.board.thread", "pbf.cli.demo"} & loaded, args


def test_status_of_a_dat_without_entities_loads_no_html(tmp_path):
    """html (its table of entities) is imported only for a post that has an entity (&gt; …); the
    demos (for the line between the parts of a post) and secrets (a commitment's salt) not at all."""
    from pbf.cli import main

    campaign, dat = tmp_path / "c", tmp_path / "thread.dat"
    assert main(["new", str(campaign), "--system", "rider", "--player", "城戸=ryuki", "--player", "蓮=knight",
                 "--seed", "s"]) == 0
    lines = ["GM<>sage<>2026/11/29(日) 21:00:00.00 ID:GmGm0001<>次のターンです。<>スレ",
             "城戸<>sage<>2026/11/29(日) 21:01:00.00 ID:Pl000001<>【行動】 <br> 近寄る<>"]
    dat.write_bytes(("\n".join(lines) + "\n").encode("cp932"))
    loaded = _modules_after(["status", str(campaign), "--thread", str(dat)], tmp_path)
    assert "pbf.board.thread" in loaded and not {"html", "pbf.cli.demo", "secrets"} & loaded
    dat.write_bytes(("\n".join(lines[:1] + [lines[1].replace("近寄る", "&gt;&gt;1 近寄る")]) + "\n").encode("cp932"))
    assert "html" in _modules_after(["status", str(campaign), "--thread", str(dat)], tmp_path)


def test_lazy_imports_a_module_on_the_first_call_and_keeps_it():
    """pbf.lazy: the module is not imported by lazy() itself, only by the first call, which
    returns the module; later calls return the same object (no import statement per call)."""
    code = (
        "import sys\nfrom pbf.lazy import lazy\n"
        "get = lazy('pbf.systems.alterego.plot')\n"
        "before = 'pbf.systems.alterego.plot' in sys.modules\n"
        "module = get()\n"
        "print(before, module is sys.modules['pbf.systems.alterego.plot'], get() is module)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "True"]
