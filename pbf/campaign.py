"""The campaign folder: campaign.toml, state.yaml and history/ (product.md, "Campaign folder").

``campaign.toml`` is read with tomllib and written once, by ``pbf new``, with tomli-w.
``state.yaml`` is a round-trip YAML document: a turn merges the new state into it, so the
GM's comments survive. Every write is atomic. A turn's commit point is one rename: its
complete ``history/NNNN/`` folder into place; state.yaml and deadline.yaml are then derived from
it, and a run killed in between is finished by the next command (:func:`_reconcile`).
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import tempfile
import unicodedata
from contextlib import contextmanager
from dataclasses import field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from . import GUIDE_URL, resources, yamlio
from .dice import Dice, seed_commitment
from .errors import PbfError, Problem, nearest
from .fsutil import atomic_write, fsync_dir, make_temp_dir, read_bytes, write_file, write_files
from .systems import SYSTEMS, get_system
from .systems.base import Context, GameSystem, Player
from .record import record

CAMPAIGN_FILE = "campaign.toml"
STATE_FILE = "state.yaml"
HISTORY = "history"
DEADLINE_FILE = "deadline.yaml"  # the current turn's deadline (pbf deadline)
TURN_META = "turn.yaml"  # per turn: rules version, where the orders came from, deadline, notes
LOCK_FILE = ".pbf.lock"
UNDONE = "undone"
OPTIONS_RECORD = "options.yaml"  # history/NNNN/: the options `pbf set` changed, in force from that turn
OPTIONS_PENDING = "options-pending.yaml"  # history/: changes not yet carried by a turn

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


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


def turn_dir_name(turn: int) -> str:
    return f"{turn:04d}"


@record
class Campaign:
    path: Path
    config: dict[str, Any]
    system: GameSystem
    ctx: Context
    seed: str
    state_doc: Any = None  # state.yaml's round-trip document, read when a GM's edit needs it
    state: dict[str, Any] = field(default_factory=dict)
    state_text: str = ""  # state.yaml as read

    @property
    def turn(self) -> int:
        return int(self.state.get("turn", 0))

    @property
    def history(self) -> Path:
        return self.path / HISTORY

    def turn_dir(self, turn: int) -> Path:
        return self.history / turn_dir_name(turn)

    def archived_turns(self) -> list[int]:
        """The turns in history/, in order. One listing of the folder, with the kind of each entry
        from the listing itself (no stat per turn: a 1,000-turn history is listed in about 0.2 ms)."""
        try:
            with os.scandir(self.history) as entries:
                return sorted(int(e.name) for e in entries if e.name.isdigit() and e.is_dir())
        except (FileNotFoundError, NotADirectoryError):
            return []


# -- players and options ---------------------------------------------------------------

# pbf new's patterns: compiled on first use through re's own cache, not at every import
_PLAYER_SPEC = (
    r"^(?P<name>[^=◆]+?)\s*(?:◆(?P<trip>[^=\s]+))?\s*=\s*(?P<character>[^@\s]+)(?:\s*@\s*(?P<team>\S+))?$"
)


def parse_player_spec(spec: str) -> Player:
    """``NAME[◆TRIP]=CHARACTER[@TEAM]`` (``pbf new --player``)."""
    match = re.match(_PLAYER_SPEC, unicodedata.normalize("NFKC", spec).strip())
    if not match:
        raise PbfError(
            Problem(
                "--player は「名前=キャラクター」の形で指定してください（例：--player 美鈴=meiling）。"
                " / expected NAME=CHARACTER",
                text=spec,
            )
        )
    trip = match["trip"] or None
    if trip is not None and not re.fullmatch(r"[./0-9A-Za-z+]{6,16}", trip):
        raise PbfError(
            Problem("トリップは◆の後の英数字（6〜16文字、例：◆Ab3dEf6hIj）です。 / malformed trip", text=spec)
        )
    character, npc = match["character"], None
    if character.lower().startswith("npc:"):  # NAME=NPC:ID or NAME=NPC:LEVEL:ID (docs/npc.md)
        from .npc import DEFAULT_LEVEL, parse_level

        parts = character.split(":")
        if len(parts) not in (2, 3) or not parts[-1]:
            raise PbfError(Problem("NPCは「名前=NPC:キャラクター」か「名前=NPC:強さ:キャラクター」で指定してください"
                                   "（例：--player 'ミラーモンスター=NPC:blade_wolf'）。 / expected NAME=NPC:[LEVEL:]CHARACTER",
                                   text=spec))
        npc = parse_level(parts[1], "--player") if len(parts) == 3 else DEFAULT_LEVEL
        character = parts[-1]
    return Player(name=match["name"].strip(), character=character, trip=trip, team=match["team"], npc=npc)


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
        from .forum import parse_timezone

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
        return bool(getattr(info, "_is_text_encoding", True)) and "A1【あ".encode(name)[:2] == b"A1"
    except (LookupError, UnicodeError, TypeError, ValueError):
        return False


def build_context(system: GameSystem, players: list[Player], raw_options: dict[str, Any], path: Path | None) -> Context:
    data_dir = path / "data" if path is not None and (path / "data").is_dir() else None
    data = system.load_data(data_dir)
    by_name = {p.name: p for p in players}
    system.check_players(by_name, data)
    return Context(system=system.name, players=by_name, data=data, options=coerce_options(system, raw_options))


# -- loading -------------------------------------------------------------------------------

def _parse_toml(raw: bytes) -> dict[str, Any]:
    import tomllib

    if len(raw) > yamlio.MAX_BYTES:
        raise ValueError(f"too large: {len(raw):,} bytes")
    text = raw.decode("utf-8-sig")
    if text.count("[") + text.count("{") > yamlio.MAX_DEPTH and _toml_depth(text) > yamlio.MAX_DEPTH:
        raise PbfError(f"{CAMPAIGN_FILE} の入れ子が深すぎます（{yamlio.MAX_DEPTH}段まで）。 / nesting too deep")
    return tomllib.loads(text)


def _toml_depth(text: str) -> int:
    """The deepest nesting of inline arrays and tables (strings and comments skipped roughly)."""
    depth = deepest = 0
    for token in re.findall(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]', text):
        if token in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in ("]", "}"):
            depth = max(depth - 1, 0)
    return deepest


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        raw = read_bytes(path, CAMPAIGN_FILE)
    except FileNotFoundError:
        raise PbfError(
            Problem(
                f"{path} がありません。キャンペーンのフォルダを指定してください（新しく作るには pbf new）。"
                " / campaign.toml not found",
            )
        ) from None
    try:
        return resources.parsed("toml", raw, _parse_toml)
    except UnicodeDecodeError as exc:
        raise PbfError(f"{path} が UTF-8 ではありません（{exc.start}バイト目）。 / not UTF-8") from None
    except RecursionError:
        raise PbfError(f"{path.name} の入れ子が深すぎます。 / nesting too deep") from None
    except ValueError as exc:  # tomllib.TOMLDecodeError (tomllib is imported only when a text is new)
        match = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        raise PbfError(
            Problem(
                f"{path.name} の TOML が読めません（{exc}）。 / malformed TOML",
                line=int(match[1]) if match else None,
                column=int(match[2]) if match else None,
            )
        ) from None


def players_from_config(config: dict[str, Any], source: str) -> list[Player]:
    table = config.get("players")
    if not isinstance(table, dict) or not table:
        raise PbfError(f"{source} に [players] がありません（[players.\"名前\"] character = \"…\"）。 / no players")
    players = []
    for name, entry in table.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("character"), str):
            raise PbfError(
                Problem(f"{source} の [players.\"{name}\"] に character（文字列）がありません。 / missing character", text=name)
            )
        team = entry.get("team")
        trip = entry.get("trip")
        for key, value in (("trip", trip), ("team", team)):
            if value is not None and not isinstance(value, str):
                raise PbfError(
                    Problem(f"{source} の [players.\"{name}\"] の {key} は文字列です。 / {key} must be a string", text=str(value)[:20])
                )
        if trip is not None and not re.fullmatch(r"◆?[./0-9A-Za-z+]{6,16}", trip):
            raise PbfError(
                Problem(f"{source} の [players.\"{name}\"] の trip は◆の後の英数字（6〜16文字）です。 / malformed trip", text=trip[:20])
            )
        npc = entry.get("npc")
        if npc is not None:
            from .npc import parse_level

            npc = parse_level(str(npc), f"{source} の [players.\"{name}\"] npc")
        players.append(
            Player(
                name=nfkc(name),
                character=entry["character"],
                team=str(team) if team is not None else None,
                trip=str(trip) if trip is not None else None,
                npc=npc,
            )
        )
    return players


def load_config(path: Path) -> tuple[dict[str, Any], GameSystem, Context, str]:
    source = CAMPAIGN_FILE
    config = _read_toml(path / CAMPAIGN_FILE)
    system_name = config.get("system")
    if system_name not in SYSTEMS:
        raise PbfError(
            Problem(
                f"{source} の system は {' / '.join(SYSTEMS)} のどれかです。 / unknown system",
                text=str(system_name),
            )
        )
    seed = config.get("seed", "")
    if not isinstance(seed, str):
        raise PbfError(f"{source} の seed は文字列です。 / seed must be a string")
    system = get_system(system_name)
    options = config.get("options", {})
    if not isinstance(options, dict):
        raise PbfError(f"{source} の [options] は表でなければなりません。 / options must be a table")
    ctx = build_context(system, players_from_config(config, source), options, path)
    return config, system, ctx, seed


def load(path: "Path | str") -> Campaign:
    path = Path(path)
    if not path.is_dir():
        raise PbfError(f"キャンペーンのフォルダ「{path}」がありません。 / campaign folder not found")
    config, system, ctx, seed = load_config(path)
    state_path = path / STATE_FILE
    try:
        text = read_bytes(state_path, STATE_FILE).decode("utf-8-sig")
    except FileNotFoundError:
        raise PbfError(f"{state_path} がありません。 / state.yaml not found") from None
    except UnicodeDecodeError as exc:
        raise PbfError(f"{state_path} が UTF-8 ではありません（{exc.start}バイト目）。 / not UTF-8") from None
    state = yamlio.load_plain(text, STATE_FILE)
    turn = state.get("turn") if isinstance(state, dict) else None
    if (
        not isinstance(state, dict) or not isinstance(turn, int) or isinstance(turn, bool) or turn < 0
        or state.get("system") not in (None, system.name)
    ):
        raise PbfError(
            f"{STATE_FILE} の形が正しくありません（turn: 0以上の数字 のある表が必要です）。 / malformed state.yaml"
        )
    from .validate import validate_state

    validate_state(state, text, STATE_FILE, system.name, ctx.players, ctx.data, ctx.options, hands_redacted(path))
    campaign = Campaign(path=path, config=config, system=system, ctx=ctx, seed=seed, state=state, state_text=text)
    if _reconcile(campaign):  # a turn or an undo was half done: finished now, read again
        return load(path)
    return campaign


# -- the commit point and recovery -------------------------------------------------------------
# A turn is committed by one rename: its complete folder becomes history/NNNN. What follows
# (deadline.yaml, state.yaml, the pending options) is derived from that folder, so a run killed
# in between is finished by the next command. An undo is committed by one rename too: the
# folder moves to history/undone/; state.yaml then becomes the state the turn started from.

def _tell(message: str) -> None:
    import sys

    try:
        print("pbf: " + message, file=sys.stderr)
    except (OSError, ValueError):
        pass


def _archive_top(campaign: Campaign) -> int | None:
    history = campaign.history
    if not history.exists():
        return None
    if not history.is_dir():
        raise PbfError(f"{HISTORY} がフォルダではありません（ファイルです）。 / history is not a folder")
    turns = campaign.archived_turns()
    return turns[-1] if turns else None


def _same_state(a: str, b: str, where: str) -> bool:
    return a == b or yamlio.load_plain(a, where) == yamlio.load_plain(b, where)


def _reconcile(campaign: Campaign) -> bool:
    """Check state.yaml's turn against the archive; finish a half-done turn or undo (True when
    something was finished). A state that agrees with neither is an error: nothing is moved."""
    top = _archive_top(campaign)
    if top is None:
        return False
    turn = campaign.turn
    leftovers = _leftovers(campaign)
    if turn == top and not leftovers:
        return False
    with _locked(campaign.path) as busy:
        if busy:
            if turn == top:
                return False
            raise PbfError("別の pbf がこのキャンペーンを処理中です。終わってからもう一度どうぞ。 / the campaign is busy")
        for leftover in leftovers:  # temporary files of a run that was killed
            if leftover.is_dir() and not leftover.is_symlink():
                shutil.rmtree(leftover, ignore_errors=True)
            else:
                leftover.unlink(missing_ok=True)
        if turn == top:
            return False
        if turn == top - 1 and _same_state(campaign.state_text, state_before(campaign, top), STATE_FILE):
            _finish_turn(campaign, top)
            _tell(f"前回の pbf turn が途中で止まっていました。記録のある第{top}ターンまでを確定しました。")
            return True
        if turn == top + 1:
            for folder in _undone_folders(campaign, turn):
                saved = folder / STATE_FILE
                if saved.is_file() and _same_state(campaign.state_text, _decoded(read_bytes(saved), str(saved)), STATE_FILE):
                    _finish_undo(campaign, folder, _undone_before(campaign, folder, turn), turn)
                    _tell(f"前回の pbf undo が途中で止まっていました。第{turn}ターンの取り消しを終えました。")
                    return True
    raise PbfError(
        Problem(
            f"{STATE_FILE} の turn（{turn}）が記録（{HISTORY}/ の最後は第{top}ターン）と合いません。"
            " / state.yaml disagrees with the archive",
            hint=f"{STATE_FILE} を手で直したなら turn を {top} に戻してください。記録のほうが要らないなら、"
            f"そのターンのフォルダを {HISTORY}/{UNDONE}/ に移してください（pbf はどちらも自動ではしません）。",
        )
    )


_TEMP_NAME = re.compile(r"^\.(?:\d{4}\.|.+\.tmp$)")


def _leftovers(campaign: Campaign) -> list[Path]:
    """Temporary files and folders that a killed run left (names as fsutil and mkdtemp make them)."""
    found = []
    for folder in (campaign.path, campaign.history):
        try:
            with os.scandir(folder) as entries:  # names only: a path is made for a leftover alone
                names = [e.name for e in entries]
        except OSError:
            continue
        found.extend(folder / name for name in names if _TEMP_NAME.match(name))
    return found


def _undone_folders(campaign: Campaign, turn: int) -> list[Path]:
    into = campaign.history / UNDONE
    if not into.is_dir():
        return []
    name = turn_dir_name(turn)
    found = [p for p in into.iterdir() if p.is_dir() and re.fullmatch(rf"{name}(?:-\d+)?", p.name)]
    return sorted(found, key=lambda p: (len(p.name), p.name), reverse=True)


def _undone_before(campaign: Campaign, folder: Path, turn: int) -> str:
    if (folder / "before.yaml").is_file():
        return _decoded(read_bytes(folder / "before.yaml"), str(folder / "before.yaml"))
    return archived(campaign, turn - 1, STATE_FILE)


def _finish_turn(campaign: Campaign, turn: int, written: "TurnRecord | None" = None, state_text: str = "") -> str:
    """What follows a turn's commit point, all of it derived from ``history/NNNN`` (idempotent).
    ``written``/``state_text``: what the commit just wrote there (not read back)."""
    meta = written.meta if written is not None else archived_meta(campaign, turn)
    if meta.get("next_deadline"):
        atomic_write(campaign.path / DEADLINE_FILE, deadline_text(turn + 1, str(meta["next_deadline"])))
    state_text = state_text if written is not None else archived(campaign, turn, STATE_FILE)
    # the pending option changes are now the turn's (its options.yaml): the note goes before
    # state.yaml says the turn is done, so that no later `pbf set` merges into a spent note
    (campaign.history / OPTIONS_PENDING).unlink(missing_ok=True)
    # the history folder's rename (and the note's removal) reach the disk with state.yaml's new
    # text, before its replace
    atomic_write(campaign.path / STATE_FILE, state_text, also_sync=campaign.history)
    return state_text


def _finish_undo(campaign: Campaign, folder: Path, before: str, turn: int) -> None:
    """What follows an undo's commit point (the turn's folder is already in history/undone/)."""
    if (folder / OPTIONS_RECORD).is_file():  # the option changes wait for the next turn again
        record_option_changes(campaign, _option_record(folder / OPTIONS_RECORD, f"{HISTORY}/{UNDONE}/{folder.name}/{OPTIONS_RECORD}"), older=True,
                              keep=True)  # a key back at its "before" may be a killed pbf set's note: kept
    # the deadline goes back to the one the turn was taken under (its turn.yaml); the next
    # turn's, which deadline.yaml held, stays in it as ``later``, for the turn taken again
    held = _deadline_file(campaign.path / DEADLINE_FILE, tolerant=True)
    taken_under = _turn_deadlines(folder, tolerant=True)[0]
    if taken_under and (held is None or held[0] != turn):  # (== turn: written already, a recovery)
        later = (turn + 1, held[1]) if held and held[0] == turn + 1 else None
        atomic_write(campaign.path / DEADLINE_FILE, deadline_text(turn, taken_under, later))
    atomic_write(campaign.path / STATE_FILE, before)


def _turn_deadlines(folder: Path, tolerant: bool = False) -> tuple[str | None, str | None]:
    """A turn folder's ``(deadline, next_deadline)`` from its turn.yaml (None where it has none).
    Not ``tolerant``: a malformed one is refused; tolerant: read as none (a recovery)."""
    from .forum import normalize_deadline

    path = folder / TURN_META
    inside = f"{UNDONE}/{folder.name}" if folder.parent.name == UNDONE else folder.name
    where = f"{HISTORY}/{inside}/{TURN_META}"
    try:
        if not path.is_file():
            return None, None
        meta = yamlio.load_plain(_decoded(read_bytes(path, where), where), where)
        if not isinstance(meta, dict):
            raise PbfError(f"記録 {where} の形が正しくありません。 / malformed archive file")
        found = []
        for key in ("deadline", "next_deadline"):
            value = meta.get(key)
            if value is not None and not isinstance(value, str):
                raise PbfError(f"記録 {where} の {key} が日時の文字列ではありません。 / malformed {key}")
            found.append(normalize_deadline(value) if value else None)
        return found[0], found[1]
    except PbfError:
        if tolerant:
            return None, None
        raise


def _deadline_file(path: Path, tolerant: bool = False) -> tuple[int, str, tuple[int, str] | None] | None:
    """deadline.yaml as ``(turn, deadline, later)``, ``later`` the next turn's ``(turn,
    deadline)`` that an undo kept; None when there is none."""
    if not path.exists():
        return None
    try:
        data = yamlio.plain(yamlio.load(read_bytes(path, DEADLINE_FILE).decode("utf-8-sig"), DEADLINE_FILE))
    except UnicodeDecodeError as exc:
        if tolerant:
            return None
        raise PbfError(f"{DEADLINE_FILE} が UTF-8 ではありません（{exc.start + 1}バイト目）。 / not UTF-8") from None
    except PbfError:
        if tolerant:
            return None
        raise
    if not isinstance(data, dict) or not isinstance(data.get("turn"), int) or not isinstance(data.get("deadline"), str):
        if tolerant:
            return None
        raise PbfError(
            Problem(f"{DEADLINE_FILE} の形が正しくありません（turn: 数字 と deadline: 'YYYY-MM-DD HH:MM'）。 / malformed")
        )
    later = data.get("later")
    if later is not None and not (isinstance(later, dict) and isinstance(later.get("turn"), int)
                                  and isinstance(later.get("deadline"), str)):
        if tolerant:
            return data["turn"], data["deadline"], None
        raise PbfError(
            Problem(f"{DEADLINE_FILE} の later の形が正しくありません（turn: 数字 と deadline: 'YYYY-MM-DD HH:MM'）。"
                    " / malformed")
        )
    return data["turn"], data["deadline"], (later["turn"], later["deadline"]) if later else None


# -- creating ---------------------------------------------------------------------------------

def new_seed() -> str:
    return os.urandom(16).hex()


def initial_state(system: GameSystem, ctx: Context, seed: str) -> tuple[dict[str, Any], Dice]:
    """Turn 0: things drawn at creation use N = 0 with empty orders (product.md)."""
    dice = Dice.seeded(seed, 0, "")
    return system.new_state(ctx, dice), dice


def campaign_toml(system: str, seed: str, players: list[Player], options: dict[str, Any]) -> str:
    table: dict[str, Any] = {"system": system, "seed": seed, "players": {}}
    for p in players:
        entry: dict[str, Any] = {"character": p.character}
        if p.trip:
            entry["trip"] = p.trip
        if p.team:
            entry["team"] = p.team
        if p.npc:
            entry["npc"] = p.npc
        table["players"][p.name] = entry
    if options:
        table["options"] = dict(options)
    import tomli_w

    return tomli_w.dumps(table)


def create(
    path: "Path | str", system_name: str, players: list[Player], seed: str | None = None,
    options: dict[str, Any] | None = None, extra: Path | None = None, deadline: str | None = None,
) -> Campaign:
    """Make a new campaign folder (``pbf new``). ``extra``: a folder whose data/ and templates/ are
    copied. Turn 0 is archived like a turn: the initial state, the dice, each player's private
    notice (first hand) and the opening post for the thread (``history/0000/post.txt``)."""
    path = Path(path)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise PbfError(f"「{path}」はすでにあり、空ではありません。 / refusing a non-empty folder")
    system = get_system(system_name)
    seen: set[str] = set()
    for p in players:
        check_player_name(p.name)
        if p.name in seen:
            raise PbfError(Problem(f"プレイヤー「{p.name}」が二回指定されています。 / duplicate player", text=p.name))
        seen.add(p.name)
    if not players:
        raise PbfError("プレイヤーを --player 名前=キャラクター で指定してください。 / no players")
    options = dict(options or {})
    seed = seed if seed is not None else new_seed()
    if not seed:
        raise PbfError("--seed が空です。 / empty seed")
    ctx = build_context(system, players, options, extra)
    check_options = getattr(system, "check_options", None)  # options that bound each other
    if check_options is not None:
        check_options(ctx.options)
    if ctx.options.get("npc"):
        from .npc import check_npc_option

        check_npc_option(ctx.options["npc"], list(ctx.players))
    state, dice = initial_state(system, ctx, seed)
    state = dict(state)
    state.setdefault("turn", 0)
    from .engine import turn_zero

    zero_files = turn_zero(system, ctx, state, seed, extra, deadline)

    try:
        parent = path.resolve().parent
        parent.mkdir(parents=True, exist_ok=True)
        tmp = make_temp_dir(f".{path.name}.", parent)
    except OSError as exc:
        shown = str(path) if len(str(path)) <= 60 else str(path)[:59] + "…"
        raise PbfError(f"「{shown}」にキャンペーンを作れません（{exc.strerror or exc}）。 / cannot create the folder") from None
    try:
        if extra is not None:
            for sub in ("data", "templates"):
                if (extra / sub).is_dir():
                    shutil.copytree(extra / sub, tmp / sub)
        typed = {key: ctx.options[key] for key in options}  # numbers as numbers, not "32"
        write_file(tmp / CAMPAIGN_FILE, campaign_toml(system_name, seed, players, typed))
        state_text = yamlio.dump_data(state)
        write_file(tmp / STATE_FILE, state_text)
        zero = tmp / HISTORY / turn_dir_name(0)
        zero.mkdir(parents=True)
        write_file(zero / STATE_FILE, state_text)
        zero_record = {"seed_sha256": seed_commitment(seed), **dice_record(0, "", [], dice)}
        write_file(zero / "dice.yaml", yamlio.dump_data(zero_record))
        for name, text in zero_files.items():
            (zero / name).parent.mkdir(parents=True, exist_ok=True)
            write_file(zero / name, text)
        if deadline:
            write_file(tmp / DEADLINE_FILE, deadline_text(1, deadline))
        if path.exists():
            path.rmdir()
        os.rename(tmp, path)
        fsync_dir(parent)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return load(path)


# -- turns ------------------------------------------------------------------------------------

def dice_record(turn: int, canonical: str, fixed: list[int], dice: Dice) -> dict[str, Any]:
    from .dice import sha256_hex

    record: dict[str, Any] = {
        "turn": turn,
        "orders_sha256": sha256_hex(canonical),
        "orders_canonical": canonical,
    }
    if fixed:
        record["fixed"] = list(fixed)
    record["draws"] = list(dice.draws)
    return record


@record
class TurnRecord:
    turn: int
    orders_text: str
    canonical: str
    fixed: list[int]
    dice: Dice
    state: dict[str, Any]
    events: list[dict[str, Any]]
    post: str
    notices: Mapping[str, str]  # player -> text (engine.Notices: rendered when first read)
    parts: list[str] = field(default_factory=list)  # the post split to fit the board, when it must be
    meta: dict[str, Any] = field(default_factory=dict)  # turn.yaml: rules version, thread window, deadline, notes
    files: dict[str, bytes] = field(default_factory=dict)  # more files of the turn's folder: the thread as read


@contextmanager
def exclusive(campaign: Campaign) -> Iterator[None]:
    """Hold the campaign's lock, and make sure state.yaml is still what this run read:
    two GMs running a turn at once must not both write turn N."""
    with _locked(campaign.path) as busy:
        if busy:
            raise PbfError("別の pbf がこのキャンペーンを処理中です。終わってからもう一度どうぞ。 / the campaign is busy")
        current = read_bytes(campaign.path / STATE_FILE, STATE_FILE).decode("utf-8-sig")
        if current != campaign.state_text and yamlio.load_plain(current, STATE_FILE) != campaign.state:
            raise PbfError(
                "state.yaml が読み込んだ後に変わりました（別の pbf か手での編集）。もう一度実行してください。"
                " / state.yaml changed while pbf was running"
            )
        yield


@contextmanager
def _locked(folder: Path) -> Iterator[bool]:
    """The campaign's advisory lock (``.pbf.lock``), never followed through a symlink; yields
    True when another pbf holds it. POSIX (Linux, macOS) locks the file with ``fcntl.flock``,
    Windows its first byte with ``msvcrt.locking``: either is let go when pbf ends, even killed,
    and another pbf is told the same 「処理中です」 everywhere (docs/architecture.md, "Windows")."""
    lock_path = folder / LOCK_FILE
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    if lock_path.is_symlink():
        raise PbfError(f"{LOCK_FILE} がシンボリックリンクです。消してからもう一度どうぞ。 / the lock file is a symlink")
    try:
        fd = os.open(lock_path, flags, 0o666)
    except IsADirectoryError:
        raise PbfError(f"{LOCK_FILE} がフォルダです。消してからもう一度どうぞ。 / the lock file is a folder") from None
    except OSError as exc:
        if lock_path.is_dir():  # Windows says "permission denied" for a folder
            raise PbfError(f"{LOCK_FILE} がフォルダです。消してからもう一度どうぞ。 / the lock file is a folder") from None
        raise PbfError(f"{LOCK_FILE} を開けません（{exc.strerror}）。 / cannot open the lock file") from None
    unlock = None
    try:
        busy, unlock = _lock_fd(fd)
        yield busy
    finally:
        if unlock is not None:
            try:
                unlock()
            except OSError:
                pass  # closing the file lets the lock go as well
        os.close(fd)


def _lock_fd(fd: int) -> tuple[bool, Callable[[], None] | None]:
    """Take the lock on the open lock file without waiting: (busy, how to let it go)."""
    try:
        import fcntl
    except ImportError:
        fcntl = None
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True, None
        return False, None  # closing the file lets it go
    try:
        import msvcrt
    except ImportError:  # neither POSIX nor Windows: no lock, the state check of exclusive() still holds
        return False, None
    # Windows: a byte-range lock on the file's first byte (a range past the end is allowed);
    # the file is opened for appending, so its position stays at 0 until it is written to
    os.lseek(fd, 0, os.SEEK_SET)
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError as exc:
        if exc.errno in (errno.EACCES, getattr(errno, "EDEADLOCK", errno.EDEADLK), errno.EDEADLK):
            return True, None  # another pbf holds it
        raise PbfError(f"{LOCK_FILE} をロックできません（{exc.strerror}）。 / cannot lock the lock file") from None

    def unlock() -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

    return False, unlock


def commit_turn(campaign: Campaign, record: TurnRecord) -> None:
    """Write ``history/NNNN/`` and the new ``state.yaml``: all of it or none of it."""
    with exclusive(campaign):
        _commit_turn(campaign, record)


def _commit_turn(campaign: Campaign, record: TurnRecord) -> None:
    history = campaign.history
    history.mkdir(exist_ok=True)
    final = campaign.turn_dir(record.turn)
    if final.exists():  # load() finishes a half-done turn, so this folder is not pbf's
        raise PbfError(f"{HISTORY}/{final.name} がすでにあります（state.yaml は第{campaign.turn}ターン）。 / turn folder exists")

    before_path = campaign.turn_dir(campaign.turn) / STATE_FILE
    if campaign.state_doc is not None:  # a campaign built in memory (no state.yaml text of its own)
        current_text = yamlio.dump(campaign.state_doc)
    else:
        current_text = campaign.state_text
    # the merge works on a fresh copy: if writing fails, the campaign in memory is as it was read
    state_text, new_state = yamlio.merge_text(current_text, campaign.state, record.state, STATE_FILE)
    files = {"orders.txt": record.orders_text, **post_files(record.post, record.parts), **record.files}
    files[STATE_FILE] = state_text
    files["events.yaml"] = yamlio.dump_data(record.events)
    files["dice.yaml"] = yamlio.dump_data(dice_record(record.turn, record.canonical, record.fixed, record.dice))
    try:
        edited = read_bytes(before_path).decode("utf-8") != current_text
    except (FileNotFoundError, UnicodeDecodeError):
        edited = True
    if edited:
        # The GM edited state.yaml since the last turn: keep what this turn started from,
        # as pbf writes it (the same text the edited file's document dumps to).
        files["before.yaml"] = yamlio.dump(yamlio.load(current_text, STATE_FILE))
    if record.meta:
        from .versions import made_with  # what a replay needs to come out byte for byte

        files[TURN_META] = yamlio.dump_data({**record.meta, "made_with": made_with()})
    option_changes = _pending_options_text(campaign)
    if option_changes:
        files[OPTIONS_RECORD] = option_changes
    notices = {f"notices/{safe_filename(name)}.txt": text for name, text in record.notices.items()}

    tmp = make_temp_dir(f".{final.name}.", history)
    try:
        if notices:
            (tmp / "notices").mkdir()
        write_files(tmp, {**files, **notices})
        os.rename(tmp, final)  # the commit point (on disk with state.yaml's text, _finish_turn)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    try:
        _finish_turn(campaign, record.turn, record, state_text)
    except Exception:
        # an error (not a kill): take the turn back unless state.yaml already has it
        try:
            now = read_bytes(campaign.path / STATE_FILE).decode("utf-8-sig")
        except (OSError, UnicodeDecodeError, PbfError):
            now = None
        if now != state_text:
            back = Path(tempfile.mkdtemp(prefix=f".{final.name}.", dir=history))
            os.rename(final, back / final.name)  # into it: Windows renames nothing onto a folder
            shutil.rmtree(back, ignore_errors=True)
            fsync_dir(history)
            if option_changes and not (history / OPTIONS_PENDING).exists():
                atomic_write(history / OPTIONS_PENDING, option_changes)  # waiting for the next turn again
        raise
    campaign.state_doc = None
    campaign.state = new_state
    campaign.state_text = state_text


def post_files(post: str, parts: list[str]) -> dict[str, str]:
    """A post's archive files: ``post.txt``, and ``post-N.txt`` for each part when it was split."""
    files = {"post.txt": post}
    if len(parts) > 1:
        files.update((f"post-{i}.txt", part) for i, part in enumerate(parts, start=1))
    return files


