"""The campaign folder: campaign.toml, state.yaml and history/ (product.md, "Campaign folder").

``campaign.toml`` is read with tomllib and written once, by ``pbf new``, with tomli-w.
``state.yaml`` is a round-trip YAML document: a turn merges the new state into it, so the
GM's comments survive. Every write is atomic. A turn's commit point is one rename: its
complete ``history/NNNN/`` folder into place; state.yaml and deadline.yaml are then derived from
it, and a run killed in between is finished by the next command (:func:`_reconcile`).
"""

from __future__ import annotations

import os
import re
import shutil
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

from .. import resources, yamlio
from ..dice import Dice, seed_commitment
from ..errors import PbfError, Problem
from ..fsutil import fsync_dir, make_temp_dir, read_bytes, write_file
from ..systems import SYSTEMS, get_system
from ..systems.base import Player
from .commit import _reconcile
from .deadlines import deadline_text
from .layout import CAMPAIGN_FILE, Campaign, DEADLINE_FILE, HISTORY, STATE_FILE, nfkc, turn_dir_name
from .options import build_context
from .records import dice_record, hands_redacted

if TYPE_CHECKING:
    from typing import Any, Callable
    from ..systems.base import Context, GameSystem


# -- players and options ---------------------------------------------------------------

# pbf new's patterns: compiled on first use through re's own cache, not at every import
_PLAYER_SPEC = (
    r"^(?P<name>[^=◆]+?)\s*(?:◆(?P<trip>[^=\s]+))?\s*=\s*(?P<character>[^@\s]+)(?:\s*@\s*(?P<team>\S+))?$"
)


def parse_player_spec(spec: str) -> Player:
    """``NAME[◆TRIP]=CHARACTER[@TEAM]`` (``pbf new --player``)."""
    match = re.match(_PLAYER_SPEC, unicodedata.normalize("NFKC", spec).strip())
    if not match:
        raise PbfError(
            Problem(
                "--player は「名前=キャラクター」の形で指定してください（例：--player 美鈴=meiling）。"
                " / expected NAME=CHARACTER",
                text=spec,
            )
        )
    trip = match["trip"] or None
    if trip is not None and not re.fullmatch(r"[./0-9A-Za-z+]{6,16}", trip):
        raise PbfError(
            Problem("トリップは◆の後の英数字（6〜16文字、例：◆Ab3dEf6hIj）です。 / malformed trip", text=spec)
        )
    character, npc = match["character"], None
    if character.lower().startswith("npc:"):  # NAME=NPC:ID or NAME=NPC:LEVEL:ID (docs/npc.md)
        from ..npc import DEFAULT_LEVEL, parse_level

        parts = character.split(":")
        if len(parts) not in (2, 3) or not parts[-1]:
            raise PbfError(Problem("NPCは「名前=NPC:キャラクター」か「名前=NPC:強さ:キャラクター」で指定してください"
                                   "（例：--player 'ミラーモンスター=NPC:blade_wolf'）。 / expected NAME=NPC:[LEVEL:]CHARACTER",
                                   text=spec))
        npc = parse_level(parts[1], "--player") if len(parts) == 3 else DEFAULT_LEVEL
        character = parts[-1]
    return Player(name=match["name"].strip(), character=character, trip=trip, team=match["team"], npc=npc)


# -- loading -------------------------------------------------------------------------------

def _parse_toml(raw: bytes) -> dict[str, Any]:
    import tomllib

    if len(raw) > yamlio.MAX_BYTES:
        raise ValueError(f"too large: {len(raw):,} bytes")
    text = raw.decode("utf-8-sig")
    if text.count("[") + text.count("{") > yamlio.MAX_DEPTH and _toml_depth(text) > yamlio.MAX_DEPTH:
        raise PbfError(f"{CAMPAIGN_FILE} の入れ子が深すぎます（{yamlio.MAX_DEPTH}段まで）。 / nesting too deep")
    return tomllib.loads(text)


def _toml_depth(text: str) -> int:
    """The deepest nesting of inline arrays and tables (strings and comments skipped roughly)."""
    depth = deepest = 0
    for token in re.findall(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]', text):
        if token in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in ("]", "}"):
            depth = max(depth - 1, 0)
    return deepest


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        raw = read_bytes(path, CAMPAIGN_FILE)
    except FileNotFoundError:
        raise PbfError(
            Problem(
                f"{path} がありません。キャンペーンのフォルダを指定してください（新しく作るには pbf new）。"
                " / campaign.toml not found",
            )
        ) from None
    try:
        return resources.parsed("toml", raw, _parse_toml)
    except UnicodeDecodeError as exc:
        raise PbfError(f"{path} が UTF-8 ではありません（{exc.start}バイト目）。 / not UTF-8") from None
    except RecursionError:
        raise PbfError(f"{path.name} の入れ子が深すぎます。 / nesting too deep") from None
    except ValueError as exc:  # tomllib.TOMLDecodeError (tomllib is imported only when a text is new)
        match = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        raise PbfError(
            Problem(
                f"{path.name} の TOML が読めません（{exc}）。 / malformed TOML",
                line=int(match[1]) if match else None,
                column=int(match[2]) if match else None,
            )
        ) from None


