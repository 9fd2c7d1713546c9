"""pbf.events.event: events declared like dataclasses, cheaper to import (benchmarks/bench.py)."""

from __future__ import annotations

from typing import ClassVar

import pytest

from pbf.events import Event, event, event_dicts, field


@event
class Sample(Event):
    type: ClassVar[str] = "sample"
    actor: str
    faces: list[int]
    groups: list[list[int]] = field(default_factory=list)
    bonus: int = 0


def test_fields_in_order_with_defaults_and_fresh_factories():
    a = Sample("城戸", [3, 6])
    b = Sample("蓮", [1], bonus=2)
    assert a.to_dict() == {"type": "sample", "actor": "城戸", "faces": [3, 6], "groups": [], "bonus": 0}
    assert list(a.to_dict()) == ["type", "actor", "faces", "groups", "bonus"]
    a.groups.append([3])
    assert b.groups == [] and b.bonus == 2
    assert Sample("x", [], [[1]], 4).to_dict()["groups"] == [[1]]


def test_equality_repr_and_errors_like_a_dataclass():
    assert Sample("x", [1]) == Sample("x", [1]) and Sample("x", [1]) != Sample("x", [2])
    assert repr(Sample("x", [1])) == "Sample(actor='x', faces=[1], groups=[], bonus=0)"
    with pytest.raises(TypeError):
        Sample("x")  # a field without a default is required
    with pytest.raises(TypeError):
        Sample("x", [1], nope=1)


def test_a_required_field_after_a_default_is_refused():
    with pytest.raises(TypeError, match="without a default"):
        @event
        class Bad(Event):
            actor: str = ""
            step: int


def test_nested_events_become_dicts():
    @event
    class Outer(Event):
        type: ClassVar[str] = "outer"
        actor: str
        inner: Sample

    assert event_dicts([Outer("x", Sample("y", [2]))]) == [
        {"type": "outer", "actor": "x", "inner": {"type": "sample", "actor": "y", "faces": [2], "groups": [], "bonus": 0}}
    ]
