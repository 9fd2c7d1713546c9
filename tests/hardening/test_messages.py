"""Messages about what a user wrote: control characters never reach a terminal or a post, a huge
word is quoted as a short excerpt, and a flood of problems is counted rather than printed."""

from pbf.cli import program as cli
from pbf.errors import PbfError, Problem, excerpt


def test_an_excerpt_shows_control_characters_and_stays_short():
    assert excerpt("弱\x1b[31m\x07\x00") == "弱\\x1b[31m\\x07\\x00"
    long = excerpt("Z" * 349_997)
    assert long.startswith("Z" * 40 + "…") and "349,997" in long and len(long) < 60


def test_escape_bell_and_nul_in_an_order_never_reach_the_terminal(camp, pbf, tmp_path):
    orders = tmp_path / "esc.txt"
    orders.write_text("【A】弱\x1b[2J\x07\x00\n【B】弱\n", "utf-8")
    code, out, err = pbf("turn", camp, "--orders", orders, "--dry-run")
    assert code == 1
    for ch in "\x1b\x07\x00":
        assert ch not in out and ch not in err
    assert "\\x1b" in err


def test_a_flood_of_problems_is_counted_not_printed(capsys):
    error = PbfError([Problem(f"問題{i}", line=i) for i in range(1, 349_998)])
    cli._print_problems(error, True)
    err = capsys.readouterr().err
    assert "349997件の問題があります" in err
    assert err.count("問題") < cli.MAX_SHOWN + 5
    assert "ほか349,967件" in err


def test_vt_ff_and_line_separators_are_not_line_breaks(camp, pbf, tmp_path):
    """docs/forum.md: lines break at LF, CRLF and CR only; the separator is reported, nothing written."""
    from .conftest import tree_digest

    before = tree_digest(camp)
    for sep in ("\v", "\f", "\u2028"):
        orders = tmp_path / "sep.txt"
        orders.write_text(f"【A】弱{sep}【B】弱\n", "utf-8")
        code, out, err = pbf("turn", camp, "--orders", orders)
        assert code == 1 and "【B】" not in out
        assert sep not in err
    assert tree_digest(camp) == before


def test_mixed_brackets_head_an_order(camp, pbf, tmp_path):
    orders = tmp_path / "mixed.txt"
    orders.write_text("[A】弱\n【B]弱\n", "utf-8")
    code, out, err = pbf("turn", camp, "--orders", orders, "--dry-run")
    assert code == 0, err
    assert "A：弱" in out and "B：弱" in out


def test_control_characters_in_an_event_final_never_reach_the_post(tmp_path, pbf):
    """イベントファイナル is free text that goes to the post: a control character in it is refused."""
    rider = tmp_path / "rider"
    code, _, err = pbf("new", rider, "--system", "rider", "--player", "刃=jinshu", "--player", "龍=ryuki", "--seed", "s")
    assert code == 0, err
    code, out, err = pbf("check", rider, "--player", "刃", "近寄る / イベントファイナル: 斬\x1b[31m！\x07")
    assert code == 1 and "\x1b" not in out + err and "\x07" not in out + err
    assert "1行目 19文字目" in err and "\\x1b" in err and "制御文字" in err
    code, out, _ = pbf("check", rider, "--player", "刃", "近寄る / イベントファイナル: 斬！")
    assert code == 0 and "斬！" in out
