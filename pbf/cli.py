"""The ``pbf`` command line: parse arguments, call the core, print, exit codes.

Exit status: 0 success, 1 a rule/order/data problem reported to the user, 2 a usage error.
"""

from __future__ import annotations

import argparse
import codecs
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from . import __version__, campaign as campaigns
from .boardfit import PART_BREAK
from .dice import parse_dice_list
from .errors import PbfError, Problem
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


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Help in Japanese first; the examples of the epilog keep their lines."""

    def add_usage(self, usage, actions, groups, prefix=None):  # type: ignore[no-untyped-def]
        super().add_usage(usage, actions, groups, "使い方: " if prefix is None else prefix)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._positionals.title = "引数"
        self._optionals.title = "オプション"
        self.add_argument("-h", "--help", action="help", help="このヘルプを表示する / show this help")

    def error(self, message: str) -> None:  # usage errors: exit 2, Japanese first
        self.print_usage(sys.stderr)
        self.exit(2, f"pbf: 使い方が正しくありません：{message}\n")


# argparse's own messages (Python 3.11–3.13), in Japanese: a usage error is Japanese throughout.
# argparse looks each up through gettext's _() / ngettext() at the moment it says it; main() puts
# these in their place while it parses the command line (pbf's own messages are Japanese already).
_ARGPARSE_JA = {
    "usage: ": "使い方: ",
    "argument %(argument_name)s: %(message)s": "%(argument_name)s：%(message)s",
    "unrecognized arguments: %s": "知らない引数があります：%s",
    "not allowed with argument %s": "%s と一緒には使えません",
    "ignored explicit argument %r": "このオプションは値をとりません（%r）",
    "the following arguments are required: %s": "次の引数が必要です：%s",
    "one of the arguments %s is required": "%s のどれか一つが必要です",
    "expected one argument": "値を一つ指定してください",
    "expected at most one argument": "値は一つまでです",
    "expected at least one argument": "値を一つ以上指定してください",
    "ambiguous option: %(option)s could match %(matches)s": "オプション %(option)s はどれのことか分かりません（候補：%(matches)s）",
    "unexpected option string: %s": "ここにオプション %s は書けません",
    "invalid %(type)s value: %(value)r": "%(value)r は値として読めません（%(type)s）",
    "invalid choice: %(value)r (choose from %(choices)s)": "%(value)r は選べません（選べるもの：%(choices)s）",
    "can't open '%(filename)s': %(error)s": "「%(filename)s」を開けません：%(error)s",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "%(parser_name)r というコマンドはありません（あるのは %(choices)s）",
    "%(prog)s: error: %(message)s\n": "%(prog)s: 使い方が正しくありません：%(message)s\n",
    "show this help message and exit": "このヘルプを表示する / show this help",
    "positional arguments": "引数",
    "options": "オプション",
}
_ARGPARSE_JA_N = {"expected %s argument": "値を%s個指定してください"}


def _argparse_ja(message: str) -> str:
    return _ARGPARSE_JA.get(message, message)


def _argparse_ngettext_ja(singular: str, plural: str, n: int) -> str:
    return _ARGPARSE_JA_N.get(singular, singular if n == 1 else plural)


class _JapaneseArgparse:
    """While it is entered, argparse says its messages in Japanese (restored on exit)."""

    def __enter__(self) -> None:
        self._kept = (getattr(argparse, "_", None), getattr(argparse, "ngettext", None))
        argparse._ = _argparse_ja  # type: ignore[attr-defined]
        argparse.ngettext = _argparse_ngettext_ja  # type: ignore[attr-defined]

    def __exit__(self, *_: Any) -> None:
        gettext_, ngettext_ = self._kept
        if gettext_ is not None:
            argparse._ = gettext_  # type: ignore[attr-defined]
        if ngettext_ is not None:
            argparse.ngettext = ngettext_  # type: ignore[attr-defined]


def _read_text_arg(value: str) -> str:
    if value != "-":
        return value
    raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise PbfError(
            Problem(f"標準入力が UTF-8 ではありません（{exc.start + 1}バイト目）。 / stdin is not UTF-8", line=line)
        ) from None


def _read_orders_file(path: str, encoding: str | None = None) -> str:
    from .orders import decode

    from .fsutil import read_bytes

    if path == "-":
        raw = sys.stdin.buffer.read()
    else:
        try:
            raw = read_bytes(Path(path), _short(path))
        except FileNotFoundError:
            raise PbfError(f"行動ファイル「{_short(path)}」がありません。 / orders file not found") from None
    return decode(raw, Path(path).name if path != "-" else "標準入力", encoding)


def _json_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _short(text: str, limit: int = 60) -> str:
    """A path or word as a message shows it: at most ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _print_json(data: Any) -> None:
    sys.stdout.write(_json_text(data))


# -- commands -----------------------------------------------------------------------------------

def cmd_new(args: argparse.Namespace) -> int:
    players = [campaigns.parse_player_spec(p) for p in args.player or []]
    options = dict(campaigns.parse_set_option(s) for s in args.set or [])
    deadline = _deadline_arg(args.deadline)
    if deadline:  # the clock is read (and a bad PBF_NOW refused) before anything is written
        from .forum import board_now

        board_now(str(options.get("timezone", "JST")))
    if args.thread is not None:  # checked before anything is written
        from .fetch import parse_address

        parse_address(args.thread)
    c = campaigns.create(args.dir, args.system, players, seed=args.seed, options=options, deadline=deadline)
    if args.thread is not None:
        from .fetch import store_thread

        store_thread(c.path, args.thread)
        print(f"pbf: スレッド {args.thread} を登録しました（status・turn・watch は --thread なしで読みます）。", file=sys.stderr)
    # stdout: the opening post alone (pbf new … > open.txt is what is pasted); the GM's part on stderr
    _warn_if_past(c, deadline, "第1ターンの締切")
    zero = c.turn_dir(0)
    print(f"pbf: キャンペーン「{c.path}」を作りました（{c.system.title}、{len(players)}人）。\n"
          f"pbf: ダイスのシード・コミットメント：sha256(seed) = {campaigns.commitment(c)}（開始の投稿に載っています）",
          file=sys.stderr)
    _tell_notices(c, 0)
    print(f"pbf: 標準出力はスレッドに書き込む開始の投稿です（{zero / 'post.txt'} と同じ）。", file=sys.stderr)
    _write(PART_BREAK.join(engine.post_parts(c, 0)), _output_encoding(c, args))
    return 0


def _tell_notices(c: campaigns.Campaign, turn: int) -> None:
    """On stderr: which private notices to send, to whom, with their paths (turn 0 and each turn)."""
    folder = c.turn_dir(turn) / "notices"
    if not folder.is_dir():
        return
    from .campaign import safe_filename

    names = [name for name in c.ctx.players if (folder / f"{safe_filename(name)}.txt").is_file()]
    if not names:
        return
    what = "最初の手札" if turn == 0 else f"第{turn}ターンの後"
    print(f"pbf: 非公開の通知（{what}）：それぞれ本人にだけ送ってください。", file=sys.stderr)
    for name in names:
        print(f"  {name}さんへ：{folder / (safe_filename(name) + '.txt')}", file=sys.stderr)


def _output_encoding(c: campaigns.Campaign | None, args: argparse.Namespace) -> str | None:
    """The encoding a post or receipts are printed in: ``--encoding`` when given, else the
    campaign's ``encoding`` option when stdout is a file or a pipe (to a terminal, text as the
    terminal shows it: UTF-8); None is UTF-8."""
    given = getattr(args, "encoding", None)
    if given:
        return given
    option = str(c.ctx.options.get("encoding") or "") if c is not None else ""
    if not option:
        return None
    try:
        to_terminal = sys.stdout.isatty()
    except (AttributeError, ValueError):
        to_terminal = False
    return None if to_terminal else option


def _deadline_arg(value: str | None) -> str | None:
    """``--deadline``/``--next-deadline``: checked, stored as ``YYYY-MM-DD HH:MM``; empty is refused."""
    if value is None:
        return None
    from .forum import normalize_deadline

    return normalize_deadline(value)


