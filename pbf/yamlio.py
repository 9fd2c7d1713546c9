"""YAML as GMs read it: round-trip (comments and key order survive), Japanese left readable.

Two ways to the same bytes. ruamel.yaml (round-trip mode) reads and writes any YAML, with the
GM's comments. pbf's own documents (a state, events, a dice record) are plain data, and most of
them hold only simple scalars: for those, :func:`dump_data` writes the very text ruamel.yaml would
write, directly, and :func:`load_plain` reads such a text back and accepts the result only when
writing it again gives the same text. Anything else (a comment, a quoted word, a long line) goes
through ruamel.yaml, which is then imported for the first time. tests/core/test_yamlio_direct.py
checks the two ways against each other.
"""

from __future__ import annotations

import io
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import PbfError, Problem


def _yaml() -> Any:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.allow_unicode = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.representer.add_representer(type(None), _represent_null)
    return yaml


def _represent_null(representer: Any, _data: None) -> Any:
    return representer.represent_scalar("tag:yaml.org,2002:null", "null")


def load(text: str, source: str) -> Any:
    """Parse YAML text; a syntax error becomes a Japanese message with line and column."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        refuse_unsafe(text, source)
        return _yaml().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        column = mark.column + 1 if mark else None
        raise PbfError(
            Problem(
                f"{source} の YAML が読めません（{exc.problem or exc.context}）。 / malformed YAML",
                line=line,
                column=column,
            )
        ) from None
    except (YAMLError, ValueError, RecursionError) as exc:  # ValueError: e.g. a number of 5,000 digits
        raise PbfError(f"{source} の YAML が読めません（{exc}）。 / malformed YAML") from None


MAX_BYTES = 32 * 1024 * 1024  # no file pbf reads comes near this; a bigger one is not pbf's
MAX_DEPTH = 64  # pbf's own documents nest a few levels


def refuse_unsafe(text: str, source: str) -> None:
    """Refuse what pbf never writes and what could make a reader hang or run out of stack:
    anchors and aliases (a billion laughs), deep nesting, a huge file. Parse errors propagate."""
    from ruamel.yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent, NodeEvent

    if len(text) > MAX_BYTES:
        raise PbfError(f"{source} が大きすぎます（{len(text):,}文字、上限 {MAX_BYTES:,}）。 / file too large")
    if (
        "&" not in text and "*" not in text and text.count("[") + text.count("{") < MAX_DEPTH
        and max(map(len, re.findall(r"^[ \t-]*", text, re.M)), default=0) < MAX_DEPTH
    ):
        return  # nothing to look for: no anchor, no alias, too few brackets and indents to nest deep
    depth = 0
    from ruamel.yaml import YAML

    def refused(event: Any, message: str) -> PbfError:
        mark = event.start_mark
        return PbfError(
            Problem(message, line=mark.line + 1 if mark else None, column=mark.column + 1 if mark else None)
        )

    for event in YAML(typ="rt").parse(text):
        if isinstance(event, AliasEvent) or (isinstance(event, NodeEvent) and event.anchor):
            raise refused(event, f"{source} に YAML のアンカーか別名（& や *）があります。pbf は使いません。"
                                 " / anchors and aliases are refused")
        if isinstance(event, CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise refused(event, f"{source} の入れ子が深すぎます（{MAX_DEPTH}段まで）。 / nesting too deep")
        elif isinstance(event, CollectionEndEvent):
            depth -= 1


def dump(data: Any) -> str:
    stream = io.StringIO()
    _yaml().dump(data, stream)
    return stream.getvalue()


def dump_data(data: Any) -> str:
    """Plain data (a new state, events, a dice record) as a fresh YAML document."""
    text = _emit(data)
    return text if text is not None else dump(merge_into(None, data))


def load_plain(text: str, source: str) -> Any:
    """A YAML text as plain dicts, lists and scalars (comments dropped)."""
    data = _read(text)
    return data if data is not None else plain(load(text, source))


def plain(value: Any) -> Any:
    """A round-trip document as plain dicts, lists and scalars."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    return value


