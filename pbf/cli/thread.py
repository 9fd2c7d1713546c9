"""The campaign's thread by its address: ``pbf thread`` and ``pbf watch`` (docs/forum.md, section 1a)."""

from __future__ import annotations

import argparse
import sys

from .. import campaign as campaigns
from ..board.boardfit import PART_BREAK
from ..errors import PbfError, Problem
from .common import _board_now, _output_encoding, _write, _year_label, _zone, window
from .play import _thread_orders, cmd_turn


# -- a thread by its address: pbf thread, pbf watch (pbf/fetch.py; docs/forum.md, section 1a) ---

def cmd_thread(args: argparse.Namespace) -> int:
    from ..board import fetch

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
    from ..board import fetch
    from .. import render
    from ..board.forum import deadline_label, parse_deadline

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

    from ..board import fetch
    from ..board.forum import deadline_label, parse_deadline, time_left

    every = max(args.every * 60.0, fetch.MIN_INTERVAL)
    tty = sys.stderr.isatty()
    taken = False
    while True:
        c = campaigns.load(args.dir)
        if c.state.get("winner") is not None:
            print("pbf: このバトルは決着しました。見張りを終わります。 / the battle is over", file=sys.stderr)
            return 0
        deadline = window.turn_deadline(c, args.deadline)
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
            parts, private = window.receipts(c, found, now=_board_now(c))
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