def _board_now(c: campaigns.Campaign):
    """Now on the board's clock (the campaign's timezone), naive like the board's timestamps;
    the environment variable PBF_NOW stands in for it (docs/forum.md, "The clock")."""
    from .forum import board_now

    return board_now(c.ctx.options.get("timezone", "JST"))


def _zone(c: campaigns.Campaign) -> str:
    return c.ctx.options.get("timezone", "JST")


def _past(c: campaigns.Campaign, deadline: str) -> bool:
    """Whether the board's clock is past ``deadline`` (its minute included, as for posts)."""
    from .forum import is_late, parse_deadline

    return is_late(_board_now(c), parse_deadline(deadline))


def _year_label(c: campaigns.Campaign, deadline: str) -> str:
    from .forum import deadline_label, parse_deadline

    return deadline_label(parse_deadline(deadline), _zone(c), year=True)


def _warn_if_past(c: campaigns.Campaign, deadline: str | None, what: str) -> None:
    """``new --deadline`` and ``turn --next-deadline`` in the past: said, not refused (独自裁定,
    docs/forum.md: the command does more than set a deadline, and pbf deadline fixes it)."""
    if deadline and _past(c, deadline):
        print(f"pbf: 注意：{what} {_year_label(c, deadline)} は過去の日時です。直すなら "
              f"pbf deadline {c.path} \"YYYY-MM-DD HH:MM\" で。 / the deadline is in the past", file=sys.stderr)


def _hold_until_deadline(c: campaigns.Campaign, deadline: str | None, args: argparse.Namespace) -> bool:
    """``pbf turn`` before the turn's deadline stops (exit 1), unless ``--early`` (then True:
    turn.yaml and the post say so) or ``--dry-run`` (shown, with a note)."""
    turn = c.turn + 1
    if not deadline or _past(c, deadline):  # (pbf.forum is loaded only for a deadline: start-up)
        if args.early:
            why = f"締切（{_year_label(c, deadline)}）は過ぎています" if deadline else "このターンには締切がありません"
            print(f"pbf: {why}。--early は要りません（記録しません）。 / --early not needed", file=sys.stderr)
        return False
    if args.early:
        return True
    from datetime import timedelta

    from .forum import deadline_label, parse_deadline, time_left

    at = parse_deadline(deadline)
    left = time_left(_board_now(c), at, _zone(c))
    when = f"はまだです（{left}）" if left else "の分の最中です（この分の書き込みまで間に合います）"
    before = f"第{turn}ターンの締切（{_year_label(c, deadline)}）{when}"
    from_ = deadline_label(at + timedelta(minutes=1), _zone(c))
    if args.dry_run:
        print(f"pbf: {before}。--dry-run なので処理して見せますが、本番の pbf turn は {from_} から"
              "（締切前に処理するなら --early）。 / before the deadline", file=sys.stderr)
        return False
    raise PbfError(
        Problem(
            f"{before}。締切の分の書き込みまで有効なので、pbf turn は {from_} から処理できます。"
            " / the deadline has not passed",
            hint="締切前に処理するなら --early を付けてください（turn.yaml に残り、結果の書き込みに"
                 "「締切前に処理しました（GM判断）」と載ります）。見るだけなら --dry-run。",
        )
    )


def cmd_check(args: argparse.Namespace) -> int:
    if args.odds:
        return _check_with_odds(args)
    if not args.json:
        c = campaigns.load(args.dir)
        sys.stdout.write(engine.check_order(c, args.player, _read_text_arg(args.order)))
        return 0
    # --json: the reading as data on stdout (docs/check.md), also when the order is wrong; the
    # problems go to stderr as well, as without --json, and the exit status is the same
    c = None
    try:
        c = campaigns.load(args.dir)
        data = engine.check_data(c, args.player, _read_text_arg(args.order))
    except PbfError as error:
        _print_json(engine.check_failure(c, args.player, error))
        raise
    _print_json(data)
    return 0




def _check_with_odds(args: argparse.Namespace) -> int:
    """``pbf check --odds``: the reading, then one line of odds (docs/odds.md; opt-in, since the odds
    cost more than the reading: pbf/odds is imported only here and by ``pbf odds``)."""
    from . import odds

    c = campaigns.load(args.dir)
    text = _read_text_arg(args.order)
    if args.json:
        data = engine.check_data(c, args.player, text)
        data["odds"] = odds.short_line(odds.compute(c, args.player, text, best=False)).strip()
        _print_json(data)
        return 0
    reading = engine.check_order(c, args.player, text)
    sys.stdout.write(reading + odds.short_line(odds.compute(c, args.player, text, best=False)))
    return 0


def cmd_odds(args: argparse.Namespace) -> int:
    from . import odds

    c = campaigns.load(args.dir)
    data = odds.compute(c, args.player, _read_text_arg(args.order), hand=args.hand, best=not args.no_best)
    if args.json:
        _print_json(odds.as_json(data))
    else:
        sys.stdout.write(odds.render(data))
    return 0


def _write(text: str, encoding: str | None) -> None:
    """Print text; with ``--encoding`` as bytes in that encoding (made safe for it first)."""
    if not encoding:
        sys.stdout.write(text)
        return
    _write_bytes(_encoded(text, encoding))


def _encoded(text: str, encoding: str | None) -> bytes:
    """The bytes :func:`_write` prints: in ``encoding`` made safe for it, else UTF-8."""
    if not encoding:
        return text.encode("utf-8", "replace")
    from .boardfit import board_safe

    return board_safe(text, encoding).encode(encoding)


def _write_bytes(data: bytes) -> None:
    sys.stdout.flush()
    if hasattr(sys.stdout, "buffer"):
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:  # a text-only stream (tests capture stdout as text)
        sys.stdout.write(data.decode("utf-8", "replace"))
        sys.stdout.flush()


class SavedButNotShown(PbfError):
    """The turn is committed but printing it failed (a full disk, a closed pipe)."""

    def __init__(self, path: Path, turn: int, exc: OSError):
        super().__init__(
            Problem(
                f"第{turn}ターンは保存しました（state.yaml と history/{campaigns.turn_dir_name(turn)}/）が、"
                f"結果を出力できませんでした（{exc.strerror or exc}）。もう一度 pbf turn を実行しないでください"
                "（次のターンが進みます）。",
                hint=f"結果の書き込みは pbf log {path} --turn {turn} で表示し直せます。",
            )
        )


def _thread_orders(c: campaigns.Campaign, args: argparse.Namespace, wait: bool = False) -> engine.ThreadOrders:
    deadline = engine.turn_deadline(c, args.deadline)
    source = _thread_source(c, args, wait)
    thread = Path(args.thread) if source is None else source.thread
    encoding = args.input_encoding if source is None else source.encoding
    found = engine.thread_orders(c, thread, since=args.since, deadline=deadline, encoding=encoding)
    if source is not None and source.source:  # turn.yaml: where the thread came from
        found.meta["thread"]["source"] = source.source
    args.thread_source, args.thread_before = source, None
    if source is not None and args.since is None:
        found = _from_both_threads(c, args, source, found, deadline)
    return found


def _from_both_threads(c: campaigns.Campaign, args: argparse.Namespace, source: Any, found: Any, deadline: Any) -> Any:
    """The first turn of the next thread (pbf thread --next) reads the previous thread too."""
    from . import fetch

    before = fetch.previous_thread(c, source)
    if before is None:
        return found
    old = fetch.thread_input(c, str(before["url"]), offline=getattr(args, "offline", False), wait=False,
                             encoding=args.input_encoding)
    found_old = engine.thread_orders(c, old.thread, deadline=deadline, encoding=old.encoding)
    args.thread_before = (old, found_old, int(before.get("part", source.part - 1)))
    return fetch.merge_threads(c, found_old, found, int(before.get("part", source.part - 1)), source.part)


def _thread_source(c: campaigns.Campaign, args: argparse.Namespace, wait: bool) -> Any:
    """A thread given by its address (or the campaign's stored one), fetched: pbf/fetch.py,
    imported only then. None for a thread file."""
    if getattr(args, "prefetched", None) is not None:  # pbf watch --take-turn: what the final fetch read
        return args.prefetched
    given = args.thread
    if given is not None and not given.strip().lower().startswith(("http://", "https://")) \
            and not getattr(args, "offline", False):
        return None
    from . import fetch

    return fetch.thread_input(c, given, offline=getattr(args, "offline", False), wait=wait,
                              encoding=args.input_encoding)


