"""The NPC in a turn (engine.run_turn, replay, verify, receipts, the opening post; docs/npc.md).

``npc_orders`` fixes every NPC's order from the state before the turn and the seed — before the
players' orders are read — and puts it in the turn's orders in place of anything posted under
the NPC's name. Without the seed (a public export) the archived order is taken, after its
commitment is checked.
"""

from __future__ import annotations

from typing import Any

from ..errors import PbfError
from . import LEVEL_WORDS, Decision, decisions, npc_levels, npc_salt


class Revealed:
    """An archived NPC order (a public export: no seed to recompute it)."""

    def __init__(self, player: str, turn: int, rec: dict[str, Any]):
        from ..board.forum import commitment

        self.player, self.turn = player, turn
        self.level = str(rec.get("level", "normal"))
        self.text = str(rec.get("order", ""))
        self.salt = str(rec.get("salt", ""))
        self.commitment = str(rec.get("commitment", ""))
        self.note = {"expected": rec.get("expected")}
        if commitment(self.text, self.salt) != self.commitment:
            raise PbfError(f"第{turn}ターンのNPC（{player}）の行動がコミットメントと一致しません。 / the NPC's order does not"
                           " match its commitment")

        self.search = rec.get("search")

    def record(self) -> dict[str, Any]:
        out = {"level": self.level, "order": self.text, "salt": self.salt, "commitment": self.commitment}
        if self.note.get("expected") is not None:
            out["expected"] = self.note["expected"]
        if self.search is not None:
            out["search"] = self.search
        return out


def older_search(archived: dict[str, Any] | None) -> list[str]:
    """The NPCs of an archived turn whose orders another version of the search made (a turn.yaml
    from before ``search`` was kept is version 1): they cannot be recomputed, only checked."""
    from .search import SEARCH_VERSION

    return sorted(name for name, rec in (archived or {}).items()
                  if str(rec.get("level", "normal")) != "random" and int(rec.get("search", 1)) != SEARCH_VERSION)


def npc_orders(campaign: Any, state: dict[str, Any], seed: str | None,
               archived: dict[str, Any] | None = None, cache: bool = False) -> dict[str, Any]:
    """Each NPC's decision (or archived reveal) for the turn after ``state``; ``cache``: through
    pbf's cache (a live turn and the receipts; never replay or verify)."""
    ctx = campaign.ctx
    if not npc_levels(ctx) or state.get("winner") is not None:
        return {}
    turn = int(state.get("turn", 0)) + 1
    older = older_search(archived) if seed else []
    if older:  # replay of a turn of an older search: its orders as archived, commitment and salt checked
        found = decisions(campaign.system, ctx, state, seed, skip=tuple(older))
        for name in older:
            found[name] = Revealed(name, turn, archived[name])
            if found[name].salt != npc_salt(seed, turn, name):
                raise PbfError(f"第{turn}ターンのNPC（{name}）のソルトがシードから計算したものと違います。 / the NPC's salt differs")
        return {name: found[name] for name in npc_levels(ctx) if name in found}  # in the players' order, as decided
    if seed:
        if cache:
            return cached_decisions(campaign, state, seed)
        return decisions(campaign.system, ctx, state, seed)
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


# -- pbf's cache: the next turn's decision, made when the results post commits it ------------------
# A decision is a pure function of its inputs, so pbf turn keeps the one it commits (the results
# post's 「第N+1ターンのNPCの行動（コミット）」) in pbf's cache, keyed by everything it depends on:
# the state, the seed, the turn, the campaign.toml and data/ files, the search's settings and pbf's
# version (the cache folder's name). The next pbf turn and pbf status read it instead of searching
# again. replay and verify never read it: they recompute.

def _fingerprint(campaign: Any, state: dict[str, Any], seed: str) -> str:
    import hashlib
    import json
    from pathlib import Path

    from .. import yamlio
    from .search import AHEAD, LEVELS

    h = hashlib.sha256()
    for part in (campaign.system.name, str(campaign.system.rules_version), seed, yamlio.dump_data(state),
                 json.dumps(LEVELS, sort_keys=True), str(AHEAD), _code(campaign.system.name)):
        h.update(part.encode("utf-8") + b"\0")
    root = Path(campaign.path)
    files = [root / "campaign.toml"]
    if (root / "data").is_dir():
        files += sorted(p for p in (root / "data").rglob("*") if p.is_file())
    for path in files:
        try:
            h.update(str(path.relative_to(root)).encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
        except OSError:
            return ""  # no key: no cache
    return h.hexdigest()


_CODE: dict[str, str] = {}


def _code(system_name: str) -> str:
    """The search's own code (search.py, the game's npc.py and legal.py): a pbf changed without a
    new version number does not take an old decision from the cache."""
    kept = _CODE.get(system_name)
    if kept is None:
        import hashlib
        from pathlib import Path

        here = Path(__file__).resolve().parent
        h = hashlib.sha256()
        for path in (here / "search.py", here.parent / "systems" / system_name / "npc.py",
                     here.parent / "systems" / system_name / "legal.py"):
            try:
                h.update(path.read_bytes())
            except OSError:
                h.update(b"?")
        kept = _CODE[system_name] = h.hexdigest()
    return kept


def cached_decisions(campaign: Any, state: dict[str, Any], seed: str) -> dict[str, Any]:
    """``decisions`` through pbf's cache (a live turn, the receipts)."""
    import json

    from ..resources import cache_get, cache_put
    from . import npc_salt

    key = _fingerprint(campaign, state, seed)
    raw = cache_get("npc", key) if key else None
    if raw is not None:
        try:
            kept = json.loads(raw.decode("utf-8"))
            turn = int(state.get("turn", 0)) + 1
            out = {}
            for name, rec in kept.items():
                from ..board.forum import commitment

                order = campaign.system.parse_order(rec["order"], name, state, campaign.ctx)
                salt = npc_salt(seed, turn, name)
                out[name] = Decision(name, rec["level"], turn, order, rec["order"], salt,
                                     commitment(rec["order"], salt), {"expected": rec.get("expected")})
            if set(out) == set(npc_levels(campaign.ctx)) or not out:
                return out
        except (ValueError, KeyError, TypeError, PbfError):
            pass  # a damaged cache file: search again
    found = decisions(campaign.system, campaign.ctx, state, seed)
    if key:
        cache_put("npc", key, json.dumps({n: {"level": d.level, "order": d.text, "expected": d.note.get("expected")}
                                          for n, d in found.items()}, ensure_ascii=False).encode("utf-8"))
    return found
