"""Schemas for the files a GM may edit by hand: state.yaml (and the archive's state files),
checked on load against the campaign (campaign.toml's players and options, the game's data).

A value of the wrong kind or out of range is an error naming the file, the key path and the
line — never a traceback deep in a resolver, and never a corrupt value accepted silently
(hp −5, 2.5 or .nan, soul 99, a card 「X」 in a hand, an unknown character, an extra fighter,
distance 100, ``alive: "no"``, a rider's deck count "x", names in initiative that are not
fighters, a fighter twice in initiative or a living one left out).

A schema is plain data: ``("int", lo, hi)``, ``("bool",)``, ``("str",)``, ``("null", inner)``
(null or inner), ``("one_of", values)``, ``("list", inner)``, ``("map", key_schema, value_schema)``,
``("record", {key: schema}, optional_keys)``. ``lo``/``hi`` may be None (unbounded).
"""

from __future__ import annotations

import math
from typing import Any

from .errors import PbfError, Problem

Schema = tuple


class _Invalid(Exception):
    def __init__(self, path: list[Any], why: str):
        self.path = path
        self.why = why


def check(value: Any, schema: Schema, path: list[Any] | None = None) -> None:
    """Raise _Invalid(path, why) at the first value that does not fit ``schema``."""
    path = path or []
    kind = schema[0]
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            shown = "小数" if isinstance(value, float) and not math.isnan(value) else _kind_name(value)
            raise _Invalid(path, f"整数のはずが{shown}です")
        lo, hi = schema[1], schema[2]
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise _Invalid(path, f"{value} は範囲外です（{_range(lo, hi)}）")
    elif kind == "bool":
        if not isinstance(value, bool):
            raise _Invalid(path, f"true か false のはずが{_kind_name(value)}です")
    elif kind == "str":
        if not isinstance(value, str):
            raise _Invalid(path, f"文字列のはずが{_kind_name(value)}です")
    elif kind == "null":
        if value is not None:
            check(value, schema[1], path)
    elif kind == "one_of":
        if isinstance(value, bool) or value not in schema[1]:
            choices = "、".join(str(v) for v in schema[1]) or "（なし）"
            raise _Invalid(path, f"「{_shown(value)}」は使えません（{choices} のどれか）")
    elif kind == "list":
        if not isinstance(value, list):
            raise _Invalid(path, f"リストのはずが{_kind_name(value)}です")
        for i, item in enumerate(value):
            check(item, schema[1], path + [i])
    elif kind == "map":
        if not isinstance(value, dict):
            raise _Invalid(path, f"表のはずが{_kind_name(value)}です")
        for key, item in value.items():
            check(key, schema[1], path + [key])
            check(item, schema[2], path + [key])
    elif kind == "record":
        if not isinstance(value, dict):
            raise _Invalid(path, f"表のはずが{_kind_name(value)}です")
        fields, optional = schema[1], schema[2] if len(schema) > 2 else ()
        for key, sub in fields.items():
            if key not in value:
                if key in optional:
                    continue
                raise _Invalid(path, f"「{key}」がありません")
            check(value[key], sub, path + [key])
    else:  # pragma: no cover - a schema written wrong is pbf's bug
        raise ValueError(f"unknown schema kind {kind!r}")


def _range(lo: Any, hi: Any) -> str:
    if hi is None:
        return f"{lo}以上"
    if lo is None:
        return f"{hi}以下"
    return f"{lo}〜{hi}"