def _thread_archive(args: argparse.Namespace, found: Any) -> dict[str, bytes]:
    """The thread as the turn read it, for its folder: thread.dat (thread.txt for a copy)."""
    window = found.meta.get("thread") or {}
    source = getattr(args, "thread_source", None)
    if source is not None:
        data = source.data()
    else:
        from .fsutil import read_bytes

        data = read_bytes(Path(args.thread), args.thread)
    from .fetch import archive_name, read_upto

    fmt = str(window.get("format") or "")
    files = {archive_name(fmt): read_upto(data, fmt, int(window.get("last_post") or 0))}
    before = getattr(args, "thread_before", None)
    if before is not None:  # the previous thread, read in the same turn: thread-part1.dat
        old, found_old, part = before
        window = found_old.meta.get("thread") or {}
        fmt = str(window.get("format") or "")
        name = archive_name(fmt).replace("thread.", f"thread-part{part}.")
        files[name] = read_upto(old.data(), fmt, int(window.get("last_post") or 0))
    return files


def _next_deadline(c: campaigns.Campaign, args: argparse.Namespace) -> str | None:
    """``--next-deadline``, else (a turn taken again after an undo) the one announced for the
    turn after when the turn was first taken, which deadline.yaml keeps."""
    given = _deadline_arg(args.next_deadline)
    if given:
        _warn_if_past(c, given, f"第{c.turn + 2}ターンの締切")
        return given
    kept = campaigns.current_deadline(c, c.turn + 2)  # there only when an undo kept it
    if kept:
        print(f"pbf: 次回締切は、取り消した第{c.turn + 1}ターンのときに決めた {_year_label(c, kept)} です"
              "（変えるなら --next-deadline）。 / the next deadline kept from the undone turn", file=sys.stderr)
    return kept


