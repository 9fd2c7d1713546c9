"""pbf plays a fighter itself: the NPC (docs/npc.md).

An NPC's order for turn N is a pure function of (the state before turn N, the campaign's seed,
N, the NPC's name, its level). It is drawn from the NPC's own dice stream,

    K_npc = HMAC-SHA256(key = seed, msg = f"npc\\n{N}\\n{NAME}")

(the players' dice stream, keyed by the turn's canonical orders, is unchanged), so it is fixed
before any order of the turn is read. Its commitment is the one of ``pbf commit``,
``SHA-256(ORDER + "\\n" + SALT)``, with ``SALT`` the first 16 hex digits of
``HMAC-SHA256(seed, f"npc-salt\\n{N}\\n{NAME}")``; the opening post (turn 1), every results post
(the turn to come) and the receipts print it, the results post reveals ORDER and SALT.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from ..dice import Dice, hmac_draws
from ..errors import PbfError, Problem
from ..record import record

LEVELS = ("random", "normal", "hard")
LEVEL_WORDS = {"random": "ランダム", "normal": "普通", "hard": "強い"}
DEFAULT_LEVEL = "normal"


@record(frozen=True)
class Decision:
    player: str
    level: str
    turn: int
    order: Any  # the system's order object
    text: str  # its canonical text (what is committed and revealed)
    salt: str
    commitment: str
    note: dict  # expected damage dealt, score, candidates weighed

    def record(self) -> dict[str, Any]:
        """What turn.yaml keeps (public once the turn is resolved)."""
        out: dict[str, Any] = {"level": self.level, "order": self.text, "salt": self.salt,
                               "commitment": self.commitment}
        if self.note.get("expected") is not None:
            out["expected"] = self.note["expected"]
        if self.level != "random":  # random draws no search: its orders are the same in every version
            from .search import SEARCH_VERSION

            out["search"] = SEARCH_VERSION
        return out


def parse_level(value: str, where: str) -> str:
    level = value.strip().lower()
    aliases = {"ランダム": "random", "普通": "normal", "強い": "hard", "easy": "random"}
    level = aliases.get(level, level)
    if level not in LEVELS:
        raise PbfError(Problem(f"{where} のNPCの強さは random / normal / hard のどれかです。 / unknown NPC level",
                               text=value))
    return level


def npc_levels(ctx: Any) -> dict[str, str]:
    """Each NPC fighter's level, in campaign order: ``NAME=NPC:…`` in --player, or the option
    ``npc`` (``NAME`` or ``NAME:LEVEL``, comma-separated; ``npc_level`` for the rest)."""
    return levels_of(ctx.players, ctx.options)


def levels_of(players: dict[str, Any], options: dict[str, Any]) -> dict[str, str]:
    """npc_levels from the players and the options (what a template has)."""
    out: dict[str, str] = {}
    default = str(options.get("npc_level", DEFAULT_LEVEL) or DEFAULT_LEVEL)
    named: dict[str, str] = {}
    for item in str(options.get("npc", "") or "").split(","):
        name, _, level = item.strip().partition(":")
        if name.strip():
            named[name.strip()] = level.strip() or default
    for name, player in players.items():
        level = getattr(player, "npc", None) or named.get(name)
        if level:
            out[name] = level
    return out


def npc_word(name: str, players: dict[str, Any], options: dict[str, Any]) -> str:
    """The template filter ``npc_word``: 「普通」 for an NPC at the level normal, "" for a player."""
    level = levels_of(players, options).get(name)
    return LEVEL_WORDS.get(level, level) if level else ""


def mark_npcs(summary: dict[str, Any], ctx: Any) -> dict[str, Any]:
    """A public summary with each NPC fighter's level word under ``npc`` (pbf show and the posts
    say who pbf plays); a player's entry is left as it is."""
    for name, level in npc_levels(ctx).items():
        if name in summary.get("fighters", {}):
            summary["fighters"][name]["npc"] = LEVEL_WORDS.get(level, level)
    return summary


def check_npc_option(value: str, players: list[str]) -> None:
    for item in str(value or "").split(","):
        name, _, level = item.strip().partition(":")
        if not name.strip():
            continue
        if name.strip() not in players:
            raise PbfError(Problem(f"オプション npc の「{name.strip()}」はプレイヤーにいません（{'、'.join(players)}）。"
                                   " / npc names no player", text=name.strip()))
        if level.strip():
            parse_level(level, "npc")


def _key(seed: str, label: str, turn: int, name: str) -> bytes:
    return hmac.new(seed.encode("utf-8"), f"{label}\n{turn}\n{name}".encode("utf-8"), hashlib.sha256).digest()


def npc_dice(seed: str, turn: int, name: str) -> Dice:
    """The NPC's own stream for turn ``turn`` (never the players' dice)."""
    return Dice(hmac_draws(_key(seed, "npc", turn, name)), "npc")


def npc_salt(seed: str, turn: int, name: str) -> str:
    return _key(seed, "npc-salt", turn, name).hex()[:16]


def model(system: Any, ctx: Any) -> Any:
    if system.name == "rider":
        from ..systems.rider.npc import RiderModel

        return RiderModel(system, ctx)
    from ..systems.alterego.npc import AlterEgoModel

    return AlterEgoModel(system, ctx)


_MODELS: dict[int, tuple[Any, Any]] = {}


def _model(system: Any, ctx: Any) -> Any:
    kept = _MODELS.get(id(ctx))
    if kept is None or kept[0] is not ctx:
        if len(_MODELS) > 16:
            _MODELS.clear()
        kept = _MODELS[id(ctx)] = (ctx, model(system, ctx))
    return kept[1]


def decide(system: Any, ctx: Any, state: dict[str, Any], seed: str, name: str, level: str) -> Decision:
    """The NPC ``name``'s order for the turn after ``state``."""
    from ..board.forum import commitment
    from .search import choose

    turn = int(state.get("turn", 0)) + 1
    order, note = choose(_model(system, ctx), state, name, level, npc_dice(seed, turn, name))
    text = system.canonical_order(order)
    salt = npc_salt(seed, turn, name)
    return Decision(name, level, turn, order, text, salt, commitment(text, salt), note)


def decisions(system: Any, ctx: Any, state: dict[str, Any], seed: str, skip: tuple[str, ...] = ()) -> dict[str, Decision]:
    """Every NPC's decision for the turn after ``state`` (none after the battle's end), but those
    named in ``skip`` (a replay takes theirs from the archive)."""
    levels = npc_levels(ctx)
    if not levels or state.get("winner") is not None:
        return {}
    if not seed:
        raise PbfError("campaign.toml に seed がありません。NPCの行動はシードから決まります。 / the NPC needs the seed")
    return {name: decide(system, ctx, state, seed, name, level) for name, level in levels.items()
            if name not in skip and state["fighters"].get(name, {}).get("alive", True)}


def public_lines(found: dict[str, Decision]) -> list[dict[str, Any]]:
    """For templates: each NPC's name, level word and commitment."""
    return [{"player": d.player, "level": LEVEL_WORDS[d.level], "commitment": d.commitment} for d in found.values()]
