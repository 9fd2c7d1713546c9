"""Typed events: what the resolvers say happened. Templates turn them into words."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar


@dataclasses.dataclass
class Event:
    """Base of every event. Subclasses set ``type`` and carry an ``actor``."""

    type: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, Event):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def event_dicts(events: "list[Any]") -> list[dict[str, Any]]:
    return [e.to_dict() if isinstance(e, Event) else dict(e) for e in events]
