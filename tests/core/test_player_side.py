"""What a player sees besides the reading of an order (issue 11): the guide linked from the opening
post, their options in the notice (and, for what is public, in the opening post)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("system, players", [("alterego", ["美鈴=meiling", "楓=kaede"]),
                                             ("rider", ["城戸=ryuki", "刃=jinshu"])])
def test_opening_links_the_players_guide_which_stands_alone(tmp_path, pbf, system, players):
    args = [a for p in players for a in ("--player", p)]
    assert pbf("new", tmp_path / "c", "--system", system, *args, "--seed", "s")[0] == 0
    opening = (tmp_path / "c" / "history" / "0000" / "post.txt").read_text("utf-8")
    link = re.search(r"docs/guide/(\w+)\.md", opening)
    assert link and link.group(1) == system
    guide = (ROOT / link.group(0)).read_text("utf-8")
    assert not re.search(r"shared/|spec/|seeds/", guide)  # stands alone in the repository
    for word in ("【行動】", "達成値" if system == "rider" else "隙", "pbf check"):
        assert word in guide


def test_alterego_notice_and_opening_carry_the_techniques(tmp_path, pbf):
    assert pbf("new", tmp_path / "c", "--system", "alterego", "--player", "美鈴=meiling", "--player", "楓=kaede",
               "--seed", "s")[0] == 0
    zero = tmp_path / "c" / "history" / "0000"
    notice = next(p for p in (zero / "notices").iterdir() if "美鈴" in p.name).read_text("utf-8")
    assert "・↑→弱：エナジーキャノン（必殺技・相性は弱攻撃・リーチ３・威力３）" in notice
    assert "・→←強：彩光蓮華掌（特殊必殺技・相性は強攻撃・リーチ２・威力５・ソウルゲージ３消費）" in notice
    opening = (zero / "post.txt").read_text("utf-8")
    assert "・←→強：朧月（特殊必殺技・相性は投げ・リーチ１・威力５・ソウルゲージ３消費）" in opening
    assert "（●と○が二人の位置、・1つが距離1）" in opening  # the distance map's legend, the first time


def test_rider_opening_lists_what_each_fighter_has(tmp_path, pbf):
    assert pbf("new", tmp_path / "c", "--system", "rider", "--player", "城戸=ryuki", "--player", "刃=jinshu",
               "--seed", "s")[0] == 0
    opening = (tmp_path / "c" / "history" / "0000" / "post.txt").read_text("utf-8")
    assert "城戸（龍騎）：HP20　攻撃力3・防御力2・運動性3" in opening
    assert "ガードベント×2" in opening


def test_alterego_post_says_what_a_knockdown_and_a_stance_mean(tmp_path, pbf):
    camp = tmp_path / "c"
    assert pbf("new", camp, "--system", "alterego", "--player", "A=plain", "--player", "B=plain", "--seed", "s",
               "--set", "hands=free", "--set", "start_distance=0")[0] == 0
    (tmp_path / "o1.txt").write_text("[A] 弱強\n[B] なし\n", encoding="utf-8")
    code, out, err = pbf("turn", camp, "--orders", tmp_path / "o1.txt", "--dry-run")
    assert code == 0, err
    (tmp_path / "o2.txt").write_text("[A] 弱\n[B] ←\n", encoding="utf-8")
    code, guard, err = pbf("turn", camp, "--orders", tmp_path / "o2.txt", "--dry-run")
    assert code == 0, err
    assert "Bは転倒！（次の技から：このターンの残りの技は無効、残りの攻撃はすべて外れる。次のターンは普通に動ける）" in out
    assert "Bはガードの構え。（このターンの残りと次のターンも防御し続ける。次のターンはカードを出せない）" in guard


def test_check_takes_a_post_and_points_into_it(tmp_path, pbf):
    camp = tmp_path / "c"
    assert pbf("new", camp, "--system", "alterego", "--player", "美鈴=meiling", "--player", "楓=kaede", "--seed", "s",
               "--set", "hands=free")[0] == 0
    # issue 19: a greeting after the order is passed over as a GM would
    code, out, err = pbf("check", camp, "--player", "美鈴", "了解です！\n【行動】↑→LL よろしくお願いします")
    assert code == 0 and "エナジーキャノン（↑→弱）" in out
    code, out, err = pbf("check", camp, "--player", "美鈴", "了解です！\n【行動】↑→LL ＃")
    assert code == 1 and out == "" and "2行目 10文字目" in err
    code, out, err = pbf("check", camp, "--player", "美鈴", "了解です！\n【行動】↑→LL")
    assert code == 0 and "エナジーキャノン（↑→弱）" in out
