"""The archive site at a glance (issue 20), checked in real headless Chromium at 390 px and 1280 px:
no Python value on any page of any demo, the index shows the battle now, overlapping lines stay
apart, the rider's distance chart and remaining cards, chart words readable on a phone, dates as
the posts write them, turn links that say what happened, a Japanese system font stack with
nothing fetched.

Each site is opened once: a harness page holds every page twice, in a 390 px and a 1280 px wide
frame (media queries follow the frame's width), and reports what each frame shows.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from test_browser import chromium, headless  # noqa: F401  (the module's browser fixture)

FRAMES = {"phone": (390, 844), "desktop": (1280, 900)}
PYTHON_IN_TEXT = ("None", "True", "False", "{", "[")
# in the verbatim parts (the posts as posted, the orders as written, the reading pbf check prints)
# a bracket is the board's own text (BCDice writes 1D6[3]); a Python value would still look like this:
PYTHON_IN_VERBATIM = re.compile(r"\b(None|True|False)\b|[\[{]\s*['\"]|['\"]\s*[\]}]|\{\s*\}|\[\s*\]")
DEADLINE, DEADLINE_LABEL = "2026-12-08 22:00", "12/8(火) 22:00"
TURN_DEADLINE, TURN_DEADLINE_LABEL = "2026-11-29 22:00", "11/29(日) 22:00"

HARNESS = """<!DOCTYPE html><html lang="ja"><head><meta charset="utf-8"><title>harness</title></head><body>
{frames}<pre id="report"></pre>
<script>
function look(frame) {{
  let d = null;
  try {{ d = frame.contentDocument; }} catch (e) {{}}
  if (!d || !d.querySelector("main")) return {{loaded: false}};
  const w = d.defaultView, all = (sel, root) => Array.from((root || d).querySelectorAll(sel));
  const clone = d.body.cloneNode(true);
  for (const e of clone.querySelectorAll("pre, code")) e.remove();
  const family = (sel) => {{ const e = d.querySelector(sel); return e ? w.getComputedStyle(e).fontFamily : null; }};
  return {{
    loaded: true, width: w.innerWidth,
    text: clone.textContent,
    attrs: all("[title], [aria-label]").map((e) => (e.getAttribute("title") || "") + "\\n" + (e.getAttribute("aria-label") || "")),
    verbatim: all("pre, code").map((e) => e.textContent),
    status: all("p.status").map((e) => e.textContent),
    now: all("table.now tbody tr").map((tr) => [tr.dataset.fighter, ...all("td", tr).map((td) => td.textContent)]),
    nowhead: all("table.now thead th").map((th) => th.textContent),
    cards: all("table.cards").map((t) => [t.dataset.fighter, all("tr", t).map((tr) => all("th, td", tr).map((c) => c.textContent))]),
    links: all('a[href^="turn-"]').map((a) => [a.getAttribute("href"), a.textContent, a.getAttribute("title"), a.getAttribute("rel")]),
    happened: all("p.happened").map((e) => e.textContent),
    charts: all("svg[data-chart]").map((svg) => [svg.dataset.chart, all("g.series", svg).map((g) => {{
      const line = g.querySelector("polyline");
      return {{name: g.dataset.series, marker: g.dataset.marker || null, dash: g.dataset.dash || null,
               colour: line ? w.getComputedStyle(line).stroke : null,
               dots: all(".marker", g).map((m) => {{ const r = m.getBoundingClientRect();
                 return [m.dataset.x, m.dataset.value, r.left + r.width / 2, r.top + r.height / 2]; }})}};
    }})]),
    legends: all("figure.chart").map((f) => [f.id, all("ul.legend li", f).map((li) => li.textContent)]),
    words: all("figure.chart svg text").map((t) => {{ const m = t.getScreenCTM();
      return [t.textContent, parseFloat(w.getComputedStyle(t).fontSize) * (m ? Math.hypot(m.a, m.b) : 0)]; }}),
    fonts: {{body: family("body"), post: family("pre.post"), svg: family("svg text"), cell: family("td")}},
    webfonts: d.fonts ? d.fonts.size : -1,
    fetched: w.performance.getEntriesByType("resource").map((r) => r.name),
    external: all("link, script, img, iframe, object, embed, video, audio, source").length,
    styles: all("style").map((s) => s.textContent).join("\\n"),
  }};
}}
window.addEventListener("load", () => {{
  const out = Array.from(document.querySelectorAll("iframe"), (f) => ({{page: f.dataset.page, frame: f.dataset.frame, ...look(f)}}));
  document.getElementById("report").textContent = JSON.stringify(out);
}});
</script></body></html>
"""


def glance(chromium: str, site: Path) -> dict[tuple[str, str], dict]:
    """Every page of ``site`` at both widths: {(page, "phone"|"desktop"): what the frame shows}."""
    pages = sorted(p.name for p in site.glob("*.html"))
    frames = "".join(f'<iframe data-page="{page}" data-frame="{label}" src="{site.name}/{page}" '
                     f'style="width:{w}px;height:{h}px;border:0"></iframe>\n'
                     for page in pages for label, (w, h) in FRAMES.items())
    harness = site.parent / f"{site.name}-glance.html"
    harness.write_text(HARNESS.format(frames=frames), "utf-8")
    done = headless(chromium, harness.as_uri(), "--dump-dom", "--allow-file-access-from-files",
                    "--virtual-time-budget=15000", "--window-size=1400,900")
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<pre id="report">(.*?)</pre>', done.stdout, re.S)
    assert found and found[1], done.stdout[-2000:]
    report = json.loads(html.unescape(found[1]))
    out = {(r["page"], r["frame"]): r for r in report}
    assert len(out) == 2 * len(pages) and all(r["loaded"] for r in report), [k for k, r in out.items() if not r["loaded"]]
    for (page, label), r in out.items():
        assert r["width"] == FRAMES[label][0], (page, label, r["width"])
    return out


def python_values(r: dict) -> list[str]:
    """What of a frame looks like a Python value: one of None/True/False/{/[ in the page's own
    words (attributes shown as tooltips included), or a repr in the verbatim parts."""
    bad = [f"{token!r} in: …{r['text'][max(0, i - 30):i + 30]}…" for token in PYTHON_IN_TEXT
           for i in [r["text"].find(token)] if i >= 0]
    bad += [f"{token!r} in the attribute {a!r}" for a in r["attrs"] for token in PYTHON_IN_TEXT if token in a]
    bad += [f"{m[0]!r} in: {v[max(0, m.start() - 30):m.end() + 30]!r}" for v in r["verbatim"]
            for m in [PYTHON_IN_VERBATIM.search(v)] if m]
    return bad


# -- the sites ----------------------------------------------------------------------------------

def _deadlined_rider(root: Path):
    """The rider duel demo, turn 1 read from its thread under a deadline, the next one set."""
    import tomllib

    from pbf import campaign as campaigns
    from pbf.turn.run import run_turn
    from pbf.turn.thread import thread_orders
    from pbf.cli.demo import demo_campaigns
    from pbf.turn.zero import new_campaign

    source = next(p for p in demo_campaigns() if p.name == "demo-rider")
    config = tomllib.loads((source / "campaign.toml").read_text("utf-8"))
    c = new_campaign(root / "rider-running", config["system"], campaigns.players_from_config(config, "c"),
                         seed=config["seed"], options=config.get("options", {}))
    found = thread_orders(c, source / "thread.dat", deadline=TURN_DEADLINE)
    campaigns.commit_turn(c, run_turn(c, found.orders_text, sources=found.sources, meta=found.meta))
    c = campaigns.load(c.path)
    campaigns.set_deadline(c, DEADLINE)
    return campaigns.load(c.path)


@pytest.fixture(scope="module")
def glanced(chromium, demo_folders, tmp_path_factory):  # noqa: F811
    """{name: (campaign folder, site folder, report)} for the three demos and a running duel with a deadline."""
    from pbf import campaign as campaigns
    from pbf.publish.site import build_site

    root = tmp_path_factory.mktemp("glance")
    folders = [*demo_folders, _deadlined_rider(root).path]
    out = {}
    for folder in folders:
        site = root / "sites" / folder.name
        build_site(campaigns.load(folder), site)
        out[folder.name] = (folder, site, glance(chromium, site))
    return out


def events_of(folder: Path, turn: int) -> list[dict]:
    from pbf import yamlio

    return yamlio.load_plain((folder / "history" / f"{turn:04d}" / "events.yaml").read_text("utf-8"), "events") or []


def summary_of(folder: Path, turn: int) -> dict:
    from pbf import campaign as campaigns, yamlio

    c = campaigns.load(folder)
    state = yamlio.load_plain((folder / "history" / f"{turn:04d}" / "state.yaml").read_text("utf-8"), "state")
    return c.system.public_summary(state, c.ctx)


# -- the checkers can fail -----------------------------------------------------------------------

def test_the_checks_find_a_python_value_a_fetched_font_and_small_chart_words(chromium, tmp_path):  # noqa: F811
    site = tmp_path / "bad"
    site.mkdir()
    (site / "index.html").write_text(
        '<!DOCTYPE html><html lang="ja"><head><meta charset="utf-8"><title>x</title>'
        '<style>@font-face { font-family: X; src: url(x.woff2); } body { font-family: X; }</style></head>'
        '<body><main><table><tr><td>None</td><td>[1, 2]</td></tr></table><pre>{"a": 1}</pre>'
        '<figure class="chart"><svg viewBox="0 0 1000 100" style="width:100%"><text x="0" y="50" style="font-size:12px">1</text>'
        '</svg></figure><img src="missing.png" alt=""></main></body></html>', "utf-8")
    report = glance(chromium, site)
    phone = report[("index.html", "phone")]
    bad = python_values(phone)
    assert any("'None'" in b for b in bad) and any("'['" in b for b in bad) and any('{"' in b for b in bad)
    assert min(size for _, size in phone["words"]) < 6  # 12 units of a 1000-unit-wide drawing, on 390 px
    assert phone["external"] == 1 and "@font-face" in phone["styles"]
    ok = {**phone, "text": "HP 12/20", "attrs": [], "verbatim": ["1D6[3]＋2", "［強攻撃ため］"]}
    assert python_values(ok) == []


def test_a_template_cannot_print_a_python_value_and_absent_values_show_a_dash():
    import jinja2

    from pbf.publish.site import ABSENT, NotForAPage, environment

    env = environment()
    assert env.from_string("{{ x }}|{{ y }}").render(x=None, y=0) == f"{ABSENT}|0"
    for value in (True, False, [1], {"a": 1}, ("a",)):
        with pytest.raises(NotForAPage):
            env.from_string("{{ x }}").render(x=value)
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ missing }}").render()


# -- the points ----------------------------------------------------------------------------------

def test_no_python_value_on_any_page_of_any_demo_at_either_width(glanced):
    seen = 0
    for name, (_, _, report) in glanced.items():
        for (page, label), r in report.items():
            assert python_values(r) == [], (name, page, label)
            seen += 1
    assert seen >= 2 * (8 + 8 + 5 + 2)
    # the common techniques of the Alter EGO demo: 前進, ガード and the jumps have no kind or reach
    folder, site, _ = glanced["demo-alterego"]
    index = (site / "index.html").read_text("utf-8")
    for move in ("前進", "前ジャンプ"):
        row = re.search(rf"<tr><td>{move}</td>(.*?)</tr>", index)[1]
        assert "<td>―</td>" in row, row


def test_the_index_shows_the_battle_now_in_text(glanced):
    # a running duel with a deadline: the turn, the deadline as the posts write it, each fighter
    folder, _, report = glanced["rider-running"]
    for label in FRAMES:
        r = report[("index.html", label)]
        status = " ".join(r["status"])
        assert "第1ターンまで処理済み" in status and "次は第2ターン" in status and f"次の締切：{DEADLINE_LABEL}" in status
        assert DEADLINE not in r["text"]
        summary = summary_of(folder, 1)
        assert [row[0] for row in r["now"]] == list(summary["fighters"])
        assert r["nowhead"] == ["名前", "HP", "ベントイン", "残りカード", "状態"]
        for row in r["now"]:
            f = summary["fighters"][row[0]]
            assert row[1].startswith(row[0]) and f["name"] in row[1]
            assert row[2] == f"{f['hp']}/{f['max_hp']}" and row[3] == f["vent"]
            assert row[4] == f"{sum(f['deck'].values())}枚"
        assert "距離：近" in r["text"] or "距離：中" in r["text"] or "距離：遠" in r["text"]
    # finished demos: the winner; the team demo says the team; Alter EGO shows the gauge and the distance
    for name, winner in (("demo-rider", "決着：刃の勝利"), ("demo-rider-royale", "決着：チーム西の勝利")):
        r = glanced[name][2][("index.html", "phone")]
        assert winner in " ".join(r["status"]), (name, r["status"])
    folder, _, report = glanced["demo-alterego"]
    r = report[("index.html", "phone")]
    last = max(int(p.name) for p in (folder / "history").iterdir() if p.name.isdigit())
    summary = summary_of(folder, last)
    assert "進行中" in " ".join(r["status"]) and "次の締切：未定" in " ".join(r["status"])
    assert f"距離：{summary['distance']}マス" in r["text"]
    assert r["nowhead"][:3] == ["名前", "HP", "ゲージ"]
    for row in r["now"]:
        f = summary["fighters"][row[0]]
        assert row[2] == f"{f['hp']}/20" and row[3] == str(f["soul"])
    royale = glanced["demo-rider-royale"][2][("index.html", "phone")]
    assert "チーム東" in " ".join(row[1] for row in royale["now"])


def test_overlapping_lines_stay_apart_by_marker_dash_colour_and_position(glanced):
    for name, (_, _, report) in glanced.items():
        for label in FRAMES:
            r = report[("index.html", label)]
            for key, series in r["charts"]:
                if key == "acted" or len(series) < 2:
                    continue
                for prop in ("marker", "dash", "colour"):
                    assert len({s[prop] for s in series}) == len(series), (name, key, prop, series)
                points: dict[tuple[str, str], list[tuple[float, float]]] = {}
                for s in series:
                    for x, value, cx, cy in s["dots"]:
                        points.setdefault((x, value), []).append((cx, cy))
                for (x, value), centres in points.items():  # same turn, same value: drawn apart
                    ys = sorted(cy for _, cy in centres)
                    assert all(b - a >= 2.5 for a, b in zip(ys, ys[1:])), (name, label, key, x, value, ys)
    # the four-rider battle: all four start at 12 HP — four markers, not one
    r = glanced["demo-rider-royale"][2][("index.html", "phone")]
    hp = dict(r["charts"])["hp"]
    start = [cy for s in hp for x, value, _, cy in s["dots"] if x == "0"]
    assert len(start) == 4 and len({round(y) for y in start}) == 4
    legend = dict(r["legends"])["chart-hp"]
    assert sorted(legend) == sorted(["城戸（チーム東）", "蓮（チーム東）", "北岡（チーム西）", "刃（チーム西）"])


def test_the_rider_site_has_a_distance_chart_and_each_rider_s_remaining_cards(glanced):
    # the duel: one chart of the pair, a point at each turn's start and after each action
    folder, _, report = glanced["demo-rider"]
    r = report[("index.html", "desktop")]
    charts = dict(r["charts"])
    (pair,) = charts["distance"]
    assert pair["name"] == "刃–城戸"
    turns = sorted(int(p.name) for p in (folder / "history").iterdir() if p.name.isdigit() and p.name != "0000")
    expected = []
    for t in turns:
        ev = events_of(folder, t)
        current = next(e["distance"] for e in ev if e["type"] == "turn")
        expected.append(current)
        acted = False
        for e in [*ev, {"type": "action"}]:
            if e["type"] == "action":
                if acted:
                    expected.append(current)
                acted = True
            elif e["type"] == "move":
                current = e["end"]
    assert [int(v) for _, v, _, _ in pair["dots"]] == ["近中遠".index(b) for b in expected]
    assert "遠" in expected  # the demo's turn 3 moves away and back
    # the four-rider battle: a chart per actor, a series per other fighter
    r = glanced["demo-rider-royale"][2][("index.html", "desktop")]
    per_actor = {k: s for k, s in r["charts"] if k.startswith("distance-")}
    assert len(per_actor) == 4 and all(len(s) == 3 for s in per_actor.values())
    # the remaining cards: a table per rider, a column per turn (0 = the deck it starts with)
    for name in ("demo-rider", "demo-rider-royale", "rider-running"):
        folder, _, report = glanced[name]
        r = report[("index.html", "phone")]
        turns = sorted(int(p.name) for p in (folder / "history").iterdir() if p.name.isdigit())
        summaries = {t: summary_of(folder, t) for t in turns}
        assert sorted(f for f, _ in r["cards"]) == sorted(summaries[0]["fighters"])
        for fighter, rows in r["cards"]:
            head, *body = rows
            assert head[1:] == ["開始", *map(str, turns[1:])]
            by_card = {row[0]: row[1:] for row in body}
            for t_index, t in enumerate(turns):
                deck = summaries[t]["fighters"][fighter]["deck"]
                assert {c: by_card[c][t_index] for c in deck} == {c: str(n) for c, n in deck.items()}
                assert by_card["合計"][t_index] == str(sum(deck.values()))
                assert by_card["ベントイン"][t_index] == (summaries[t]["fighters"][fighter]["vent"] or "―")
        cards = dict(r["charts"])["cards"]
        assert all(len(s["dots"]) == len(turns) for s in cards)


def test_chart_words_are_readable_on_a_phone_and_a_desktop(glanced):
    smallest = {}
    for name, (_, _, report) in glanced.items():
        for label in FRAMES:
            words = report[("index.html", label)]["words"]
            assert words, name
            smallest[(name, label)] = min(size for _, size in words)
    assert all(size >= 11.5 for size in smallest.values()), smallest


def test_dates_are_written_as_in_the_posts(glanced):
    folder, _, report = glanced["rider-running"]
    for label in FRAMES:
        r = report[("turn-0001.html", label)]
        assert f"締切：{TURN_DEADLINE_LABEL}" in r["text"]
        assert not re.search(r"\d{4}-\d{2}-\d{2}", r["text"]), r["text"]
    assert f"次の締切：{DEADLINE_LABEL}" in report[("index.html", "phone")]["text"]
    assert "2026-11-29 22:00" in (folder / "history" / "0001" / "turn.yaml").read_text("utf-8")


def test_each_turn_link_says_what_happened(glanced):
    for name, (folder, _, report) in glanced.items():
        r = report[("index.html", "phone")]
        links = [link for link in r["links"] if link[3] is None]
        turns = sorted(int(p.name) for p in (folder / "history").iterdir() if p.name.isdigit() and p.name != "0000")
        assert [href for href, *_ in links] == [f"turn-{t:04d}.html" for t in turns]
        for (href, text, title, _), t in zip(links, turns):
            post_title = (folder / "history" / f"{t:04d}" / "post.txt").read_text("utf-8").split("\n", 1)[0]
            assert text != post_title and post_title not in text and title == post_title
            assert text.startswith(f"第{t}ターン：")
            hits = {(e.get("actor"), e["target"]) for e in events_of(folder, t)
                    if e["type"] == "damage" and e.get("actor") != e["target"] and e["amount"] > 0}
            for actor, target in hits:
                assert f"{actor}が{target}に" in text, (name, t, text)
            if not hits and not any(e["type"] == "event_final" for e in events_of(folder, t)):
                assert "ダメージなし" in text, (name, t, text)
            for e in events_of(folder, t):
                if e["type"] == "ko":
                    assert f"{e['actor']}が" in text and ("脱落" in text or "K.O." in text), (name, t, text)
            page = report[(href, "phone")]
            assert page["happened"] == [text.removeprefix(f"第{t}ターン：")]
    rider = dict((h, x) for h, x, _, rel in glanced["demo-rider"][2][("index.html", "phone")]["links"] if rel is None)
    assert rider["turn-0001.html"] == "第1ターン：刃が城戸に4ダメージ"  # the page's damage formula (rules version 4)
    assert rider["turn-0007.html"].endswith("城戸が脱落、刃の勝利")


def test_pages_declare_a_japanese_system_font_stack_and_fetch_nothing(glanced):
    for name, (_, site, report) in glanced.items():
        for (page, label), r in report.items():
            assert r["webfonts"] == 0 and r["fetched"] == [] and r["external"] == 0, (name, page, label)
            assert not re.search(r"@font-face|@import|url\(", r["styles"]), (name, page)
            for where, family in r["fonts"].items():
                if family is None:
                    continue
                for font in ("Hiragino", "Yu Gothic", "Meiryo", "Noto Sans CJK JP") if where != "post" else \
                        ("MS Gothic", "Osaka-Mono", "Noto Sans Mono CJK JP"):
                    assert font in family, (name, page, where, family)
                assert family.rstrip().endswith(("sans-serif", "monospace")), family
        text = "".join(p.read_text("utf-8") for p in site.glob("*.html"))
        assert not re.search(r"""(?:src|href)=["'](?:https?:)?//""", text)



def test_what_happened_in_a_few_words(demo_folders):
    from pbf import campaign as campaigns
    from pbf.publish.site import happened

    rider = campaigns.load(next(f for f in demo_folders if f.name == "demo-rider"))
    alterego = campaigns.load(next(f for f in demo_folders if f.name == "demo-alterego"))
    summary = {"winner": None, "fighters": {"刃": {}, "城戸": {}}}
    hit = [{"type": "damage", "actor": "刃", "target": "城戸", "amount": 3},
           {"type": "damage", "actor": "城戸", "target": "城戸", "amount": 2},  # 超回避: paid, not a hit
           {"type": "damage", "actor": "刃", "target": "城戸", "amount": 1}]
    assert happened(rider, hit, summary) == "刃が城戸に4ダメージ"
    assert happened(rider, hit[1:2], summary) == "ダメージなし"
    over = [*hit, {"type": "ko", "actor": "城戸", "by": "刃"}, {"type": "winner", "actor": "西"}]
    assert happened(rider, over, summary) == "刃が城戸に4ダメージ、城戸が脱落、チーム西の勝利"
    assert happened(rider, [{"type": "event_final", "actor": "北岡", "text": "x"}], {**summary, "winner": "刃"}) \
        == "北岡のイベントファイナル"
    assert happened(rider, [{"type": "draw", "turn_limit": 9}], summary) == "ダメージなし、引き分け"
    ko = [{"type": "damage", "actor": "楓", "target": "美鈴", "amount": 2}, {"type": "knockdown", "actor": "美鈴", "by": "楓"},
          {"type": "ko", "actor": "美鈴"}, {"type": "result", "actor": "楓", "winner": "楓", "reason": "ko"}]
    assert happened(alterego, ko, {"winner": "楓", "fighters": {"楓": {}, "美鈴": {}}}) == \
        "楓が美鈴に2ダメージ、美鈴が転倒、美鈴がK.O.、楓の勝利"


def test_the_battle_now_of_a_private_hands_battle_shows_no_hand(tmp_path, private_running, private_finished):
    """While hands are hidden the public copy has no hand: no card, and no hand size it cannot
    count (the posts give it); once the battle is over, the hand sizes are shown."""
    from pbf import campaign as campaigns
    from pbf.publish.site import build_site

    for folder, hidden in ((private_running, True), (private_finished, False)):
        c = campaigns.load(folder)
        build_site(c, tmp_path / f"site-{folder.parent.name}")
        index = (tmp_path / f"site-{folder.parent.name}" / "index.html").read_text("utf-8")
        now = index[index.index('<section class="now"'):index.index("</section>")]
        assert ("<th>手札</th>" in now) is not hidden and ("結果の書き込みにあります" in now) is hidden
        for name, f in c.state["fighters"].items():
            row = re.search(rf'<tr data-fighter="{name}">(.*?)</tr>', now, re.S)[1]
            assert f"{f['hp']}/20" in row and f"<td class=\"num\">{f['soul']}</td>" in row
            assert (f"<td class=\"num\">{len(f['hand'])}枚</td>" in row) is not hidden
            if hidden:
                assert not any(card in row for card in set(f["hand"]) - set("0123456789"))
