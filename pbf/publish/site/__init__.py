"""``pbf html C OUT``: a static site of a campaign, built from its public export only.

The campaign is first exported (:mod:`pbf.export`) into a temporary folder and the site is
built from that copy, so that the seed before its reveal and the hands of a battle still going
on cannot reach a page: they are not in the files the site is made from. Pages are rendered by
jinja2 with autoescape (``templates/html/``); the charts are inline SVG (:mod:`.charts`).
The same campaign gives the same bytes on every run: nothing depends on the clock.

No Python value reaches a page (issue 20): an absent value prints as 「―」 (:func:`shown`), and a
bool, list or dict given to ``{{ }}`` is a template error, not a page showing ``True`` or ``[…]``.
"""

from __future__ import annotations

import os
import re
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from ... import campaign as campaigns, render, resources, yamlio
from ...turn.check import without_hand_check
from ...turn.replay import verify
from ...turn.run import deadline_text_label, post_parts
from .. import export
from ...errors import PbfError, Problem
from .charts import Series, action_grid, line_chart

GENERATOR = "pbf html"  # <meta name="generator">: a folder with it may be rebuilt in place
ABSENT = "―"  # what a page shows for a value that is not there (a move's kind, its reach)
BANDS = ("近", "中", "遠")  # the rider game's distances, drawn bottom to top


class NotForAPage(TypeError):
    """A template printed a Python value (a bool, list or dict): a bug of the template."""