def archived(campaign: Campaign, turn: int, name: str) -> str:
    """A file of ``history/NNNN/``; a clear error when it is missing or unreadable."""
    path = campaign.turn_dir(turn) / name
    where = f"{HISTORY}/{turn_dir_name(turn)}/{name}"
    try:
        return read_bytes(path, where).decode("utf-8")
    except FileNotFoundError:
        raise PbfError(f"記録 {where} がありません。 / missing archive file") from None
    except UnicodeDecodeError as exc:
        raise PbfError(f"記録 {where} が UTF-8 ではありません（{exc.start + 1}バイト目）。 / not UTF-8") from None


def archived_yaml(campaign: Campaign, turn: int, name: str) -> Any:
    where = f"{HISTORY}/{turn_dir_name(turn)}/{name}"
    text = archived(campaign, turn, name)
    data = yamlio.load_plain(text, where)
    if not isinstance(data, dict):
        raise PbfError(f"記録 {where} の形が正しくありません。 / malformed archive file")
    from .validate import TURN_META as TURN_META_SCHEMA, validate

    if name == "dice.yaml":  # the draws a replay and verify feed to the dice again
        validate(data, DICE_WITHHELD if "draws_withheld" in data else DICE_RECORD, text, where)
    elif name == TURN_META:
        validate(data, TURN_META_SCHEMA, text, where)
    return data


