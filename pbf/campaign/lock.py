"""One command at a time in a campaign folder: the lock file (``.pbf.lock``)."""

from __future__ import annotations

import errno
import os
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .. import yamlio
from ..errors import PbfError
from ..fsutil import read_bytes
from .layout import LOCK_FILE, STATE_FILE

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Callable, Iterator
    from .layout import Campaign


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
