"""What a player reads (issue 19): every term a results post prints is explained once in the
player's guide the opening post links; the guide says what pbf does (the distance diagram, 弱強,
the romaji of its tables); a rider's remaining cards after every turn, in the post and the notice."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pbf import campaign as campaigns
from pbf.turn.check import check_data

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"

# What each game's results post can print (as the template writes it) -> the word the guide's
# glossary explains it under. Each is checked both ways: the template prints it, the guide explains it.
TERMS = {
    "alterego": {
        "（空中）": "空中", "空中でかわす": "空中", "（ため）": "ため", "ため］": "ため", "ガード継続": "※ガード継続", "［ガードの構え］": "ガードの構え",
        "発動": "ため", "転倒": "転倒", "隙ができた": "隙", "相打ち": "相打ち", "投げ抜け": "投げ抜け", "関係なし": "関係なし",
        "扱い": "○○扱い", "密着": "密着", "押し込む": "押し込む", "画面端": "画面端", "空振り": "空振り", "不発": "不発",
        "移動が先": "移動が先", "ソウルゲージ": "ソウルゲージ", "弱攻撃の連打": "弱攻撃の連続", "K.O.": "K.O.",
        "未提出": "未提出", "※継続": "継続", "キャンセル": "キャンセル", "距離": "距離",
    },
    "rider": {
        "☆": "☆", "ベントイン": "ベントイン", "破棄": "破棄", "空振り": "空振り", "達成値": "達成値", "阻止": "阻止",
        "隙狙い": "隙狙い", "超回避": "超回避", "受け": "受け", "無手": "無手", "バイザー": "バイザー",
        "同値は防御側優先": "同値は防御側優先", "トリック中": "トリック中", "サバイブ": "サバイブ", "庇う": "庇う",
        "死亡": "死亡", "撃破": "撃破", "未提出": "未提出", "継続": "継続", "能動": "能動", "受動": "受動",
        "リフレクト": "リフレクト", "残りHP分": "残りHP分", "イベントファイナル": "イベントファイナル",
    },
}
POST_TEMPLATES = {"alterego": ("post.j2", "_macros.j2"), "rider": ("post.j2", "macros.j2")}


def guide(system: str) -> str:
    return (ROOT / "docs" / "guide" / f"{system}.md").read_text("utf-8")


def headwords(text: str) -> list[set[str]]:
    """What each glossary line explains: a list item's words before its 「：」 (split at ・ and
    parentheses), and each heading's."""
    out = []
    for line in text.splitlines():
        if line.startswith("- "):
            head = line[2:].split("：", 1)[0]
        elif line.startswith("#"):
            head = line.lstrip("#")
        else:
            continue
        head = head.replace("**", "").replace("`", "")
        out.append({w.strip() for w in re.split(r"[・（）]", head) if w.strip()})
    return out


@pytest.mark.parametrize("system", ["alterego", "rider"])
def test_the_glossary_explains_each_term_the_post_prints(system):
    printed = "".join((TEMPLATES / system / name).read_text("utf-8") for name in POST_TEMPLATES[system])
    heads = headwords(guide(system))
    for term, word in TERMS[system].items():
        assert term in printed, f"{system}: the post does not print {term!r} (the list is out of date)"
        explained = [h for h in heads if word in h]
        assert len(explained) == 1, f"{system}: {word!r} is explained {len(explained)} times in the guide (once, please)"


def test_the_opening_links_the_guide_and_the_post_stays_short(tmp_path, pbf):
    """The glossary is in the guide (linked from the opening post), not in every results post."""
    camp = tmp_path / "c"
    assert pbf("new", camp, "--system", "alterego", "--player", "A=plain", "--player", "B=plain", "--seed", "s",
               "--set", "hands=free")[0] == 0
    assert "docs/guide/alterego.md" in (camp / "history" / "0000" / "post.txt").read_text("utf-8")
    (tmp_path / "o.txt").write_text("[A] 弱\n[B] ←\n", encoding="utf-8")
    code, post, err = pbf("turn", camp, "--orders", tmp_path / "o.txt", "--dry-run")
    assert code == 0, err
    assert "用語" not in post and "docs/guide" not in post


# -- the distance diagram: the guide, the opening and the post say the same ----------------------

def test_the_distance_diagram_reads_the_same_everywhere(tmp_path, pbf):
    text = guide("alterego")
    section = text[text.index("## 距離の図"):text.index("## ダメージ")]
    legend = "（●と○が二人の位置、・1つが距離1）"
    assert legend in (TEMPLATES / "alterego" / "opening.j2").read_text("utf-8")
    assert legend in section and "空きマス" not in section
    camp = tmp_path / "c"
    assert pbf("new", camp, "--system", "alterego", "--player", "A=plain", "--player", "B=plain", "--seed", "s",
               "--set", "hands=free", "--set", "start_distance=1")[0] == 0
    (tmp_path / "o.txt").write_text("[A] →\n[B] なし\n", encoding="utf-8")
    post = pbf("turn", camp, "--orders", tmp_path / "o.txt", "--dry-run")[1]
    assert "A ●○ B（距離0・密着）" in post and "`A ●○ B（距離0・密着）`" in section  # 0 is 密着, the same square
    opening = (camp / "history" / "0000" / "post.txt").read_text("utf-8")
    assert "A ●・○ B（距離1）" in opening and "`A ●・○ B（距離1）`" in section


# -- 弱弱 and 弱強 as the guide says --------------------------------------------------------------

@pytest.fixture
def free(tmp_path, pbf):
    camp = tmp_path / "free"
    assert pbf("new", camp, "--system", "alterego", "--player", "美鈴=meiling", "--player", "楓=kaede", "--seed", "s",
               "--set", "hands=free")[0] == 0
    return campaigns.load(camp)


