"""A turn's private notices are rendered when first read (engine.Notices): commit_turn writes
them, a dry run renders them to report a broken template, a replay never needs them."""

from __future__ import annotations

from conftest import tree_digest

from pbf.turn.run import Notices


def test_rendered_once_and_only_when_read():
    calls = []

    def make():
        calls.append(1)
        return {"美鈴": "手札：弱", "楓": "手札：→"}

    notices = Notices(make)
    assert calls == []  # nothing rendered yet
    assert dict(notices) == {"美鈴": "手札：弱", "楓": "手札：→"}
    assert notices["楓"] == "手札：→" and len(notices) == 2 and list(notices) == ["美鈴", "楓"]
    assert calls == [1]


def _broken_notice(tmp_path, pbf):
    path = tmp_path / "c"
    code, _, err = pbf("new", path, "--system", "alterego", "--player", "美鈴=meiling", "--player", "楓=kaede",
                       "--seed", "lazy-notices")
    assert code == 0, err
    (path / "templates" / "alterego").mkdir(parents=True)
    (path / "templates" / "alterego" / "notice.j2").write_text("{% if %}broken\n", "utf-8")
    orders = tmp_path / "o.txt"
    orders.write_text("[美鈴]\n[楓]\n", "utf-8")
    return path, orders


def test_a_dry_run_still_reports_a_broken_notice_template(tmp_path, pbf):
    path, orders = _broken_notice(tmp_path, pbf)
    before = tree_digest(path)
    code, out, err = pbf("turn", path, "--orders", orders, "--dry-run")
    assert code == 1 and out == ""
    assert "notice.j2" in err and "テンプレート" in err
    assert tree_digest(path) == before


def test_a_turn_with_a_broken_notice_template_writes_nothing(tmp_path, pbf):
    path, orders = _broken_notice(tmp_path, pbf)
    before = tree_digest(path)
    code, out, err = pbf("turn", path, "--orders", orders)
    assert code == 1 and "notice.j2" in err
    assert tree_digest(path) == before


def test_a_committed_turn_has_its_notices(tmp_path, pbf):
    path = tmp_path / "c"
    assert pbf("new", path, "--system", "alterego", "--player", "美鈴=meiling", "--player", "楓=kaede",
               "--seed", "lazy-notices")[0] == 0
    orders = tmp_path / "o.txt"
    orders.write_text("[美鈴]\n[楓]\n", "utf-8")
    code, _, err = pbf("turn", path, "--orders", orders)
    assert code == 0, err
    notices = sorted(p.name for p in (path / "history" / "0001" / "notices").iterdir())
    assert notices == sorted(["美鈴.txt", "楓.txt"])
    assert "第2ターンの行動用" in (path / "history" / "0001" / "notices" / "美鈴.txt").read_text("utf-8")