def merge_into(doc: Any, new: Any) -> Any:
    """Update the round-trip ``doc`` to equal ``new`` in place, keeping comments where keys stay.

    Returns the object to store (``doc`` itself when it could be updated in place).
    """
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(doc, CommentedMap) and isinstance(new, dict):
        for key in [k for k in doc if k not in new]:
            del doc[key]
        for key, value in new.items():
            if key in doc:
                doc[key] = merge_into(doc[key], value)
            else:
                doc[key] = merge_into(None, value)
        # keep the resolver's key order for keys it added; existing keys keep their place
        return doc
    if isinstance(doc, CommentedSeq) and isinstance(new, list) and len(doc) == len(new):
        for i, value in enumerate(new):
            doc[i] = merge_into(doc[i], value)
        return doc
    if isinstance(new, dict):
        out = CommentedMap()
        for key, value in new.items():
            out[key] = merge_into(None, value)
        return out
    if isinstance(new, list):
        seq = CommentedSeq(merge_into(None, v) for v in new)
        if new and all(not isinstance(v, (dict, list)) for v in new):
            seq.fa.set_flow_style()
        return seq
    return new


def merge_text(old_text: str, old: Any, new: Any, source: str = "state.yaml") -> tuple[str, Any]:
    """The text of ``old_text`` (whose plain data is ``old``) with ``new`` merged in as
    :func:`merge_into` does, and the merged plain data. A text pbf wrote itself takes the
    direct way; a GM's edited text goes through ruamel.yaml so that the comments survive."""
    if _emit(old) == old_text:
        merged = _merged(old, new)
        if merged is not _MIXED:
            text = _emit(merged)
            if text is not None:
                return text, merged
    doc = merge_into(load(old_text, source), new)
    return dump(doc), plain(doc)


# -- data files (characters, cards): parsed once per content -------------------------------

def load_data_file(path: Path) -> Any:
    """A bundled or campaign data file (safe YAML), parsed once per content (pbf's cache).
    Parse errors propagate."""
    from . import resources

    def parse(raw: bytes) -> Any:
        from ruamel.yaml import YAML

        text = raw.decode("utf-8")
        refuse_unsafe(text, Path(path).name)
        return YAML(typ="safe").load(text)

    from .fsutil import read_bytes

    return resources.parsed("yaml", read_bytes(Path(path), Path(path).name), parse)


# -- the direct way: pbf's own plain documents ------------------------------------------------

_WIDTH = 4000  # ruamel.yaml folds lines past 4096 columns: longer lines take its way
_KEY_WIDTH = 100  # ruamel.yaml writes keys of 128 characters or more as "? key"
_UNSAFE_FIRST = set("-?:,[]{}#&*!|>'\"%@`.~<=+ ")
# A plain word that starts with a digit is fine unless YAML reads it as a number or a date
# (these cover ruamel.yaml's patterns for YAML 1.2 and 1.1): a hash like 8308500dc3… stays plain.
_NUMBER_LIKE = (
    r"[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?"
    r"|0b[0-1_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+"
    r"|[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?"
    r"|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:(?:[Tt]|[ \t]+)[0-9].*)?"
)
_RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "y", "n"}
_NOT_PLAIN = frozenset(":#,[]{}'\"\\")  # YAML's indicators and quotes, anywhere in a word
_NOT_QUOTED = frozenset('"\\')
_MIXED = object()  # a merge whose sequence style the direct way cannot follow


def _printable(text: str) -> bool:
    """Characters both ways write as they are (allow_unicode): printable ones of the basic plane.
    (Stricter than ruamel.yaml, which also writes private-use characters and no-break spaces
    as they are: a text with those takes its way.)"""
    return text.isprintable() and max(text) < "\U00010000"


