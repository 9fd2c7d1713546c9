"""pbf.render's in-process shortcuts (issue 13): each gives what the plain way gives, and sees a
change the plain way would see. No timings here (benchmarks/bench.py prints them)."""

from __future__ import annotations

import os
from collections import namedtuple
from dataclasses import dataclass

from pbf import render
from pbf.events import event_dicts
from pbf.systems import get_system

SYSTEM = get_system("alterego")


def _override(folder, name: str, text: str, stamp: int | None = None) -> None:
    path = folder / "templates" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    if stamp is not None:
        os.utime(path, (stamp, stamp))  # a different modification time even on a coarse clock


ONCE = "{% call once(rows) %}{% if calls.append(1) %}{% endif %}{{ mark }}{% for r in rows %}[{{ r }}]{% endfor %}{% endcall %}\n"


def test_once_writes_a_block_once_per_key_object(tmp_path):
    _override(tmp_path, "alterego/once.j2", ONCE)
    rows, same_rows, calls = ["弱", "強"], ["弱", "強"], []
    first = render.render(SYSTEM, "once.j2", tmp_path, rows=rows, calls=calls, mark="A")
    again = render.render(SYSTEM, "once.j2", tmp_path, rows=rows, calls=calls, mark="B")
    assert first == again == "A[弱][強]\n" and len(calls) == 1  # the block ran once for this object
    # an equal but other object is another key: the block runs again
    assert render.render(SYSTEM, "once.j2", tmp_path, rows=same_rows, calls=calls, mark="C") == "C[弱][強]\n"
    assert len(calls) == 2


def test_once_sees_a_changed_template(tmp_path):
    rows, calls = ["弱"], []
    _override(tmp_path, "alterego/once.j2", ONCE)
    assert render.render(SYSTEM, "once.j2", tmp_path, rows=rows, calls=calls, mark="A") == "A[弱]\n"
    _override(tmp_path, "alterego/once.j2", ONCE.replace("[{{ r }}]", "<{{ r }}>"), stamp=1)
    assert render.render(SYSTEM, "once.j2", tmp_path, rows=rows, calls=calls, mark="A") == "A<弱>\n"
    assert len(calls) == 2


def test_once_keyed_by_an_imported_module_sees_a_changed_macros_file(tmp_path):
    rows = ["弱"]
    _override(tmp_path, "alterego/rows.j2", "{% macro row(r) %}・{{ r }}{% endmacro %}\n")
    _override(tmp_path, "alterego/once.j2", '{% import "alterego/rows.j2" as m %}'
              "{% call once(rows, m) %}{% for r in rows %}{{ m.row(r) }}{% endfor %}{% endcall %}\n")
    assert render.render(SYSTEM, "once.j2", tmp_path, rows=rows) == "・弱\n"
    _override(tmp_path, "alterego/rows.j2", "{% macro row(r) %}＊{{ r }}{% endmacro %}\n", stamp=1)
    assert render.render(SYSTEM, "once.j2", tmp_path, rows=rows) == "＊弱\n"


def test_the_notice_lists_a_characters_techniques_every_time(tmp_path):
    from pbf.systems.base import Context, Player

    data = SYSTEM.load_data(None)
    ctx = Context("alterego", {"A": Player("A", "meiling"), "B": Player("B", "kaede")}, data)
    state = {"turn": 1, "distance": 2, "winner": None, "fighters": {
        name: {"character": p.character, "hp": 20, "soul": 0, "hand": ["弱"], "deck": []} for name, p in ctx.players.items()}}
    notices = SYSTEM.notices(state, ctx)
    shown = [render.render(SYSTEM, "notice.j2", tmp_path, turn=1, player="A", notice=notices["A"]) for _ in range(2)]
    assert shown[0] == shown[1]
    rows = [line for line in shown[0].splitlines() if line.startswith("・")]
    assert len(rows) == len(data.characters["meiling"].techniques)
    other = render.render(SYSTEM, "notice.j2", tmp_path, turn=1, player="B", notice=notices["B"])
    assert [line for line in other.splitlines() if line.startswith("・")] != rows