def players_from_config(config: dict[str, Any], source: str) -> list[Player]:
    table = config.get("players")
    if not isinstance(table, dict) or not table:
        raise PbfError(f"{source} に [players] がありません（[players.\"名前\"] character = \"…\"）。 / no players")
    players = []
    for name, entry in table.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("character"), str):
            raise PbfError(
                Problem(f"{source} の [players.\"{name}\"] に character（文字列）がありません。 / missing character", text=name)
            )
        team = entry.get("team")
        trip = entry.get("trip")
        for key, value in (("trip", trip), ("team", team)):
            if value is not None and not isinstance(value, str):
                raise PbfError(
                    Problem(f"{source} の [players.\"{name}\"] の {key} は文字列です。 / {key} must be a string", text=str(value)[:20])
                )
        if trip is not None and not re.fullmatch(r"◆?[./0-9A-Za-z+]{6,16}", trip):
            raise PbfError(
                Problem(f"{source} の [players.\"{name}\"] の trip は◆の後の英数字（6〜16文字）です。 / malformed trip", text=trip[:20])
            )
        npc = entry.get("npc")
        if npc is not None:
            from ..npc import parse_level

            npc = parse_level(str(npc), f"{source} の [players.\"{name}\"] npc")
        players.append(
            Player(
                name=nfkc(name),
                character=entry["character"],
                team=str(team) if team is not None else None,
                trip=str(trip) if trip is not None else None,
                npc=npc,
            )
        )
    return players


def load_config(path: Path) -> tuple[dict[str, Any], GameSystem, Context, str]:
    source = CAMPAIGN_FILE
    config = _read_toml(path / CAMPAIGN_FILE)
    system_name = config.get("system")
    if system_name not in SYSTEMS:
        raise PbfError(
            Problem(
                f"{source} の system は {' / '.join(SYSTEMS)} のどれかです。 / unknown system",
                text=str(system_name),
            )
        )
    seed = config.get("seed", "")
    if not isinstance(seed, str):
        raise PbfError(f"{source} の seed は文字列です。 / seed must be a string")
    system = get_system(system_name)
    options = config.get("options", {})
    if not isinstance(options, dict):
        raise PbfError(f"{source} の [options] は表でなければなりません。 / options must be a table")
    ctx = build_context(system, players_from_config(config, source), options, path)
    return config, system, ctx, seed


def load(path: "Path | str") -> Campaign:
    path = Path(path)
    if not path.is_dir():
        raise PbfError(f"キャンペーンのフォルダ「{path}」がありません。 / campaign folder not found")
    config, system, ctx, seed = load_config(path)
    state_path = path / STATE_FILE
    try:
        text = read_bytes(state_path, STATE_FILE).decode("utf-8-sig")
    except FileNotFoundError:
        raise PbfError(f"{state_path} がありません。 / state.yaml not found") from None
    except UnicodeDecodeError as exc:
        raise PbfError(f"{state_path} が UTF-8 ではありません（{exc.start}バイト目）。 / not UTF-8") from None
    state = yamlio.load_plain(text, STATE_FILE)
    turn = state.get("turn") if isinstance(state, dict) else None
    if (
        not isinstance(state, dict) or not isinstance(turn, int) or isinstance(turn, bool) or turn < 0
        or state.get("system") not in (None, system.name)
    ):
        raise PbfError(
            f"{STATE_FILE} の形が正しくありません（turn: 0以上の数字 のある表が必要です）。 / malformed state.yaml"
        )
    from ..validate import validate_state

    validate_state(state, text, STATE_FILE, system.name, ctx.players, ctx.data, ctx.options, hands_redacted(path))
    campaign = Campaign(path=path, config=config, system=system, ctx=ctx, seed=seed, state=state, state_text=text)
    if _reconcile(campaign):  # a turn or an undo was half done: finished now, read again
        return load(path)
    return campaign


# -- creating ---------------------------------------------------------------------------------

def new_seed() -> str:
    return os.urandom(16).hex()


def initial_state(system: GameSystem, ctx: Context, seed: str) -> tuple[dict[str, Any], Dice]:
    """Turn 0: things drawn at creation use N = 0 with empty orders (product.md)."""
    dice = Dice.seeded(seed, 0, "")
    return system.new_state(ctx, dice), dice


def campaign_toml(system: str, seed: str, players: list[Player], options: dict[str, Any]) -> str:
    table: dict[str, Any] = {"system": system, "seed": seed, "players": {}}
    for p in players:
        entry: dict[str, Any] = {"character": p.character}
        if p.trip:
            entry["trip"] = p.trip
        if p.team:
            entry["team"] = p.team
        if p.npc:
            entry["npc"] = p.npc
        table["players"][p.name] = entry
    if options:
        table["options"] = dict(options)
    import tomli_w

    return tomli_w.dumps(table)


