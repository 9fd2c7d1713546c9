"""A campaign's options: the core's own, coerced from campaign.toml or ``--set``; the board's
character set; and the options changed during a campaign (``pbf set``), turn by turn."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .. import GUIDE_URL, yamlio
from ..errors import PbfError, Problem, nearest
from ..fsutil import atomic_write, fsync_dir, read_bytes
from ..systems.base import Context
from .layout import HISTORY, OPTIONS_PENDING, OPTIONS_RECORD, turn_dir_name

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any
    from ..systems.base import GameSystem, Player
    from .layout import Campaign


# Options the core itself understands (the systems add their own); docs/forum.md.
CORE_OPTIONS: dict[str, Any] = {
    "order_marker": "【行動】",  # a thread post's order follows this marker
    "missing": "stand",  # a missing order: "stand" (the game's empty order, 未提出) or "repeat" (継続)
    "orders": "plain",  # "commit": secret orders by commit–reveal in the thread
    "guide_url": GUIDE_URL,  # the player's guide linked from the opening post ({system}: alterego/rider; "": none)
    "gm": "",  # "NAME" or "NAME◆TRIP": only the GM's posts end a turn window
    # the board's encoding: every post is made safe for it and measured in it (unset: CP932), and
    # posts and receipts are printed in it (unset: UTF-8); docs/forum.md, "Board limits and encodings"
    "encoding": "",
    "max_lines": 0,  # the board's limits per post (0: no limit)
    "max_bytes": 0,
    "timezone": "JST",  # the board's clock, in which deadlines are written: JST, UTC, ±HH:MM or a zone name
    # pbf plays these fighters (docs/npc.md): "NAME" or "NAME:LEVEL", comma-separated (also --player NAME=NPC:ID)
    "npc": "",
    "npc_level": "normal",  # an NPC's level when none is given: random / normal / hard
    "npc_explain": "on",  # "off": the results post reveals the NPC's order without the line explaining it
}


_CHOICES = {"missing": ("stand", "repeat"), "orders": ("plain", "commit"), "npc_level": ("random", "normal", "hard"),
            "npc_explain": ("on", "off")}


def parse_set_option(spec: str) -> tuple[str, str]:
    key, sep, value = spec.partition("=")
    if not sep or not key.strip():
        raise PbfError(
            Problem("--set は「キー=値」の形で指定してください（例：--set hands=free）。 / expected KEY=VALUE", text=spec)
        )
    return key.strip(), value.strip()


def coerce_options(system: GameSystem, raw: dict[str, Any]) -> dict[str, Any]:
    """Defaults merged with the campaign's options, each checked by its owner."""
    options = dict(CORE_OPTIONS)
    options.update(system.default_options)
    known = list(options)
    for key, value in raw.items():
        if key not in options:
            suggestion = nearest(key, known)
            raise PbfError(
                Problem(
                    f"というオプションは{system.title}にはありません（あるのは {', '.join(known)}）。 / unknown option",
                    text=key,
                    hint=f"もしかして「{suggestion}」？" if suggestion else None,
                )
            )
        if key in CORE_OPTIONS:
            options[key] = _coerce_core_option(key, value)
        else:
            options[key] = system.coerce_option(key, value)
    return options


def _coerce_core_option(key: str, value: Any) -> Any:
    default = CORE_OPTIONS[key]
    if isinstance(default, int):
        try:
            number = int(value)
        except (TypeError, ValueError):
            number = -1
        if isinstance(value, bool) or number < 0:
            raise PbfError(Problem(f"オプション {key} は0以上の整数です。 / {key} must be a whole number ≥ 0", text=str(value)))
        return number
    value = str(value)
    if key in _CHOICES and value not in _CHOICES[key]:
        raise PbfError(
            Problem(f"オプション {key} は {' / '.join(_CHOICES[key])} のどれかです。 / bad value for {key}", text=value)
        )
    if key == "encoding" and value.strip():
        if not board_encoding(value):
            raise PbfError(
                Problem(
                    "は板の文字コードに使えません（日本語の書ける文字コード、例：cp932, utf-8, euc-jp）。"
                    " / not a board encoding",
                    text=value,
                )
            )
    if key == "timezone":
        from ..board.forum import parse_timezone

        parse_timezone(value)
    if key == "guide_url" and value and (not re.match(r"https?://[^\s/]+", value) or re.search(r"\s", value)):
        raise PbfError(
            Problem(
                "オプション guide_url は http:// か https:// で始まるアドレスです（空にするとガイドの行を載せません）。"
                " / guide_url must be an http(s) address",
                text=value,
                hint=f"既定は {GUIDE_URL}（{{system}} はゲームの名前 alterego / rider になります）",
            )
        )
    if key == "order_marker" and not value.strip():
        raise PbfError("オプション order_marker が空です。 / empty order marker")
    if key == "order_marker" and _unprintable(value) is not None:
        raise PbfError(
            Problem(
                f"オプション order_marker に{_unprintable(value)}は使えません（行の先頭に書く一行の印です）。"
                " / the order marker must be one line of printable characters",
                text=_visible(value),
                hint="例：order_marker=【行動】",
            )
        )
    if key == "gm" and value.strip():
        check_gm(value)
    return value


