"""Records: small data classes declared like dataclasses, cheap to declare (issue 13).

A record is written as a dataclass is, with :func:`record` in place of ``@dataclass``::

    @record(frozen=True)
    class Post:
        number: int
        body: str = ""
        warnings: list[Problem] = field(default_factory=list)

It behaves as the dataclass would: the annotated names (``ClassVar`` excluded) are the fields,
in order, with their defaults; ``__init__``, ``__repr__`` and ``__eq__`` as a dataclass's
(``repr=False`` / ``compare=False`` fields left out); frozen records refuse assignment with
``dataclasses.FrozenInstanceError`` and hash by their compared fields; a mutable record is not
hashable. ``dataclasses.replace``, ``dataclasses.fields``, ``dataclasses.is_dataclass`` and
``dataclasses.asdict`` accept records (their ``__dataclass_fields__`` is made on first use).

Why not ``dataclasses.dataclass``: it compiles six methods of every class when its module is
imported, about 0.3 ms a class, and a ``pbf status`` declares some 30 of them (against the
start-up goals of benchmarks/bench.py). :func:`record` only notes the fields; the shared
methods are plain functions, and a class's own ``__init__`` is compiled only once it has made a
few instances (until then a plain loop over the fields makes them).
``field`` may be this module's or ``dataclasses.field`` (only ``default``, ``default_factory``,
``repr`` and ``compare`` are read).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

_MISSING = dataclasses.MISSING


def field(*, default: Any = _MISSING, default_factory: Any = _MISSING, repr: bool = True,
          compare: bool = True) -> Any:
    """A field's options, as ``dataclasses.field`` takes them."""
    return dataclasses.field(default=default, default_factory=default_factory, repr=repr, compare=compare)


def record(cls: type | None = None, /, *, frozen: bool = False) -> Any:
    """``@record`` or ``@record(frozen=True)``: make ``cls`` a record (see the module's text)."""
    if cls is None:
        return lambda c: _make(c, frozen)
    return _make(cls, frozen)


def is_classvar(annotation: Any) -> bool:
    """Whether an annotation (a string, with ``from __future__ import annotations``) is a ClassVar."""
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _make(cls: type, frozen: bool) -> type:
    names: list[str] = []
    defaults: dict[str, Any] = {}
    factories: dict[str, Callable[[], Any]] = {}
    hidden: set[str] = set()  # repr=False
    ignored: set[str] = set()  # compare=False
    for base in reversed(cls.__mro__[1:]):
        inherited = base.__dict__.get("_record_spec")
        if inherited is not None:
            for name in inherited[0]:
                if name not in names:
                    names.append(name)
            defaults.update(inherited[1])
            factories.update(inherited[2])
            hidden |= inherited[3]
            ignored |= inherited[4]
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if is_classvar(annotation):
            continue
        if name not in names:
            names.append(name)
        if name not in cls.__dict__:
            if defaults or factories:
                raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
            continue
        value = cls.__dict__[name]
        if isinstance(value, dataclasses.Field):
            if not value.repr:
                hidden.add(name)
            if not value.compare:
                ignored.add(name)
            if value.default_factory is not _MISSING:
                factories[name] = value.default_factory
                delattr(cls, name)
                continue
            if value.default is _MISSING:
                delattr(cls, name)
                if defaults or factories:
                    raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
                continue
            value = value.default
            setattr(cls, name, value)
        defaults[name] = value
    fields = tuple(names)
    cls._record_spec = (fields, defaults, factories, frozenset(hidden), frozenset(ignored), frozen)
    cls._record_repr = tuple(n for n in fields if n not in hidden)
    cls._record_compare = tuple(n for n in fields if n not in ignored)
    cls.__match_args__ = fields
    own = cls.__dict__
    cls.__init__ = _first_init(cls)
    if "__repr__" not in own:
        cls.__repr__ = _repr
    if "__eq__" not in own:
        cls.__eq__ = _eq
    if frozen:
        cls.__setattr__ = _refuse_set
        cls.__delattr__ = _refuse_del
        if "__hash__" not in own or own["__hash__"] is None:
            cls.__hash__ = _hash
    elif "__hash__" not in own:
        cls.__hash__ = None
    cls.__dataclass_fields__ = _LazyFields()
    return cls


def _repr(self: Any) -> str:
    inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._record_repr)
    return f"{type(self).__qualname__}({inner})"


def _values(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, name) for name in self._record_compare)


