"""``pbf list``: everything a GM or player can choose — characters, riders, monsters, cards and
the options — from the game's data (and a campaign's own data/, with ``--campaign``).

Each system says what it has (``GameSystem.catalogue``); the meaning of each option comes from
``pbf/options.yaml``; the words of the text listing are in ``templates/<system>/list.j2`` and
``templates/common/options.j2``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import PbfError, Problem
from ..systems import SYSTEMS, get_system
from ..systems.base import GameSystem

KINDS = ("characters", "riders", "monsters", "cards", "options")
# A kind of the command line -> the sections of a system's catalogue it shows.
SECTIONS = {"cards": ("cards", "techniques")}
OPTIONS_FILE = Path(__file__).resolve().parent / "options.yaml"


@lru_cache(maxsize=1)
def option_meanings() -> dict[str, dict[str, dict[str, Any]]]:
    """pbf/options.yaml: scope ("core" or a system) -> option -> meaning, values, start_only."""
    from ruamel.yaml import YAML

    return YAML(typ="safe").load(OPTIONS_FILE.read_text("utf-8"))


def option_entries(system: GameSystem, current: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every option of a campaign of ``system``: the core's, then the system's own."""
    from .options import CORE_OPTIONS

    meanings = option_meanings()
    entries = []
    for scope, defaults in (("core", CORE_OPTIONS), (system.name, system.default_options)):
        for key, default in defaults.items():
            about = meanings.get(scope, {}).get(key, {})
            entry = {
                "key": key,
                "scope": scope,
                "default": default,
                "meaning": about.get("meaning"),
                "choices": list(about.get("values") or []),
                "start_only": bool(about.get("start_only", False)),
            }
            if current is not None:
                entry["value"] = current.get(key, default)
            entries.append(entry)
    return entries


def start_only(system: GameSystem, key: str, value: Any = None) -> bool:
    """An option (or, with ``value``, one of its values) chosen only when the campaign is created:
    ``pbf set`` refuses to change it."""
    about = option_meanings().get(system.name, {}).get(key, {})
    return bool(about.get("start_only")) or (value is not None and value in (about.get("start_only_values") or []))


def toml_value(value: Any) -> str:
    """How a value is written in campaign.toml (and shown by ``pbf list options``)."""
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value).lower()


def collect(kind: str | None, system_name: str | None, campaign: Any = None) -> dict[str, dict[str, Any]]:
    """system -> section -> entries, for the systems asked (or both) and the kind asked (or all).
    With a campaign: its system, its data (data/ included) and its options' current values."""
    if campaign is not None:
        if system_name not in (None, campaign.system.name):
            raise PbfError(
                Problem(f"キャンペーンのゲームは {campaign.system.name} です。 / the campaign's system differs",
                        text=system_name)
            )
        names: tuple[str, ...] = (campaign.system.name,)
    else:
        names = (system_name,) if system_name else SYSTEMS
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        system = get_system(name)
        data = campaign.ctx.data if campaign is not None else system.load_data(None)
        current = campaign.ctx.options if campaign is not None else None
        defaults = current if current is not None else dict(system.default_options)
        sections: dict[str, Any] = dict(system.catalogue(data, defaults))
        sections["options"] = option_entries(system, current)
        wanted = SECTIONS.get(kind, (kind,)) if kind else tuple(sections)
        chosen = {key: sections[key] for key in wanted if key in sections}
        if chosen:
            out[name] = chosen
    if not out:
        has = sorted({k for name in names for k in KINDS if _has(get_system(name), k)})
        raise PbfError(
            Problem(
                f"{'、'.join(get_system(n).title for n in names)}には {kind} がありません"
                f"（一覧にできるもの：{' / '.join(has)}）。 / nothing of that kind in this game",
                text=kind,
            )
        )
    return out


def _has(system: GameSystem, kind: str) -> bool:
    if kind == "options":
        return True
    sections = system.catalogue(system.load_data(None), dict(system.default_options))
    return any(key in sections for key in SECTIONS.get(kind, (kind,)))


def render_text(found: dict[str, dict[str, Any]], campaign: Any = None) -> str:
    """The listing as text: each system's catalogue, then the options (the core's once)."""
    from .. import render

    path = campaign.path if campaign is not None else None
    parts = []
    core_shown = False
    for name, sections in found.items():
        system = get_system(name)
        catalogue = {k: v for k, v in sections.items() if k != "options"}
        if catalogue:
            parts.append(render.render(system, "list.j2", path, catalogue=catalogue))
        if "options" in sections:
            entries = [e for e in sections["options"] if e["scope"] != "core" or not core_shown]
            core_shown = True
            parts.append(
                render.render(
                    system, "common/options.j2", path, options=entries, system_name=name,
                    campaign=campaign is not None, shown=toml_value,
                )
            )
    return "\n".join(parts)