def archived_events(campaign: Campaign, turn: int) -> list[dict[str, Any]]:
    """``history/NNNN/events.yaml``, checked as load checks state.yaml (a list of typed events)."""
    from .validate import EVENTS, validate

    where = f"{HISTORY}/{turn_dir_name(turn)}/events.yaml"
    text = archived(campaign, turn, "events.yaml")
    data = yamlio.load_plain(text, where)
    if data is None:
        data = []
    validate(data, EVENTS, text, where)
    return data


# the files every archived turn has (turn 0: the opening; product.md, "Campaign folder")
ARCHIVE_FILES = {0: ("state.yaml", "dice.yaml"),
                 None: ("orders.txt", "post.txt", "state.yaml", "dice.yaml", "events.yaml")}


def check_archive(campaign: Campaign) -> None:
    """The whole archive, checked before a command relies on it (log, replay, export): every turn
    from 0 to state.yaml's, each with its files, and its records (turn.yaml, events.yaml,
    dice.yaml) of the right form. The first problem is a clear error naming the file."""
    turns = campaign.archived_turns()
    missing = sorted(set(range(campaign.turn + 1)) - set(turns))
    if missing:
        raise PbfError(
            Problem(f"記録 {HISTORY}/{turn_dir_name(missing[0])}/ がありません（第{missing[0]}ターンの記録）。"
                    " / missing turn folder",
                    hint=f"{HISTORY}/ には第0ターンから今の第{campaign.turn}ターンまでのフォルダが一つずつ要ります。")
        )
    for turn in turns:
        folder = campaign.turn_dir(turn)
        for name in ARCHIVE_FILES[0 if turn == 0 else None]:
            if not (folder / name).exists():
                raise PbfError(f"記録 {HISTORY}/{folder.name}/{name} がありません。 / missing archive file")
        archived_yaml(campaign, turn, "dice.yaml")
        archived_meta(campaign, turn)
        if turn > 0:
            archived_events(campaign, turn)
            archived(campaign, turn, "orders.txt")
            archived(campaign, turn, "post.txt")


