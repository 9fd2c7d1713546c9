"""The current turn's deadline: ``deadline.yaml`` and each turn's record of it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import yamlio
from ..errors import PbfError, Problem
from ..fsutil import atomic_write, read_bytes
from .layout import DEADLINE_FILE, HISTORY, TURN_META, UNDONE
from .lock import exclusive
from .options import _decoded

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any
    from .layout import Campaign


def _turn_deadlines(folder: Path, tolerant: bool = False) -> tuple[str | None, str | None]:
    """A turn folder's ``(deadline, next_deadline)`` from its turn.yaml (None where it has none).
    Not ``tolerant``: a malformed one is refused; tolerant: read as none (a recovery)."""
    from ..board.forum import normalize_deadline

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
    from ..board.forum import parse_deadline

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