def create(
    path: "Path | str", system_name: str, players: list[Player], seed: str | None = None,
    options: dict[str, Any] | None = None, extra: Path | None = None, deadline: str | None = None, *,
    turn_zero: Callable[..., dict[str, str]],
) -> Campaign:
    """Make a new campaign folder (``pbf new``). ``extra``: a folder whose data/ and templates/ are
    copied. Turn 0 is archived like a turn: the initial state, the dice, each player's private
    notice (first hand) and the opening post for the thread (``history/0000/post.txt``), the
    files that ``turn_zero(system, ctx, state, seed, extra, deadline)`` makes (the turn package's
    :func:`pbf.turn.zero.turn_zero`; :func:`pbf.turn.zero.new_campaign` passes it)."""
    path = Path(path)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise PbfError(f"「{path}」はすでにあり、空ではありません。 / refusing a non-empty folder")
    system = get_system(system_name)
    seen: set[str] = set()
    for p in players:
        check_player_name(p.name)
        if p.name in seen:
            raise PbfError(Problem(f"プレイヤー「{p.name}」が二回指定されています。 / duplicate player", text=p.name))
        seen.add(p.name)
    if not players:
        raise PbfError("プレイヤーを --player 名前=キャラクター で指定してください。 / no players")
    options = dict(options or {})
    seed = seed if seed is not None else new_seed()
    if not seed:
        raise PbfError("--seed が空です。 / empty seed")
    ctx = build_context(system, players, options, extra)
    check_options = getattr(system, "check_options", None)  # options that bound each other
    if check_options is not None:
        check_options(ctx.options)
    if ctx.options.get("npc"):
        from ..npc import check_npc_option

        check_npc_option(ctx.options["npc"], list(ctx.players))
    state, dice = initial_state(system, ctx, seed)
    state = dict(state)
    state.setdefault("turn", 0)
    zero_files = turn_zero(system, ctx, state, seed, extra, deadline)

    try:
        parent = path.resolve().parent
        parent.mkdir(parents=True, exist_ok=True)
        tmp = make_temp_dir(f".{path.name}.", parent)
    except OSError as exc:
        shown = str(path) if len(str(path)) <= 60 else str(path)[:59] + "…"
        raise PbfError(f"「{shown}」にキャンペーンを作れません（{exc.strerror or exc}）。 / cannot create the folder") from None
    try:
        if extra is not None:
            for sub in ("data", "templates"):
                if (extra / sub).is_dir():
                    shutil.copytree(extra / sub, tmp / sub)
        typed = {key: ctx.options[key] for key in options}  # numbers as numbers, not "32"
        write_file(tmp / CAMPAIGN_FILE, campaign_toml(system_name, seed, players, typed))
        state_text = yamlio.dump_data(state)
        write_file(tmp / STATE_FILE, state_text)
        zero = tmp / HISTORY / turn_dir_name(0)
        zero.mkdir(parents=True)
        write_file(zero / STATE_FILE, state_text)
        zero_record = {"seed_sha256": seed_commitment(seed), **dice_record(0, "", [], dice)}
        write_file(zero / "dice.yaml", yamlio.dump_data(zero_record))
        for name, text in zero_files.items():
            (zero / name).parent.mkdir(parents=True, exist_ok=True)
            write_file(zero / name, text)
        if deadline:
            write_file(tmp / DEADLINE_FILE, deadline_text(1, deadline))
        if path.exists():
            path.rmdir()
        os.rename(tmp, path)
        fsync_dir(parent)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return load(path)


MAX_NAME = 24  # characters of a player's name (a post's header and a notice file name hold it)


_NAME_FORBIDDEN = r'[\[\]【】［］\\/:*?"<>|%◆=@#\x00-\x1f\x7f\u2028\u2029\u0085]'  # pbf new only: through re's cache


def check_player_name(name: str, where: str = "--player") -> None:
    """A name must head an order (``【NAME】``) and name a file: no brackets, no path
    characters, no control characters or line breaks, at most MAX_NAME characters."""
    found = re.search(_NAME_FORBIDDEN, name)
    bad = found[0] if found else next((ch for ch in name if not ch.isprintable() and ch not in " \u3000"), None)
    if bad is None and name.strip() and len(name) <= MAX_NAME:
        return
    shown = name if len(name) <= 40 else name[:40] + "…"
    if bad is not None:
        why = f"{bad!r} は使えません"
    elif len(name) > MAX_NAME:
        why = f"長すぎます（{len(name)}文字、{MAX_NAME}文字まで）"
    else:
        why = "空です"
    raise PbfError(
        Problem(
            f"{where} のプレイヤー名が使えません：{why}。 / bad player name",
            text=shown if shown.isprintable() else shown.encode("unicode_escape").decode("ascii"),
            hint=f"括弧・改行・制御文字と / \\ : * ? \" < > | % は名前に使えません（{MAX_NAME}文字まで）。",
        )
    )


def commitment(campaign: Campaign) -> str:
    return seed_commitment(campaign.seed)