def cmd_turn(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    fixed = parse_dice_list(args.dice) if args.dice is not None else None
    meta: dict[str, Any] = {}
    next_deadline = _next_deadline(c, args)
    if next_deadline:
        meta["next_deadline"] = next_deadline
    notes: list[Problem] = []
    if args.thread is not None or args.orders is None:  # the orders file or the thread (given, or stored)
        found = _thread_orders(c, args, wait=True)
        if args.since is None:
            engine.refuse_taken_window(c, found)
        if _hold_until_deadline(c, found.deadline, args):
            meta["early"] = True
        record = engine.run_turn(c, found.orders_text, fixed=fixed, sources=found.sources, meta={**found.meta, **meta})
        record.files = _thread_archive(args, found)
        notes = found.notes
    else:
        # --since and --deadline without --thread: a usage error (_check_usage)
        deadline = engine.turn_deadline(c, None)
        if deadline:
            meta["deadline"] = deadline
        if _hold_until_deadline(c, deadline, args):
            meta["early"] = True
        orders = _read_orders_file(args.orders, args.input_encoding)
        record = engine.run_turn(c, orders, fixed=fixed, meta={"orders_from": "file", **meta})
    # everything that can fail is done before the commit: the output is made (and encoded) first
    if args.json:
        output = _json_text({"turn": record.turn, "events": record.events,
                             "state": c.system.summary(record.state, c.ctx)}).encode("utf-8")
    else:
        output = _encoded(PART_BREAK.join(record.parts or [record.post]), _output_encoding(c, args))
    dict(record.notices)  # rendered now: a notice template's error is reported before the lock is taken
    if args.dry_run:  # said first, on stderr: the post on stdout stays what would be pasted
        print(f"pbf: 試し実行（--dry-run）です。第{record.turn}ターンの結果を表示するだけで、何も書き込んでいません"
              "（state.yaml も history/ もそのまま）。 / dry run: nothing written", file=sys.stderr)
    for note in notes:
        print("pbf: " + note.format(), file=sys.stderr)
    if args.dry_run:
        _write_bytes(output)
        return 0
    campaigns.commit_turn(c, record)
    try:
        _tell_notices(c, record.turn)
        if not next_deadline and record.state.get("winner") is None:
            print(
                f"pbf: 次のターン（第{record.turn + 1}ターン）の締切が決まっていません。決めたら "
                f"pbf deadline {c.path} \"YYYY-MM-DD HH:MM\" で設定してください"
                "（次からは pbf turn --next-deadline でも）。",
                file=sys.stderr,
            )
        _write_bytes(output)
    except OSError as exc:
        raise SavedButNotShown(c.path, record.turn, exc) from None
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    if c.state.get("winner") is not None and not getattr(c.system, "accepts_epilogue", False):
        raise PbfError("このバトルはもう決着しています。 / the battle is over")
    found = _thread_orders(c, args)
    now = _board_now(c)
    parts, private = engine.receipts(c, found, now=now)
    _write(PART_BREAK.join(parts), _output_encoding(c, args))
    for note in found.notes:
        print("pbf: " + note.format(), file=sys.stderr)
    stamped = [late for late in found.collected.late if late.posted_at is not None]
    if found.deadline and stamped and not _past(c, found.deadline):
        from .forum import deadline_label

        print(f"pbf: 注意：>>{stamped[0].post} などは締切（{_year_label(c, found.deadline)}）の後の時刻ですが、"
              f"今は板の時計で {deadline_label(now, _zone(c), year=True)}、まだ締切前です。この書き込みは遅刻として扱い、"
              "ほかの人はまだ書き直せます。板の時計と campaign の timezone が合っているか確かめてください。"
              " / posts stamped after the deadline, but the clock is before it", file=sys.stderr)
    for detail in private:
        print("pbf（非公開・GMだけに表示）: " + detail, file=sys.stderr)
    return 0


def cmd_deadline(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    if c.state.get("winner") is not None:
        raise PbfError("このバトルはもう決着しています。 / the battle is over")
    deadline = _deadline_arg(args.deadline)
    label = _year_label(c, deadline)
    past = _past(c, deadline)
    if past and not args.force:
        from .forum import deadline_label

        now = deadline_label(_board_now(c), _zone(c), year=True)
        raise PbfError(
            Problem(
                f"{label} は過去の日時です（今は板の時計で {now}）。 / the deadline is in the past",
                hint="年と日付を確かめてください。過去の日時のままにするなら --force を付けてください"
                     "（締切を過ぎているので、pbf turn はすぐに処理できます）。",
            )
        )
    campaigns.set_deadline(c, deadline)
    print(f"第{c.turn + 1}ターンの締切を {label} にしました（pbf status と pbf turn が使います）。")
    if past:
        print("過去の日時です（--force）：締切を過ぎているので、pbf turn はすぐに処理できます。 / in the past")
    return 0


def cmd_commit(args: argparse.Namespace) -> int:
    from .forum import make_commit

    order = _read_text_arg(args.order)
    player = args.player
    if args.campaign:
        c = campaigns.load(args.campaign)
        player = engine.player_name(c, player)
        engine.check_order(c, player, order)  # a wrong order is better found now than at the reveal
    commit_line, reveal_line = make_commit(order)
    print(f"{player}さんの行動：締切までに1行目を、締切の後で2行目を書き込んでください。")
    print(commit_line)
    print(reveal_line)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from . import render

    c = campaigns.load(args.dir)
    summary = c.system.summary(c.state, c.ctx)
    if args.json:
        if args.hands or args.thread is not None:
            raise PbfError("--hands と --thread は --json と一緒には使えません（--json はいつも手札を含みます）。"
                           " / --hands and --thread are for the text view")
        _print_json(summary)
        return 0
    hands = None
    if args.hands:
        hands = _hands_of(c, summary)
        print("pbf: 非公開の手札を含みます。GM だけが見るもので、スレッドには貼らないでください。"
              " / private hands: for the GM only", file=sys.stderr)
    from .upcoming import upcoming as turn_to_come

    found = None
    if args.thread is not None and summary.get("winner") is None:
        source = _thread_source(c, args, False)  # a thread URL is fetched (pbf/fetch.py)
        found = engine.thread_orders(c, Path(args.thread) if source is None else source.thread,
                                     deadline=campaigns.current_deadline(c),
                                     encoding=args.input_encoding if source is None else source.encoding)
    upcoming = turn_to_come(c, summary, found)
    # status.j2 includes common/show_turn.j2 (upcoming) and common/show_hands.j2 (hands)
    sys.stdout.write(render.render(c.system, "status.j2", c.path, summary=summary, options=c.ctx.options,
                                   upcoming=upcoming, hands=hands))
    return 0


def _hands_of(c: campaigns.Campaign, summary: dict[str, Any]) -> dict[str, list[str]]:
    """``pbf show --hands``: every fighter's hand (the GM's view); refused where there are none."""
    if campaigns.hands_redacted(c.path):
        raise PbfError("公開用のコピーなので手札は伏せてあります（GM のフォルダで実行してください）。 / hands hidden")
    fighters = summary.get("fighters", {})
    if c.ctx.options.get("hands") in (None, "free") or not all("hand" in f for f in fighters.values()):
        raise PbfError(f"このキャンペーン（{c.system.title}"
                       f"{'、手札なしの free ルール' if c.ctx.options.get('hands') == 'free' else ''}）には手札がありません。"
                       " / this campaign has no hands")
    return {name: list(f["hand"]) for name, f in fighters.items()}


def cmd_replay(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    from . import export

    if export.hands_hidden(c.path):  # a public export of a battle still going on (docs/archive.md)
        diff, checked = export.public_replay(c)
        if diff:
            print("\n".join(diff), file=sys.stderr)
            return 1
        print(f"公開用の記録です。手札が伏せてあるため再計算はできません。{len(checked)}ターン分の行動の読みと"
              "ダイスの記録のハッシュ、HPとダメージの辻褄を確かめました。 / public export: checked what it holds")
        return 0
    diff = engine.replay(c)
    if diff:
        print("\n".join(diff), file=sys.stderr)
        return 1
    turns = [t for t in c.archived_turns() if t > 0]
    if not turns:
        print("まだ処理したターンがないので、再計算するものはありません。 / no turns to replay")
    else:
        span = f"第{turns[0]}ターン" if len(turns) == 1 else f"第{turns[0]}～{turns[-1]}ターン"
        print(f"再計算しました：{span}の状態と結果は、すべて記録と一致します。 / replay OK")
        from .versions import replay_note

        for line in replay_note(c, turns):  # the same bytes from other versions: say which
            print(line, file=sys.stderr)
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    plan = campaigns.undo_plan(c)
    _board_now(c)  # the clock is read (and a bad PBF_NOW refused) before anything is written
    if args.dry_run:
        print(f"pbf undo は第{plan.turn}ターンを取り消します（--dry-run：何も書き込んでいません）。 / would undo turn {plan.turn}")
    else:
        turn = campaigns.undo(c)
        print(f"第{turn}ターンを取り消しました（記録は history/undone/ に移しました）。 / undid turn {turn}")
    for line in _reopened(c, plan, done=not args.dry_run):
        print(line)
    return 0


def _reopened(c: campaigns.Campaign, plan: campaigns.UndoPlan, done: bool) -> list[str]:
    """What the re-opened turn will be: its deadline, where the next turn reads the thread,
    the next turn's deadline kept."""
    from .forum import deadline_label, parse_deadline, time_left
    from .markers import opening_marker_line, results_marker_line

    turn = plan.turn
    undone = "取り消した" if done else "取り消す"
    if plan.deadline:
        left = time_left(_board_now(c), parse_deadline(plan.deadline), _zone(c))
        when = "締切は過ぎています：pbf turn はすぐに処理できます" if _past(c, plan.deadline) else (
            f"締切まで{left}" if left else "締切の分の最中です")
        lines = [f"やり直す第{turn}ターンの締切：{_year_label(c, plan.deadline)}（このターンを処理したときの締切。{when}）"]
    else:
        lines = [f"やり直す第{turn}ターンの締切：なし（このターンは締切なしで処理されました。"
                 f"決めるなら pbf deadline {c.path} \"YYYY-MM-DD HH:MM\"）"]
    before = plan.previous_window
    if before and before.get("last_post") is not None:
        start = (f"スレッド「{before.get('title') or '（題名なし）'}」なら、第{turn - 1}ターンが読んだ "
                 f">>{before['last_post']} の次（>>{int(before['last_post']) + 1}）から")
    else:
        footer = opening_marker_line() if turn == 1 else results_marker_line(turn - 1)
        start = f"スレッドの「{footer}」の書き込みの後から（なければスレッドの最初から）"
    lines.append(f"次の pbf turn --thread は、{start}読みます（--since N で指定もできます）。")
    if plan.window:
        w = plan.window
        lines.append(f"{undone}第{turn}ターンが読んだのは「{w.get('title') or '（題名なし）'}」の "
                     f">>{w.get('first_post')}〜>>{w.get('last_post')} です。スレッドに残った第{turn}ターンの"
                     "結果の書き込みは雑談として読み飛ばします。")
    else:
        lines.append(f"{undone}第{turn}ターンの行動は行動ファイル（--orders）から読みました。")
    if plan.next_deadline:
        lines.append(f"第{turn + 1}ターンの締切（{_year_label(c, plan.next_deadline)}）は、やり直しの pbf turn が"
                     "次回締切に使います（変えるなら --next-deadline）。")
    return lines


def cmd_reveal(args: argparse.Namespace) -> int:
    """The seed line to paste at the campaign's end: the seed and the commitment it matches."""
    from .dice import seed_commitment

    c = campaigns.load(args.dir)
    if not c.seed:
        raise PbfError("campaign.toml に seed がありません（公開用のコピーには入っていません）。GM のフォルダで"
                       "実行してください。 / no seed in this folder")
    committed = campaigns.archived_yaml(c, 0, "dice.yaml").get("seed_sha256")
    if committed != seed_commitment(c.seed):
        raise PbfError(
            Problem(f"campaign.toml の seed が、開始時に公開したコミットメント（{committed}）と一致しません。"
                    "seed を書き換えていませんか。 / the seed does not match the commitment",
                    hint="開始の投稿（pbf log DIR --turn 0）のコミットメントと、campaign.toml の seed を確かめてください。")
        )
    if c.state.get("winner") is None and not args.force:
        raise PbfError(
            Problem(f"バトルはまだ続いています（第{c.turn}ターンまで処理済み）。シードを知った人は、行動ごとのダイスを"
                    "先に計算できます。 / the battle is not over",
                    hint=f"それでも公開するなら：pbf reveal {c.path} --force")
        )
    from . import render

    text = render.render(c.system, "common/reveal.j2", c.path, seed=c.seed, commitment=committed,
                         turns=c.turn, over=c.state.get("winner") is not None)
    print(f"pbf: スレッドに書き込むシードの公開です。だれでも pbf verify {c.path} --seed … で全ダイスを確かめられます。",
          file=sys.stderr)
    _write(text, _output_encoding(c, args))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    for line in engine.verify(c, args.seed):
        print(line)
    print("すべてのダイスがシードから再計算した値と一致しました。 / every die verified")
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    c = campaigns.load(args.dir)
    campaigns.check_archive(c)  # a damaged archive is refused, as load refuses a damaged state.yaml
    if getattr(args, "next_thread", False):
        _write(_next_thread_post(c, args.turn), _output_encoding(c, args))
        return 0
    if args.turn is not None:
        _write(PART_BREAK.join(engine.post_parts(c, args.turn)), _output_encoding(c, args))
        return 0
    posts = [campaigns.archived(c, turn, "post.txt") for turn in c.archived_turns() if turn > 0]
    _write("\n".join(posts), _output_encoding(c, args))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from . import export

    report = export.export(campaigns.load(args.dir), args.out, seed=args.seed, hands=args.hands)
    seed = "シードあり（pbf verify できます）" if report.seed == "revealed" else "シードなし"
    hands = {"hidden": "手札は伏せました", "shown": "手札は見せています（バトル終了）", "none": "非公開の手札なし"}[report.hands]
    print(f"公開用の記録を「{report.path}」に書き出しました（{report.turns}ターン、{seed}、{hands}）。 / exported")
    if report.left_out:  # never silent: what the copy does not hold
        print("pbf の読まないファイルは公開用の記録に入れませんでした：" + "、".join(report.left_out) + " / left out",
              file=sys.stderr)
    return 0


def cmd_html(args: argparse.Namespace) -> int:
    from .site import build_site, foreign_files

    kept = foreign_files(Path(args.out))
    pages = build_site(campaigns.load(args.dir), args.out, seed=args.seed, hands=args.hands)
    print(f"サイトを「{args.out}」に書き出しました（{pages}ページ。index.html から読めます）。 / site written")
    if kept:  # never silent: the files of the folder that pbf html did not write stay as they were
        print(f"pbf html の書いたものでないファイルはそのまま残しました：{'、'.join(kept)} / kept", file=sys.stderr)
    return 0


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
    from . import balance
    from .campaign import get_system
    from .fsutil import write_file

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
    from . import listing

    c = campaigns.load(args.campaign) if args.campaign else None
    found = listing.collect(args.what, args.system, c)
    if args.json:
        _print_json(found)
    else:
        sys.stdout.write(listing.render_text(found, c))
    return 0


def cmd_set(args: argparse.Namespace) -> int:
    from .listing import toml_value
    from .settings import change_options

    c = campaigns.load(args.dir)
    changes = change_options(c, args.assignments)
    if not changes:
        print("オプションはどれも今の値のままです（変更なし）。 / nothing changed")
        return 0
    print(f"オプションを変えました（第{c.turn + 1}ターンから。変更はそのターンの記録 options.yaml に残ります）：")
    for key, change in changes.items():
        print(f"  {key}：{toml_value(change['before'])} → {toml_value(change['after'])}")
    return 0


def cmd_completion(args: argparse.Namespace) -> int:
    import shtab

    # from the parser as it is now, so that every command and option is in it
    sys.stdout.write(shtab.complete(build_parser(), shell=args.shell))
    return 0


# -- a thread by its address: pbf thread, pbf watch (pbf/fetch.py; docs/forum.md, section 1a) ---

def cmd_thread(args: argparse.Namespace) -> int:
    from . import fetch

    c = campaigns.load(args.dir)
    if args.url is None:
        if args.next:
            raise PbfError("--next には次スレのアドレスが要ります（pbf thread DIR URL --next）。 / --next needs a URL")
        threads = fetch.stored_threads(c.path)
        if not threads:
            print(f"pbf: このキャンペーンにはスレッドが登録されていません（pbf thread {c.path} URL で登録します）。"
                  " / no thread stored", file=sys.stderr)
            return 0
        for t in threads:
            print(f"Part{t.get('part', 1)}：{t['url']}（第{t.get('from_turn', 1)}ターンから）")
        return 0
    threads = fetch.store_thread(c.path, args.url, next_thread=args.next, turn=c.turn)
    last = threads[-1]
    if args.next:
        print(f"pbf: 次スレ（Part{last['part']}）{args.url} を足しました。第{last['from_turn']}ターンからはこのスレッドを読みます。"
              " / the next thread added", file=sys.stderr)
    else:
        print(f"pbf: スレッド {args.url} を登録しました（status・turn・watch は --thread なしで読みます）。"
              " / the campaign's thread stored", file=sys.stderr)
    return 0


def _next_thread_post(c: campaigns.Campaign, turn: int | None) -> str:
    """``pbf log DIR --turn N --next-thread``: the opening post of the next thread: the state
    after turn N, the deadline of the turn after it, the link to the previous thread."""
    from . import fetch, render
    from .forum import deadline_label, parse_deadline

    campaigns.check_archive(c)
    turn = c.turn if turn is None else turn
    if turn not in c.archived_turns():
        raise PbfError(f"第{turn}ターンの記録がありません（記録は第{c.turn}ターンまで）。 / no such turn")
    state = campaigns.archived_yaml(c, turn, campaigns.STATE_FILE)
    summary = c.system.summary(state, c.ctx)
    meta = campaigns.archived_meta(c, turn) if turn > 0 else {}
    threads = fetch.stored_threads(c.path)
    read_from = ((meta.get("thread") or {}).get("source") or {}).get("url")
    previous = read_from or (str(threads[-1]["url"]) if threads else None)
    part = next((int(t.get("part", 1)) for t in threads if previous and t["url"] == previous), len(threads) or 1)
    deadline = campaigns.current_deadline(c, turn + 1)
    when = deadline_label(parse_deadline(deadline), _zone(c)) if deadline else "未定（GMからお知らせします）"
    lines = [f"【{c.system.title}】次スレ（Part{part + 1}）です。"]
    lines.append(f"前スレ：{previous}" if previous else "前スレ：（アドレスは pbf thread で登録できます）")
    lines.append("")
    lines.append(render.render(c.system, "status.j2", c.path, summary=summary, options=c.ctx.options).rstrip("\n"))
    lines.append("")
    if summary.get("winner") is None:
        lines.append(f"第{turn + 1}ターンの締切：{when}")
        marker = c.ctx.options.get("order_marker", "【行動】")
        lines.append(f"行動は{marker}の後に書いてください。前スレに書いた行動も、締切までのものは有効です。")
    return "\n".join(lines) + "\n"


def _receipt_blocks(text: str) -> dict[str, str]:
    """The receipts cut into their players' blocks (a line 「■NAME：…」 starts one)."""
    blocks: dict[str, str] = {}
    key = ""
    for line in text.split("\n"):
        if line.startswith("■") and "：" in line:
            key = line[1:line.index("：")]
        blocks[key] = blocks.get(key, "") + line + "\n"
    return blocks


def cmd_watch(args: argparse.Namespace) -> int:
    """Fetch the thread until the deadline, print the receipts when they change; at the deadline
    the final receipts and, with --take-turn, the turn (--follow: on to the next deadline)."""
    from datetime import timedelta

    from . import fetch
    from .forum import deadline_label, parse_deadline, time_left

    every = max(args.every * 60.0, fetch.MIN_INTERVAL)
    tty = sys.stderr.isatty()
    taken = False
    while True:
        c = campaigns.load(args.dir)
        if c.state.get("winner") is not None:
            print("pbf: このバトルは決着しました。見張りを終わります。 / the battle is over", file=sys.stderr)
            return 0
        deadline = engine.turn_deadline(c, args.deadline)
        if not deadline and taken:
            print(f"pbf: 第{c.turn + 1}ターンの締切が決まっていないので、見張りを終わります"
                  f"（決めたら pbf deadline {c.path} \"YYYY-MM-DD HH:MM\" の後でもう一度 pbf watch）。 / no next deadline",
                  file=sys.stderr)
            return 0
        if not deadline:
            raise PbfError(Problem(f"第{c.turn + 1}ターンの締切が決まっていません。 / no deadline to watch until",
                                   hint=f"pbf deadline {c.path} \"YYYY-MM-DD HH:MM\" で決めるか、--deadline を付けてください。"))
        # the deadline's minute is included: the turn can be taken from the next minute
        end = parse_deadline(deadline) + timedelta(minutes=1)
        zone = _zone(c)
        shown: dict[str, str] = {}
        print(f"pbf: 第{c.turn + 1}ターンの締切 {_year_label(c, deadline)} まで、{every / 60:g}分ごとにスレッドを読みます"
              "（Ctrl-C で止まります）。 / watching the thread", file=sys.stderr)
        while True:
            now = _board_now(c)
            final = now >= end
            found = _thread_orders(c, args, wait=final)
            parts, private = engine.receipts(c, found, now=_board_now(c))
            text = PART_BREAK.join(parts)
            blocks = _receipt_blocks(text)
            stamp = deadline_label(_board_now(c), zone)
            if final:
                print(f"――― {stamp} 締切後の最終の受付 ―――", flush=True)
                _write(text, _output_encoding(c, args))
            elif not shown:
                print(f"――― {stamp} の受付 ―――", flush=True)
                _write(text, _output_encoding(c, args))
            else:
                changed = [b for k, b in blocks.items() if k and shown.get(k) != b]
                if changed:
                    print(f"――― {stamp} 変わった受付 ―――", flush=True)
                    _write("".join(changed), _output_encoding(c, args))
            shown = blocks
            for detail in private:
                print("pbf（非公開・GMだけに表示）: " + detail, file=sys.stderr)
            if final:
                break
            now = _board_now(c)
            wait = min(every, max(0.0, (end - now).total_seconds()))
            nxt = now + timedelta(seconds=wait)
            left = time_left(now, parse_deadline(deadline), zone) or "締切の分です"
            line = f"次の取得 {deadline_label(nxt, zone)}（締切まで{left}）"
            if tty:
                print(f"\r{line}", end="", file=sys.stderr, flush=True)
            else:
                print(f"pbf: {line}", file=sys.stderr)
            fetch.SETTINGS.sleep(wait)
            if tty:
                print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)
        if not args.take_turn:
            return 0
        turn_args = argparse.Namespace(**{**vars(args), "orders": None, "dice": None, "dry_run": False, "json": False,
                                          "early": False, "prefetched": args.thread_source})
        code = cmd_turn(turn_args)
        args.prefetched, args.next_deadline, taken = None, None, True
        if code != 0 or not args.follow:
            return code
        args.deadline = None  # on to the next turn's stored deadline


def _minutes(value: str) -> float:
    try:
        minutes = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"分の数ではありません：{value}") from None
    if not minutes >= 1:
        raise argparse.ArgumentTypeError(f"{value}分は短すぎます。板への負担を避けるため1分以上にしてください")
    return minutes


def _thread_parsers(command: Any) -> None:
    p = command("thread", "キャンペーンのスレッドのアドレスを登録する（--next で次スレ）/ store the campaign's thread URL",
                "pbf thread battle1 https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1700000000/",
                "pbf thread battle1 https://example.5ch.net/test/read.cgi/gameswf/1700000000/ --next",
                "pbf thread battle1", campaign=True, writes=True,
                about="status・turn・watch は --thread なしでこのスレッドを読みます。URL なしで登録済みのスレッドを表示します。")
    p.add_argument("url", nargs="?", metavar="URL", help="スレッドのアドレス / the thread's URL")
    p.add_argument("--next", action="store_true", help="次スレとして足す / add it as the next thread")

    p = command("watch", "締切までスレッドを見張り、受付が変わるたびに表示する / watch the thread until the deadline",
                "pbf watch battle1", "pbf watch battle1 --every 5 --take-turn --next-deadline '2026-12-06 22:00'",
                "pbf watch battle1 --take-turn --follow", campaign=True, writes=True,
                about="締切の後でもう一度読み、最後の受付を表示します。--take-turn でそのままターンを処理します。\n"
                      "Ctrl-C でいつでも止まります（書きかけのものは残りません）。")
    _path(p, "--thread", metavar="FILE|URL", help="スレッド（省略時は pbf thread で登録したもの）/ the thread")
    _thread_options(p)
    p.add_argument("--every", type=_minutes, default=5.0, metavar="MINUTES",
                   help="取得の間隔（分、1以上。既定5）/ minutes between fetches (at least 1)")
    p.add_argument("--take-turn", action="store_true", help="締切の後でターンを処理する / take the turn at the deadline")
    p.add_argument("--follow", action="store_true",
                   help="ターンを処理したら次のターンの締切まで続ける（--take-turn と）/ go on to the next deadline")
    p.add_argument("--next-deadline", metavar="'YYYY-MM-DD HH:MM'",
                   help="次のターンの締切（--take-turn のとき）/ the next turn's deadline")


def version_text() -> str:
    """pbf's version, and those of the libraries that shape its files and posts (a replay on
    another machine is byte-identical only with the same parser, templates and YAML writer)."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for dist in ("lark", "jinja2", "ruamel.yaml"):
        try:
            found.append(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            found.append(f"{dist} （なし）")
    return f"pbf {__version__}\n{', '.join(found)}, Python {platform.python_version()}\n"


class _Version(argparse.Action):
    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        sys.stdout.write(version_text())
        parser.exit(0)


# -- parser -------------------------------------------------------------------------------------
# Every command is made by command() below, which asks for a one-line description and at least
# one example; tests/core/test_cli_gm.py checks that every option has a help text, and the shell
# completion (pbf completion) is generated from this parser at run time.

# What a shell should complete an argument with (the same values as shtab.DIRECTORY / shtab.FILE,
# written out so that building the parser does not import shtab).
_DIRECTORY = {"bash": "_shtab_compgen_dirs", "zsh": "_files -/", "tcsh": "d"}
_FILE = {"bash": "_shtab_compgen_files", "zsh": "_files", "tcsh": "f"}


def _post_number(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"書き込み番号は1以上の整数です（{value}）")
    return number


def _turn_number(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"ターンの番号は0以上の整数です（{value}）") from None


def _encoding(value: str) -> str:
    try:
        known = codecs.lookup(value)
    except LookupError:
        raise argparse.ArgumentTypeError(f"文字コード「{value}」が分かりません（例：utf-8, cp932）") from None
    if not getattr(known, "_is_text_encoding", True):
        raise argparse.ArgumentTypeError(f"「{value}」は文字の文字コードではありません（例：utf-8, cp932）")
    return value


def _path(p: argparse.ArgumentParser, *names: str, kind: dict[str, str] = _FILE, **kwargs: Any) -> argparse.Action:
    action = p.add_argument(*names, **kwargs)
    action.complete = kind  # type: ignore[attr-defined]  # read by shtab
    return action


def _thread_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--since", type=_post_number, metavar="N",
                   help="この番号の書き込みからを今ターンの行動とする（--thread と）/ first post of this turn")
    p.add_argument("--deadline", metavar="'YYYY-MM-DD HH:MM'",
                   help="締切（板の時刻、JST）。後の書き込みは遅刻。省略時は pbf deadline で設定したもの"
                        "（--thread と）/ deadline")
    p.add_argument("--encoding", metavar="ENC", type=_encoding,
                   help="出力（結果の書き込み）の文字コード（例：cp932）/ encoding of the output")
    p.add_argument("--input-encoding", metavar="ENC", type=_encoding,
                   help="読むファイル（スレッドか行動ファイル）の文字コード。省略時は自動判定"
                        "（スレッド：UTF-8・CP932・EUC-JP、行動ファイル：UTF-8・BOM付き・CP932）/ input encoding")
    p.add_argument("--offline", action="store_true",
                   help="スレッドを取得せず、手元の写し（前に取得したもの）をそのまま使う / use pbf's copy of the thread as it is")


class _Unbuilt:
    """A sub-command left unbuilt: ``main`` builds only the command it runs (start-up: each
    sub-parser costs argparse and gettext work; benchmarks/bench.py)."""

    def add_argument(self, *args: Any, **kwargs: Any) -> Any:
        return argparse.Namespace()  # _path() sets .complete on it


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``only``, that sub-command alone (the others are not built, so
    ``pbf --help`` and a wrong command name need the whole one)."""
    parser = _Parser(
        prog="pbf",
        description="掲示板（PBF）バトルの一括処理：Alter EGO ―オルタリゴ― とライダーバトル"
                    " / play-by-forum batch processor",
        epilog="例：\n  pbf demo\n  pbf list riders\n  pbf new battle1 --system alterego --player 美鈴=meiling"
               " --player 名無し=plain\n\n各コマンドの説明：pbf COMMAND --help",
    )
    parser.add_argument("--version", action=_Version,
                        help="pbf と lark・jinja2・ruamel.yaml の版を表示する / show the versions")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND",
                                title="コマンド")

    def command(name: str, summary: str, *examples: str, campaign: bool = False, writes: bool = False,
                about: str = "") -> argparse.ArgumentParser:
        """A subcommand: ``summary`` is its one line (also in ``pbf --help``), ``examples`` are shown
        under 例 in its --help (tests/core/test_cli_gm.py asks every command for one); ``writes``:
        it changes files (an error then says nothing was written)."""
        if only is not None and name != only:
            return _Unbuilt()  # type: ignore[return-value]
        p = sub.add_parser(name, help=summary, description=summary + (f"\n\n{about}" if about else ""),
                           epilog="例：\n" + "\n".join(f"  {e}" for e in examples) if examples else None)
        if campaign:
            _path(p, "dir", kind=_DIRECTORY, metavar="DIR", help="キャンペーンのフォルダ / campaign folder")
        p.set_defaults(func=globals()[f"cmd_{name}"], writes=writes)
        return p

    p = command("new", "キャンペーンのフォルダを作る / create a campaign folder",
                "pbf new battle1 --system alterego --player 美鈴=meiling --player 名無し=plain",
                "pbf new battle2 --system rider --player 城戸=ryuki --player 蓮=knight --set turn_limit=10",
                campaign=True, writes=True,
                about="campaign.toml・state.yaml・history/ を作り、ダイスのシード・コミットメントを表示します。\n"
                      "選べるキャラクターとオプション：pbf list")
    p.add_argument("--system", required=True, choices=SYSTEMS,
                   help="ゲーム：alterego（Alter EGO ―オルタリゴ―）か rider（ライダーバトル）/ the game")
    p.add_argument("--player", action="append", metavar="NAME=CHARACTER",
                   help="参加者と使うキャラクターのID（繰り返し可）。NAME◆TRIP=… でトリップ、=CHARACTER@TEAM でチームも"
                        " / a player and their character id")
    p.add_argument("--seed", help="ダイスの秘密のシード（省略時は自動生成）/ the secret dice seed")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="オプション（繰り返し可。一覧は pbf list options）/ an option")
    p.add_argument("--deadline", metavar="'YYYY-MM-DD HH:MM'",
                   help="第1ターンの締切（開始の投稿に載せる）/ the first turn's deadline")
    p.add_argument("--thread", metavar="URL",
                   help="キャンペーンのスレッドのアドレス（status・turn・watch が読む）/ the campaign's thread URL")

    p = command("check", "行動がどう読まれるか確かめる（何も書き込みません）/ check how one order reads",
                "pbf check battle1 --player 美鈴 '↑→弱弱'",
                "echo '近寄る / ソードベント' | pbf check battle2 --player 城戸 -",
                "pbf check battle1 --player 美鈴 '↑→弱弱' --json", campaign=True)
    p.add_argument("--player", required=True, metavar="NAME",
                   help="プレイヤーの名前（その人だけが使うキャラクターの名前でも）/ the player")
    p.add_argument("order", help="行動（- で標準入力から）/ the order (- reads stdin)")
    p.add_argument("--json", action="store_true",
                   help="読み取りを JSON で出力する（誤りがあっても。docs/check.md）/ the reading as JSON")
    p.add_argument("--odds", action="store_true",
                   help="読み取りの後にオッズを1行（docs/odds.md）/ add one line of odds")

    p = command("odds", "行動の見込み（命中・ダメージ・移動の確率、相手の全プロットへの結果）を計算する / exact odds of an order",
                "pbf odds battle2 --player 城戸 '近寄る / ソードベント'",
                "pbf odds battle1 --player 美鈴 '↑→弱弱'",
                "pbf odds battle1 --player 美鈴 '↑→弱弱' --json", campaign=True,
                about="自分から見える情報だけで計算します（相手の非公開の手札や今ターンの行動は読みません）。")
    p.add_argument("--player", required=True, metavar="NAME",
                   help="プレイヤーの名前 / the player")
    p.add_argument("order", help="行動（- で標準入力から）/ the order (- reads stdin)")
    p.add_argument("--hand", metavar="CARDS",
                   help="Alter EGO：自分の手札（公開用の記録で手札が伏せてあるとき）/ your own hand")
    p.add_argument("--no-best", action="store_true",
                   help="Alter EGO：手札からの上位プロットを計算しない / skip the best plots")
    p.add_argument("--json", action="store_true", help="JSON で出力する（docs/odds.md）/ print JSON")

    p = command("turn", "次のターンを処理して結果の書き込みを表示する / resolve the next turn",
                "pbf turn battle1 --orders turn1.txt --dry-run",
                "pbf turn battle1 --orders turn1.txt",
                "pbf turn battle1 --thread thread.dat --deadline '2026-11-29 22:00' --encoding cp932 > post.txt",
                campaign=True, writes=True,
                about="行動は --orders（行動ファイル）か --thread（スレッド）のどちらかから読みます。\n"
                      "行動に一つでも誤りがあれば、すべての問題を表示して何も書き込みません。")
    _path(p, "--orders", metavar="FILE",
          help="行動ファイル（[名前] 行動 …。- で標準入力）/ the orders file")
    _path(p, "--thread", metavar="FILE|URL",
          help="スレッド（.dat か read.cgi のコピー、またはスレッドのアドレス）から行動を読む。"
               "pbf thread で登録したスレッドなら省略可 / read the orders from a thread (a file or its URL)")
    _thread_options(p)
    p.add_argument("--dry-run", action="store_true", help="何も書き込まずに結果だけ表示する / write nothing")
    p.add_argument("--json", action="store_true", help="結果の代わりに JSON を出力する / print JSON instead of the post")
    p.add_argument("--dice", metavar="FACES",
                   help="先に使うダイスの目（例：4,1,1,5,4,4）。実物のダイスを振るとき / dice faces to use first")
    p.add_argument("--next-deadline", metavar="'YYYY-MM-DD HH:MM'",
                   help="次のターンの締切（結果の投稿に載せ、保存する）/ the next turn's deadline")
    p.add_argument("--early", action="store_true",
                   help="締切の前に処理する（GM判断。turn.yaml と結果の投稿に載る）/ resolve before the deadline")

    p = command("status", "スレッドの行動の受付状況（受理／エラー／未提出）を表示する / receipts",
                "pbf status battle1 --thread thread.dat",
                "pbf status battle1 --thread thread.dat --deadline '2026-11-29 22:00'", campaign=True)
    _path(p, "--thread", metavar="FILE|URL",
          help="スレッド（.dat か read.cgi のコピー、またはスレッドのアドレス）。pbf thread で登録したスレッドなら省略可"
               " / the thread file or its URL")
    _thread_options(p)

    p = command("commit", "秘密の行動の【コミット】行と【公開】行を作る / commit-reveal lines",
                "pbf commit --player 刃 '近寄る / ソードベント'",
                "pbf commit --campaign battle2 --player 刃 '近寄る / ソードベント'",
                about="締切までに【コミット】行を、締切の後で【公開】行を書き込みます\n"
                      "（オプション orders=commit のキャンペーン）。")
    _path(p, "--campaign", kind=_DIRECTORY, metavar="DIR",
          help="キャンペーン（指定すると行動を先に確かめる）/ check the order against this campaign")
    p.add_argument("--player", required=True, metavar="NAME", help="プレイヤーの名前 / the player")
    p.add_argument("order", help="行動（- で標準入力から）/ the order (- reads stdin)")

    p = command("show", "現在の状況（距離、HP、ライダーの能力値、デッキ、締切、行動の有無）を表示する / current status",
                "pbf show battle1", "pbf show battle1 --thread thread.dat", "pbf show battle1 --hands",
                "pbf show battle1 --json", campaign=True,
                about="次のターンの締切と、各プレイヤーの行動の有無（--thread でスレッドの行動・コミット）も表示します。")
    p.add_argument("--json", action="store_true",
                   help="JSON で出力する（GM用：非公開の手札も含む）/ JSON, the GM's view with private hands")
    p.add_argument("--hands", action="store_true",
                   help="各自の手札も表示する（GM用：スレッドに貼らない）/ show the private hands (GM only)")
    _path(p, "--thread", metavar="FILE|URL",
          help="スレッド（ファイルかアドレス）から、だれが行動（コミット）を書き込んだかも表示する / who has posted an order")
    p.add_argument("--input-encoding", metavar="ENC", type=_encoding,
                   help="スレッドの文字コード（省略時は自動判定）/ the thread's encoding")

    command("replay", "記録から全ターンを再計算して照合する / re-resolve every archived turn",
            "pbf replay battle1", campaign=True)

    p = command("undo", "最後のターンを取り消す（記録は history/undone/ へ）/ roll back the last turn",
                "pbf undo battle1 --dry-run", "pbf undo battle1", campaign=True, writes=True,
                about="締切は、取り消したターンを処理したときのもの（turn.yaml）に戻ります。")
    p.add_argument("--dry-run", action="store_true",
                   help="何も書き込まず、取り消すターンとやり直すターンの締切・読む範囲を表示する / write nothing")

    p = command("verify", "シードでダイスを検証する / verify every die from the seed",
                "pbf verify battle1 --seed 公開されたシード", campaign=True)
    p.add_argument("--seed", help="公開されたシード（省略時は campaign.toml の seed）/ the revealed seed")

    p = command("reveal", "シードの公開の書き込み（シードとコミットメント）を表示する / print the seed line to post",
                "pbf reveal battle1", "pbf reveal battle1 > reveal.txt", campaign=True,
                about="キャンペーンの終わりにスレッドに書き込みます。だれでも pbf verify でダイスを確かめられます。\n"
                      "バトルが続いている間は --force が必要です（シードを知るとダイスを先読みできるため）。")
    p.add_argument("--force", action="store_true",
                   help="バトルが終わる前でも表示する / show it before the battle's end")

    p = command("log", "全ターンの結果の書き込みを順に表示する / print every results post",
                "pbf log battle1", "pbf log battle1 --turn 3", "pbf log battle1 --turn 0", campaign=True)
    p.add_argument("--turn", type=_turn_number, metavar="N",
                   help="このターンの投稿だけを、板に合わせた分割のまま表示（0は開始の投稿）/ one turn's post")
    p.add_argument("--next-thread", action="store_true",
                   help="第Nターン（--turn、省略時は最後のターン）までの状況で、次スレの最初の書き込みを表示する"
                        " / the opening post of the next thread")

    p = command("deadline", "今のターンの締切を設定する / set the current turn's deadline",
                "pbf deadline battle1 '2026-12-05 22:00'", campaign=True, writes=True,
                about="pbf status と pbf turn が使い、結果の投稿に載ります。過去の日時は --force なしでは断ります。")
    p.add_argument("deadline", metavar="'YYYY-MM-DD HH:MM'", help="締切（板の時刻、JST）/ the deadline")
    p.add_argument("--force", action="store_true", help="過去の日時でも設定する / accept a date in the past")

    for name, summary, example, out in (
        ("export", "公開用の記録（シードと進行中の手札を除いたコピー）を書き出す / a public copy of the campaign",
         "pbf export battle1 battle1-public", "書き出し先（新しいか空のフォルダ）/ the new folder"),
        ("html", "キャンペーンの静的サイト（目次、ターンごとのページ、グラフ）を作る / a static site of the campaign",
         "pbf html battle1 site/", "サイトのフォルダ（新しいか、前に pbf html が作ったもの）/ the site folder"),
    ):
        p = command(name, summary, example, f"{example} --seed 公開されたシード", campaign=True, writes=True,
                    about="スレッドに出たものだけを使います（docs/archive.md）。")
        _path(p, "out", kind=_DIRECTORY, metavar="OUT", help=out)
        p.add_argument("--seed", help="公開されたシード（コミットメントと一致すれば含める）/ the revealed seed")
        p.add_argument("--hands", choices=("end", "never"), default="end",
                       help="非公開の手札：end＝バトル終了後は見せる（既定）、never＝見せない / private hands after the end")

    p = command("demo", "同梱のデモを実行して結果を表示する / run the bundled demos",
                "pbf demo", "pbf demo --keep demo-campaigns", writes=True)
    _path(p, "--keep", kind=_DIRECTORY, metavar="DIR",
          help="デモのキャンペーンをこのフォルダ（新しいか空のもの）に残す / keep the campaigns there")

    p = command("list", "選べるもの（キャラクター、ライダー、モンスター、カード、オプション）を表示する"
                        " / what a GM or player can choose",
                "pbf list", "pbf list riders", "pbf list cards --system alterego", "pbf list options --json",
                "pbf list characters --campaign battle1",
                about="能力値、技（カード → 技、射程、ダメージ）、デッキ、\nオプションの既定値と意味を表示します。")
    if not isinstance(p, _Unbuilt):
        from .listing import KINDS

        p.add_argument("what", nargs="?", choices=KINDS, metavar="{" + ",".join(KINDS) + "}",
                       help="表示するもの（省略時はすべて）/ what to list (all when omitted)")
    p.add_argument("--system", choices=SYSTEMS, help="このゲームだけ（省略時は両方）/ only this game")
    _path(p, "--campaign", kind=_DIRECTORY, metavar="DIR",
          help="このキャンペーンのデータ（data/ を含む）とオプションの今の値で / with this campaign's data and options")
    p.add_argument("--json", action="store_true", help="JSON で出力する / print JSON")

    p = command("set", "キャンペーンのオプションを変える（次のターンから）/ change a campaign's options",
                "pbf set battle1 hands=open", "pbf set battle2 turn_limit=10 max_lines=32",
                campaign=True, writes=True,
                about="値は pbf new --set と同じように確かめ、campaign.toml に書きます（数は数として）。\n"
                      "変更は次のターンの記録（history/NNNN/options.yaml）に残り、\n"
                      "pbf replay は各ターンをその時のオプションで再計算します。\n"
                      "今の値の一覧：pbf list options --campaign DIR")
    p.add_argument("assignments", nargs="+", metavar="KEY=VALUE", help="オプションと新しい値 / option and value")

    p = command("balance", "全部の組み合わせをNPC同士で戦わせた勝率の表 / a win-rate table, NPC against NPC",
                "pbf balance --system rider --battles 50",
                "pbf balance --system alterego --level hard --battles 20 --html balance.html",
                "pbf balance --system rider --data battle2 --fighters ryuki,knight,blade_wolf",
                about="固定のシードで対戦するので、同じデータからは同じ表になります（docs/npc.md）。\n"
                      "勝率は引き分けを0.5勝として数え、95%信頼区間（Wilson）を添えます。")
    p.add_argument("--system", required=True, choices=SYSTEMS, help="ゲーム / the game")
    _path(p, "--data", kind=_DIRECTORY, metavar="DIR",
          help="このデータ（キャンペーンのフォルダか data/ フォルダ）で / with this data folder or campaign")
    p.add_argument("--battles", type=int, default=20, metavar="N", help="各組の対戦数（既定20）/ battles per pair")
    p.add_argument("--level", choices=("random", "normal", "hard"), default="normal",
                   help="NPCの強さ（既定 normal）/ the NPCs' level")
    p.add_argument("--versus", choices=("random", "normal", "hard"),
                   help="参加者Bの強さ（既定は --level と同じ）/ the second fighter's level")
    p.add_argument("--fighters", metavar="ID,ID,…", help="このファイターだけ / only these fighters")
    p.add_argument("--html", metavar="FILE", help="グラフ付きのページも書き出す / also write an HTML page")
    p.add_argument("--json", action="store_true", help="JSON で出力する / print JSON")

    p = command("completion", "シェルの補完スクリプトを出力する / print a shell completion script",
                "eval \"$(pbf completion bash)\"",
                "pbf completion bash > ~/.local/share/bash-completion/completions/pbf",
                "pbf completion zsh > \"${fpath[1]}/_pbf\"",
                about="いまの pbf のコマンドとオプションから作ります（版が上がったら作り直してください）。")
    p.add_argument("shell", choices=("bash", "zsh"), help="シェルの種類 / the shell")
    _thread_parsers(command)
    return parser


# The sub-commands (each has its cmd_NAME above); main() builds only the one it runs.
_COMMANDS = ("new", "check", "odds", "turn", "status", "commit", "show", "replay", "undo", "verify", "reveal", "log", "deadline",
             "export", "html",
             "demo", "list", "set", "balance", "completion", "thread", "watch")

_NOT_EMPTY = ("dice", "deadline", "next_deadline", "seed", "orders", "thread", "keep", "player", "dir", "campaign")


def _stored_thread(folder: str) -> bool:
    from .fetch import THREADS_FILE

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
    with _JapaneseArgparse():
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
