"""The versions a turn was made with, kept in its ``turn.yaml`` (``made_with``).

A replay is byte-identical only with the libraries that shape pbf's files and posts: lark (the
order parser), jinja2 (the posts' templates), ruamel.yaml (the YAML writer), and Python itself
(its Unicode tables normalise what players write). ``pbf replay`` compares what a turn recorded
with what runs now and names every difference, with the ``pip install`` line that brings the
recorded versions back (README, "Replaying on another machine"). A turn archived before pbf
recorded them has no ``made_with``: nothing is compared.

Looked up once per process, and only when a turn is written: never on a dry run, a check or a
status."""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from typing import Any

from .. import __version__

LIBRARIES = ("lark", "jinja2", "ruamel.yaml")


@lru_cache(maxsize=1)
def made_with() -> dict[str, str]:
    """``{"pbf": …, "python": …, "lark": …, "jinja2": …, "ruamel.yaml": …}`` of this process."""
    found = {"pbf": __version__, "python": _python_version()}
    installed = _dist_info_versions(LIBRARIES)
    for dist in LIBRARIES:
        if dist not in installed:  # an egg-info or zipped install: the standard library's way
            from importlib.metadata import PackageNotFoundError, version

            try:
                installed[dist] = version(dist)
            except PackageNotFoundError:  # not installed at all: say so, never guess
                installed[dist] = "unknown"
        found[dist] = installed[dist]
    return found


def _python_version() -> str:
    """``platform.python_version()`` without importing platform (tens of ms on a busy machine)."""
    info = sys.version_info
    text = f"{info.major}.{info.minor}.{info.micro}"
    if info.releaselevel != "final":
        text += {"alpha": "a", "beta": "b", "candidate": "rc"}.get(info.releaselevel, info.releaselevel) + str(info.serial)
    return text


def _dist_info_versions(names: tuple[str, ...]) -> dict[str, str]:
    """The versions in the names of the ``NAME-VERSION.dist-info`` folders on ``sys.path``, the
    first of each name winning (as importlib.metadata finds them, for a fraction of its cost:
    importing it loads the email package, some 10 ms)."""
    import re

    def key(name: str) -> str:
        return re.sub(r"[-_.]+", "_", name).lower()

    wanted = {key(name): name for name in names}
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            listing = os.listdir(entry or ".")
        except OSError:  # a zip file, a folder that is gone
            continue
        for item in listing:
            if item.endswith(".dist-info") and "-" in item:
                name, _, version = item[: -len(".dist-info")].partition("-")
                dist = wanted.get(key(name))
                if dist is not None and dist not in found:
                    found[dist] = version
        if len(found) == len(wanted):
            break
    return found


def differences(recorded: Any) -> list[tuple[str, str, str]]:
    """(name, recorded, now) for every version that differs from what runs now; [] when the
    turn recorded none (archived before pbf kept them) or every one is the same."""
    if not isinstance(recorded, dict):
        return []
    now = made_with()
    return [(name, str(recorded[name]), now[name]) for name in now
            if name in recorded and str(recorded[name]) != now[name]]


def describe(diffs: list[tuple[str, str, str]]) -> list[str]:
    """Japanese lines that name the differences and how to get the recorded versions back."""
    if not diffs:
        return []
    then = "・".join(f"{name} {old}" for name, old, _ in diffs)
    now = "・".join(f"{name} {new}" for name, _, new in diffs)
    lines = [f"このターンは {then} で処理されましたが、今は {now} です。"]
    pins = [f'"{name}=={old}"' for name, old, _ in diffs if name in LIBRARIES and old != "unknown"]
    if pins:
        lines.append(f"記録と同じ版で再計算するには：pip install {' '.join(pins)}")
    for name, old, _ in diffs:
        if name == "python":
            lines.append(f"Python は {old} で処理されました（同じ版の Python で再計算してください）。")
        elif name == "pbf":
            lines.append(f'pbf は {old} で処理されました（pip install "pbf-battle=={old}" か、その版のソース）。')
    return lines


def replay_note(campaign: Any, turns: list[int]) -> list[str]:
    """After a replay that matched: the turns made with other versions than now, named (the
    files came out the same, but a GM comparing environments should know)."""
    from .records import archived_meta

    spans: dict[tuple[tuple[str, str, str], ...], list[int]] = {}
    for turn in turns:
        diffs = differences(archived_meta(campaign, turn).get("made_with"))
        if diffs:
            spans.setdefault(tuple(diffs), []).append(turn)
    lines = []
    for diffs, which in spans.items():
        named = "・".join(f"第{t}ターン" for t in which) if len(which) <= 3 else f"第{which[0]}～{which[-1]}ターンのうち{len(which)}ターン"
        then = "・".join(f"{name} {old}" for name, old, _ in diffs)
        now = "・".join(f"{name} {new}" for name, _, new in diffs)
        lines.append(f"※ {named}は {then} で処理されました（今は {now}）。再計算の結果は記録と同じです。")
    return lines
