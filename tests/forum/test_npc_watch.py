"""An NPC through pbf watch (docs/npc.md): the receipts carry its commitment, the turn taken at the
deadline reveals its order, and replay and verify recompute it — against the real HTTP server of
tests/forum/board_server.py with the injected clock of test_fetch."""

from __future__ import annotations

from cli_support import pbf, run_cli  # noqa: F401 (the fixture)
from forum.board_server import Board  # noqa: F401
from forum.test_fetch import A, DAT, READ, board, clock, dat_line  # noqa: F401 (fixtures)
from pbf import campaign as campaigns
from pbf.board import fetch
from pbf.npc.search import LEVELS


def test_watch_takes_a_turn_with_an_npc_and_replay_and_verify_check_it(tmp_path, pbf, board, clock, monkeypatch):
    monkeypatch.setitem(LEVELS, "normal", {**LEVELS["normal"], "scenarios": 2, "first": 2, "max_coarse": 6})
    clock.advance(105 * 60)  # 21:45, the deadline 22:00
    camp = tmp_path / "camp"
    code, _, err = pbf("new", camp, "--system", "alterego", "--player", "A◆Ab3dEf6hIj=plain",
                       "--player", "B=NPC:plain", "--seed", "npc-watch", "--set", "hands=free",
                       "--deadline", "2026-12-08 22:00", "--thread", board.base + READ)
    assert code == 0, err
    board.post_dat(DAT, dat_line("GM", "開始", title="スレ"), dat_line(A, "【行動】弱", time="21:40:00.00"),
                   dat_line("B", "【行動】強強", time="21:41:00.00"))
    fetch.SETTINGS.sleep = clock.advance
    code, out, err = pbf("watch", camp, "--every", "5", "--take-turn", "--next-deadline", "2026-12-09 22:00")
    assert code == 0, err
    c = campaigns.load(camp)
    meta = campaigns.archived_meta(c, 1)
    npc = meta["npc"]["B"]
    assert "■B：NPC（普通）：行動は決まっています（コミット " + npc["commitment"] in out
    assert f"【公開】{npc['order']} {npc['salt']}" in out
    assert out.rstrip().endswith("［pbf］第1ターン結果")
    assert pbf("replay", camp)[0] == 0
    code, out, err = pbf("verify", camp)
    assert code == 0 and "NPC（B）の行動を" in out
