"""pbf on Windows, exercised on Linux (issue 20, "Windows"): the campaign lock without ``fcntl``,
the cache where each platform expects it, files that a Windows checkout keeps byte for byte.

Windows has no ``fcntl``; pbf locks the first byte of ``.pbf.lock`` with ``msvcrt.locking``
there. Here ``fcntl``'s import is made to fail and ``msvcrt`` is a stand-in with the semantics
Windows documents for it (a byte-range lock held by one file handle; ``LK_NBLCK`` on a byte that
another handle holds fails at once with EACCES; ``LK_UNLCK`` of a byte the handle does not hold
fails too), so that every pbf command runs the Windows path in-process."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import threading
import types
from pathlib import Path

import pytest

from pbf import campaign as campaigns, resources
from pbf.campaign import lock
from pbf.cli import main

BUSY = "別の pbf がこのキャンペーンを処理中です。終わってからもう一度どうぞ。"
ROOT = Path(__file__).resolve().parents[2]


class _Msvcrt(types.ModuleType):
    """``msvcrt.locking`` as Windows does it, for the tests: locks belong to a file handle."""

    LK_UNLCK, LK_LOCK, LK_NBLCK, LK_RLCK, LK_NBRLCK = 0, 1, 2, 3, 4

    def __init__(self) -> None:
        super().__init__("msvcrt")
        self._guard = threading.Lock()
        self.held: dict[tuple[int, int, int], int] = {}  # (device, inode, byte) -> fd
        self.calls: list[tuple[int, int]] = []  # (mode, nbytes)

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        info = os.fstat(fd)
        start = os.lseek(fd, 0, os.SEEK_CUR)
        keys = [(info.st_dev, info.st_ino, start + i) for i in range(nbytes)]
        with self._guard:
            self.calls.append((mode, nbytes))
            if mode == self.LK_UNLCK:
                if any(self.held.get(k) != fd for k in keys):
                    raise OSError(errno.EACCES, "Permission denied")
                for k in keys:
                    del self.held[k]
                return
            if mode != self.LK_NBLCK:
                raise AssertionError(f"pbf must not wait for the lock (mode {mode})")
            if any(k in self.held for k in keys):
                raise OSError(errno.EACCES, "Permission denied")
            for k in keys:
                self.held[k] = fd


@pytest.fixture
def windows(monkeypatch):
    """No fcntl (its import fails), msvcrt as on Windows, no os.fchmod (as on Python < 3.13)."""
    fake = _Msvcrt()
    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    monkeypatch.delattr(os, "fchmod", raising=False)
    with pytest.raises(ImportError):
        import fcntl  # noqa: F401
    return fake


def _run(*argv) -> int:
    try:
        return main([str(a) for a in argv])
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.fixture(params=["windows", "posix"])
def platform_lock(request, monkeypatch):
    """The Windows path (no fcntl, msvcrt), and Linux's own fcntl for the same test."""
    if request.param == "windows":
        return request.getfixturevalue("windows")
    pytest.importorskip("fcntl")
    return None


