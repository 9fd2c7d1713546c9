"""Events in, words out: jinja2 templates turn a turn's events into the Japanese post.

Templates are looked up first in the campaign's own ``templates/`` folder, then in the
bundled ones, so a GM can override any of them. No Japanese sentence is built in Python.

Compiling a template costs more than rendering it, so the compiled code is kept: in memory
for the life of the process (one environment per search path), and on disk in pbf's cache
(:mod:`pbf.resources`), where jinja2 checks each entry against the template's current source.
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
import operator
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2.bccache import Bucket, BytecodeCache

from . import resources
from .systems.base import GameSystem

_OPTIONS: dict[str, Any] = {
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": True,
    "undefined": jinja2.StrictUndefined,
    "autoescape": False,
}
_DIGITS = str.maketrans("0123456789", "０１２３４５６７８９")


def _zenkaku(value: Any) -> str:
    """Digits as full-width digits (for headings like 第３ターン)."""
    return str(value).translate(_DIGITS)


def _of_type(events: Any, *types: str) -> list[Any]:
    """``events | of_type("technique", "charge")``: the events of those types, in order. The
    same as ``selectattr("type", "in", [...]) | list``, at a fraction of its cost per event."""
    return [e for e in events if e["type"] in types]


def _group_by(items: Any, key: str) -> list[tuple[Any, list[Any]]]:
    """``events | group_by("step")``: jinja2's ``groupby`` for a list of dicts (sorted by the key,
    stably; ``(key, items)`` pairs), without its attribute getter and named tuples per item."""
    get = operator.itemgetter(key)
    return [(value, list(group)) for value, group in itertools.groupby(sorted(items, key=get), get)]


def _with_next(items: Any) -> list[tuple[Any, Any]]:
    """``for e, after in group | with_next``: each item with the one after it (None after the
    last), as ``loop.nextitem`` gives, without jinja2's look-ahead loop."""
    items = list(items)
    return list(zip(items, items[1:] + [None]))


class _Compiled(BytecodeCache):
    """Compiled templates in pbf's cache. The code depends on the environment's settings and
    filters as well as on the source, so those name the file too; a damaged or unreadable
    file is compiled again, an unwritable cache is skipped."""

    def __init__(self, fingerprint: str):
        self.fingerprint = fingerprint

    def _name(self, bucket: Bucket) -> str:
        return f"{self.fingerprint}-{bucket.key}.cache"

    def load_bytecode(self, bucket: Bucket) -> None:
        data = resources.cache_get("templates", self._name(bucket))
        if data is not None:
            try:
                bucket.bytecode_from_string(data)
            except Exception:  # a damaged file: compile again
                bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        resources.cache_put("templates", self._name(bucket), bucket.bytecode_to_string())


