"""``pbf show``: the turn to come — its deadline and what pbf holds of each player's order.

Without a thread this reads the campaign alone and loads neither the order parser nor the
resolver (tests/core/test_startup.py): ``pbf show`` stays quick."""

from __future__ import annotations

from typing import Any

from ..campaign.layout import Campaign
from ..campaign.deadlines import current_deadline
from ..errors import PbfError


def upcoming(campaign: Campaign, summary: dict[str, Any], found: Any = None) -> dict[str, Any] | None:
    """What status.j2 shows of the turn to come (common/show_turn.j2); None once the battle is over."""
    if summary.get("winner") is not None:
        return None
    deadline = current_deadline(campaign)
    label = None
    if deadline:
        from ..board.forum import deadline_label, parse_deadline

        label = deadline_label(parse_deadline(deadline), campaign.ctx.options.get("timezone", "JST"))
    return {"turn": campaign.turn + 1, "thread": found is not None, "deadline": label,
            "year": deadline[:4] if deadline else None, "entries": turn_orders_state(campaign, found, summary)}


def turn_orders_state(campaign: Campaign, found: Any = None,
                      summary: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """``pbf show``: for each player, what pbf holds for the turn to come. Without a thread, what
    the campaign itself carries: nothing to write (Alter EGO's guard stance, a charged 強), or last
    turn's order to repeat (``missing=repeat``). With one (``found``), the order or commitment
    posted in the window: 受理, エラー, コミット済み or 未提出 (no reading: pbf status has those)."""
    system, ctx = campaign.system, campaign.ctx
    last: dict[str, str] = {}
    if ctx.options.get("missing") == "repeat":
        from .orders import previous_orders

        last = previous_orders(campaign, campaign.turn)
    fighters = (summary or system.summary(campaign.state, ctx)).get("fighters", {})
    out: list[dict[str, Any]] = []
    for name in ctx.players:
        entry: dict[str, Any] = {"player": name, "status": "unknown", "source": None}
        source = found.sources.by_player.get(name) if found is not None else None
        fighter = fighters.get(name, {})
        # from the summary, not by reading an empty order: pbf show loads no order parser
        view = {"lock_reason": "stance" if fighter.get("stance") else "charging"} if fighter.get("locked") else None
        if source is not None:
            entry["source"] = source.where
            entry["status"] = "error" if source.problems else "accepted"
            if not source.problems:
                try:
                    system.parse_order(source.text, name, campaign.state, ctx)
                except PbfError:
                    entry["status"] = "error"
        elif found is not None and name in found.collected.committed:
            entry["status"], entry["source"] = "committed", f">>{found.collected.committed[name]}"
        elif view is not None:
            entry["status"], entry["reason"] = "locked", view.get("lock_reason")
            entry["technique"] = fighter.get("charging")  # the charged technique's name (from data)
        elif last.get(name):
            entry["status"] = "repeat"
        elif found is not None:
            entry["status"] = "missing"
        out.append(entry)
    return out