_GM_BRACKETS = "[]【】［］"


def _unprintable(text: str) -> str | None:
    """How to name the first line break or control character of ``text`` (None: there is none)."""
    for ch in text:
        if ch in "\n\r\u2028\u2029\u0085":
            return "改行"
        if not ch.isprintable() and ch not in " \u3000":
            return f"制御文字（U+{ord(ch):04X}）"
    return None


def _visible(text: str) -> str:
    """``text`` with its line breaks and control characters written as escapes (``\\n``)."""
    return "".join(
        ch if ch.isprintable() or ch in " \u3000" else ch.encode("unicode_escape").decode("ascii") for ch in text
    )


def check_gm(value: str) -> None:
    """Option ``gm``: ``NAME`` or ``NAME◆TRIP``, as the GM's posts show it: a name (no brackets —
    they are refused in player names too —, line breaks or control characters) and, after one ◆,
    a trip of 6–16 letters, digits and ``./+``."""
    name, mark, trip = value.partition("◆")
    why = None
    if not name.strip():
        why = "◆の前に名前がありません" if mark else "名前が空です"
    elif _unprintable(name) is not None:
        why = f"名前に{_unprintable(name)}は使えません"
    elif any(ch in _GM_BRACKETS for ch in name):
        why = f"名前に括弧「{next(ch for ch in name if ch in _GM_BRACKETS)}」は使えません"
    elif mark and not re.fullmatch(r"[./0-9A-Za-z+]{6,16}", trip.strip()):
        why = "◆の後はトリップ（英数字と ./+ の6〜16文字）です"
    if why is None:
        return
    shown = _visible(value)
    raise PbfError(
        Problem(
            f"オプション gm は「名前」か「名前◆トリップ」です：{why}。 / gm must be NAME or NAME◆TRIP",
            text=shown[:40],
            hint="例：gm=GM◆Ab3dEf6hIj（GM の書き込みの名前欄のとおりに。空にすると誰の結果の書き込みでも区切りになります）",
        )
    )


BOARD_DEFAULT = "cp932"  # what a post is made safe for when the campaign names no encoding


def board_charset(options: dict[str, Any]) -> str:
    """The encoding a post is made safe for and measured in: the campaign's ``encoding``, else CP932."""
    return str(options.get("encoding") or "") or BOARD_DEFAULT


def board_encoding(name: str) -> bool:
    """A text encoding a Japanese board could use: known, ASCII-compatible, and able to write kana."""
    import codecs

    try:
        info = codecs.lookup(name)
        # str.encode refuses a codec that is not a text encoding (base64, rot13, …): LookupError
        return info is not None and "A1【あ".encode(name)[:2] == b"A1"
    except (LookupError, UnicodeError, TypeError, ValueError):
        return False


def build_context(system: GameSystem, players: list[Player], raw_options: dict[str, Any], path: Path | None) -> Context:
    data_dir = path / "data" if path is not None and (path / "data").is_dir() else None
    data = system.load_data(data_dir)
    by_name = {p.name: p for p in players}
    system.check_players(by_name, data)
    return Context(system=system.name, players=by_name, data=data, options=coerce_options(system, raw_options))


# -- options changed during a campaign (pbf set) -------------------------------------------------
# `pbf set` rewrites campaign.toml and notes {key: {before, after}} in history/options-pending.yaml;
# the next turn carries that note into its archive as options.yaml. Replaying an earlier turn
# undoes the later changes (their `before`), so every turn is replayed with the options it had.

