"""The program: ``main`` (parse the arguments, run the command, print its problems, the exit code),
and ``run`` (the ``pbf`` command).

Exit status: 0 success, 1 a rule/order/data problem reported to the user, 2 a usage error.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import PbfError, Problem
from .common import SavedButNotShown, _short
from .parser import _COMMANDS, build_parser

if TYPE_CHECKING:
    import argparse


_NOT_EMPTY = ("dice", "deadline", "next_deadline", "seed", "orders", "thread", "keep", "player", "dir", "campaign")


def _stored_thread(folder: str) -> bool:
    from ..board.fetch import THREADS_FILE

    return (Path(folder) / THREADS_FILE).is_file()


def _check_usage(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Usage errors argparse cannot see by itself (exit 2)."""
    for name in _NOT_EMPTY:  # an empty value is refused, not taken as "not given"
        value = getattr(args, name, None)
        if isinstance(value, str) and not value.strip() and not (name == "deadline" and args.command == "deadline"):
            parser.error(f"--{name.replace('_', '-')} の値が空です / empty value for --{name.replace('_', '-')}")
    if args.command == "status" and args.thread is None and not _stored_thread(args.dir):
        parser.error("次の引数が必要です：--thread（pbf thread でキャンペーンのスレッドを登録すれば省略できます）"
                     " / --thread is required (or store the campaign's thread with pbf thread)")
    if args.command != "turn":
        return
    if args.orders is None and args.thread is None and _stored_thread(args.dir):
        return  # the campaign's thread (pbf thread)
    if (args.orders is None) == (args.thread is None):
        parser.error("--orders か --thread のどちらか一つを指定してください / give --orders or --thread")
    if args.thread is None and (args.since is not None or args.deadline is not None):
        parser.error("--since と --deadline は --thread と一緒に使います / --since and --deadline need --thread")


MAX_SHOWN = 30  # problems printed one by one; the rest are counted


def _print_problems(error: PbfError, wrote_nothing: bool) -> None:
    problems = error.problems
    if len(problems) > 1:
        # only a command that writes says so (check, show, … never write)
        tail = ("何も書き込んでいません。", "; nothing written") if wrote_nothing else ("", "")
        print(f"pbf: {len(problems)}件の問題があります。{tail[0]} / {len(problems)} problems{tail[1]}", file=sys.stderr)
        for problem in problems[:MAX_SHOWN]:
            print("  " + problem.format().replace("\n", "\n  "), file=sys.stderr)
        if len(problems) > MAX_SHOWN:
            print(f"  ……ほか{len(problems) - MAX_SHOWN:,}件（最初の{MAX_SHOWN}件だけ表示しました）。"
                  f" / {len(problems) - MAX_SHOWN} more", file=sys.stderr)
    else:
        print("pbf: " + problems[0].format(), file=sys.stderr)


def _template_problem(exc: BaseException) -> Problem:
    """A template that does not render (a syntax error, an undefined name): its file and line,
    from the error or from the template's frame in the traceback."""
    filename, line = getattr(exc, "filename", None), getattr(exc, "lineno", None)
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(".j2"):
            filename, line = tb.tb_frame.f_code.co_filename, tb.tb_lineno
        tb = tb.tb_next
    where = f"テンプレート {filename} " if filename else "テンプレート"
    return Problem(f"{where}を使えません（{getattr(exc, 'message', None) or exc}）。 / template error", line=line)


def _drop_stdout() -> None:
    """stdout failed: what is still buffered for it goes nowhere (not to a traceback at exit)."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (tests): nothing to drop
        pass


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # PYTHONIOENCODING=ascii or not: pbf writes UTF-8
            stream.reconfigure(encoding="utf-8", errors="replace")
    argv = sys.argv[1:] if argv is None else argv
    for number, arg in enumerate(argv, start=1):
        if any("\udc80" <= ch <= "\udcff" for ch in arg):
            shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            print(f"pbf: {number}番目の引数「{_short(shown)}」が UTF-8 ではありません。 / an argument is not UTF-8",
                  file=sys.stderr)
            return 2
    parser = build_parser(argv[0] if argv and argv[0] in _COMMANDS else None)
    args = parser.parse_args(argv)
    _check_usage(parser, args)
    try:
        return args.func(args)
    except SavedButNotShown as error:
        _print_problems(error, False)
        _drop_stdout()
        return 1
    except PbfError as error:
        _print_problems(error, args.writes and not getattr(args, "dry_run", False))
        return 1
    except BrokenPipeError:  # the reader went away (pbf log | head): not an error of ours
        _drop_stdout()
        return 0
    except OSError as exc:  # a path pbf cannot use (too long, a loop, under a file, /proc, …)
        where = _short(str(exc.filename)) if exc.filename is not None else ""
        print(f"pbf: 「{where}」を使えません（{exc.strerror or exc}）。 / {type(exc).__name__}", file=sys.stderr)
        return 1
    except Exception as exc:
        if not type(exc).__module__.startswith("jinja2"):
            raise
        print("pbf: " + _template_problem(exc).format(), file=sys.stderr)  # a campaign's own template
        return 1
    except KeyboardInterrupt:
        print("pbf: 中断しました。 / interrupted", file=sys.stderr)
        return 130


def run() -> int:
    """The program: the ``pbf`` command and ``python -m pbf``. :func:`main` on the command line's
    arguments; then the heap is frozen (``gc.freeze``), so that the interpreter's exit does not
    walk every object pbf loaded (the grammars, the templates, the data) looking for garbage that
    the operating system is about to take back whole: about 10 ms of every command
    (benchmarks/bench.py). Files are closed and the lock released before main returns, and the
    exit still flushes the output and runs atexit. ``main`` called in-process (tests, tools)
    leaves the collector alone."""
    import gc

    code = main()
    gc.freeze()
    return code


if __name__ == "__main__":
    sys.exit(run())