def test_a_templates_folder_added_or_removed_while_pbf_runs_is_seen(tmp_path):
    args = {"turn": 1, "orders_sha256": "ab", "gm_dice": 0, "next_deadline": None, "over": True}
    bundled = render.render(SYSTEM, "common/footer.j2", tmp_path, **args)
    assert "ab" in bundled
    _override(tmp_path, "common/footer.j2", "ハッシュ {{ orders_sha256 }}\n")
    assert render.render(SYSTEM, "common/footer.j2", tmp_path, **args) == "ハッシュ ab\n"
    (tmp_path / "templates" / "common" / "footer.j2").unlink()
    (tmp_path / "templates" / "common").rmdir()
    (tmp_path / "templates").rmdir()
    assert render.render(SYSTEM, "common/footer.j2", tmp_path, **args) == bundled


def test_a_cached_template_is_the_one_the_environment_gives(tmp_path):
    for folder in (None, tmp_path):
        kept = render.template(SYSTEM, "post.j2", folder)
        assert kept is render.template(SYSTEM, "post.j2", folder)
        assert kept is render.environment(SYSTEM, folder).get_template("alterego/post.j2")


def test_of_type_picks_events_in_order():
    events = [{"type": "move", "n": 1}, {"type": "hit", "n": 2}, {"type": "charge", "n": 3}, {"type": "hit", "n": 4}]
    env = render.environment(SYSTEM)
    shown = env.from_string('{{ events | of_type("hit", "charge") | map(attribute="n") | join(",") }}')
    assert shown.render(events=events) == "2,3,4"
    assert env.from_string('{{ events | of_type("ko") | length }}').render(events=events) == "0"


def test_group_by_gives_what_jinja2s_groupby_gives():
    """Sorted by the key (stably), one group per value; steps out of order are gathered too."""
    events = [{"step": 0, "n": 1}, {"step": 1, "n": 2}, {"step": 1, "n": 3}, {"step": 3, "n": 4},
              {"step": 2, "n": 5}, {"step": 1, "n": 6}]
    env = render.environment(SYSTEM)
    source = '{% for step, group in events | FILTER %}{{ step }}:{{ group | map(attribute="n") | join(",") }};{% endfor %}'
    ours = env.from_string(source.replace("FILTER", 'group_by("step")')).render(events=events)
    theirs = env.from_string(source.replace("FILTER", 'groupby("step")')).render(events=events)
    assert ours == theirs == "0:1;1:2,3,6;2:5;3:4;"
    assert env.from_string(source.replace("FILTER", 'group_by("step")')).render(events=[]) == ""


def test_with_next_gives_what_loop_nextitem_gives():
    env = render.environment(SYSTEM)
    ours = env.from_string("{% for x, after in items | with_next %}{{ x }}>{{ after }} {% endfor %}")
    theirs = env.from_string("{% for x in items %}{{ x }}>{{ loop.nextitem if loop.nextitem is defined else none }} {% endfor %}")
    for items in ([], ["a"], ["a", "b", "c"]):
        assert ours.render(items=items) == theirs.render(items=items)
    assert ours.render(items=["a", "b"]) == "a>b b>None "


def test_template_globals_are_the_environments():
    env = render.environment(SYSTEM)
    assert env.from_string("{{ once }}").globals["once"] is env.globals["once"]
    assert env.from_string("{{ range(3) | list }}").render() == "[0, 1, 2]"


Pair = namedtuple("Pair", "a b")


@dataclass
class Spot:
    band: str
    faces: tuple[int, ...]


def test_event_dicts_turn_containers_into_plain_lists_and_dicts():
    given = {"type": "x", "groups": [[1, 2], (3,)], "pair": Pair(1, [2]), "spots": {"近": Spot("近", (4, 5))}}
    (out,) = event_dicts([given])
    assert out == given  # dict(e) for a dict: kept as given
    from pbf.events import _plain

    assert _plain(given) == {"type": "x", "groups": [[1, 2], [3]], "pair": [1, [2]],
                             "spots": {"近": {"band": "近", "faces": [4, 5]}}}
    assert type(_plain((1, 2))) is list and _plain([True, None, 1.5, "a"]) == [True, None, 1.5, "a"]


def test_technique_rows_are_built_once_per_techniques_and_data():
    import copy

    from pbf.systems.base import Context, Player

    data = SYSTEM.load_data(None)
    ctx = Context("alterego", {"A": Player("A", "meiling")}, data)
    character = data.characters["meiling"]
    rows = SYSTEM.technique_rows(character.techniques, ctx)
    assert SYSTEM.technique_rows(character.techniques, ctx) is rows
    assert [r["cards"] for r in rows] == [t.command for t in character.techniques]
    other = Context("alterego", ctx.players, copy.copy(data))
    again = SYSTEM.technique_rows(character.techniques, other)
    assert again is not rows and again == rows  # other data (the same content): built again
