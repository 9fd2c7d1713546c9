"""YAML as GMs read it: round-trip (comments and key order survive), Japanese left readable."""

from __future__ import annotations

import io
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from .errors import PbfError, Problem


def _yaml() -> YAML:
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
    try:
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
    except YAMLError as exc:
        raise PbfError(f"{source} の YAML が読めません（{exc}）。 / malformed YAML") from None


def dump(data: Any) -> str:
    stream = io.StringIO()
    _yaml().dump(data, stream)
    return stream.getvalue()


def dump_data(data: Any) -> str:
    """Plain data (a new state, events, a dice record) as a fresh YAML document."""
    return dump(merge_into(None, data))


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
