"""Atomic writes: a reader sees the old file or the new one, never half of either."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, data: "bytes | str") -> None:
    if isinstance(data, str):
        data = data.encode("utf-8")
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    fsync_dir(path.parent)


def write_file(path: Path, data: "bytes | str") -> None:
    """A plain write with fsync, for files inside a folder that is renamed into place."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def write_files(folder: Path, files: "dict[str, bytes | str]") -> None:
    """Several new files in a folder that is then renamed into place, all made durable:
    every file is written first, then each is synced (the disk sees them together), then the folder."""
    handles = []
    try:
        for name, data in files.items():
            handle = open(folder / name, "wb")
            handles.append(handle)
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        for handle in handles:
            handle.flush()
            os.fsync(handle.fileno())
    finally:
        for handle in handles:
            handle.close()
    for path in sorted({(folder / name).parent for name in files}, reverse=True):
        fsync_dir(path)


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
