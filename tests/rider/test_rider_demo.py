"""The bundled demo campaign (campaigns/demo-rider), played by pbf demo's own code, runs to a
winner and uses every feature the issue asks of it."""

from __future__ import annotations

import io

from pbf.cli import demo
from rider_support import ROOT

DEMO = ROOT / "campaigns" / "demo-rider"


def _run(tmp_path):
    out = io.StringIO()
    c = demo.play(DEMO, tmp_path, out)
    posts = [(c.turn_dir(t) / "post.txt").read_text("utf-8") for t in c.archived_turns() if t > 0]
    return c.state, demo.archived_events(c), posts, out.getvalue()


def test_demo_runs_to_a_winner_with_every_feature(tmp_path):
    st, events, posts, _ = _run(tmp_path)
    assert len(posts) >= 4
    assert st["winner"] == "刃"
    assert any(e["type"] == "move" and e["contest"] == "lost" for e in events)  # a blocked move
    assert any(e["type"] == "vent" and e["discarded"] for e in events)  # a weapon swap
    assert any(e["type"] == "card" and e["phase"] == "passive" for e in events)
    assert any(e["type"] == "attack" and e["aim"] for e in events)  # 隙狙い
    assert any(e["type"] == "evasion" and e["super_evasion"] for e in events)  # 超回避
    assert any(e["type"] == "attack" and e["weapon"] == "contract" for e in events)  # アドベント
    assert any(e["type"] == "attack" and e["weapon"] == "final_vent" for e in events)
    assert any(e["type"] == "event_final" for e in events)
    assert "【イベントファイナル】" in posts[-1]
    # rules version 2: decisions written in advance
    assert any(e["type"] == "evasion" and e["super_evasion"] and e["super_threshold"] for e in events)
    assert any(e["type"] == "declare_move" and not e["blocked"] for e in events)  # 近寄るなら阻止しない
    assert any(e["type"] == "damage" and e["full"] > e["amount"] for e in events)  # 残りHP分
    assert "残りHP分" in posts[-1]


def test_demo_is_deterministic(tmp_path):
    a, b = _run(tmp_path / "a"), _run(tmp_path / "b")
    assert a == b
