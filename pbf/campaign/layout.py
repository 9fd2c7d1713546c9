"""The campaign folder's layout: its file names, the turn folders' names, and the loaded
folder (:class:`Campaign`)."""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import field
from typing import TYPE_CHECKING

from ..record import record

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any
    from ..systems.base import Context, GameSystem


CAMPAIGN_FILE = "campaign.toml"


STATE_FILE = "state.yaml"


HISTORY = "history"


DEADLINE_FILE = "deadline.yaml"  # the current turn's deadline (pbf deadline)


TURN_META = "turn.yaml"  # per turn: rules version, where the orders came from, deadline, notes


LOCK_FILE = ".pbf.lock"


UNDONE = "undone"


OPTIONS_RECORD = "options.yaml"  # history/NNNN/: the options `pbf set` changed, in force from that turn


OPTIONS_PENDING = "options-pending.yaml"  # history/: changes not yet carried by a turn


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
