"""Events in, words out: jinja2 templates turn a turn's events into the Japanese post.

Templates are looked up first in the campaign's own ``templates/`` folder, then in the
bundled ones, so a GM can override any of them. No Japanese sentence is built in Python.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from .resources import bundled
from .systems.base import GameSystem


def _zenkaku(value: Any) -> str:
    """Digits as full-width digits (for headings like 第３ターン)."""
    return str(value).translate(str.maketrans("0123456789", "０１２３４５６７８９"))


@lru_cache(maxsize=8)
def _environment(search_path: tuple[str, ...], system: GameSystem) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(list(search_path)),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
    )
    env.filters["zenkaku"] = _zenkaku
    env.filters.update(system.template_filters())
    return env


def environment(system: GameSystem, campaign_path: Path | None = None) -> jinja2.Environment:
    paths = []
    if campaign_path is not None and (campaign_path / "templates").is_dir():
        paths.append(str(campaign_path / "templates"))
    paths.append(str(bundled("templates")))
    return _environment(tuple(paths), system)


def render(system: GameSystem, template: str, campaign_path: Path | None = None, **context: Any) -> str:
    env = environment(system, campaign_path)
    name = template if "/" in template else f"{system.name}/{template}"
    text = env.get_template(name).render(title=system.title, **context)
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
