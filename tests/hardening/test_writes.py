"""How pbf writes: temp file and rename (a failed write leaves the old file), normal
permissions for new files, temporary files of a killed run cleaned up by the next command."""

import os
import stat

import pytest

from pbf import campaign as campaigns
from pbf import fsutil


def test_a_failed_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    target = tmp_path / "state.yaml"
    target.write_text("turn: 1\n", "utf-8")

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        fsutil.atomic_write(target, "turn: 2\n" * 1000)
    monkeypatch.undo()
    assert target.read_text("utf-8") == "turn: 1\n"
    assert [p.name for p in tmp_path.iterdir()] == ["state.yaml"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_new_files_and_folders_get_normal_permissions(camp):
    old = os.umask(0o022)
    try:
        mode = stat.S_IMODE((camp / "state.yaml").stat().st_mode)
        assert mode == 0o666 & ~fsutil.UMASK
        for folder in (camp, camp / "history" / "0001"):
            assert stat.S_IMODE(folder.stat().st_mode) == 0o777 & ~fsutil.UMASK
    finally:
        os.umask(old)


def test_temporary_files_of_a_killed_run_are_cleaned_up(camp, pbf):
    (camp / ".state.yaml.abc123.tmp").write_text("half", "utf-8")
    (camp / "history" / ".0002.xyz").mkdir()
    (camp / "history" / ".0002.xyz" / "post.txt").write_text("half", "utf-8")
    code, _, err = pbf("show", camp)
    assert code == 0, err
    assert not [p for p in camp.rglob(".*") if p.name != ".pbf.lock"]
    assert campaigns.load(camp).turn == 1


def test_a_broken_cache_never_crashes(camp, tmp_path):
    """pbf's cache (under the user's cache dir) may be unwritable or hold garbage: commands still work."""
    import subprocess
    import sys

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", "utf-8")
    garbage = tmp_path / "cache"
    for cache in (blocker, garbage, garbage):  # the second run of garbage/ reads what the first wrote...
        done = subprocess.run([sys.executable, "-m", "pbf", "show", str(camp)], capture_output=True,
                              env={**os.environ, "PBF_CACHE_DIR": str(cache)})
        assert done.returncode == 0 and b"Traceback" not in done.stderr
        for path in garbage.rglob("*"):  # ...damaged
            if path.is_file():
                path.write_bytes(b"\x00garbage")
