"""``pbf set DIR KEY=VALUE ...``: change a campaign's options after ``pbf new``.

Each value is checked as ``pbf new --set`` checks it and written to campaign.toml as a typed
TOML value (``max_lines = 32``, not ``"32"``). The GM's comments and layout in campaign.toml are
kept: only the lines of the changed keys are replaced. The change is noted in
``history/options-pending.yaml`` and carried by the next turn's archive (``options.yaml``), so
that ``pbf replay`` resolves every turn with the options it had.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

import tomli_w

from .. import campaign as campaigns
from ..errors import PbfError, Problem
from ..fsutil import atomic_write, read_bytes
from .catalogue import start_only

_TABLE_HEADER = re.compile(r"^\s*\[")


def change_options(c: campaigns.Campaign, specs: list[str]) -> dict[str, dict[str, Any]]:
    """Check every ``KEY=VALUE`` (all problems at once), then write campaign.toml and note the
    change. Returns ``{key: {before, after}}`` for the keys whose value changed."""
    problems: list[Problem] = []
    wanted: dict[str, Any] = {}
    for spec in specs:
        try:
            key, raw = campaigns.parse_set_option(spec)
            value = campaigns.coerce_options(c.system, {key: raw})[key]
            _check_changeable(c, key, value, spec)
            wanted[key] = value
        except PbfError as error:
            problems.extend(error.problems)
    check_options = getattr(c.system, "check_options", None)  # options that bound each other
    if check_options is not None and not problems:
        try:
            check_options({**c.ctx.options, **wanted}, c.state)
        except PbfError as error:
            problems.extend(error.problems)
    if problems:
        raise PbfError(problems)
    changes = {
        key: {"before": c.ctx.options[key], "after": value}
        for key, value in wanted.items()
        if c.ctx.options[key] != value
    }
    raw_options = c.config.get("options", {})
    # an old campaign's string-typed numbers ("32") are written as numbers on the way
    typed = {k: c.ctx.options[k] for k, v in raw_options.items() if type(v) is not type(c.ctx.options[k])}
    typed.update({key: change["after"] for key, change in changes.items()})
    if typed:
        path = c.path / campaigns.CAMPAIGN_FILE
        with campaigns.exclusive(c):
            text = read_bytes(path, campaigns.CAMPAIGN_FILE).decode("utf-8-sig")
            # The commit point is campaign.toml's replace. The note goes first, keeping every key
            # it had (its "before" is what the last turn had): a run killed before the replace
            # leaves a note whose "after" campaign.toml does not hold, which is no change at all
            # (campaign.option_changes reads what is in force from campaign.toml).
            campaigns.record_option_changes(c, changes, keep=True)
            atomic_write(path, with_options(text, c.config, typed))
            campaigns.tidy_option_note(c)
    return changes


def _check_changeable(c: campaigns.Campaign, key: str, value: Any, spec: str) -> None:
    before = c.ctx.options[key]
    if start_only(c.system, key):
        message = f"：{key} はキャンペーンを作るときだけ使う設定なので、後からは変えられません。"
    elif value != before and (start_only(c.system, key, before) or start_only(c.system, key, value)):
        fixed = before if start_only(c.system, key, before) else value
        message = f"：{key} の {fixed} はキャンペーンを作るときだけ選べる値なので、{fixed} との切り替えはできません。"
    else:
        return
    raise PbfError(
        Problem(
            message + " / only chosen when the campaign is created",
            text=spec,
            hint="pbf new で作り直してください（開始時の値だけなら state.yaml を直接書き換えられます）。",
        )
    )


def with_options(text: str, config: dict[str, Any], updates: dict[str, Any]) -> str:
    """campaign.toml's text with ``updates`` in its ``[options]`` table, every other line as it
    was. When the file is laid out otherwise (an inline table, dotted keys…), the whole file is
    written afresh with tomli-w (the values are the same; comments are lost)."""
    expected = dict(config)
    expected["options"] = {**config.get("options", {}), **updates}
    try:
        edited = _edit_options_table(text, updates)
        if tomllib.loads(edited) == expected:
            return edited
    except tomllib.TOMLDecodeError:
        pass
    return tomli_w.dumps(expected)


def _edit_options_table(text: str, updates: dict[str, Any]) -> str:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    header = next((i for i, line in enumerate(lines) if line.strip() == "[options]"), None)
    if header is None:
        added = "".join(tomli_w.dumps({k: v}) for k, v in updates.items())
        return "".join(lines) + ("\n" if lines and lines[-1].strip() else "") + "[options]\n" + added
    end = next((i for i in range(header + 1, len(lines)) if _TABLE_HEADER.match(lines[i])), len(lines))
    for key, value in updates.items():
        line = tomli_w.dumps({key: value})
        pattern = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\")\s*=")
        found = next((i for i in range(header + 1, end) if pattern.match(lines[i])), None)
        if found is not None:
            lines[found] = line
        else:
            last = max((i for i in range(header, end) if lines[i].strip()), default=header)
            lines.insert(last + 1, line)
            end += 1
    return "".join(lines)