DICE_RECORD = ("record", {"turn": ("int", 0, None), "draws": ("list", ("int", 0, 2**64 - 1)), "fixed": ("list", ("int", 1, 6))},
               ("turn", "fixed"))
# a public export of a running private-hands battle keeps only how many draws there were
DICE_WITHHELD = ("record", {"turn": ("int", 0, None), "draws_withheld": ("int", 0, None)}, ("turn",))


def archived_meta(campaign: Campaign, turn: int) -> dict[str, Any]:
    """``history/NNNN/turn.yaml``; ``{}`` for a turn archived before pbf wrote it."""
    if not (campaign.turn_dir(turn) / TURN_META).exists():
        return {}
    return archived_yaml(campaign, turn, TURN_META)


# -- deadlines -------------------------------------------------------------------------------

def deadline_text(turn: int, deadline: str, later: tuple[int, str] | None = None) -> str:
    """deadline.yaml: the deadline of the turn to come; ``later``: the next turn's, kept by an
    undo for the turn taken again (docs/forum.md, section 5)."""
    data: dict[str, Any] = {"turn": turn, "deadline": deadline}
    if later:
        data["later"] = {"turn": later[0], "deadline": later[1]}
    return (
        "# 締切（pbf deadline が書きます。時刻は板の時計、campaign.toml の timezone）\n"
        + yamlio.dump_data(data)
    )


