"""Where the bundled grammar, templates and demo campaigns live, and pbf's cache.

In a wheel they are carried inside the package (``pbf/_bundled/``, see pyproject.toml);
in a source checkout or an editable install they are the top-level folders of the repository.

The cache keeps what every run would otherwise rebuild from the same files: parsed data files
and campaign.toml (keyed by their bytes), the built order grammars (lark checks the grammar text) and the compiled
templates (jinja2 checks each template's source). It lives in ``$PBF_CACHE_DIR``, else where
the platform keeps a user's caches (the rules of platformdirs' ``user_cache_dir``, by hand: no
import at start-up): ``%LOCALAPPDATA%\\pbf\\Cache`` on Windows, ``~/Library/Caches/pbf`` on macOS,
``$XDG_CACHE_HOME/pbf`` or ``~/.cache/pbf`` elsewhere; ``PBF_NO_CACHE=1`` turns it off. A cache
that cannot be written is no error: pbf then builds everything in memory, as without a cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

from . import __version__

_PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def bundled(name: str) -> Path:
    """The bundled folder ``grammar``, ``templates`` or ``campaigns``.

    The folders stay at the top of the repository (the project's layout: GMs and contributors
    find them there); pyproject.toml copies them into the wheel as ``pbf/_bundled/``. They are
    found as plain paths rather than through importlib.resources: every user of them needs a
    real folder (jinja2's FileSystemLoader, lark's grammar file, the demos copied with
    shutil.copytree), which is what a wheel installs, and importing importlib.resources would
    add about 4 ms to every command's start-up (docs/architecture.md, "Bundled files")."""
    inside = _PACKAGE / "_bundled" / name
    if inside.is_dir():
        return inside
    return _PACKAGE.parent / name


def grammar_path(system: str) -> Path:
    return bundled("grammar") / f"{system}.lark"


def content_key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_DIRS: dict[str, Path | None] = {}


def cache_dir(kind: str) -> Path | None:
    """The cache folder for ``kind`` (created on first use), or None when there is none."""
    if kind in _DIRS:
        return _DIRS[kind]
    path: Path | None = None
    if not os.environ.get("PBF_NO_CACHE"):
        root = os.environ.get("PBF_CACHE_DIR") or user_cache_root(sys.platform, os.environ)
        # a new pbf or Python starts afresh: nothing written by another version is read
        path = Path(root) / f"{__version__}-py{sys.version_info[0]}{sys.version_info[1]}" / kind
        try:
            path.mkdir(parents=True, exist_ok=True, mode=0o700)
            if not os.access(path, os.W_OK):
                path = None
        except OSError:
            path = None
    _DIRS[kind] = path
    return path


def user_cache_root(platform: str, environ: Mapping[str, str]) -> str:
    """pbf's cache folder where ``platform`` (a ``sys.platform``) expects a user's caches, as
    platformdirs' ``user_cache_dir("pbf", appauthor=False)`` finds it."""
    home = os.path.expanduser("~")
    if platform == "win32":
        base = environ.get("LOCALAPPDATA", "").strip() or os.path.join(home, "AppData", "Local")
        return os.path.join(base, "pbf", "Cache")
    if platform == "darwin":
        return os.path.join(home, "Library", "Caches", "pbf")
    base = environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(home, ".cache")
    return os.path.join(base, "pbf")


def cache_get(kind: str, name: str) -> bytes | None:
    folder = cache_dir(kind)
    if folder is None:
        return None
    try:
        return (folder / name).read_bytes()
    except OSError:
        return None


_MOST = 2000  # files of one kind before the oldest are removed (every campaign.toml is one)


def cache_put(kind: str, name: str, data: bytes) -> None:
    """Store a cache file (atomically: another pbf reads the old file or the new one); never fails."""
    folder = cache_dir(kind)
    if folder is None:
        return
    tmp = folder / f".{name}.{os.getpid()}.tmp"
    try:
        tmp.write_bytes(data)
        os.replace(tmp, folder / name)
        _prune(folder)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass


def _prune(folder: Path) -> None:
    """Keep the newest half when a folder holds more than _MOST files."""
    entries = list(os.scandir(folder))
    if len(entries) <= _MOST:
        return
    entries.sort(key=lambda entry: entry.stat().st_mtime)
    for entry in entries[: len(entries) - _MOST // 2]:
        try:
            os.unlink(entry.path)
        except OSError:
            pass


_PARSED: dict[str, str] = {}


def parsed(kind: str, raw: bytes, parse: Callable[[bytes], Any]) -> Any:
    """``parse(raw)``, remembered by the bytes' content: in memory and as JSON in the cache.

    Every call gets a fresh copy (callers may change what they get). A result JSON cannot hold
    exactly (a date, a number as a key) is not kept; errors of ``parse`` propagate."""
    name = f"{kind}-{content_key(raw)}.json"
    text = _PARSED.get(name)
    if text is None:
        stored = cache_get("parsed", name)
        text = stored.decode("utf-8", "replace") if stored is not None else None
    if text is not None:
        try:
            data = json.loads(text)
        except ValueError:  # a damaged cache file: parse again
            pass
        else:
            _PARSED[name] = text
            return data
    data = parse(raw)
    try:
        text = json.dumps(data, ensure_ascii=False)
        exact = json.loads(text) == data
    except (TypeError, ValueError):
        exact = False
    if exact:
        _PARSED[name] = text
        cache_put("parsed", name, text.encode("utf-8"))
    return data


def lark_parser(system: str, **options: Any) -> Any:
    """The LALR parser of ``grammar/<system>.lark``, built once and kept in the cache.

    lark keys its cache file by the grammar text, the options, lark's version and Python's;
    a stale or damaged file is rebuilt, an unwritable one is skipped."""
    from lark import Lark

    grammar = grammar_path(system).read_text("utf-8")
    folder = cache_dir("lark")
    if folder is not None:
        options["cache"] = str(folder / f"{system}-{content_key(grammar.encode('utf-8'))[:16]}.lark")
    return Lark(grammar, **options)
