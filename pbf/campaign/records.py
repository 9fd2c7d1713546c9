"""The archive's records: each turn's files under history/NNNN (read back, checked), the dice
record, the state a turn started from, and whether the folder is a public export with the
hands taken out."""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from .. import yamlio
from ..errors import PbfError, Problem
from ..fsutil import read_bytes
from ..record import record
from .layout import HISTORY, STATE_FILE, TURN_META, turn_dir_name

if TYPE_CHECKING:
    from typing import Any, Mapping
    from ..dice import Dice
    from .layout import Campaign


# -- turns ------------------------------------------------------------------------------------

def dice_record(turn: int, canonical: str, fixed: list[int], dice: Dice) -> dict[str, Any]:
    from ..dice import sha256_hex

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
    from ..validate import TURN_META as TURN_META_SCHEMA, validate

    if name == "dice.yaml":  # the draws a replay and verify feed to the dice again
        validate(data, DICE_WITHHELD if "draws_withheld" in data else DICE_RECORD, text, where)
    elif name == TURN_META:
        validate(data, TURN_META_SCHEMA, text, where)
    return data


def archived_events(campaign: Campaign, turn: int) -> list[dict[str, Any]]:
    """``history/NNNN/events.yaml``, checked as load checks state.yaml (a list of typed events)."""
    from ..validate import EVENTS, validate

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


def state_before(campaign: Campaign, turn: int) -> str:
    """The state text turn ``turn`` started from, checked against the game's schema (a replay
    resolves it again)."""
    from ..validate import validate_state

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
    return hands_hidden(path)


# -- a public export (pbf export): its marker file says what was taken out ------------------------

EXPORT_FILE = "export.yaml"


def read_marker(path: Path) -> dict[str, Any]:
    """``export.yaml`` of an export ({} for a campaign folder)."""
    marker = Path(path) / EXPORT_FILE
    if not marker.is_file():
        return {}
    data = yamlio.load_plain(marker.read_bytes().decode("utf-8"), EXPORT_FILE)
    return data if isinstance(data, dict) else {}


def hands_hidden(path: Path) -> bool:
    return read_marker(path).get("hands") == "hidden"