def current_deadline(campaign: Campaign, turn: int | None = None) -> str | None:
    """The stored deadline of ``turn`` (default: the turn to come), or None (one stored for
    another turn does not count)."""
    turn = campaign.turn + 1 if turn is None else turn
    held = _deadline_file(campaign.path / DEADLINE_FILE)
    if held is not None and held[0] != turn and held[2] and held[2][0] == turn:
        held = (*held[2], None)  # the next turn's, kept by an undo
    if held is None or held[0] != turn:
        return None
    data = {"turn": held[0], "deadline": held[1]}
    from .forum import parse_deadline

    try:
        parse_deadline(data["deadline"])
    except PbfError as exc:
        problem = exc.problems[0]
        raise PbfError(
            Problem(f"{DEADLINE_FILE} の{problem.message}", text=problem.text,
                    hint="pbf deadline で締切を設定し直してください。")
        ) from None
    return data["deadline"]


def set_deadline(campaign: Campaign, deadline: str) -> None:
    """``pbf deadline``: the deadline of the turn to come."""
    with exclusive(campaign):
        held = _deadline_file(campaign.path / DEADLINE_FILE, tolerant=True)
        later = held[2] if held and held[0] == campaign.turn + 1 else None  # an undo's, kept
        atomic_write(campaign.path / DEADLINE_FILE, deadline_text(campaign.turn + 1, deadline, later))


