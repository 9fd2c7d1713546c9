"""Atomic, durable writes: a reader sees the old file or the new one, never half of either,
and once a turn is committed a crash of the machine does not take it back.

A disk flush (fsync) costs far more than writing a small file, and the file system can commit
several flushes asked for at the same time in one go. So the files of one step are all written
first and then synced together (:func:`sync_together`), and a turn costs three rounds of flushes
instead of one per file: the turn's folder, then state.yaml's new text with the history folder,
then the rename of state.yaml.
"""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


UMASK = _umask()  # read once, at import (before any thread): os.umask can only be read by setting it


def make_temp_dir(prefix: str, parent: Path) -> Path:
    """A temporary folder to be renamed into place, with the permissions a new folder gets
    (mkdtemp makes 0700)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    os.chmod(folder, 0o777 & ~UMASK)
    return folder


def atomic_write(path: Path, data: "bytes | str", also_sync: Path | None = None) -> None:
    """Replace ``path`` atomically and durably. ``also_sync``: a folder whose entries must be on
    disk before the new file is (synced together with it)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if hasattr(os, "fchmod"):  # Windows has none before Python 3.13 (nor owner/group bits)
            os.fchmod(fd, 0o666 & ~UMASK)  # mkstemp makes 0600: a GM may share the folder
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            folder = _open_dir(also_sync) if also_sync is not None else None
            try:
                sync_together([fh.fileno()] + ([folder] if folder is not None else []))
            finally:
                if folder is not None:
                    os.close(folder)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    fsync_dir(path.parent)


MAX_READ = 64 * 1024 * 1024  # no file pbf reads comes near this


def read_bytes(path: Path, where: "str | None" = None) -> bytes:
    """A file's bytes; the wrong kind of file or one that cannot be read is a clear error
    naming ``where`` (a missing file raises FileNotFoundError for the caller to word)."""
    from .errors import PbfError

    import stat

    where = where or str(path)
    try:
        # only a regular file is opened: a FIFO (or a device) would block open() itself, so the
        # kind is checked first, and the open does not wait (O_NONBLOCK) should it be swapped in
        # between; the open file's own kind is checked again
        kind = os.stat(path).st_mode
        if not stat.S_ISREG(kind) and not stat.S_ISDIR(kind):
            raise PbfError(_not_regular(where, kind))
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
        with os.fdopen(os.open(path, flags), "rb") as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError
            if not stat.S_ISREG(info.st_mode):
                raise PbfError(_not_regular(where, info.st_mode))
            if info.st_size > MAX_READ:
                raise PbfError(f"「{where}」が大きすぎます（{info.st_size:,}バイト）。 / file too large")
            return handle.read(MAX_READ + 1)
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise PbfError(f"「{where}」がフォルダです（ファイルのはずです）。 / a folder, not a file") from None
    except OSError as exc:
        raise PbfError(f"「{where}」を読めません（{exc.strerror or exc}）。 / cannot read") from None
    except ValueError as exc:  # a NUL in the path
        raise PbfError(f"「{where}」を読めません（{exc}）。 / cannot read") from None


def _not_regular(where: str, mode: int) -> str:
    import stat

    kind = ("名前付きパイプ（FIFO）" if stat.S_ISFIFO(mode) else "ソケット" if stat.S_ISSOCK(mode)
            else "デバイス" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "特殊なファイル")
    return (f"「{where}」は普通のファイルではなく{kind}です。pbf は普通のファイルしか読みません。"
            " / not a regular file")


def write_file(path: Path, data: "bytes | str") -> None:
    """A plain write with fsync, for files inside a folder that is renamed into place."""
    write_files(Path(path).parent, {Path(path).name: data}, sync_folder=False)


def write_files(folder: Path, files: "dict[str, bytes | str]", sync_folder: bool = True) -> None:
    """New files in ``folder`` (names may hold a subfolder that exists), written first and then
    synced together with the folders that hold them."""
    handles = []
    folders: list[int] = []
    try:
        for name, data in files.items():
            handle = open(folder / name, "wb")
            handles.append(handle)
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
        if sync_folder:
            for path in sorted({(folder / name).parent for name in files}):
                fd = _open_dir(path)
                if fd is not None:
                    folders.append(fd)
        sync_together([h.fileno() for h in handles] + folders)
    finally:
        for handle in handles:
            handle.close()
        for fd in folders:
            os.close(fd)


def sync_together(fds: list[int]) -> None:
    """fsync every descriptor at the same time (one thread each); the first error is raised.
    Folders may not support fsync on every system: their errors are ignored."""
    errors: list[BaseException] = []

    def sync(fd: int) -> None:
        try:
            os.fsync(fd)
        except OSError as exc:
            if not _is_dir(fd):
                errors.append(exc)

    threads = [threading.Thread(target=sync, args=(fd,)) for fd in fds[1:]]
    for thread in threads:
        thread.start()
    if fds:
        sync(fds[0])
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def fsync_dir(path: Path) -> None:
    fd = _open_dir(path)
    if fd is None:
        return
    try:
        sync_together([fd])
    finally:
        os.close(fd)


def _open_dir(path: Path) -> int | None:
    try:
        return os.open(path, os.O_RDONLY)
    except OSError:
        return None


def _is_dir(fd: int) -> bool:
    import stat

    try:
        return stat.S_ISDIR(os.fstat(fd).st_mode)
    except OSError:
        return False