def _eq(self: Any, other: object) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _refuse_set(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_del(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


COMPILE_AFTER = 16  # instances of a class made by the plain __init__ before its own is compiled


def _first_init(owner: type) -> Callable[..., None]:
    """The ``__init__`` of a new record class: a plain loop over the fields for the first few
    instances (most classes make only a few in a command), then the compiled one (a thread's
    posts, a replay's turns: many)."""
    made = 0

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        nonlocal made
        made += 1
        if made <= COMPILE_AFTER or type(self) is not owner:
            _plain_init(self, owner._record_spec, args, kwargs)  # type: ignore[attr-defined]
            return
        init = _compile_init(owner)
        owner.__init__ = init  # type: ignore[misc]
        init(self, *args, **kwargs)

    return __init__


def _plain_init(self: Any, spec: tuple[Any, ...], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    fields, defaults, factories = spec[0], spec[1], spec[2]
    name = type(self).__qualname__
    if len(args) > len(fields):
        raise TypeError(f"{name}() takes {len(fields)} arguments but {len(args)} were given")
    given = dict(zip(fields, args))
    for key, value in kwargs.items():
        if key not in fields:
            raise TypeError(f"{name}() got an unexpected keyword argument {key!r}")
        if key in given:
            raise TypeError(f"{name}() got multiple values for argument {key!r}")
        given[key] = value
    values: dict[str, Any] = {}
    for field_name in fields:
        if field_name in given:
            values[field_name] = given[field_name]
        elif field_name in factories:
            values[field_name] = factories[field_name]()
        elif field_name in defaults:
            values[field_name] = defaults[field_name]
        else:
            raise TypeError(f"{name}() missing required argument: {field_name!r}")
    self.__dict__.update(values)
    if hasattr(self, "__post_init__"):
        self.__post_init__()


def _compile_init(cls: type) -> Callable[..., None]:
    """``def __init__(self, a, b=_d_b, c=_FACTORY): self.a = a; …`` for the class's fields."""
    fields, defaults, factories, _, _, frozen = cls._record_spec  # type: ignore[attr-defined]
    params, body = ["self"], []
    scope: dict[str, Any] = {"_FACTORY": _MISSING, "_set": object.__setattr__}
    assign = "_set(self, {name!r}, {value})" if frozen else "self.{name} = {value}"
    for name in fields:
        value = name
        if name in factories:
            scope[f"_f_{name}"] = factories[name]
            params.append(f"{name}=_FACTORY")
            value = f"_f_{name}() if {name} is _FACTORY else {name}"
        elif name in defaults:
            scope[f"_d_{name}"] = defaults[name]
            params.append(f"{name}=_d_{name}")
        else:
            params.append(name)
        body.append("    " + assign.format(name=name, value=value))
    if "__post_init__" in dir(cls):
        body.append("    self.__post_init__()")
    source = f"def __init__({', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(source, scope)  # noqa: S102 (the source is built from the class's own field names)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


class _LazyFields:
    """``__dataclass_fields__`` of a record, made when dataclasses' functions first ask for it."""

    def __get__(self, obj: Any, owner: type) -> dict[str, dataclasses.Field]:
        fields, defaults, factories, hidden, ignored, _ = owner._record_spec  # type: ignore[attr-defined]
        annotations: dict[str, Any] = {}
        for klass in reversed(owner.__mro__):
            annotations.update(klass.__dict__.get("__annotations__", {}))
        # the fields as dataclasses itself makes them: a dataclass of the same fields, declared
        # through the public make_dataclass (no method made: init, repr and eq off), whose
        # fields() are this record's (made once per class, when dataclasses first asks)
        specs = []
        for name in fields:
            default = defaults.get(name, _MISSING)
            if default is not _MISSING and type(default).__hash__ is None:  # dataclasses refuses a mutable default
                kept = default
                spec = dataclasses.field(default_factory=lambda kept=kept: kept, repr=name not in hidden,
                                         compare=name not in ignored)
            else:
                spec = dataclasses.field(default=default, default_factory=factories.get(name, _MISSING),
                                         repr=name not in hidden, compare=name not in ignored)
            specs.append((name, annotations.get(name), spec))
        shadow = dataclasses.make_dataclass(owner.__name__, specs, init=False, repr=False, eq=False)
        out: dict[str, dataclasses.Field] = {f.name: f for f in dataclasses.fields(shadow)}
        type.__setattr__(owner, "__dataclass_fields__", out)
        return out


def replace(obj: Any, /, **changes: Any) -> Any:
    """A copy of the record (or dataclass) ``obj`` with ``changes``, as ``dataclasses.replace``."""
    spec = getattr(type(obj), "_record_spec", None)
    if spec is None:
        return dataclasses.replace(obj, **changes)
    for name in spec[0]:
        if name not in changes:
            changes[name] = getattr(obj, name)
    return type(obj)(**changes)


def field_names(cls_or_obj: Any) -> tuple[str, ...]:
    """The field names of a record (or dataclass), in order."""
    spec = getattr(cls_or_obj, "_record_spec", None)
    if spec is not None:
        return spec[0]
    return tuple(f.name for f in dataclasses.fields(cls_or_obj))
