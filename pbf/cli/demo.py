"""The bundled demo campaigns (``pbf demo``): created afresh in a folder and played to the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import campaign as campaigns, yamlio
from ..turn.zero import new_campaign
from ..turn.run import run_turn
from ..turn.thread import receipts, thread_orders
from ..board.boardfit import PART_BREAK
from ..board.orders import decode
from ..resources import bundled


def demo_campaigns() -> list[Path]:
    root = bundled("campaigns")
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / "campaign.toml").is_file())


def play(source: Path, workdir: Path, out: Any) -> campaigns.Campaign:
    """Create the demo campaign afresh in ``workdir`` and play it: turn 1 from the sample thread
    (``thread.dat``) when there is one, with its receipts, then ``orders/NNNN.txt`` turn by turn."""
    import tomllib

    config = tomllib.loads((source / "campaign.toml").read_text("utf-8"))
    players = campaigns.players_from_config(config, "campaign.toml")
    c = new_campaign(workdir / source.name, config["system"], players, seed=config["seed"],
                         options=config.get("options", {}), extra=source)
    out.write(f"━━━━ {c.system.title}：{source.name} ━━━━\n")
    thread = source / "thread.dat"
    while c.state.get("winner") is None:
        turn = c.turn + 1
        orders_file = source / "orders" / f"{turn:04d}.txt"
        if turn == 1 and thread.is_file():
            found = thread_orders(c, thread)
            out.write(f"\n（{thread.name} の受付状況）\n")
            parts, _private = receipts(c, found)
            out.write(PART_BREAK.join(parts))
            record = run_turn(c, found.orders_text, sources=found.sources, meta=found.meta)
            out.write(f"\n（{thread.name} の行動から）\n")
        elif orders_file.is_file():
            record = run_turn(c, decode(orders_file.read_bytes(), orders_file.name))
            out.write(f"\n（{orders_file.name} の行動から）\n")
        else:
            break
        campaigns.commit_turn(c, record)
        out.write(PART_BREAK.join(record.parts))
    out.write("\n")
    return c


def archived_events(c: campaigns.Campaign) -> list[dict[str, Any]]:
    """Every event of every archived turn, in order."""
    events: list[dict[str, Any]] = []
    for turn in c.archived_turns():
        path = c.turn_dir(turn) / "events.yaml"
        if path.is_file():
            events.extend(yamlio.plain(yamlio.load(path.read_text("utf-8"), str(path))))
    return events


SITE_FOLDER = "site"  # the demo sites: <demo folder>/site/<demo name>/index.html


def default_site_root() -> Path:
    """Where ``pbf demo`` leaves the sites when no ``--keep`` folder is given: a fixed folder in
    the system's temporary folder, replaced on each run (a newcomer opens it in a browser)."""
    import tempfile

    return Path(tempfile.gettempdir()) / "pbf-demo-site"


def write_sites(workdir: Path, names: list[str]) -> Path:
    """The site of each played demo campaign (``pbf html``), under ``workdir/site/``."""
    from ..publish.site import build_site

    root = workdir / SITE_FOLDER
    for name in names:
        build_site(campaigns.load(workdir / name), root / name)
    return root


def publish_sites(root: Path, target: Path) -> None:
    """Copy the sites to ``target``, replacing an earlier copy (two runs at once leave one of two
    identical copies)."""
    import shutil

    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(root, target, dirs_exist_ok=True)
