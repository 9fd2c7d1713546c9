"""Turn 0: the opening post and each player's first notice, made when a campaign is created."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import render, yamlio
from ..board.boardfit import board_safe
from ..campaign.folder import create
from ..campaign.options import board_charset
from ..dice import seed_commitment
from ..errors import PbfError
from .run import _label, fit_post

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from ..campaign.layout import Campaign
    from ..systems.base import Player


def _locked_view(system: Any, name: str, state: dict[str, Any], ctx: Any) -> dict[str, Any] | None:
    """The public reading of the empty order when the player can write nothing this turn."""
    try:
        view = system.public_order_view(system.parse_order("", name, state, ctx), name, state, ctx)
    except PbfError:
        return None
    return view if view.get("locked") else None


# -- turn 0 (pbf new) -------------------------------------------------------------------------------

def turn_zero(system: Any, ctx: Any, state: dict[str, Any], seed: str, templates: Any, deadline: str | None) -> dict[str, str]:
    """The files of ``history/0000/`` besides the state and the dice: the opening post for the
    thread (``post.txt``, and ``post-N.txt`` when it must be split), each player's private
    notice (their first hand) and turn.yaml."""
    from ..campaign.records import post_files
    from ..campaign.layout import safe_filename

    options = ctx.options
    public = system.public_summary(state, ctx)
    opening = system.opening(state, ctx) if hasattr(system, "opening") else {}
    body = render.render(
        system, "common/opening.j2", templates,
        system_name=system.name, summary=public, players=ctx.players, options=options, opening=opening,
        commitment=seed_commitment(seed), deadline=_label(options, deadline),
    )
    upcoming = []
    if any(getattr(p, "npc", None) for p in ctx.players.values()) or options.get("npc"):
        from ..npc import decisions
        from ..npc.turns import next_entries

        upcoming = next_entries(decisions(system, ctx, state, seed))  # turn 1's NPC orders, committed now
        body = body.rstrip("\n") + "\n\n" + render.render(system, "common/npc.j2", templates, options=options,
                                                            revealed=[], upcoming=upcoming, next_turn=1)
    from ..board.markers import opening_marker_line

    files = post_files(*fit_post(options, body, opening_marker_line()))
    encoding = board_charset(options)
    for name, notice in system.notices(state, ctx).items():
        files[f"notices/{safe_filename(name)}.txt"] = board_safe(
            render.render(system, "notice.j2", templates, turn=0, player=name, notice=notice), encoding
        )
    meta: dict[str, Any] = {"rules_version": system.rules_version}
    if deadline:
        meta["next_deadline"] = deadline
    if upcoming:
        meta["npc_next"] = upcoming
    files["turn.yaml"] = yamlio.dump_data(meta)
    return files


def new_campaign(
    path: "Path | str", system_name: str, players: list[Player], seed: str | None = None,
    options: dict[str, Any] | None = None, extra: Path | None = None, deadline: str | None = None,
) -> Campaign:
    """``pbf new``: a new campaign folder (:func:`pbf.campaign.folder.create`) with this turn 0."""
    return create(path, system_name, players, seed, options, extra, deadline, turn_zero=turn_zero)
