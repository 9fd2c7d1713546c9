"""The commands of playing a turn: ``pbf new``, ``check``, ``odds``, ``turn``, ``status``, ``deadline``,
``commit``, ``show``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .. import campaign as campaigns
from ..board.boardfit import PART_BREAK
from ..dice import parse_dice_list
from ..errors import PbfError, Problem
from .common import SavedButNotShown, _board_now, _deadline_arg, _encoded, _hold_until_deadline, _json_text, _output_encoding, _past, _print_json, _read_orders_file, _read_text_arg, _warn_if_past, _write, _write_bytes, _year_label, _zone, checking, turns, window

if TYPE_CHECKING:
    import argparse
    from typing import Any
    from ..board.sources import ThreadOrders


# -- commands -----------------------------------------------------------------------------------

def cmd_new(args: argparse.Namespace) -> int:
    players = [campaigns.parse_player_spec(p) for p in args.player or []]
    options = dict(campaigns.parse_set_option(s) for s in args.set or [])
    deadline = _deadline_arg(args.deadline)
    if deadline:  # the clock is read (and a bad PBF_NOW refused) before anything is written
        from ..board.forum import board_now

        board_now(str(options.get("timezone", "JST")))
    if args.thread is not None:  # checked before anything is written
        from ..board.fetch import parse_address

        parse_address(args.thread)
    from ..turn.zero import new_campaign

    c = new_campaign(args.dir, args.system, players, seed=args.seed, options=options, deadline=deadline)
    if args.thread is not None:
        from ..board.fetch import store_thread

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
    _write(PART_BREAK.join(turns.post_parts(c, 0)), _output_encoding(c, args))
    return 0


def _tell_notices(c: campaigns.Campaign, turn: int) -> None:
    """On stderr: which private notices to send, to whom, with their paths (turn 0 and each turn)."""
    folder = c.turn_dir(turn) / "notices"
    if not folder.is_dir():
        return
    from ..campaign.layout import safe_filename

    names = [name for name in c.ctx.players if (folder / f"{safe_filename(name)}.txt").is_file()]
    if not names:
        return
    what = "最初の手札" if turn == 0 else f"第{turn}ターンの後"
    print(f"pbf: 非公開の通知（{what}）：それぞれ本人にだけ送ってください。", file=sys.stderr)
    for name in names:
        print(f"  {name}さんへ：{folder / (safe_filename(name) + '.txt')}", file=sys.stderr)


def cmd_check(args: argparse.Namespace) -> int:
    if args.odds:
        return _check_with_odds(args)
    if not args.json:
        c = campaigns.load(args.dir)
        sys.stdout.write(checking.check_order(c, args.player, _read_text_arg(args.order)))
        return 0
    # --json: the reading as data on stdout (docs/check.md), also when the order is wrong; the
    # problems go to stderr as well, as without --json, and the exit status is the same
    c = None
    try:
        c = campaigns.load(args.dir)
        data = checking.check_data(c, args.player, _read_text_arg(args.order))
    except PbfError as error:
        _print_json(checking.check_failure(c, args.player, error))
        raise
    _print_json(data)
    return 0


def _check_with_odds(args: argparse.Namespace) -> int:
    """``pbf check --odds``: the reading, then one line of odds (docs/odds.md; opt-in, since the odds
    cost more than the reading: pbf/odds is imported only here and by ``pbf odds``)."""
    from .. import odds

    c = campaigns.load(args.dir)
    text = _read_text_arg(args.order)
    if args.json:
        data = checking.check_data(c, args.player, text)
        data["odds"] = odds.short_line(odds.compute(c, args.player, text, best=False)).strip()
        _print_json(data)
        return 0
    reading = checking.check_order(c, args.player, text)
    sys.stdout.write(reading + odds.short_line(odds.compute(c, args.player, text, best=False)))
    return 0


def cmd_odds(args: argparse.Namespace) -> int:
    from .. import odds

    c = campaigns.load(args.dir)
    data = odds.compute(c, args.player, _read_text_arg(args.order), hand=args.hand, best=not args.no_best)
    if args.json:
        _print_json(odds.as_json(data))
    else:
        sys.stdout.write(odds.render(data))
    return 0


def _thread_orders(c: campaigns.Campaign, args: argparse.Namespace, wait: bool = False) -> ThreadOrders:
    deadline = window.turn_deadline(c, args.deadline)
    source = _thread_source(c, args, wait)
    thread = Path(args.thread) if source is None else source.thread
    encoding = args.input_encoding if source is None else source.encoding
    found = window.thread_orders(c, thread, since=args.since, deadline=deadline, encoding=encoding)
    if source is not None and source.source:  # turn.yaml: where the thread came from
        found.meta["thread"]["source"] = source.source
    args.thread_source, args.thread_before = source, None
    if source is not None and args.since is None:
        found = _from_both_threads(c, args, source, found, deadline)
    return found


def _from_both_threads(c: campaigns.Campaign, args: argparse.Namespace, source: Any, found: Any, deadline: Any) -> Any:
    """The first turn of the next thread (pbf thread --next) reads the previous thread too."""
    from ..turn import address

    before = address.previous_thread(c, source)
    if before is None:
        return found
    old = address.thread_input(c, str(before["url"]), offline=getattr(args, "offline", False), wait=False,
                               encoding=args.input_encoding)
    found_old = window.thread_orders(c, old.thread, deadline=deadline, encoding=old.encoding)
    args.thread_before = (old, found_old, int(before.get("part", source.part - 1)))
    return address.merge_threads(c, found_old, found, int(before.get("part", source.part - 1)), source.part)


def _thread_source(c: campaigns.Campaign, args: argparse.Namespace, wait: bool) -> Any:
    """A thread given by its address (or the campaign's stored one), fetched: pbf/turn/address.py
    and pbf/board/fetch.py, imported only then. None for a thread file."""
    if getattr(args, "prefetched", None) is not None:  # pbf watch --take-turn: what the final fetch read
        return args.prefetched
    given = args.thread
    if given is not None and not given.strip().lower().startswith(("http://", "https://")) \
            and not getattr(args, "offline", False):
        return None
    from ..turn import address

    return address.thread_input(c, given, offline=getattr(args, "offline", False), wait=wait,
                                encoding=args.input_encoding)


def _thread_archive(args: argparse.Namespace, found: Any) -> dict[str, bytes]:
    """The thread as the turn read it, for its folder: thread.dat (thread.txt for a copy)."""
    window = found.meta.get("thread") or {}
    source = getattr(args, "thread_source", None)
    if source is not None:
        data = source.data()
    else:
        from ..fsutil import read_bytes

        data = read_bytes(Path(args.thread), args.thread)
    from ..board.fetch import archive_name, read_upto

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
            window.refuse_taken_window(c, found)
        if _hold_until_deadline(c, found.deadline, args):
            meta["early"] = True
        record = turns.run_turn(c, found.orders_text, fixed=fixed, sources=found.sources, meta={**found.meta, **meta})
        record.files = _thread_archive(args, found)
        notes = found.notes
    else:
        # --since and --deadline without --thread: a usage error (_check_usage)
        deadline = window.turn_deadline(c, None)
        if deadline:
            meta["deadline"] = deadline
        if _hold_until_deadline(c, deadline, args):
            meta["early"] = True
        orders = _read_orders_file(args.orders, args.input_encoding)
        record = turns.run_turn(c, orders, fixed=fixed, meta={"orders_from": "file", **meta})
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
    parts, private = window.receipts(c, found, now=now)
    _write(PART_BREAK.join(parts), _output_encoding(c, args))
    for note in found.notes:
        print("pbf: " + note.format(), file=sys.stderr)
    stamped = [late for late in found.collected.late if late.posted_at is not None]
    if found.deadline and stamped and not _past(c, found.deadline):
        from ..board.forum import deadline_label

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
        from ..board.forum import deadline_label

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
    from ..board.forum import make_commit

    order = _read_text_arg(args.order)
    player = args.player
    if args.campaign:
        c = campaigns.load(args.campaign)
        player = checking.player_name(c, player)
        checking.check_order(c, player, order)  # a wrong order is better found now than at the reveal
    commit_line, reveal_line = make_commit(order)
    print(f"{player}さんの行動：締切までに1行目を、締切の後で2行目を書き込んでください。")
    print(commit_line)
    print(reveal_line)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from .. import render

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
    from ..turn.upcoming import upcoming as turn_to_come

    found = None
    if args.thread is not None and summary.get("winner") is None:
        source = _thread_source(c, args, False)  # a thread URL is fetched (pbf/fetch.py)
        found = window.thread_orders(c, Path(args.thread) if source is None else source.thread,
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