def techniques(c, text):
    return [t["name"] for t in check_data(c, "美鈴", text)["order"]["techniques"]]


def test_the_guide_on_weak_then_strong(free):
    text = guide("alterego")
    assert "弱攻撃を２回出したい" not in text
    assert "弱攻撃の後に強攻撃を出したいときは（`弱強` は投げと読みます）" in text and "`弱弱` は弱攻撃が２回です。" in text
    assert techniques(free, "弱強") == techniques(free, "弱 強") == ["投げ"]
    assert techniques(free, "弱弱") == ["弱攻撃", "弱攻撃"]
    assert techniques(free, "弱→強") == ["弱攻撃", "前進", "強攻撃"]


# -- the romaji of the guide's tables read as the table says --------------------------------------

CARDS = set("弱強→←↑")


def _groups(cell: str) -> list[str]:
    """A cell's items: split at ・ outside parentheses; one item with （a、b） inside: a and b."""
    items, depth, word = [], 0, ""
    for ch in cell:
        depth += ch == "（"
        depth -= ch == "）"
        if ch == "・" and depth == 0:
            items.append(word)
            word = ""
        else:
            word += ch
    items.append(word)
    if len(items) == 1 and "（" in cell and "、" in cell:
        return cell[cell.index("（") + 1:cell.rindex("）")].split("、")
    return items


ROMAJI = re.compile(r"[A-Za-z][A-Za-z ]*[A-Za-z]")


def table_rows(text: str, heading: str) -> list[list[str]]:
    section = text[text.index(heading):]
    section = section[:section.index("\n#", 1)]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("|")]
    return rows[2:]  # without the header and its rule


def guide_romaji() -> list[tuple[str, str]]:
    """(romaji, the cards the guide says it reads as) for every romaji of the two tables."""
    text = guide("alterego")
    out = []
    for card, written, readings in table_rows(text, "### カード"):
        for word in ROMAJI.findall(readings) + re.findall(r"`([^`]+)`", written):
            out.append((word, card))
    for words, cards in table_rows(text, "### 技の名前で書く"):
        left, right = _groups(words), _groups(cards)
        if len(right) == 1:
            right = right * len(left)
        assert len(left) == len(right), f"the guide's row cannot be paired: {words} | {cards}"
        for item, cards_of in zip(left, right):
            for word in ROMAJI.findall(item):
                out.append((word, "".join(ch for ch in cards_of if ch in CARDS)))
    return out


def test_the_guide_has_the_romaji_of_its_tables():
    words = dict(guide_romaji())
    assert {"jaku", "kyou", "nage", "janpu", "maejanpu", "taikuu", "energy cannon", "saikou renge", "pass"} <= words.keys()
    assert words["nage"] == "弱強" and words["ushirojanpu"] == "↑←" and words["saikou renge"] == "→←強"


@pytest.mark.parametrize("romaji, cards", guide_romaji())
def test_each_romaji_of_the_guide_reads_as_its_cards(pbf, free, romaji, cards):
    """Through pbf check, as a player would: the technique's cards (美鈴's, for her techniques)."""
    code, out, err = pbf("check", free.path, "--player", "美鈴", "--json", "--", romaji)  # "--": ``->`` is no option
    assert code == 0, f"{romaji!r} does not read: {err}"
    assert json.loads(out)["canonical"] == cards, romaji


# -- a rider's remaining cards after every turn --------------------------------------------------

def test_each_rider_s_remaining_cards_in_the_notice(tmp_path, pbf):
    """In the notice after every turn. Not in the post: a post archived before this version must
    still replay byte for byte (docs/rules/rider.md)."""
    camp = tmp_path / "rd"
    assert pbf("new", camp, "--system", "rider", "--player", "城戸=ryuki", "--player", "刃=jinshu", "--seed", "s")[0] == 0
    assert not (camp / "history" / "0000" / "notices").exists()  # turn 0: the opening post lists every deck
    (tmp_path / "o.txt").write_text("[城戸] 近寄る / ソードベント / 受動: ガードベント\n[刃] ストライクベント\n", encoding="utf-8")
    code, post, err = pbf("turn", camp, "--orders", tmp_path / "o.txt")
    assert code == 0, err
    kido = "デッキ：ソードベント×1、ガードベント×1、ストライクベント×1、アドベント×1、リフレクトベント×1、サバイブ×1、ファイナルベント×1"
    jin = "デッキ：ソードベント×2、ガードベント×2、アドベント×1、トリックベント×1、ファイナルベント×1"
    assert "デッキ：" not in post
    notices = camp / "history" / "0001" / "notices"
    kido_notice = (notices / "城戸.txt").read_text("utf-8")
    assert kido in kido_notice and "第2ターンの行動用" in kido_notice and "ベントイン：ガードベント" in kido_notice
    assert jin in (notices / "刃.txt").read_text("utf-8")
    assert pbf("replay", camp)[0] == 0


def test_a_monster_gets_no_notice_and_a_used_card_is_said(tmp_path, pbf):
    camp = tmp_path / "mon"
    assert pbf("new", camp, "--system", "rider", "--player", "城戸=ryuki", "--player", "GM=dragreder", "--seed", "s")[0] == 0
    (tmp_path / "o.txt").write_text("[城戸] ファイナルベント\n[GM] 留まる\n", encoding="utf-8")
    code, _post, err = pbf("turn", camp, "--orders", tmp_path / "o.txt")
    assert code == 0, err
    notices = camp / "history" / "0001" / "notices"
    assert [p.name for p in notices.iterdir()] == ["城戸.txt"]
    text = (notices / "城戸.txt").read_text("utf-8")
    assert "使用済み（1回の戦闘で1度だけ）：ファイナルベント" in text and "ファイナルベント×" not in text