def shown(value: Any) -> Any:
    """What ``{{ value }}`` prints: None as 「―」; a bool, list, tuple or dict is refused."""
    if value is None:
        return ABSENT
    if isinstance(value, (bool, list, tuple, dict, set)):
        raise NotForAPage(f"a template printed a Python value: {value!r}")
    return value


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """HTML templates: their own environment, with autoescape (player-written text is inert)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resources.bundled("templates") / "html")),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, finalize=shown,
    )
    env.filters["zenkaku"] = render._zenkaku
    return env


def turn_page(turn: int) -> str:
    return f"turn-{turn:04d}.html"


def build_site(c: campaigns.Campaign, out: "Path | str", seed: str | None = None, hands: str = "end") -> int:
    """Write the site of ``c`` into ``out``; returns the number of pages."""
    out = Path(out)
    keep = foreign_files(out)
    with tempfile.TemporaryDirectory(prefix="pbf-public-") as tmp:
        report = export.export(c, Path(tmp) / c.path.name, seed=seed, hands=hands)
        public = campaigns.load(report.path)
        try:
            pages = site_pages(public, report)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:  # an archive edited out of shape (NotForAPage too)
            raise PbfError(f"記録（history/）の形が正しくないため、サイトを作れません（{type(exc).__name__}: {exc}）。"
                           "pbf replay で記録を確かめてください。 / malformed archive") from None
    clash = sorted(set(keep) & set(pages))
    if clash:
        raise PbfError(Problem(f"「{out}」の {'、'.join(clash)} は pbf html の書いたファイルではありませんが、"
                               "pbf html が同じ名前のページを書きます。移すか消してからもう一度どうぞ。"
                               " / a file pbf html did not write has the name of a page"))
    count = len(pages)
    pages[MANIFEST] = manifest_text(pages)
    export.write_folder(out, pages, replace=True, keep=keep)
    return count


# The site folder's own list of what pbf html wrote (issue 21): the next build replaces those
# files and keeps every other one (a CNAME for GitHub Pages, a README). A dot file: GitHub
# Pages (Jekyll) does not publish it.
MANIFEST = ".pbf-html-files"
_LEGACY_PAGE = re.compile(r"index\.html|turn-\d{4,}\.html")  # what a build before the list wrote


def manifest_text(pages: dict[str, str]) -> str:
    return ("# pbf html が書いたファイル。次の pbf html はこれだけを置き換え、ほかのファイルは残します。\n"
            + "".join(f"{name}\n" for name in sorted(pages)))


def foreign_files(out: Path) -> list[str]:
    """The entries of ``out`` that pbf html did not write (kept by the next build); a folder that
    pbf html never built (no list, no page of its own) is refused."""
    if not out.exists():
        return []
    refused = PbfError(Problem("はすでにあり、pbf html の作ったサイトではありません。新しいフォルダか空のフォルダを"
                               "指定してください。 / refusing a folder pbf html did not make", text=str(out)))
    if not out.is_dir():
        raise refused
    names = sorted(os.listdir(out))
    if not names:
        return []
    listed = out / MANIFEST
    if listed.is_file() and not listed.is_symlink():
        from ...fsutil import read_bytes

        where = f"{out.name}/{MANIFEST}"
        lines = read_bytes(listed, where).decode("utf-8", "replace").splitlines()
        ours = {line for line in lines if line and not line.startswith("#")}
        bad = sorted(n for n in ours if not re.fullmatch(r"[^/\\.][^/\\]*", n))
        if bad:
            raise PbfError(Problem(f"{where} にサイトのファイルでない名前があります。 / malformed file list", text=bad[0][:40]))
        ours.add(MANIFEST)
    elif _ours(out):
        ours = {n for n in names if _LEGACY_PAGE.fullmatch(n)}
    else:
        raise refused
    return [n for n in names if n not in ours]


def _ours(out: Path) -> bool:
    index = out / "index.html"
    return index.is_file() and f'<meta name="generator" content="{GENERATOR}">' in index.read_text("utf-8", "replace")


def site_pages(c: campaigns.Campaign, report: export.ExportReport) -> dict[str, str]:
    """Every page of the site of a public export, by file name."""
    env = environment()
    turns = [t for t in c.archived_turns() if t > 0]
    states = {t: campaigns.archived_yaml(c, t, campaigns.STATE_FILE) for t in [0, *turns]}
    summaries = {t: c.system.public_summary(s, c.ctx) for t, s in states.items()}
    events = {t: _events(c, t) for t in turns}
    common = {"title": c.system.title, "system": c.system.name, "generator": GENERATOR,
              "campaign_name": c.path.name, "turns": turns, "turn_page": turn_page}
    summary = summaries[turns[-1] if turns else 0]
    pages = {"index.html": env.get_template("index.j2").render(
        **common, players=_players(c, summaries[0]), common_techniques=_catalogue(c).get("techniques", []), summary=summary,
        seed=_seed(c, report), hands=report.hands, opening=_text(c, 0, "post.txt"),
        charts=_charts(c, turns, summaries, events), deadline=_deadline_label(c, campaigns.current_deadline(c)),
        titles={t: _turn_title(c, t) for t in turns}, happened={t: happened(c, events[t], summaries[t]) for t in turns},
        now=now(c, summary, hands_hidden=report.hands == "hidden"), cards=_cards(c, [0, *turns], summaries),
    )}
    for i, turn in enumerate(turns):
        pages[turn_page(turn)] = env.get_template("turn.j2").render(
            **common, turn=turn, prev=turns[i - 1] if i else None, next=turns[i + 1] if i + 1 < len(turns) else None,
            orders=_orders(c, turn), orders_text=campaigns.archived(c, turn, "orders.txt"),
            parts=post_parts(c, turn), dice=_dice(c, turn), meta=_meta(c, campaigns.archived_meta(c, turn)),
            happened=happened(c, events[turn], summaries[turn]),
            summary=summaries[turn],
        )
    return pages


def _text(c: campaigns.Campaign, turn: int, name: str) -> str | None:
    path = c.turn_dir(turn) / name
    return campaigns.archived(c, turn, name) if path.is_file() else None


def _deadline_label(c: campaigns.Campaign, deadline: Any) -> str | None:
    """A stored deadline (``2026-12-08 22:00``) as the posts write it: ``12/8(火) 22:00``; one
    pbf cannot read is shown as stored (an archive edited by hand)."""
    if not isinstance(deadline, str) or not deadline:
        return None
    try:
        return deadline_text_label(c, deadline)
    except PbfError:
        return deadline


def _meta(c: campaigns.Campaign, meta: dict[str, Any]) -> dict[str, Any]:
    """What a turn page shows of ``turn.yaml``: the thread window, the order posts, the deadline
    (in the posts' format), the notes (each only when it has the shape pbf writes)."""
    thread = meta.get("thread")
    thread = thread if isinstance(thread, dict) and {"title", "first_post", "last_post"} <= set(thread) else None
    posts = meta.get("order_posts")
    notes = meta.get("notes")
    return {
        "thread": thread,
        "order_posts": posts if isinstance(posts, dict) else {},
        "deadline": _deadline_label(c, meta.get("deadline")),
        "next_deadline": _deadline_label(c, meta.get("next_deadline")),
        "notes": [str(n) for n in notes] if isinstance(notes, list) else [],
    }


def _events(c: campaigns.Campaign, turn: int) -> list[dict[str, Any]]:
    where = f"{campaigns.HISTORY}/{campaigns.turn_dir_name(turn)}/events.yaml"
    return list(yamlio.plain(yamlio.load(campaigns.archived(c, turn, "events.yaml"), where)) or [])


def _turn_title(c: campaigns.Campaign, turn: int) -> str:
    """The first line of the results post (its heading, as the thread saw it)."""
    return campaigns.archived(c, turn, "post.txt").split("\n", 1)[0]


def _catalogue(c: campaigns.Campaign) -> dict[str, list[dict[str, Any]]]:
    """What ``pbf list`` shows (characters, techniques, cards), with the campaign's data."""
    return c.system.catalogue(c.ctx.data, c.ctx.options)


def _players(c: campaigns.Campaign, summary: dict[str, Any]) -> list[dict[str, Any]]:
    sheets = {entry["id"]: entry for entries in _catalogue(c).values()
              for entry in entries if isinstance(entry, dict) and "id" in entry}
    return [{"name": name, "character": p.character, "team": p.team,
             "character_name": summary["fighters"][name].get("name", p.character),
             "sheet": sheets.get(p.character)} for name, p in c.ctx.players.items()]


def _seed(c: campaigns.Campaign, report: export.ExportReport) -> dict[str, Any]:
    commitment = campaigns.archived_yaml(c, 0, "dice.yaml").get("seed_sha256")
    if report.seed != "revealed":
        return {"commitment": commitment, "seed": None, "verified": []}
    return {"commitment": commitment, "seed": c.seed, "verified": verify(c)}


def _orders(c: campaigns.Campaign, turn: int) -> list[dict[str, Any]]:
    """Each player's order as pbf read it: the canonical form, and how it reads (check.j2)."""
    record = campaigns.archived_yaml(c, turn, "dice.yaml")
    before = yamlio.load_plain(campaigns.state_before(c, turn), f"history/{campaigns.turn_dir_name(turn)}")
    then = without_hand_check(c)
    out = []
    for line in str(record.get("orders_canonical", "")).splitlines():
        name, _, order = line.partition("\t")
        reading = None
        if order:
            try:
                parsed = then.system.parse_order(order, name, before, then.ctx)
                view = then.system.public_order_view(parsed, name, before, then.ctx)
                reading = render.render(then.system, "check.j2", then.path, player=name, view=view)
            except (PbfError, KeyError):
                reading = None
        out.append({"player": name, "order": order, "reading": reading})
    return out


def _dice(c: campaigns.Campaign, turn: int) -> dict[str, Any]:
    record = campaigns.archived_yaml(c, turn, "dice.yaml")
    draws = record.get("draws", [])
    fixed = len(record.get("fixed", []))
    return {
        "withheld": record.get("draws_withheld"),
        "orders_sha256": record.get("orders_sha256"),
        "draws": [{"k": k, "u": u, "die": 1 + u % 6, "fixed": k < fixed} for k, u in enumerate(draws)],
    }


def _charts(c: campaigns.Campaign, turns: list[int], summaries: dict[int, dict[str, Any]],
            events: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    names = list(c.ctx.players)
    all_turns = [0, *turns]

    teams = {n: p.team for n, p in c.ctx.players.items()}

    def per_fighter(key: str) -> list[Series]:
        return [Series(n, [summaries[t]["fighters"][n].get(key) for t in all_turns], teams[n]) for n in names]

    def damage(role: str) -> list[Series]:
        return [Series(n, [sum(e.get("amount", 0) for e in events[t] if e.get("type") == "damage"
                               and e.get(role) == n and (role == "target" or e.get("target") != n)) for t in turns],
                       teams[n])
                for n in names]

    charts = {"hp": line_chart("hp", per_fighter("hp"), 0)}
    if c.system.name == "alterego":
        distance = [Series("distance", [summaries[t].get("distance") for t in all_turns])]
        charts["distance"] = line_chart("distance", distance, 0)
        charts["soul"] = line_chart("soul", per_fighter("soul"), 0)
    else:
        charts["dealt"] = line_chart("dealt", damage("actor"), turns[0] if turns else 1)
        charts["taken"] = line_chart("taken", damage("target"), turns[0] if turns else 1)
        acted = []
        for t in turns:
            order: dict[str, int] = {}
            for e in events[t]:
                if e.get("type") in ("action", "multi_action") and e.get("actor") not in order:
                    order[e["actor"]] = len(order) + 1
            acted.append(order)
        charts["acted"] = action_grid(names, acted, turns[0] if turns else 1)
        charts["distances"] = _rider_distances(c, turns, summaries, events)
        holders = [n for n in names if isinstance(summaries[0]["fighters"][n].get("deck"), dict)
                   and summaries[0]["fighters"][n].get("kind") != "monster"]
        if holders:
            charts["cards"] = line_chart("cards", [
                Series(n, [_card_count(summaries[t]["fighters"][n]) for t in all_turns], teams[n]) for n in holders], 0)
    return charts


def _card_count(fighter: dict[str, Any]) -> int | None:
    deck = fighter.get("deck")
    return sum(int(v) for v in deck.values()) if isinstance(deck, dict) else None


def _rider_distances(c: campaigns.Campaign, turns: list[int], summaries: dict[int, dict[str, Any]],
                     events: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The rider game's distances: in a duel one chart of the pair, a point at each turn's start
    and after each action (a move changes it); in a battle of three or more, where each action
    rolls every distance anew, a chart per actor: the distance to each other fighter at that
    actor's action (after its move), a point per turn it acted. From the events only."""
    names = list(c.ctx.players)
    teams = {n: p.team for n, p in c.ctx.players.items()}
    band = {b: i for i, b in enumerate(BANDS)}
    y_labels = dict(enumerate(BANDS))
    multi = any(summaries[t].get("multi") for t in summaries)
    if not turns:
        return []
    if not multi and len(names) == 2:
        values: list[int | None] = []
        tips: list[str | None] = []
        ticks: list[tuple[int, str]] = []
        previous = 0
        for t in turns:
            turn_events = events[t]
            start = next((e.get("distance") for e in turn_events if e.get("type") == "turn"), None)
            current = start if start in band else summaries[previous].get("distance")
            previous = t
            ticks.append((len(values), str(t)))
            values.append(band.get(current))
            tips.append(f"第{t}ターンの開始：{current}")
            actor = None
            for e in [*turn_events, {"type": "action", "actor": None}]:  # the end closes the last action
                if e.get("type") == "action":
                    if actor is not None:
                        values.append(band.get(current))
                        tips.append(f"第{t}ターン {actor}の行動の後：{current}")
                    actor = e.get("actor")
                elif e.get("type") == "move" and e.get("end") in band:
                    current = e["end"]
        pair = "–".join(names)
        return [{"chart": line_chart("distance", [Series(pair, values, tips=tips)], 0, y_labels=y_labels, x_ticks=ticks),
                 "title": f"距離の推移（{pair}）", "actor": None}]
    out = []
    for actor in names:
        others = [n for n in names if n != actor]
        rows: dict[str, list[int | None]] = {n: [] for n in others}
        for t in turns:
            seen: dict[str, str] = {}
            for e in events[t]:
                if e.get("type") == "distances" and e.get("actor") == actor and isinstance(e.get("bands"), dict):
                    seen = {n: b for n, b in e["bands"].items() if b in band}
                elif e.get("type") == "move" and e.get("actor") == actor and e.get("target") in seen and e.get("end") in band:
                    seen[e["target"]] = e["end"]
            for n in others:
                rows[n].append(band.get(seen.get(n, "")))
        if not any(v is not None for vs in rows.values() for v in vs):
            continue
        series = [Series(n, rows[n], teams[n]) for n in others]
        out.append({"chart": line_chart(f"distance-{names.index(actor) + 1}", series, turns[0], y_labels=y_labels),
                    "title": f"{actor}の行動時の距離（移動の後）", "actor": actor})
    return out


def winner_text(summary: dict[str, Any]) -> str | None:
    """「刃の勝利」, 「チーム西の勝利」, 「引き分け」, or None while the battle goes on."""
    winner = summary.get("winner")
    if winner is None:
        return None
    if winner == "draw":
        return "引き分け"
    return f"{winner}の勝利" if winner in summary.get("fighters", {}) else f"チーム{winner}の勝利"


def happened(c: campaigns.Campaign, events: list[dict[str, Any]], summary: dict[str, Any]) -> str:
    """What a turn did, in a few words, from its events: who hit whom for how much, who fell
    (転倒 / K.O. / 脱落), the result; a turn after the end, its イベントファイナル. HP a fighter
    paid itself (超回避) is not a hit."""
    hits: dict[tuple[str, str], int] = {}
    fallen: list[str] = []
    result = None
    ko_word = "脱落" if c.system.name == "rider" else "K.O."
    for e in events:
        kind = e.get("type")
        if kind == "damage" and e.get("target") and e.get("actor") != e.get("target"):
            key = (str(e.get("actor") or ""), str(e["target"]))
            hits[key] = hits.get(key, 0) + int(e.get("amount") or 0)
        elif kind == "knockdown" and e.get("actor"):
            fallen.append(f"{e['actor']}が転倒")
        elif kind == "ko" and e.get("actor"):
            fallen.append(f"{e['actor']}が{ko_word}")
        elif kind in ("winner", "result", "draw"):
            result = winner_text({**summary, "winner": "draw" if kind == "draw" else e.get("winner", e.get("actor"))})
    words = [f"{a}が{t}に{n}ダメージ" if a else f"{t}に{n}ダメージ" for (a, t), n in hits.items() if n > 0]
    finals = [f"{e['actor']}のイベントファイナル" for e in events if e.get("type") == "event_final" and e.get("actor")]
    words = words or ([] if finals and result is None else ["ダメージなし"])
    if finals and result is None:  # an epilogue after the end: its イベントファイナル lines
        words += finals
    return "、".join([*words, *fallen, *([result] if result else [])])


def now(c: campaigns.Campaign, summary: dict[str, Any], hands_hidden: bool = False) -> dict[str, Any]:
    """The battle as it stands after the last archived turn, for the index: each fighter's HP and
    what the results post shows beside it (Alter EGO: gauge, hand size unless hands are free,
    ため, ガードの構え; the rider game: the vented card and the remaining cards), the distance.
    While hands are hidden the export holds no hand, hence no hand size: the column is left out
    (the posts give it), rather than showing a count pbf cannot know."""
    options = {**getattr(c.system, "default_options", {}), **c.ctx.options}
    rows = []
    for name, f in summary["fighters"].items():
        marks = []
        row: dict[str, Any] = {"name": name, "character": f.get("name"), "team": f.get("team") or
                               (c.ctx.players[name].team if name in c.ctx.players else None),
                               "hp": f.get("hp"), "max_hp": f.get("max_hp", options.get("hp"))}
        if c.system.name == "alterego":
            row["soul"] = f.get("soul")
            row["hand_size"] = f.get("hand_size") if options.get("hands") != "free" else None
            if f.get("charging"):
                marks.append(f"{f['charging']}ため")
            if f.get("stance"):
                marks.append("ガードの構え")
            if not f.get("alive", True):
                marks.append("K.O.")
        else:
            row["vent"] = f.get("vent")
            deck = f.get("deck")
            if isinstance(deck, dict) and f.get("kind") != "monster":
                row["cards"] = _card_count(f)
                row["deck"] = "、".join(f"{card}×{n}" for card, n in deck.items() if n) or "なし"
            if not f.get("alive", True):
                marks.append("撃破" if f.get("kind") == "monster" else "死亡")
            if f.get("survive"):
                marks.append("サバイブ")
        row["marks"] = "・".join(marks)
        rows.append(row)
    if c.system.name == "alterego":
        distance = f"{summary.get('distance')}マス" + ("（密着）" if summary.get("distance") == 0 else "")
    elif summary.get("multi"):
        distance = f"行動ごとに決定（{len(rows)}人の戦闘）"
    else:
        distance = summary.get("distance")
    show_hands = c.system.name == "alterego" and options.get("hands") != "free" and not hands_hidden
    return {"fighters": rows, "distance": distance, "winner": winner_text(summary), "show_hands": show_hands,
            "turn": summary.get("turn", 0)}


def _cards(c: campaigns.Campaign, all_turns: list[int], summaries: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each rider's remaining cards after each turn (turn 0: the deck it starts with), with the
    card vented in. Rider decks are public (docs/rules/rider.md); the table is made from
    ``public_summary`` only, so a deck a game keeps private is not shown (no ``deck`` there)."""
    if c.system.name != "rider":
        return []
    out = []
    for name in summaries[all_turns[0]]["fighters"]:
        columns = [summaries[t]["fighters"].get(name, {}) for t in all_turns]
        if not all(isinstance(f.get("deck"), dict) for f in columns) or columns[0].get("kind") == "monster":
            continue
        cards = list(dict.fromkeys(card for f in columns for card in f["deck"]))
        rows = []
        for card in cards:
            counts = [int(f["deck"].get(card, 0)) for f in columns]
            rows.append({"card": card, "cells": [{"count": n, "spent": i > 0 and n < counts[i - 1]}
                                                 for i, n in enumerate(counts)]})
        out.append({"name": name, "character": columns[-1].get("name"), "turns": all_turns, "rows": rows,
                    "total": [_card_count(f) for f in columns], "vent": [f.get("vent") for f in columns]})
    return out
