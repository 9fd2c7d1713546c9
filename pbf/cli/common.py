"""What the commands share: reading an order or a file from the command line, writing a post in
the board's encoding, the board's clock for a deadline, the modules a command loads on first use."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .. import campaign as campaigns
from ..errors import PbfError, Problem

if TYPE_CHECKING:
    import argparse
    from typing import Any


class _OnFirstUse:
    """A module imported when a command first uses it: each command loads only what it needs."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        import importlib

        return getattr(importlib.import_module(self._name), attr)


checking: Any = _OnFirstUse("pbf.turn.check")


turns: Any = _OnFirstUse("pbf.turn.run")


window: Any = _OnFirstUse("pbf.turn.thread")


replays: Any = _OnFirstUse("pbf.turn.replay")


demo: Any = _OnFirstUse("pbf.cli.demo")


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
    from ..board.orders import decode

    from ..fsutil import read_bytes

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
    from ..board.forum import normalize_deadline

    return normalize_deadline(value)


def _board_now(c: campaigns.Campaign):
    """Now on the board's clock (the campaign's timezone), naive like the board's timestamps;
    the environment variable PBF_NOW stands in for it (docs/forum.md, "The clock")."""
    from ..board.forum import board_now

    return board_now(c.ctx.options.get("timezone", "JST"))


def _zone(c: campaigns.Campaign) -> str:
    return c.ctx.options.get("timezone", "JST")


def _past(c: campaigns.Campaign, deadline: str) -> bool:
    """Whether the board's clock is past ``deadline`` (its minute included, as for posts)."""
    from ..board.forum import is_late, parse_deadline

    return is_late(_board_now(c), parse_deadline(deadline))


def _year_label(c: campaigns.Campaign, deadline: str) -> str:
    from ..board.forum import deadline_label, parse_deadline

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

    from ..board.forum import deadline_label, parse_deadline, time_left

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
    from ..board.boardfit import board_safe

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
