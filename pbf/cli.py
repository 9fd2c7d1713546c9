"""The ``pbf`` command line: parse arguments, call the core, print, exit codes.

Exit status: 0 success, 1 a rule/order/data problem reported to the user, 2 a usage error.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from . import __version__, campaign as campaigns
from .dice import parse_dice_list
from .errors import PbfError
from .systems import SYSTEMS


class _OnFirstUse:
    """A module imported when a command first uses it: each command loads only what it needs."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        import importlib

        return getattr(importlib.import_module(self._name), attr)


engine: Any = _OnFirstUse("pbf.engine")
demo: Any = _OnFirstUse("pbf.demo")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors: exit 2, Japanese first
        self.print_usage(sys.stderr)
        self.exit(2, f"pbf: 使い方が正しくありません：{message}\n")


def _read_text_arg(value: str) -> str:
    return sys.stdin.read() if value == "-" else value


def _read_orders_file(path: str) -> str:
    from .orders import decode

    if path == "-":
        raw = sys.stdin.buffer.read()
    else:
        try:
            raw = Path(path).read_bytes()
        except FileNotFoundError:
            raise PbfError(f"行動ファイル「{path}」がありません。 / orders file not found") from None
        except IsADirectoryError:
            raise PbfError(f"「{path}」はフォルダです。行動ファイルを指定してください。 / not a file") from None
    return decode(raw, Path(path).name if path != "-" else "標準入力")


def _print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


# -- commands -----------------------------------------------------------------------------------