def state_before(campaign: Campaign, turn: int) -> str:
    """The state text turn ``turn`` started from, checked against the game's schema (a replay
    resolves it again)."""
    from .validate import validate_state

    if (campaign.turn_dir(turn) / "before.yaml").exists():
        where, text = f"{HISTORY}/{turn_dir_name(turn)}/before.yaml", archived(campaign, turn, "before.yaml")
    else:
        where, text = f"{HISTORY}/{turn_dir_name(turn - 1)}/{STATE_FILE}", archived(campaign, turn - 1, STATE_FILE)
    state = yamlio.load_plain(text, where)
    if not isinstance(state, dict):
        raise PbfError(f"記録 {where} の形が正しくありません。 / malformed archive file")
    ctx = campaign.ctx
    validate_state(state, text, where, campaign.system.name, ctx.players, ctx.data, ctx.options,
                   hands_redacted(campaign.path))
    return text


def hands_redacted(path: Path) -> bool:
    """Whether ``path`` is a public export whose private hands were taken out (pbf export)."""
    if not (path / "export.yaml").is_file():  # the common case costs one stat, not an import
        return False
    from .export import hands_hidden

    return hands_hidden(path)


def undo(campaign: Campaign) -> int:
    """Roll back the last turn; its folder moves under history/undone/ (nothing is deleted)."""
    turn = campaign.turn
    folder = campaign.turn_dir(turn)
    if turn <= 0 or not folder.is_dir():
        raise PbfError("取り消すターンがありません。 / nothing to undo")
    with exclusive(campaign):
        before = state_before(campaign, turn)
        option_changes(campaign, turn)  # a malformed record is refused before anything moves
        _turn_deadlines(folder)
        _deadline_file(campaign.path / DEADLINE_FILE)
        moved = _move_aside(folder, campaign.history / UNDONE, "")  # the commit point
        _finish_undo(campaign, moved, before, turn)
    return turn


