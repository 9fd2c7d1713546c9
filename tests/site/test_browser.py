"""The demo sites in a real browser (headless Chromium): every page loads without a console
message, every link resolves, the charts are drawn, and screenshots at phone and desktop width
are kept under build/test-artifacts/ (not committed).

Without Chromium the tests skip locally and FAIL in CI (CI=true): install Debian's ``chromium``.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "build" / "test-artifacts" / "site"
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}


def find_chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    why = "Chromium が見つかりません（Debian: apt-get install chromium） / chromium not found"
    if os.environ.get("CI") == "true":
        pytest.fail(why + " — CI では必須です", pytrace=False)
    pytest.skip(why)


@pytest.fixture(scope="module")
def chromium():
    return find_chromium()


def headless(chromium: str, url: str, *args: str) -> subprocess.CompletedProcess:
    """One headless Chromium run, with a profile of its own: two at once (pytest -n) sharing the
    default profile crash each other."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="pbf-chromium-") as profile:
        return subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *args, url],
            capture_output=True, text=True, timeout=60,
        )


def load(chromium: str, page: Path) -> tuple[str, list[str]]:
    """The DOM after load, and the console messages (Chromium logs them as INFO:CONSOLE)."""
    done = headless(chromium, page.as_uri(), "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line or "Failed to load" in line]
    return done.stdout, console


def test_the_console_check_can_fail(chromium, tmp_path):
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><title>x</title><script>console.error("boom")</script>'
                    '<img src="missing.png" alt="">', "utf-8")
    _, console = load(chromium, page)
    assert any("boom" in line for line in console)


@pytest.fixture(scope="module")
def sites(tmp_path_factory, demo_folders):
    from pbf import campaign
    from pbf.publish.site import build_site

    root = tmp_path_factory.mktemp("browser-sites")
    for folder in demo_folders:
        build_site(campaign.load(folder), root / folder.name)
    return root


HARNESS = """<!DOCTYPE html><html lang="ja"><head><meta charset="utf-8"><title>harness</title></head><body>
{frames}<pre id="report"></pre>
<script>
window.addEventListener("load", () => {{
  const out = [];
  for (const frame of document.querySelectorAll("iframe")) {{
    let d = null;
    try {{ d = frame.contentDocument; }} catch (e) {{}}
    const series = d ? Array.from(d.querySelectorAll('svg[data-chart="hp"] g.series'), (g) => {{
      const line = g.querySelector("polyline");
      return [g.dataset.series, g.querySelectorAll(".marker").length,
              line ? line.getAttribute("points").split(" ").filter(Boolean).length : 0];
    }}) : [];
    out.push({{page: frame.getAttribute("src"), loaded: !!(d && d.querySelector("main")),
               links: d ? Array.from(d.querySelectorAll("a[href]"), (a) => a.getAttribute("href")) : [],
               hp: series, svgs: d ? d.querySelectorAll("svg").length : 0}});
  }}
  document.getElementById("report").textContent = JSON.stringify(out);
}});
</script></body></html>
"""


def open_site(chromium: str, site: Path, pages: list[str]) -> tuple[list[dict], list[str]]:
    """Pages of ``site`` in one browser (a start costs about a second): a harness page holds them in
    frames and reports, for each, whether it loaded, its links and its HP chart as drawn."""
    harness = site.parent / f"{site.name}-harness.html"
    frames = "".join(f'<iframe src="{site.name}/{page}"></iframe>\n' for page in pages)
    harness.write_text(HARNESS.format(frames=frames), "utf-8")
    done = headless(chromium, harness.as_uri(), "--dump-dom", "--allow-file-access-from-files",
                    "--virtual-time-budget=10000")
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(html.unescape(re.search(r'<pre id="report">(.*?)</pre>', done.stdout, re.S)[1]))
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line or "Failed to load" in line]
    return report, console


def test_the_harness_sees_a_missing_page(chromium, sites):
    site = sorted(p for p in sites.iterdir() if p.is_dir())[0]
    report, _ = open_site(chromium, site, ["index.html", "turn-9999.html"])
    assert [r["loaded"] for r in report] == [True, False]


def test_every_page_loads_without_console_errors_links_resolve_and_charts_are_drawn(chromium, sites):
    for site in sorted(p for p in sites.iterdir() if p.is_dir()):
        pages = sorted(p.name for p in site.glob("*.html"))
        report, console = open_site(chromium, site, pages)
        assert console == [], (site.name, console)
        assert [r["page"] for r in report] == [f"{site.name}/{p}" for p in pages]
        assert all(r["loaded"] for r in report), site.name
        for r in report:
            for href in r["links"]:
                assert href.split("#")[0] in pages, (r["page"], href)  # a page that loaded
        index = report[pages.index("index.html")]
        turns = len(pages) - 1
        assert len(index["hp"]) == (4 if "royale" in site.name else 2) and index["svgs"] >= 3
        for name, dots, points in index["hp"]:
            assert dots == points == turns + 1, (site.name, name)


def test_screenshots_at_phone_and_desktop_width(chromium, sites):
    from concurrent.futures import ThreadPoolExecutor

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pages = [*sorted(sites.glob("*/index.html")), sorted(sites.glob("*/turn-0001.html"))[0]]

    def shoot(job):
        page, label, (width, height) = job
        shot = ARTIFACTS / f"{page.parent.name}-{page.stem}-{label}.png"
        shot.unlink(missing_ok=True)
        return shot, headless(chromium, page.as_uri(), f"--screenshot={shot}", f"--window-size={width},{height}",
                              "--hide-scrollbars")

    with ThreadPoolExecutor(max_workers=4) as pool:  # the browser mostly waits: side by side
        shots = list(pool.map(shoot, [(p, label, size) for p in pages for label, size in WIDTHS.items()]))
    assert len(shots) == 2 * len(pages)
    for shot, done in shots:
        assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 2_000


def test_the_balance_page_draws_its_chart(chromium, tmp_path, capsys):
    """pbf balance --html: the chart's bars and the pair table are there once the page has loaded."""
    from cli_support import run_cli

    page = tmp_path / "balance.html"
    code, _, err = run_cli(capsys, "balance", "--system", "rider", "--fighters", "ryuki,knight,blade_wolf",
                           "--battles", "1", "--level", "random", "--html", page)
    assert code == 0, err
    dom, console = load(chromium, page)
    assert console == []
    assert dom.count('class="bar"') == 3 and 'id="pairs"' in dom
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    done = headless(chromium, page.as_uri(), f"--screenshot={ARTIFACTS / 'balance.png'}", "--window-size=1280,900")
    assert done.returncode == 0
