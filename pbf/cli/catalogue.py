"""The catalogue and settings: ``pbf demo``, ``balance``, ``list``, ``set``."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from .. import campaign as campaigns
from ..errors import PbfError, Problem
from .common import _print_json, demo

if TYPE_CHECKING:
    import argparse


def cmd_demo(args: argparse.Namespace) -> int:
    target = Path(args.keep) if args.keep else None
    if target is not None and target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise PbfError(
            Problem("はすでにあり、空ではありません。デモは空のフォルダか新しいフォルダに残します。"
                    " / refusing a non-empty folder", text=str(target))
        )
    with tempfile.TemporaryDirectory(prefix="pbf-demo-") as tmp:
        played = [demo.play(source, Path(tmp), sys.stdout).path.name for source in demo.demo_campaigns()]
        sites = demo.write_sites(Path(tmp), played)  # the archive sites (pbf html), docs/archive.md
        where = target / demo.SITE_FOLDER if target is not None else demo.default_site_root()
        if target is None:
            demo.publish_sites(sites, where)
        print("デモのサイト（pbf html）：" + "、".join(str(where / name / "index.html") for name in played))
        if target is not None:
            shutil.copytree(tmp, target, dirs_exist_ok=True)
            print(f"デモのキャンペーンを「{target}」に残しました。")
    return 0


def cmd_balance(args: argparse.Namespace) -> int:
    """pbf balance (docs/npc.md): every pair, NPC against NPC, from fixed seeds."""
    from .. import balance
    from ..systems import get_system
    from ..fsutil import write_file

    system = get_system(args.system)
    data_dir = None
    if args.data:
        folder = Path(args.data)
        data_dir = folder / "data" if (folder / "data").is_dir() else folder
    data = system.load_data(data_dir)
    ids = balance.fighters(system, data)
    if args.fighters:
        wanted = [f.strip() for f in args.fighters.split(",") if f.strip()]
        unknown = [f for f in wanted if f not in ids]
        if unknown:
            raise PbfError(Problem(f"--fighters の「{'、'.join(unknown)}」はいません（いるのは {', '.join(ids)}）。"
                                   " / unknown fighter", text=",".join(unknown)))
        ids = wanted
    if len(ids) < 2:
        raise PbfError("バランス表には2人以上のファイターが必要です。 / two fighters or more")
    if args.battles < 1:
        raise PbfError("--battles は1以上です。 / --battles must be at least 1")
    progress = None
    if sys.stderr.isatty():  # progress on a terminal only (never in a log or a pipe)
        def progress(done: int, total: int) -> None:
            end = "\n" if done == total else ""
            print(f"\r対戦中… {done}/{total}", end=end, file=sys.stderr, flush=True)
    cells = balance.table(system, data, ids, args.battles, args.level, args.versus, progress=progress)
    shown = balance.names(system, data)
    if args.json:
        rows = balance.overall(cells, ids)
        _print_json({"system": system.name, "level": args.level, "versus": args.versus or args.level,
                     "battles": args.battles, "fighters": rows,
                     "pairs": [{"a": c.a, "b": c.b, "wins": c.wins, "losses": c.losses, "draws": c.draws,
                                "rate": c.rate, "low": c.interval()[0], "high": c.interval()[1]} for c in cells]})
    else:
        print(balance.report_text(system, cells, ids, shown, args.battles, args.level, args.versus), end="")
    if args.html:
        write_file(Path(args.html), balance.report_html(system, cells, ids, shown, args.battles, args.level, args.versus))
        print(f"バランス表のページを「{args.html}」に書き出しました。 / page written", file=sys.stderr)
    return 0


# -- commands of the GM's command line (issue 15): list, set, completion --------------------------

def cmd_list(args: argparse.Namespace) -> int:
    from ..campaign import catalogue as listing

    c = campaigns.load(args.campaign) if args.campaign else None
    found = listing.collect(args.what, args.system, c)
    if args.json:
        _print_json(found)
    else:
        sys.stdout.write(listing.render_text(found, c))
    return 0


def cmd_set(args: argparse.Namespace) -> int:
    from ..campaign.catalogue import toml_value
    from ..campaign.settings import change_options

    c = campaigns.load(args.dir)
    changes = change_options(c, args.assignments)
    if not changes:
        print("オプションはどれも今の値のままです（変更なし）。 / nothing changed")
        return 0
    print(f"オプションを変えました（第{c.turn + 1}ターンから。変更はそのターンの記録 options.yaml に残ります）：")
    for key, change in changes.items():
        print(f"  {key}：{toml_value(change['before'])} → {toml_value(change['after'])}")
    return 0
