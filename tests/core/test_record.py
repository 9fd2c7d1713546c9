"""pbf.record: records behave as the dataclasses they replace (issue 13: cheap to declare)."""

from __future__ import annotations

import dataclasses
import pickle
from typing import ClassVar

import pytest

from pbf.record import field, field_names, record, replace


@dataclasses.dataclass(frozen=True)
class FrozenDC:
    name: str
    line: int | None = None
    tags: list[str] = dataclasses.field(default_factory=list, compare=False)
    note: str = dataclasses.field(default="", repr=False)
    kind: ClassVar[str] = "x"


@record(frozen=True)
class FrozenRec:
    name: str
    line: int | None = None
    tags: list[str] = field(default_factory=list, compare=False)
    note: str = dataclasses.field(default="", repr=False)  # dataclasses.field is read too
    kind: ClassVar[str] = "x"


@dataclasses.dataclass
class MutableDC:
    a: int
    b: dict[str, int] = dataclasses.field(default_factory=dict)


@record
class MutableRec:
    a: int
    b: dict[str, int] = field(default_factory=dict)

    def total(self) -> int:
        return self.a + sum(self.b.values())


@record
class Child(MutableRec):
    c: str = "c"


def _pairs():
    return [
        (FrozenDC("A"), FrozenRec("A")),
        (FrozenDC("A", 3, ["t"], "n"), FrozenRec("A", 3, ["t"], "n")),
        (FrozenDC(name="B", note="x"), FrozenRec(name="B", note="x")),
        (MutableDC(1), MutableRec(1)),
        (MutableDC(1, {"x": 2}), MutableRec(1, {"x": 2})),
    ]


@pytest.mark.parametrize("pair", range(5))
def test_a_record_reads_like_its_dataclass(pair):
    dc, rec = _pairs()[pair]
    assert repr(rec) == repr(dc).replace("DC(", "Rec(")
    assert field_names(rec) == field_names(dc) == tuple(f.name for f in dataclasses.fields(rec))
    assert dataclasses.is_dataclass(rec) and dataclasses.asdict(rec) == dataclasses.asdict(dc)
    assert rec == type(rec)(**dataclasses.asdict(rec)) and rec != dc
    assert pickle.loads(pickle.dumps(rec)) == rec


def test_equality_and_hash_follow_the_compared_fields():
    assert FrozenRec("A", 1, ["x"]) == FrozenRec("A", 1, ["y"])  # tags: compare=False
    assert FrozenRec("A", 1) != FrozenRec("A", 2)
    assert hash(FrozenRec("A", 1, ["x"])) == hash(FrozenRec("A", 1)) == hash(FrozenDC("A", 1))
    assert MutableRec.__hash__ is None and MutableRec(1) == MutableRec(1) and MutableRec(1) != MutableRec(2)


def test_a_frozen_record_refuses_assignment_and_a_mutable_one_takes_it():
    rec = FrozenRec("A")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.name = "B"
    with pytest.raises(dataclasses.FrozenInstanceError):
        del rec.line
    mutable = MutableRec(1)
    mutable.a = 5
    assert mutable.total() == 5


def test_defaults_are_fresh_and_replace_keeps_the_rest():
    one, two = MutableRec(1), MutableRec(2)
    one.b["x"] = 1
    assert two.b == {} and FrozenRec.line is None and FrozenRec.kind == "x"
    rec = FrozenRec("A", 3, ["t"], "n")
    for copy in (replace(rec, line=4), dataclasses.replace(rec, line=4)):
        assert (copy.name, copy.line, copy.tags, copy.note) == ("A", 4, ["t"], "n")
    with pytest.raises(TypeError):
        FrozenRec()
    with pytest.raises(TypeError):
        FrozenRec("A", nope=1)


def test_a_subclass_adds_its_fields_after_its_bases():
    child = Child(1, {"x": 1}, "z")
    assert field_names(Child) == ("a", "b", "c") and child.total() == 2
    assert repr(child) == "Child(a=1, b={'x': 1}, c='z')" and Child(1) == Child(1, {}, "c")
    assert field_names(MutableRec) == ("a", "b")


def test_a_field_without_a_default_after_one_with_a_default_is_refused():
    with pytest.raises(TypeError):
        @record
        class Wrong:
            a: int = 1
            b: int


@pytest.mark.parametrize("compile_after", [0, 1000])  # the compiled __init__, the plain one
def test_both_ways_of_making_a_record_give_the_same_instance(compile_after, monkeypatch):
    import pbf.record

    monkeypatch.setattr(pbf.record, "COMPILE_AFTER", compile_after)

    @record(frozen=True)
    class Made:
        a: int
        b: str = "b"
        c: list[int] = field(default_factory=list)

    for _ in range(3):  # the first instance and the next ones
        made = Made(1, c=[2])
        assert vars(made) == {"a": 1, "b": "b", "c": [2]} and Made(a=1).c == [] and Made(1).c is not Made(1).c
        for wrong in ((), (1, "b", [], 4)):
            with pytest.raises(TypeError):
                Made(*wrong)
        for wrong in ({"a": 1, "d": 2}, {"b": "x"}):
            with pytest.raises(TypeError):
                Made(**wrong)
        with pytest.raises(TypeError):
            Made(1, a=1)
    compiled = "_first_init" not in vars(Made)["__init__"].__qualname__
    assert compiled == (compile_after == 0)
