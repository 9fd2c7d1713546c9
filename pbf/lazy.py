"""A module imported on first use, then held.

``pbf show`` and ``pbf list`` never read an order, so the order parsers (and lark) are imported
only by the commands that do (start-up); and a method called thousands of times a second (a bot
trying plots, ``pbf replay``) does not pay an ``import`` statement on every call (about 0.7 µs:
benchmarks/bench.py)::

    _plot = lazy("pbf.systems.alterego.plot")
    ...
    plot = _plot().parse_plot(text)
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Callable


def lazy(name: str) -> Callable[[], ModuleType]:
    """A function that returns the module ``name``, importing it the first time."""
    module: ModuleType | None = None

    def get() -> ModuleType:
        nonlocal module
        if module is None:
            module = importlib.import_module(name)
        return module

    return get
