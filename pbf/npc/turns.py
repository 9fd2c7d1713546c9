"""The NPC in a turn (engine.run_turn, replay, verify, receipts, the opening post; docs/npc.md).

``npc_orders`` fixes every NPC's order from the state before the turn and the seed — before the
players' orders are read — and puts it in the turn's orders in place of anything posted under
the NPC's name. Without the seed (a public export) the archived order is taken, after its
commitment is checked.
"""

from __future__ import annotations

from typing import Any

from ..errors import PbfError
from . import LEVEL_WORDS, Decision, decisions, npc_levels


class Revealed:
    """An archived NPC order (a public export: no seed to recompute it)."""

    def __init__(self, player: str, turn: int, rec: dict[str, Any]):
        from ..forum import commitment

        self.player, self.turn = player, turn
        self.level = str(rec.get("level", "normal"))
        self.text = str(rec.get("order", ""))
        self.salt = str(rec.get("salt", ""))
        self.commitment = str(rec.get("commitment", ""))
        self.note = {"expected": rec.get("expected")}
        if commitment(self.text, self.salt) != self.commitment:
            raise PbfError(f"第{turn}ターンのNPC（{player}）の行動がコミットメントと一致しません。 / the NPC's order does not"
                           " match its commitment")

    def record(self) -> dict[str, Any]:
        out = {"level": self.level, "order": self.text, "salt": self.salt, "commitment": self.commitment}
        if self.note.get("expected") is not None:
            out["expected"] = self.note["expected"]
        return out


def npc_orders(campaign: Any, state: dict[str, Any], seed: str | None,
               archived: dict[str, Any] | None = None) -> dict[str, Any]:
    """Each NPC's decision (or archived reveal) for the turn after ``state``."""
    ctx = campaign.ctx
    if not npc_levels(ctx) or state.get("winner") is not None:
        return {}
    if seed:
        return decisions(campaign.system, ctx, state, seed)
    turn = int(state.get("turn", 0)) + 1
    if archived is None:
        raise PbfError("campaign.toml に seed がありません。NPCの行動はシードから決まります。 / the NPC needs the seed")
    return {name: Revealed(name, turn, rec) for name, rec in archived.items()}


def check_same(turn: int, found: dict[str, Any], archived: dict[str, Any] | None) -> None:
    """The recomputed NPC orders (records) against the archive's (replay, verify)."""
    archived = archived or {}
    mine = found  # name -> record (Decision.record())
    for name in sorted(set(mine) | set(archived)):
        if mine.get(name) != archived.get(name):
            was = (archived.get(name) or {}).get("order")
            now = (mine.get(name) or {}).get("order")
            raise PbfError(f"第{turn}ターンのNPC（{name}）の行動が、状態とシードから計算したものと違います"
                           f"（記録：「{was}」、計算：「{now}」）。 / the NPC's order differs from its recomputation")


def reveal_entries(system: Any, found: dict[str, Any], explain: bool) -> list[dict[str, Any]]:
    return [{"player": d.player, "level": LEVEL_WORDS.get(d.level, d.level), "order": d.text,
             "shown": d.text or ("留まる（既定の攻撃）" if system.name == "rider" else "プロットなし"),
             "salt": d.salt, "commitment": d.commitment,
             "expected": d.note.get("expected") if explain else None, "explain": explain}
            for d in found.values()]


def next_entries(found: dict[str, Decision]) -> list[dict[str, Any]]:
    return [{"player": d.player, "level": LEVEL_WORDS.get(d.level, d.level), "commitment": d.commitment}
            for d in found.values()]