def test_new_turn_six_at_once_undo_and_export(platform_lock, tmp_path, monkeypatch, capsys):
    windows = platform_lock
    camp = tmp_path / "battle1"
    assert _run("new", camp, "--system", "alterego", "--player", "美鈴=meiling", "--player", "名無し=plain",
                "--seed", "windows", "--set", "hands=free") == 0
    orders = tmp_path / "turn1.txt"
    orders.write_text("[美鈴] 弱→→弱強\n[名無し] ↑→弱弱\n", "utf-8")
    capsys.readouterr()

    # six GMs run the same turn at once: whoever takes the lock first holds it until the five
    # others have tried (so that they meet the lock, not the finished turn)
    real = lock._lock_fd
    refused = threading.Semaphore(0)
    outcomes: list[bool] = []
    ready = threading.Barrier(6)

    def lock_fd(fd):
        ready.wait(timeout=30)  # all six have read the campaign and reached the lock
        busy, unlock = real(fd)
        outcomes.append(busy)
        if busy:
            refused.release()
        else:
            for _ in range(5):
                assert refused.acquire(timeout=30)
        return busy, unlock

    monkeypatch.setattr(lock, "_lock_fd", lock_fd)
    codes: list[int] = []
    threads = [threading.Thread(target=lambda: codes.append(_run("turn", camp, "--orders", orders))) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    monkeypatch.setattr(lock, "_lock_fd", real)
    out, err = capsys.readouterr()

    assert sorted(codes) == [0, 1, 1, 1, 1, 1]
    assert sorted(outcomes) == [False, True, True, True, True, True]
    assert err.count(BUSY) == 5  # the same message as on Linux
    assert "state.yaml が読み込んだ後に変わりました" not in err
    assert out.count("［pbf］第1ターン結果") == 1
    assert (camp / "history" / "0001" / "post.txt").is_file() and not (camp / "history" / "0002").exists()
    assert "turn: 1" in (camp / "state.yaml").read_text("utf-8")
    if windows is not None:
        # the lock went through msvcrt (one byte, never waiting) and every byte taken was let go
        assert (windows.LK_NBLCK, 1) in windows.calls and (windows.LK_UNLCK, 1) in windows.calls
        assert windows.held == {}

    # the lock is free again: undo, the turn again, export
    assert _run("undo", camp) == 0
    assert "turn: 0" in (camp / "state.yaml").read_text("utf-8")
    assert _run("turn", camp, "--orders", orders) == 0
    assert _run("export", camp, tmp_path / "battle1-public") == 0
    assert (tmp_path / "battle1-public" / "history" / "0001" / "post.txt").read_bytes() == (
        camp / "history" / "0001" / "post.txt").read_bytes()
    assert _run("replay", tmp_path / "battle1-public") == 0
    assert windows is None or windows.held == {}
    capsys.readouterr()


def test_a_campaign_held_by_another_handle_is_busy_without_fcntl(windows, tmp_path, capsys):
    camp = tmp_path / "c"
    assert _run("new", camp, "--system", "rider", "--player", "城戸=ryuki", "--player", "蓮=knight", "--seed", "s") == 0
    orders = tmp_path / "o.txt"
    orders.write_text("[城戸] 近寄る\n[蓮] 留まる\n", "utf-8")
    before = (camp / "state.yaml").read_bytes()
    with lock._locked(camp) as busy:  # another pbf, as Windows sees it: another handle
        assert busy is False
        capsys.readouterr()
        assert _run("turn", camp, "--orders", orders) == 1
        assert BUSY in capsys.readouterr().err
    assert (camp / "state.yaml").read_bytes() == before
    assert _run("turn", camp, "--orders", orders) == 0


def test_with_neither_lock_the_state_check_still_holds(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.setitem(sys.modules, "msvcrt", None)
    with lock._locked(tmp_path) as busy:  # a platform with neither: no lock, no error
        assert busy is False
        with lock._locked(tmp_path) as again:
            assert again is False  # (exclusive() then compares state.yaml with what was read)


@pytest.mark.parametrize(
    ("platform", "environ", "expected"),
    [
        ("win32", {"LOCALAPPDATA": r"C:\Users\gm\AppData\Local"}, os.path.join(r"C:\Users\gm\AppData\Local", "pbf", "Cache")),
        ("win32", {}, os.path.join(os.path.expanduser("~"), "AppData", "Local", "pbf", "Cache")),
        ("darwin", {"XDG_CACHE_HOME": "/x"}, os.path.join(os.path.expanduser("~"), "Library", "Caches", "pbf")),
        ("linux", {"XDG_CACHE_HOME": "/x/cache"}, os.path.join("/x/cache", "pbf")),
        ("linux", {"XDG_CACHE_HOME": " "}, os.path.join(os.path.expanduser("~"), ".cache", "pbf")),
        ("linux", {}, os.path.join(os.path.expanduser("~"), ".cache", "pbf")),
    ],
)
def test_the_cache_goes_where_the_platform_expects(platform, environ, expected):
    assert resources.user_cache_root(platform, environ) == expected


def test_the_windows_cache_is_under_localappdata(monkeypatch, tmp_path):
    monkeypatch.delenv("PBF_CACHE_DIR", raising=False)
    monkeypatch.delenv("PBF_NO_CACHE", raising=False)
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    monkeypatch.setattr(resources, "_DIRS", {})
    monkeypatch.setattr(sys, "platform", "win32")
    folder = resources.cache_dir("parsed")
    monkeypatch.undo()
    assert folder is not None and folder.is_dir()
    assert folder.relative_to(tmp_path / "Local" / "pbf" / "Cache").parts[1:] == ("parsed",)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_a_windows_checkout_keeps_the_archives_byte_for_byte():
    """core.autocrlf on Windows must not turn the bundled archives' LF into CRLF (a replay
    compares bytes): .gitattributes says so."""
    paths = ["campaigns/demo-alterego/campaign.toml", "campaigns/demo-rider/thread.dat", "README.md"]
    done = subprocess.run(["git", "check-attr", "text", "eol", "--", *paths], cwd=ROOT, capture_output=True, text=True)
    attrs = {tuple(line.split(": ")[:2]): line.split(": ")[2] for line in done.stdout.splitlines()}
    assert attrs[(paths[0], "text")] == "unset" and attrs[(paths[1], "text")] == "unset"
    assert attrs[("README.md", "eol")] == "lf"
