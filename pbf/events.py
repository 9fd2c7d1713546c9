"""Typed events: what the resolvers say happened. Templates turn them into words.

An event class is declared like a dataclass, with :func:`event` in place of ``@dataclass``::

    @event
    class Hit(Event):
        type: ClassVar[str] = "hit"
        actor: str
        target: str
        groups: list[int] = field(default_factory=list)

An event class is a record (:mod:`pbf.record`: declared like a dataclass, nothing compiled at
import, ``__init__`` compiled once the class has made a few events; ``repr`` and ``==`` as a
dataclass's) whose field names are its ``_fields``, in order, for :meth:`Event.to_dict`.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from .record import field, field_names, record

__all__ = ["Event", "event", "event_dicts", "field"]

_SCALARS = frozenset((str, int, bool, float, type(None)))


class Event:
    """Base of every event. Subclasses set ``type`` and carry an ``actor``."""

    type: ClassVar[str] = "event"
    _fields: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for name in self._fields:
            value = getattr(self, name)
            out[name] = value if type(value) in _SCALARS else _plain(value)
        return out


def event(cls: type) -> type:
    """Make ``cls`` an event class: a record, with its field names as ``_fields``."""
    cls = record(cls)
    cls._fields = field_names(cls)  # type: ignore[attr-defined]
    return cls


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    # the usual containers first (a plain list or dict is never a dataclass); scalar items inline
    if kind is list or kind is tuple:
        return [v if type(v) in _SCALARS else _plain(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _SCALARS else _plain(v) for k, v in value.items()}
    if isinstance(value, Event):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: _plain(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """A record's (or dataclass's) field names, looked up once per class (a turn turns many events into
    dicts)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = field_names(cls)
    return names


def event_dicts(events: "list[Any]") -> list[dict[str, Any]]:
    return [e.to_dict() if isinstance(e, Event) else dict(e) for e in events]
