"""The bundled demo campaign (campaigns/demo-rider) runs through the SYSTEM to a winner.

The orders files are split here with a minimal reader (the core's pbf/orders.py does it for
real): `[NAME]`/`【NAME】`/`［NAME］` headers, `#` comments.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata

from pbf.dice import Dice
from pbf.events import event_dicts
from pbf.systems.base import Context, Player
from pbf.systems.rider import SYSTEM
from rider_support import ROOT, post

DEMO = ROOT / "campaigns" / "demo-rider"
HEADER = re.compile(r"^[\[【［](.+?)[\]】］](.*)$")


def _split(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        m = HEADER.match(line)
        if m:
            current = unicodedata.normalize("NFKC", m.group(1))
            out[current] = m.group(2).strip()
        elif current:
            out[current] += "\n" + line
    return out


def _run():
    conf = tomllib.loads((DEMO / "campaign.toml").read_text(encoding="utf-8"))
    assert conf["system"] == "rider"
    players = {n: Player(n, p["character"]) for n, p in conf["players"].items()}
    options = dict(SYSTEM.default_options)
    options.update({k: SYSTEM.coerce_option(k, v) for k, v in conf.get("options", {}).items()})
    ctx = Context("rider", players, SYSTEM.load_data(None), options)
    SYSTEM.check_players(players, ctx.data)
    st = SYSTEM.new_state(ctx, Dice.seeded(conf["seed"], 0, ""))
    all_events, posts = [], []
    for path in sorted((DEMO / "orders").glob("*.txt")):
        texts = _split(path.read_text(encoding="utf-8"))
        orders = {n: SYSTEM.parse_order(texts[n], n, st, ctx) if n in texts else None for n in players}
        canon = "".join(f"{n}\t{SYSTEM.canonical_order(orders[n])}\n" for n in sorted(players))
        before = st
        st, events = SYSTEM.resolve(st, orders, Dice.seeded(conf["seed"], st["turn"] + 1, canon), ctx)
        all_events.extend(event_dicts(events))
        posts.append(post(ctx, before, st, event_dicts(events), [n for n in players if n not in texts]))
    return st, all_events, posts


def test_demo_runs_to_a_winner_with_every_feature():
    st, events, posts = _run()
    assert len(posts) >= 4
    assert st["winner"] == "刃"
    kinds = {(e["type"], e.get("card"), e.get("phase"), e.get("contest")) for e in events}
    assert any(e["type"] == "move" and e["contest"] == "lost" for e in events)  # a blocked move
    assert any(e["type"] == "vent" and e["discarded"] for e in events)  # a weapon swap
    assert any(e["type"] == "card" and e["phase"] == "passive" for e in events)
    assert any(e["type"] == "attack" and e["aim"] for e in events)  # 隙狙い
    assert any(e["type"] == "evasion" and e["super_evasion"] for e in events)  # 超回避
    assert any(e["type"] == "attack" and e["weapon"] == "contract" for e in events)  # アドベント
    assert any(e["type"] == "attack" and e["weapon"] == "final_vent" for e in events)
    assert any(e["type"] == "event_final" for e in events)
    assert "【イベントファイナル】" in posts[-1]
    assert kinds


def test_demo_is_deterministic():
    a, b = _run(), _run()
    assert a[0] == b[0] and a[1] == b[1] and a[2] == b[2]
