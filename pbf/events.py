"""Typed events: what the resolvers say happened. Templates turn them into words."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

_SCALARS = (str, int, bool, float, type(None))


@dataclasses.dataclass
class Event:
    """Base of every event. Subclasses set ``type`` and carry an ``actor``."""

    type: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for name in _field_names(type(self)):
            out[name] = _plain(getattr(self, name))
        return out


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, looked up once per class (a turn turns many events into dicts)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _plain(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, Event):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: _plain(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def event_dicts(events: "list[Any]") -> list[dict[str, Any]]:
    return [e.to_dict() if isinstance(e, Event) else dict(e) for e in events]
