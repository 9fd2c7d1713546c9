"""What pbf had from private parts of other libraries, now from their public interfaces (issue 23):
a record's ``dataclasses.fields()`` (was ``dataclasses._FIELD``) and the notices' ``once`` block
(was jinja2's ``Macro._func``), with its fallback."""

from __future__ import annotations

import dataclasses

import jinja2

from pbf import render
from pbf.record import field, record


@record
class _Kept:
    a: int
    b: tuple = ()
    c: list = field(default_factory=list)
    d: str = field(default="x", repr=False, compare=False)


def test_dataclasses_functions_read_a_record_through_public_fields():
    fields = dataclasses.fields(_Kept)
    assert [f.name for f in fields] == ["a", "b", "c", "d"]
    assert fields[0].default is dataclasses.MISSING and fields[1].default == ()
    assert fields[2].default_factory is list and fields[3].repr is False and fields[3].compare is False
    kept = _Kept(1, (2,), [3])
    assert dataclasses.asdict(kept) == {"a": 1, "b": (2,), "c": [3], "d": "x"}
    assert dataclasses.replace(kept, a=5) == _Kept(5, (2,), [3])
    assert dataclasses.is_dataclass(kept)


def test_a_record_with_a_mutable_plain_default_still_has_fields():
    @record
    class Loose:
        a: dict = {}  # noqa: RUF012  (a record allows it; dataclasses would not)

    (only,) = dataclasses.fields(Loose)
    assert only.name == "a" and only.default_factory() == {}


def _templates(tmp_path, body: str) -> jinja2.Environment:
    (tmp_path / "t.j2").write_text(body, "utf-8")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path)))
    env.globals["once"] = render._render_once
    return env


def test_once_renders_a_block_of_a_template_file_once_per_keys(tmp_path):
    rows = ["a", "b"]
    calls = []
    env = _templates(tmp_path, "{% call once(rows) %}{{ count() }}{% endcall %}|{% call once(rows) %}{{ count() }}{% endcall %}")

    def count() -> str:
        calls.append(1)
        return str(len(calls))

    first = env.get_template("t.j2").render(rows=rows, count=count)
    again = env.get_template("t.j2").render(rows=rows, count=count)
    assert first == "1|2"  # two blocks: two sites
    assert again == first and len(calls) == 2  # the second render takes both from the cache
    env.get_template("t.j2").render(rows=list(rows), count=count)  # other keys: made again
    assert len(calls) == 4


def test_once_without_a_template_file_renders_every_time():
    """The fallback: a block whose template is not a file (from a string) is not cached."""
    calls = []
    env = jinja2.Environment()
    env.globals["once"] = render._render_once
    template = env.from_string("{% call once(rows) %}{{ count() }}{% endcall %}")
    rows = ["a"]

    def count() -> str:
        calls.append(1)
        return str(len(calls))

    assert template.render(rows=rows, count=count) == "1"
    assert template.render(rows=rows, count=count) == "2"


def test_argparse_says_its_errors_in_japanese_without_its_globals_changed(capsys):
    """argparse's English messages are read back and said in Japanese by the parser's public
    error(); argparse's own module is left as it is (it used to have its gettext replaced)."""
    import argparse
    import gettext

    from pbf.cli import main
    from pbf.cli.parser import argparse_japanese

    try:
        main(["completion", "fish"])
    except SystemExit as exc:
        assert exc.code == 2
    err = capsys.readouterr().err
    assert err.startswith("使い方: pbf completion")
    assert "shell：'fish' は選べません（選べるもの：'bash', 'zsh'）" in err
    assert argparse._ is gettext.gettext and argparse.ngettext is gettext.ngettext
    assert argparse_japanese("expected 2 arguments") == "値を2個指定してください"
    assert argparse_japanese("argument --x: expected one argument") == "--x：値を一つ指定してください"
    assert argparse_japanese("something argparse never said") == "something argparse never said"