def _plain_ok(text: str) -> bool:
    if not text or text[0] in _UNSAFE_FIRST or text[-1] == " " or text.lower() in _RESERVED:
        return False
    if text[0].isdigit() and (not text[0].isascii() or re.fullmatch(_NUMBER_LIKE, text)):
        return False
    return _printable(text) and _NOT_PLAIN.isdisjoint(text)


@lru_cache(maxsize=4096)
def _string(value: str) -> str | None:
    if _plain_ok(value):
        return value
    if not value:
        return "''"
    if "\t" in value and _printable(value.replace("\t", " ").replace("\n", " ")) and _NOT_QUOTED.isdisjoint(value):
        # a tab makes ruamel.yaml choose double quotes (the canonical orders: "NAME\tORDER\n")
        return '"' + value.replace("\t", "\\t").replace("\n", "\\n") + '"'
    return None


def _scalar(value: Any) -> str | None:
    if type(value) is str:
        return _string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return str(value)
    return None


def _flow(value: list) -> bool:
    """Lists of scalars (and empty lists) are written in flow style: [a, b]."""
    return all(not isinstance(v, (dict, list)) for v in value)


def _key(key: Any) -> str | None:
    if type(key) is not str or len(key) > _KEY_WIDTH or _string(key) != key:
        return None
    return key


def _emit(data: Any) -> str | None:
    """The text ruamel.yaml (this module's settings) writes for plain data, or None when unsure."""
    lines: list[str] = []
    if isinstance(data, dict) and data:
        ok = _emit_map(data, "", lines)
    elif isinstance(data, list) and data and not _flow(data):
        ok = _emit_seq(data, "  ", lines)
    elif isinstance(data, (dict, list)):
        text = _inline(data)
        ok = text is not None and len(text) <= _WIDTH
        lines.append(text or "")
    else:
        return None
    return "\n".join(lines) + "\n" if ok else None


def _inline(value: Any) -> str | None:
    """A value that stays on its key's (or dash's) line: a scalar, [flow], [] or {}."""
    if isinstance(value, dict):
        return "{}" if not value else None
    if isinstance(value, list):
        if not _flow(value):
            return None
        items = [_scalar(v) for v in value]
        if None in items:
            return None
        return "[" + ", ".join(items) + "]"  # type: ignore[arg-type]
    return _scalar(value)


def _emit_map(data: dict, indent: str, lines: list[str], first: str | None = None) -> bool:
    """Mapping lines at ``indent``; ``first`` replaces the first line's indent ("- " of an item)."""
    for key, value in data.items():
        k = _key(key)
        if k is None:
            return False
        lead = indent if first is None else first
        first = None
        if isinstance(value, (dict, list)) and value and not (isinstance(value, list) and _flow(value)):
            lines.append(f"{lead}{k}:")
            if isinstance(value, dict):
                ok = _emit_map(value, indent + "  ", lines)
            else:
                ok = _emit_seq(value, indent + "  ", lines)
            if not ok:
                return False
            continue
        text = _inline(value)
        if text is None:
            return False
        line = f"{lead}{k}: {text}"
        if len(line) > _WIDTH:
            return False
        lines.append(line)
    return True


def _emit_seq(data: list, dash: str, lines: list[str]) -> bool:
    """Block sequence items with the dash at ``dash`` (ruamel.yaml: sequence 4, offset 2)."""
    for value in data:
        if isinstance(value, dict) and value:
            if not _emit_map(value, dash + "  ", lines, first=dash + "- "):
                return False
            continue
        if isinstance(value, list) and value and not _flow(value):
            return False  # a block list right inside a block list: ruamel.yaml's own layout
        text = _inline(value)
        if text is None or len(dash) + 2 + len(text) > _WIDTH:
            return False
        lines.append(f"{dash}- {text}")
    return True


