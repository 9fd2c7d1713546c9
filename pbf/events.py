"""Typed events: what the resolvers say happened. Templates turn them into words.

An event class is declared like a dataclass, with :func:`event` in place of ``@dataclass``::

    @event
    class Hit(Event):
        type: ClassVar[str] = "hit"
        actor: str
        target: str
        groups: list[int] = field(default_factory=list)

Fields are the annotated names in order (``ClassVar`` excluded), defaults as written. Why not
``dataclasses.dataclass``: it compiles ``__init__``, ``__repr__`` and ``__eq__`` of every class
when the module is imported (about 5 ms for a game's events, on every command, against the
start-up goals of benchmarks/bench.py). :func:`event` only records the fields; a class's
``__init__`` is compiled the first time one is made, and ``__repr__``/``__eq__`` are shared.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, ClassVar

from .record import field_names, is_classvar

_SCALARS = frozenset((str, int, bool, float, type(None)))


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]):
        self.make = make


def field(*, default_factory: Callable[[], Any]) -> Any:
    """A default made fresh for every event (``field(default_factory=list)``)."""
    return _Factory(default_factory)


class Event:
    """Base of every event. Subclasses set ``type`` and carry an ``actor``."""

    type: ClassVar[str] = "event"
    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for name in self._fields:
            value = getattr(self, name)
            out[name] = value if type(value) in _SCALARS else _plain(value)
        return out

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({inner})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self._fields)

    __hash__ = None  # type: ignore[assignment]  # mutable, like a dataclass with eq


def event(cls: type) -> type:
    """Record an event class's fields and defaults; its ``__init__`` is compiled on first use."""
    names: list[str] = []
    defaults: dict[str, Any] = {}
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if is_classvar(annotation):
            continue
        if name in cls.__dict__:
            default = cls.__dict__[name]
            defaults[name] = default
            if isinstance(default, _Factory):
                delattr(cls, name)
        elif defaults:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
        names.append(name)
    cls._fields = tuple(names)
    cls._defaults = defaults
    cls.__init__ = _first_init  # type: ignore[assignment]
    return cls


def _first_init(self: Event, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    init = _compile_init(cls)
    cls.__init__ = init  # type: ignore[assignment]
    init(self, *args, **kwargs)


def _compile_init(cls: type) -> Callable[..., None]:
    """``def __init__(self, a, b=_d_b, c=_FACTORY): self.a = a; …`` for the class's fields."""
    params, body = ["self"], []
    scope: dict[str, Any] = {"_FACTORY": _Factory}
    for name in cls._fields:  # type: ignore[attr-defined]
        if name not in cls._defaults:  # type: ignore[attr-defined]
            params.append(name)
            body.append(f"    self.{name} = {name}")
            continue
        default = cls._defaults[name]  # type: ignore[attr-defined]
        if isinstance(default, _Factory):
            scope[f"_f_{name}"] = default.make
            params.append(f"{name}=_FACTORY")
            body.append(f"    self.{name} = _f_{name}() if {name} is _FACTORY else {name}")
        else:
            scope[f"_d_{name}"] = default
            params.append(f"{name}=_d_{name}")
            body.append(f"    self.{name} = {name}")
    source = f"def __init__({', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(source, scope)  # noqa: S102 (the source is built from the class's own field names)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


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