def cmd_new(args: argparse.Namespace) -> int:
    players = [campaigns.parse_player_spec(p) for p in args.player or []]
    options = dict(campaigns.parse_set_option(s) for s in args.set or [])
    c = campaigns.create(args.dir, args.system, players, seed=args.seed, options=options)
    print(f"キャンペーン「{c.path}」を作りました（{c.system.title}、{len(players)}人）。")
    print("ダイスのシード・コミットメント（最初のターンの前にスレッドに書き込んでください）：")
    print(f"  sha256(seed) = {campaigns.commitment(c)}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    sys.stdout.write(engine.check_order(c, args.player, _read_text_arg(args.order)))
    return 0




def _write(text: str, encoding: str | None) -> None:
    """Print text; with ``--encoding`` as bytes in that encoding (made safe for it first)."""
    if not encoding:
        sys.stdout.write(text)
        return
    from .boardfit import board_safe

    sys.stdout.flush()
    sys.stdout.buffer.write(board_safe(text, encoding).encode(encoding))
    sys.stdout.buffer.flush()


def _thread_orders(c: campaigns.Campaign, args: argparse.Namespace) -> engine.ThreadOrders:
    from .forum import parse_deadline

    if args.since is not None and args.since < 1:
        raise PbfError(f"--since は1以上の書き込み番号です（{args.since}）。 / --since must be a post number")
    deadline = parse_deadline(args.deadline) if args.deadline else None
    return engine.thread_orders(c, Path(args.thread), since=args.since, deadline=deadline)


def cmd_turn(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    fixed = parse_dice_list(args.dice) if args.dice else None
    if args.thread is not None:
        found = _thread_orders(c, args)
        record = engine.run_turn(c, found.orders_text, fixed=fixed, sources=found.sources)
        for note in found.collected.notes():
            print("pbf: " + note.format(), file=sys.stderr)
    else:
        if args.since is not None or args.deadline is not None:
            raise PbfError("--since と --deadline は --thread と一緒に使います。 / --since/--deadline need --thread")
        record = engine.run_turn(c, _read_orders_file(args.orders), fixed=fixed)
    if not args.dry_run:
        campaigns.commit_turn(c, record)
    if args.json:
        _print_json({"turn": record.turn, "events": record.events, "state": c.system.summary(record.state, c.ctx)})
    else:
        _write(demo.PART_BREAK.join(record.parts or [record.post]), args.encoding)
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    if c.state.get("winner") is not None:
        raise PbfError("このバトルはもう決着しています。 / the battle is over")
    _write(engine.receipts(c, _thread_orders(c, args)), args.encoding)
    return 0


def cmd_commit(args: argparse.Namespace) -> int:
    from .forum import make_commit

    order = _read_text_arg(args.order)
    if args.campaign:
        c = campaigns.load(args.campaign)
        engine.check_order(c, args.player, order)  # a wrong order is better found now than at the reveal
    commit_line, reveal_line = make_commit(order)
    print(f"【{args.player}】さん用：締切までに1行目を、締切後に2行目を書き込んでください。")
    print(commit_line)
    print(reveal_line)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from . import render

    c = campaigns.load(args.dir)
    summary = c.system.summary(c.state, c.ctx)
    if args.json:
        _print_json(summary)
    else:
        sys.stdout.write(render.render(c.system, "status.j2", c.path, summary=summary, options=c.ctx.options))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    diff = engine.replay(c)
    if diff:
        print("\n".join(diff), file=sys.stderr)
        return 1
    turns = [t for t in c.archived_turns() if t > 0]
    print(f"再計算しました：全{len(turns)}ターン、状態と結果はすべて記録と一致します。 / replay OK")
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    turn = campaigns.undo(c)
    print(f"第{turn}ターンを取り消しました（記録は history/undone/ に移しました）。 / undid turn {turn}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    for line in engine.verify(c, args.seed):
        print(line)
    print("すべてのダイスがシードから再計算した値と一致しました。 / every die verified")
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    posts = [campaigns.archived(c, turn, "post.txt") for turn in c.archived_turns() if turn > 0]
    sys.stdout.write("\n".join(posts))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="pbf-demo-") as tmp:
        for source in demo.demo_campaigns():
            demo.play(source, Path(tmp), sys.stdout)
        if args.keep:
            target = Path(args.keep)
            shutil.copytree(tmp, target, dirs_exist_ok=False)
            print(f"デモのキャンペーンを「{target}」に残しました。")
    return 0


# -- parser -------------------------------------------------------------------------------------

def _thread_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--since", type=int, metavar="N", help="この番号の書き込みからを今ターンの行動とする")
    p.add_argument("--deadline", metavar="'YYYY-MM-DD HH:MM'", help="締切（板の時刻、JST）。後の書き込みは遅刻")
    p.add_argument("--encoding", metavar="ENC", help="出力の文字コード（例：cp932）")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pbf", description="掲示板（PBF）バトルの一括処理：Alter EGO ―オルタリゴ― とライダーバトル")
    parser.add_argument("--version", action="version", version=f"pbf {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def command(name: str, help: str, campaign: bool = False) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help)
        if campaign:
            p.add_argument("dir", help="キャンペーンのフォルダ")
        p.set_defaults(func=globals()[f"cmd_{name}"])
        return p

    p = command("new", "キャンペーンを作る / create a campaign folder", campaign=True)
    p.add_argument("--system", required=True, choices=SYSTEMS)
    p.add_argument("--player", action="append", metavar="NAME=CHARACTER", help="参加者（繰り返し可）。NAME◆TRIP=CHARACTER でトリップ、=CHARACTER@TEAM でチームも登録")
    p.add_argument("--seed", help="ダイスの秘密のシード（省略時は自動生成）")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="オプション（例：hands=free, turn_limit=10）")

    p = command("check", "行動がどう読まれるか確かめる / check one order", campaign=True)
    p.add_argument("--player", required=True)
    p.add_argument("order", help="行動（- で標準入力）")

    p = command("turn", "次のターンを処理する / resolve the next turn", campaign=True)
    p.add_argument("--orders", metavar="FILE", help="行動ファイル（- で標準入力）")
    p.add_argument("--thread", metavar="FILE", help="スレッド（.dat か read.cgi のコピー）から行動を読む")
    _thread_options(p)
    p.add_argument("--dry-run", action="store_true", help="何も書き込まずに結果だけ表示")
    p.add_argument("--json", action="store_true", help="結果を JSON で出力")
    p.add_argument("--dice", metavar="FACES", help="先に使うダイスの目（例：4,1,1,5,4,4）")

    p = command("status", "スレッドの行動の受付状況（受理／エラー／未提出）/ receipts", campaign=True)
    p.add_argument("--thread", required=True, metavar="FILE")
    _thread_options(p)

    p = command("commit", "秘密の行動のコミット行と公開行を作る / commit-reveal lines")
    p.add_argument("--campaign", metavar="DIR", help="キャンペーン（指定すると行動を先に確かめる）")
    p.add_argument("--player", required=True)
    p.add_argument("order", help="行動（- で標準入力）")

    p = command("show", "現在の状況 / current status", campaign=True)
    p.add_argument("--json", action="store_true")

    p = command("replay", "記録から全ターンを再計算して照合する / re-resolve every archived turn", campaign=True)

    p = command("undo", "最後のターンを取り消す / roll back the last turn", campaign=True)

    p = command("verify", "シードでダイスを検証する / verify every die from the seed", campaign=True)
    p.add_argument("--seed", help="公開されたシード（省略時は campaign.toml の seed）")

    p = command("log", "全ターンの結果を順に表示 / print every results post", campaign=True)

    p = command("demo", "同梱のデモを実行して結果を表示 / run the bundled demos")
    p.add_argument("--keep", metavar="DIR", help="デモのキャンペーンをこのフォルダに残す")
    return parser


def _print_problems(error: PbfError) -> None:
    problems = error.problems
    if len(problems) > 1:
        print(f"pbf: {len(problems)}件の問題があります。何も書き込んでいません。 / {len(problems)} problems; nothing written", file=sys.stderr)
        for problem in problems:
            print("  " + problem.format().replace("\n", "\n  "), file=sys.stderr)
    else:
        print("pbf: " + problems[0].format(), file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8")
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "turn" and (args.orders is None) == (args.thread is None):
        parser.error("--orders か --thread のどちらか一つを指定してください / give --orders or --thread")
    try:
        return args.func(args)
    except PbfError as error:
        _print_problems(error)
        return 1
    except BrokenPipeError:  # the reader went away (pbf log | head): not an error of ours
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("pbf: 中断しました。 / interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