def _merged(old: Any, new: Any) -> Any:
    """``new`` in the key order :func:`merge_into` gives when merged into ``old``'s document."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = {}
        for key in old:
            if key in new:
                value = _merged(old[key], new[key])
                if value is _MIXED:
                    return _MIXED
                out[key] = value
        for key, value in new.items():
            if key not in old:
                out[key] = value
        return out
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        if _flow(old) != _flow(new):
            return _MIXED  # the document keeps the old list's style
        out_list = []
        for a, b in zip(old, new):
            value = _merged(a, b)
            if value is _MIXED:
                return _MIXED
            out_list.append(value)
        return out_list
    return new


# -- reading a text the direct way wrote ------------------------------------------------------

def _read(text: str) -> Any:
    """Plain data from a text that :func:`_emit` would write, or None for any other text."""
    if not text.endswith("\n"):
        return None
    lines = text[:-1].split("\n")
    try:
        if len(lines) == 1 and lines[0].startswith(("[", "{")):
            data: Any = _read_value(lines[0])
        elif lines[0].startswith("  - "):
            data, end = _read_seq(lines, 0, "  ")
            if end != len(lines):
                return None
        else:
            data, end = _read_map(lines, 0, "")
            if end != len(lines):
                return None
    except (_NotCanonical, RecursionError, ValueError):  # ValueError: an integer too long for int()
        return None
    return data if _emit(data) == text else None


class _NotCanonical(Exception):
    pass


def _read_value(text: str) -> Any:
    if text.startswith("["):
        if not text.endswith("]"):
            raise _NotCanonical
        inner = text[1:-1]
        return [_read_scalar(item) for item in _split_flow(inner)] if inner else []
    if text == "{}":
        return {}
    return _read_scalar(text)


def _split_flow(inner: str) -> list[str]:
    items, start, quoted = [], 0, False
    for i, ch in enumerate(inner):
        if ch == '"':
            quoted = not quoted
        elif ch == "," and not quoted:
            items.append(inner[start:i])
            start = i + 2  # ", "
    items.append(inner[start:])
    return items


def _read_scalar(text: str) -> Any:
    if text == "null":
        return None
    if text == "true":
        return True
    if text == "false":
        return False
    if text == "''":
        return ""
    digits = text[1:] if text.startswith("-") else text
    if digits.isascii() and digits.isdigit():
        return int(text)
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        return text[1:-1].replace("\\t", "\t").replace("\\n", "\n")
    return text


def _read_map(lines: list[str], i: int, indent: str, first: str | None = None) -> tuple[dict, int]:
    out: dict[str, Any] = {}
    while i < len(lines):
        line = lines[i]
        lead = indent if first is None else first
        if not line.startswith(lead) or line[len(lead): len(lead) + 1] in (" ", "-"):
            if first is not None:
                raise _NotCanonical
            break
        first = None
        rest = line[len(lead):]
        key, sep, value = rest.partition(": ")
        if not sep:
            if not rest.endswith(":"):
                raise _NotCanonical
            key = rest[:-1]
            nested = indent + "  "
            if i + 1 < len(lines) and lines[i + 1].startswith(nested + "- "):
                out[key], i = _read_seq(lines, i + 1, nested)
            else:
                out[key], i = _read_map(lines, i + 1, nested)
                if not out[key]:
                    raise _NotCanonical
            continue
        out[key] = _read_value(value)
        i += 1
    return out, i


def _read_seq(lines: list[str], i: int, dash: str) -> tuple[list, int]:
    out: list[Any] = []
    item = dash + "- "
    while i < len(lines) and lines[i].startswith(item):
        rest = lines[i][len(item):]
        key, sep, _ = rest.partition(": ")
        if (sep or rest.endswith(":")) and not rest.startswith(("[", '"')):
            value, i = _read_map(lines, i, dash + "  ", first=item)
            out.append(value)
        else:
            out.append(_read_value(rest))
            i += 1
    return out, i
