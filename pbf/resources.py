"""Where the bundled grammar, templates and demo campaigns live.

In a wheel they are carried inside the package (``pbf/_bundled/``, see pyproject.toml);
in a source checkout or an editable install they are the top-level folders of the repository.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def bundled(name: str) -> Path:
    """The bundled folder ``grammar``, ``templates`` or ``campaigns``."""
    inside = _PACKAGE / "_bundled" / name
    if inside.is_dir():
        return inside
    return _PACKAGE.parent / name


def grammar_path(system: str) -> Path:
    return bundled("grammar") / f"{system}.lark"