def option_changes(campaign: Campaign, turn: int | None = None) -> dict[str, dict[str, Any]]:
    """The changes a turn's archive carries (``turn``), or the pending ones (None).

    The pending note is only trusted for its ``before`` (what the last turn had): what is in force
    now is campaign.toml's, the commit point of ``pbf set``. A note that a killed ``pbf set`` wrote
    before it could replace campaign.toml, or a key set back to its ``before``, is no change."""
    if turn is None:
        current = campaign.ctx.options
        return {
            key: {"before": change["before"], "after": current[key]}
            for key, change in _pending_raw(campaign).items()
            if key in current and change["before"] != current[key]
        }
    path = campaign.history / f"{turn_dir_name(turn)}/{OPTIONS_RECORD}"
    if not path.is_file():
        return {}
    return _option_record(path, f"{HISTORY}/{path.relative_to(campaign.history).as_posix()}")


def _pending_raw(campaign: Campaign) -> dict[str, dict[str, Any]]:
    """history/options-pending.yaml as written (keys whose value came back to ``before`` included)."""
    path = campaign.history / OPTIONS_PENDING
    if not path.is_file():
        return {}
    return _option_record(path, f"{HISTORY}/{OPTIONS_PENDING}")


def _decoded(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PbfError(f"{where} が UTF-8 ではありません（{exc.start + 1}バイト目）。 / not UTF-8") from None


def _option_record(path: Path, where: str) -> dict[str, dict[str, Any]]:
    data = yamlio.plain(yamlio.load(_decoded(read_bytes(path, where), where), where))
    changed = data.get("changed") if isinstance(data, dict) else None
    if not isinstance(changed, dict) or not all(isinstance(v, dict) and {"before", "after"} <= set(v) for v in changed.values()):
        raise PbfError(f"{where} の形が正しくありません（changed: キー: {{before, after}}）。 / malformed option record")
    return changed


def record_option_changes(campaign: Campaign, changes: dict[str, dict[str, Any]], older: bool = False,
                          keep: bool = False) -> None:
    """Merge ``changes`` into the pending ones: the first ``before`` and the last ``after`` of a key
    are kept (``older``: ``changes`` happened before the pending ones); a key back at its
    ``before`` is no change at all. ``keep``: such a key stays in the note all the same (``pbf
    set`` writes the note before its commit point, campaign.toml: until that is replaced, the
    ``before`` is still needed)."""
    pending = _pending_raw(campaign)
    for key, change in changes.items():
        if key in pending:
            first, last = (change, pending[key]) if older else (pending[key], change)
            change = {"before": first["before"], "after": last["after"]}
        pending[key] = change
    if not keep:
        pending = {k: v for k, v in pending.items() if v["before"] != v["after"]}
    write_option_note(campaign, pending)


def write_option_note(campaign: Campaign, pending: dict[str, dict[str, Any]]) -> None:
    path = campaign.history / OPTIONS_PENDING
    if pending:
        atomic_write(path, yamlio.dump_data({"changed": pending}))
    else:
        path.unlink(missing_ok=True)
        fsync_dir(campaign.history)


def tidy_option_note(campaign: Campaign) -> None:
    """After ``pbf set``'s commit point: drop the keys that are back at their ``before``."""
    raw = _pending_raw(campaign)
    kept = {k: v for k, v in raw.items() if v["before"] != v["after"]}
    if kept != raw:
        write_option_note(campaign, kept)


def _pending_options_text(campaign: Campaign) -> str | None:
    """The pending changes for the turn being committed; None when there are none, or when the
    last turn already carries exactly them (a run stopped between its commit and the clean-up)."""
    pending = option_changes(campaign)
    if not pending:
        return None
    text = yamlio.dump_data({"changed": pending})
    last = campaign.turn_dir(campaign.turn) / OPTIONS_RECORD
    if last.is_file() and read_bytes(last).decode("utf-8", "replace") == text:
        return None
    return text


def options_by_turn(campaign: Campaign) -> dict[int, dict[str, Any]]:
    """The options each archived turn was resolved with, in one pass from today's backwards:
    today's, less the pending changes, less the changes each later turn's archive carries."""
    options = dict(campaign.ctx.options)
    for key, change in option_changes(campaign).items():
        options[key] = change["before"]
    out: dict[int, dict[str, Any]] = {}
    for turn in reversed(campaign.archived_turns()):
        out[turn] = dict(options)
        for key, change in option_changes(campaign, turn).items():
            options[key] = change["before"]
    return out


def at_turn(campaign: Campaign, options: dict[str, Any]) -> Campaign:
    """The campaign with the options a turn had (``options_by_turn``), for replay and verify."""
    if options == campaign.ctx.options:
        return campaign
    from dataclasses import replace

    return replace(campaign, ctx=replace(campaign.ctx, options=options))
