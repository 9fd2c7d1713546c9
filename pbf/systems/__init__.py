"""Game systems. Each is a package with a pure resolver; see :mod:`pbf.systems.base`."""

from __future__ import annotations

import importlib

from ..errors import PbfError
from .base import GameSystem

SYSTEMS = ("alterego", "rider")


def get_system(name: str) -> GameSystem:
    if name not in SYSTEMS:
        raise PbfError(
            f"ゲームシステム「{name}」はありません（{' / '.join(SYSTEMS)} のどれか）。 / unknown system"
        )
    module = importlib.import_module(f"{__name__}.{name}")
    return module.SYSTEM