_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Environment(jinja2.Environment):
    """``event.actor`` on a dict (events, summaries) looks the key up first. jinja2 tries the
    attribute, which a dict has not, and catches the AttributeError before the key: the same
    value, but the exception costs more than the rest of the lookup (a post looks up hundreds).
    A name a dict has as an attribute (``items``, ``get``, …) and a missing key go jinja2's way."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)

    def make_globals(self, d: Any) -> dict[str, Any]:
        """A template's globals as a plain dict, not jinja2's ChainMap over the environment's:
        every render copies them into its context, and copying a ChainMap costs most of a short
        template's render. pbf sets the environment's globals before it loads any template."""
        return {**self.globals, **(d or {})}


_ONCE_LIMIT = 256
_once: dict[tuple[Any, tuple[int, ...]], tuple[tuple[Any, ...], str]] = {}


def _render_once(*keys: Any, caller: Any) -> str:
    """``{% call once(rows, m) %}…{% endcall %}``: the block's text, made once per ``keys``.

    For a part of a template that depends on ``keys`` alone and is the same on every turn (the
    techniques of a character in the notice). The keys are objects compared by identity, each
    never changed: the systems hand the same rows every time (built once per character and
    data), and an imported macros module (``m``) is jinja2's own, replaced when its file
    changes. A block that reads anything not among its keys must not use ``once``. The block is
    known by where it is called from: the compiled code of its template and the place in it
    (a changed template is compiled anew), found with the standard library's public
    ``inspect.currentframe`` (a template's code is compiled with the template's file name,
    ``*.j2``); the keys are kept alive with the text, so that their ids cannot be reused.
    Where no template's code calls it (a template from a string, a Python that keeps no
    frames), the block is simply rendered every time."""
    site = _call_site()
    if site is None:
        return caller()
    entry_key = (site, tuple(map(id, keys)))
    entry = _once.get(entry_key)
    if entry is not None and all(kept is key for kept, key in zip(entry[0], keys)):
        return entry[1]
    text = caller()
    if len(_once) >= _ONCE_LIMIT:
        _once.clear()
    _once[entry_key] = (keys, text)
    return text


def _call_site(depth: int = 8) -> tuple[Any, int] | None:
    """(code, instruction) of the nearest template frame calling ``once``, or None."""
    frame = inspect.currentframe()
    try:
        while frame is not None and depth > 0:
            code = frame.f_code
            if code.co_filename.endswith(".j2"):
                return code, frame.f_lasti
            frame = frame.f_back
            depth -= 1
        return None
    finally:
        del frame  # no cycle through this frame


@lru_cache(maxsize=8)
def _environment(search_path: tuple[str, ...], system: GameSystem) -> jinja2.Environment:
    filters = {"zenkaku": _zenkaku, "of_type": _of_type, "group_by": _group_by, "with_next": _with_next,
               **system.template_filters()}
    settings = repr((jinja2.__version__, sorted(_OPTIONS.items(), key=str), sorted(filters)))
    env = _Environment(
        loader=jinja2.FileSystemLoader(list(search_path)),
        bytecode_cache=_Compiled(hashlib.sha256(settings.encode("utf-8")).hexdigest()[:16]),
        **_OPTIONS,
    )
    env.filters.update(filters)
    env.globals["once"] = _render_once
    return env


def environment(system: GameSystem, campaign_path: Path | None = None) -> jinja2.Environment:
    own = None if campaign_path is None else os.path.join(campaign_path, "templates")
    # checked every time: a GM may add the folder while pbf runs
    return _environment_for(system, own if own is not None and os.path.isdir(own) else None)


def _environment_for(system: GameSystem, own: str | None) -> jinja2.Environment:
    bundled = str(resources.bundled("templates"))
    return _environment((bundled,) if own is None else (own, bundled), system)


# (system, template, campaign folder) -> (the campaign's templates folder, whether it existed, the
# template): what environment() and get_template() would return, checked the same way (the folder
# exists or not, the template's file unchanged) without their lookups on every render
_TEMPLATES: dict[tuple[Any, str, Any], tuple[str | None, bool, jinja2.Template]] = {}


def template(system: GameSystem, template_name: str, campaign_path: Path | None = None) -> jinja2.Template:
    """The template to render (``post.j2`` is the system's; ``common/footer.j2`` names its folder)."""
    key = (system, template_name, campaign_path)
    kept = _TEMPLATES.get(key)
    if kept is not None:
        own, had_own, found = kept
        if (own is None or os.path.isdir(own) == had_own) and found.is_up_to_date:
            return found
    own = None if campaign_path is None else os.path.join(campaign_path, "templates")
    has_own = own is not None and os.path.isdir(own)
    name = template_name if "/" in template_name else f"{system.name}/{template_name}"
    found = _environment_for(system, own if has_own else None).get_template(name)
    if len(_TEMPLATES) >= 256:
        _TEMPLATES.clear()
    _TEMPLATES[key] = (own, has_own, found)
    return found


def render(system: GameSystem, template_name: str, campaign_path: Path | None = None, **context: Any) -> str:
    text = template(system, template_name, campaign_path).render(title=system.title, **context)
    return tidy(text)


def tidy(text: str) -> str:
    """No trailing spaces, at most one blank line in a row, exactly one final newline."""
    lines = [line.rstrip() for line in text.split("\n")]
    out: list[str] = []
    for line in lines:
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"