@record
class UndoPlan:
    """What ``pbf undo`` takes back and what the re-opened turn will be (``pbf undo --dry-run``)."""

    turn: int
    deadline: str | None  # the re-opened turn's deadline: the one it was taken under
    next_deadline: str | None  # the next turn's, kept for the turn taken again
    window: dict[str, Any] | None  # the thread window the undone turn read (turn.yaml), or None
    previous_window: dict[str, Any] | None  # the one the turn before read, where the next window starts


def undo_plan(campaign: Campaign) -> UndoPlan:
    """What an undo would do, checked as ``undo`` checks it; nothing is written."""
    turn = campaign.turn
    folder = campaign.turn_dir(turn)
    if turn <= 0 or not folder.is_dir():
        raise PbfError("取り消すターンがありません。 / nothing to undo")
    state_before(campaign, turn)
    option_changes(campaign, turn)
    deadline, next_deadline = _turn_deadlines(folder)
    held = _deadline_file(campaign.path / DEADLINE_FILE)
    if held and held[0] == turn + 1:
        next_deadline = held[1]
    elif held and held[0] == turn and held[2]:  # taken again after an undo: kept since
        next_deadline = held[2][1]
    meta = archived_meta(campaign, turn)
    previous = archived_meta(campaign, turn - 1) if turn > 1 else {}
    window = meta.get("thread") if isinstance(meta.get("thread"), dict) else None
    previous_window = previous.get("thread") if isinstance(previous.get("thread"), dict) else None
    return UndoPlan(turn, deadline, next_deadline, window, previous_window)


