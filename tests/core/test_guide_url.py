"""The opening post's guide link is a real address (issue 20, "Players can follow their own
guide"): the campaign's ``guide_url``, by default the guide's page at the project's public home,
which pyproject.toml's project.urls name too."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from pbf import GUIDE_URL, PROJECT_URL

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
LINE = "プレイヤーガイド（書き方の例・用語・ダメージの計算）："


def _opening(pbf, path: Path, system: str, *extra: str) -> tuple[int, str, str]:
    players = ["美鈴=meiling", "楓=kaede"] if system == "alterego" else ["城戸=ryuki", "刃=jinshu"]
    code, out, err = pbf("new", path, "--system", system, *[a for p in players for a in ("--player", p)],
                         "--seed", "s", *extra)
    post = (path / "history" / "0000" / "post.txt").read_text("utf-8") if code == 0 else ""
    return code, post, err


@pytest.mark.parametrize("system", ["alterego", "rider"])
def test_the_opening_links_the_guide_at_the_projects_public_address(tmp_path, pbf, system):
    code, post, err = _opening(pbf, tmp_path / "c", system)
    assert code == 0, err
    links = [line[len(LINE):] for line in post.splitlines() if line.startswith(LINE)]
    assert links == [f"{PROJECT_URL}/blob/main/docs/guide/{system}.md"]
    # the address is the project's own page of a file the repository has
    assert links[0].startswith(PYPROJECT["project"]["urls"]["Source"] + "/blob/main/")
    assert (ROOT / links[0].split("/blob/main/", 1)[1]).is_file()
    assert "pbf のリポジトリの" not in post


def test_a_campaign_links_its_own_guide_or_none(tmp_path, pbf):
    code, post, err = _opening(pbf, tmp_path / "own", "rider", "--set", "guide_url=https://wiki.example.jp/pbf/{system}.html")
    assert code == 0, err
    assert f"{LINE}https://wiki.example.jp/pbf/rider.html\n" in post
    code, post, err = _opening(pbf, tmp_path / "none", "alterego", "--set", "guide_url=")
    assert code == 0, err
    assert LINE not in post and "■締切" in post
    for bad in ("docs/guide/rider.md", "ftp://example.jp/g", "https://example.jp/a b", "https://"):
        code, _, err = _opening(pbf, tmp_path / "bad", "rider", "--set", f"guide_url={bad}")
        assert code == 1 and "guide_url は http:// か https:// で始まるアドレスです" in err, bad
        assert "Traceback" not in err and not (tmp_path / "bad").exists()


def test_pbf_list_options_shows_the_default_guide_address(pbf):
    code, out, err = pbf("list", "options")
    assert code == 0, err
    assert GUIDE_URL in out and "プレイヤーガイドのアドレス" in out
    assert f"`{GUIDE_URL}`" in (ROOT / "docs" / "options.md").read_text("utf-8")


def test_pyproject_names_the_projects_addresses_and_classifiers():
    project = PYPROJECT["project"]
    urls = project["urls"]
    assert {"Homepage", "Documentation", "Source", "Issues"} <= set(urls)
    assert urls["Homepage"] == urls["Source"] == PROJECT_URL
    assert all(re.fullmatch(rf"{re.escape(PROJECT_URL)}(/\S*)?", url) for url in urls.values())
    classifiers = set(project["classifiers"])
    for needed in ("Operating System :: Microsoft :: Windows", "Operating System :: MacOS",
                   "Operating System :: POSIX :: Linux", "Natural Language :: Japanese",
                   "Programming Language :: Python :: 3.11", "Environment :: Console"):
        assert needed in classifiers
    # the versions named agree with requires-python
    low = tuple(int(n) for n in project["requires-python"].removeprefix(">=").split("."))
    named = [tuple(int(n) for n in c.rsplit(":: ", 1)[1].split(".")) for c in classifiers
             if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert named and min(named) == low