def _shown(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 20 else text[:19] + "…"


def _kind_name(value: Any) -> str:
    if value is None:
        return "空（null）"
    if isinstance(value, bool):
        return f"真偽値（{str(value).lower()}）"
    if isinstance(value, float) and math.isnan(value):
        return "数でない値（.nan）"
    if isinstance(value, (int, float)):
        return f"数（{_shown(value)}）"
    if isinstance(value, str):
        return f"文字列（「{_shown(value)}」）"
    if isinstance(value, list):
        return "リスト"
    if isinstance(value, dict):
        return "表"
    return type(value).__name__


def key_path(path: list[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "（全体）"


def line_of(text: str, path: list[Any], source: str) -> int | None:
    """The line of ``path`` in the YAML ``text`` (1-based), as deep as the document goes."""
    from . import yamlio

    try:
        node = yamlio.load(text, source)
    except PbfError:
        return None
    line = None
    for part in path:
        lc = getattr(node, "lc", None)
        try:
            if isinstance(node, dict) and part in node:
                line = lc.key(part)[0] + 1 if lc is not None else line
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                line = lc.item(part)[0] + 1 if lc is not None else line
                node = node[part]
            else:
                break
        except (AttributeError, KeyError, TypeError, IndexError):
            break
    return line


def validate(value: Any, schema: Schema, text: str, source: str) -> None:
    """Check ``value`` (read from ``text``) against ``schema``; a clear error naming ``source``,
    the key path and the line."""
    try:
        check(value, schema)
    except _Invalid as bad:
        raise PbfError(
            Problem(
                f"{source} の {key_path(bad.path)}：{bad.why}。 / invalid value",
                line=line_of(text, bad.path, source),
            )
        ) from None


# -- the games' states ---------------------------------------------------------------------------

def state_schema(system: str, players: dict[str, Any], data: Any, options: dict[str, Any],
                 redacted: bool = False) -> Schema:
    """The schema of a state of ``system`` for these players, data and options (``redacted``: a
    public export whose private hands were taken out)."""
    names = tuple(players)
    if system == "alterego":
        return _alterego_schema(players, data, options, redacted)
    if system == "rider":
        return _rider_schema(players, data, options)
    return ("record", {"turn": ("int", 0, None), "fighters": ("map", ("one_of", names), ("record", {}))})


def _fighters(players: dict[str, Any], fighter: "dict[str, Schema]", optional: tuple = ()) -> dict[str, Schema]:
    """One record per player, each with its own character."""
    out = {}
    for name, player in players.items():
        fields = dict(fighter)
        fields["character"] = ("one_of", (player.character,))
        out[name] = ("record", fields, optional)
    return out


def _alterego_schema(players: dict[str, Any], data: Any, options: dict[str, Any], redacted: bool = False) -> Schema:
    from .systems.alterego.state import SOUL_MAX

    cards = tuple(c["symbol"] for c in getattr(data, "cards", []))
    card = ("one_of", cards)
    hp = int(options.get("hp", 20))
    techniques = tuple(
        {t.id for ch in getattr(data, "characters", {}).values() for t in ch.techniques}
    )
    fighter = {
        "character": ("str",),
        "hp": ("int", 0, max(hp, 999)),
        "soul": ("int", 0, SOUL_MAX),
        "stance": ("bool",),
        "charging": ("null", ("one_of", tuple(sorted(techniques)))),
        "hand": ("list", card),
        "deck": ("list", card),
        "discard": ("list", card),
    }
    return (
        "record",
        {
            "turn": ("int", 0, None),
            "distance": ("int", 0, int(options.get("max_distance", 6))),
            "winner": ("null", ("one_of", tuple(players) + ("draw",))),
            # a public export of a running private-hands battle has no hands (pbf export)
            "fighters": ("record", _fighters(players, fighter, ("hand", "deck", "discard") if redacted else ())),
        },
        ("winner",),
    )


def _rider_schema(players: dict[str, Any], data: Any, options: dict[str, Any]) -> Schema:
    from .systems.rider.data import BANDS

    names = tuple(players)
    cards = tuple(getattr(data, "cards", {}))
    fighter = {
        "character": ("str",),
        "kind": ("one_of", ("rider", "monster")),
        "hp": ("int", 0, None),
        "max_hp": ("int", 1, None),
        "alive": ("bool",),
        "vent": ("null", ("one_of", cards)),
        "deck": ("map", ("one_of", cards), ("int", 0, 99)),
        "used_once": ("list", ("str",)),
        "nasty": ("int", 0, 9999),
        "survive": ("list", ("str",)),
    }
    return (
        "record",
        {
            "turn": ("int", 0, None),
            "distance": ("null", ("one_of", BANDS)),
            "initiative": ("list", ("one_of", names)),
            "winner": ("null", ("str",)),
            "fighters": ("record", _fighters(players, fighter, ("used_once", "trick", "nasty", "survive", "vent"))),
        },
        ("winner", "initiative", "distance"),
    )


def validate_state(state: dict[str, Any], text: str, source: str, system: str, players: dict[str, Any],
                   data: Any, options: dict[str, Any], redacted: bool = False) -> None:
    """state.yaml against its game's schema; then the fighters are exactly the players."""
    validate(state, state_schema(system, players, data, options, redacted), text, source)
    fighters = state.get("fighters", {})
    for name, fighter in fighters.items():
        if isinstance(fighter.get("max_hp"), int) and fighter["hp"] > fighter["max_hp"]:
            raise PbfError(
                Problem(
                    f"{source} の fighters.{name}.hp：{fighter['hp']} が max_hp（{fighter['max_hp']}）を超えています。"
                    " / hp above max_hp",
                    line=line_of(text, ["fighters", name, "hp"], source),
                )
            )
    if system == "rider":
        _check_initiative(state, text, source)
    extra = [name for name in fighters if name not in players]
    if extra:
        path = ["fighters", extra[0]]
        raise PbfError(
            Problem(
                f"{source} の fighters に campaign.toml のプレイヤーでない「{_shown(extra[0])}」がいます。"
                " / a fighter who is not a player",
                line=line_of(text, path, source),
                hint="campaign.toml の [players] と state.yaml の fighters を合わせてください。",
            )
        )


def _check_initiative(state: dict[str, Any], text: str, source: str) -> None:
    """The rider game's ``initiative``: each fighter at most once, every living one in it (the
    fallen stay where they were). An empty list is a state made before rules version 2: the
    order is rolled at the start of turn 1."""
    order = state.get("initiative") or []
    if not order:
        return
    hint = "initiative には生きているファイター全員を、行動する順に一回ずつ書いてください。"
    seen: set[str] = set()
    for i, name in enumerate(order):
        if name in seen:
            raise PbfError(
                Problem(
                    f"{source} の initiative[{i}]：「{_shown(name)}」が二回並んでいます（一人一回です）。"
                    " / a fighter twice in initiative",
                    line=line_of(text, ["initiative", i], source),
                    hint=hint,
                )
            )
        seen.add(name)
    fighters = state.get("fighters", {})
    missing = [n for n, f in fighters.items() if f.get("alive", True) and n not in seen]
    if missing:
        raise PbfError(
            Problem(
                f"{source} の initiative：生きている「{'」「'.join(_shown(n) for n in missing)}」がいません。"
                " / a living fighter missing from initiative",
                line=line_of(text, ["initiative"], source),
                hint=hint,
            )
        )


# -- the archive's own records: turn.yaml and events.yaml (issue 21) ---------------------------
# Every key is optional (a turn archived by an older pbf has fewer); a key pbf knows has its
# kind, and a key it does not know is left alone (a newer pbf may have written it).

_TURN_META_FIELDS: dict[str, Schema] = {
    "rules_version": ("int", 1, None),
    "orders_from": ("one_of", ("file", "thread")),
    "made_with": ("record", {}),  # versions by library (a table; a hand-written 2.0 is still read as a version)
    "gm_dice": ("int", 0, None),
    "early": ("bool",),
    "deadline": ("str",),
    "next_deadline": ("str",),
    "thread": ("record", {
        "title": ("null", ("str",)),
        "fingerprint": ("null", ("str",)),
        "format": ("null", ("str",)),
        "encoding": ("null", ("str",)),
        "first_post": ("int", 0, None),
        "last_post": ("int", 0, None),
        # a thread read by its address (pbf/fetch.py): the address, what was fetched, the answer, when
        "source": ("record", {"url": ("str",), "fetched": ("str",), "kind": ("str",), "answer": ("str",),
                              "at": ("null", ("str",)), "part": ("int", 1, None)},
                             ("url", "fetched", "kind", "answer", "at", "part")),
    }, ("title", "fingerprint", "format", "encoding", "first_post", "last_post", "source")),
    "order_posts": ("map", ("str",), ("int", 0, None)),
    "not_taken": ("list", ("record", {"post": ("int", 0, None), "player": ("str",), "reason": ("str",)})),
    "notes": ("list", ("str",)),
}
TURN_META: Schema = ("record", _TURN_META_FIELDS, tuple(_TURN_META_FIELDS))

# events.yaml: the resolver's events of a turn, each a table with its type (the rest is the game's)
EVENTS: Schema = ("list", ("record", {"type": ("str",)}))