def _move_aside(folder: Path, into: Path, tag: str) -> Path:
    into.mkdir(parents=True, exist_ok=True)
    base = folder.name + (f"-{tag}" if tag else "")
    target = into / base
    n = 2
    while target.exists():
        target = into / f"{base}-{n}"
        n += 1
    os.rename(folder, target)
    fsync_dir(into)
    fsync_dir(folder.parent)
    return target


def safe_filename(name: str) -> str:
    """A player's notice file name: path characters (and ``%``) as ``%XX``, so that two names
    never share a file; a name that would still be too long is cut and tagged with its hash."""
    out = re.sub(r'[\\/:*?"<>|%\x00-\x1f\x7f]', lambda m: f"%{ord(m[0]):02X}", name)
    if not out or out.startswith("."):
        out = "%2E" + out[1:] if out else "_"
    if len(out.encode("utf-8")) > 200:
        import hashlib

        digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:12]
        out = out.encode("utf-8")[:180].decode("utf-8", "ignore") + "~" + digest
    return out


MAX_NAME = 24  # characters of a player's name (a post's header and a notice file name hold it)
_NAME_FORBIDDEN = r'[\[\]【】［］\\/:*?"<>|%◆=@#\x00-\x1f\x7f\u2028\u2029\u0085]'  # pbf new only: through re's cache


def check_player_name(name: str, where: str = "--player") -> None:
    """A name must head an order (``【NAME】``) and name a file: no brackets, no path
    characters, no control characters or line breaks, at most MAX_NAME characters."""
    found = re.search(_NAME_FORBIDDEN, name)
    bad = found[0] if found else next((ch for ch in name if not ch.isprintable() and ch not in " \u3000"), None)
    if bad is None and name.strip() and len(name) <= MAX_NAME:
        return
    shown = name if len(name) <= 40 else name[:40] + "…"
    if bad is not None:
        why = f"{bad!r} は使えません"
    elif len(name) > MAX_NAME:
        why = f"長すぎます（{len(name)}文字、{MAX_NAME}文字まで）"
    else:
        why = "空です"
    raise PbfError(
        Problem(
            f"{where} のプレイヤー名が使えません：{why}。 / bad player name",
            text=shown if shown.isprintable() else shown.encode("unicode_escape").decode("ascii"),
            hint=f"括弧・改行・制御文字と / \\ : * ? \" < > | % は名前に使えません（{MAX_NAME}文字まで）。",
        )
    )


def commitment(campaign: Campaign) -> str:
    return seed_commitment(campaign.seed)


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
