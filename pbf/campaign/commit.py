"""The commit point and recovery: a turn or an undo is committed by one rename; what follows is
finished by the next command when a run was killed in between."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from .. import yamlio
from ..errors import PbfError, Problem
from ..fsutil import atomic_write, fsync_dir, make_temp_dir, read_bytes, write_files
from ..record import record
from .deadlines import _deadline_file, _turn_deadlines, deadline_text
from .layout import DEADLINE_FILE, HISTORY, OPTIONS_PENDING, OPTIONS_RECORD, STATE_FILE, TURN_META, UNDONE, safe_filename, turn_dir_name
from .lock import _locked, exclusive
from .options import _decoded, _option_record, _pending_options_text, option_changes, record_option_changes
from .records import archived, archived_meta, dice_record, post_files, state_before

if TYPE_CHECKING:
    from typing import Any
    from .layout import Campaign
    from .records import TurnRecord


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
