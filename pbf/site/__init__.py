"""``pbf html C OUT``: a static site of a campaign, built from its public export only.

The campaign is first exported (:mod:`pbf.export`) into a temporary folder and the site is
built from that copy, so that the seed before its reveal and the hands of a battle still going
on cannot reach a page: they are not in the files the site is made from. Pages are rendered by
jinja2 with autoescape (``templates/html/``); the charts are inline SVG (:mod:`.charts`).
The same campaign gives the same bytes on every run: nothing depends on the clock.
"""

from __future__ import annotations

import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from .. import campaign as campaigns, engine, export, render, resources, yamlio
from ..errors import PbfError, Problem
from .charts import Series, action_grid, line_chart

GENERATOR = "pbf html"  # <meta name="generator">: a folder with it may be rebuilt in place


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """HTML templates: their own environment, with autoescape (player-written text is inert)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resources.bundled("templates") / "html")),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["zenkaku"] = render._zenkaku
    return env


def turn_page(turn: int) -> str:
    return f"turn-{turn:04d}.html"


def build_site(c: campaigns.Campaign, out: "Path | str", seed: str | None = None, hands: str = "end") -> int:
    """Write the site of ``c`` into ``out``; returns the number of pages."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not _ours(out))):
        raise PbfError(Problem("はすでにあり、pbf html の作ったサイトではありません。新しいフォルダか空のフォルダを"
                               "指定してください。 / refusing a folder pbf html did not make", text=str(out)))
    with tempfile.TemporaryDirectory(prefix="pbf-public-") as tmp:
        report = export.export(c, Path(tmp) / c.path.name, seed=seed, hands=hands)
        public = campaigns.load(report.path)
        try:
            pages = site_pages(public, report)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:  # an archive edited out of shape
            raise PbfError(f"記録（history/）の形が正しくないため、サイトを作れません（{type(exc).__name__}: {exc}）。"
                           "pbf replay で記録を確かめてください。 / malformed archive") from None
    export.write_folder(out, pages, replace=True)
    return len(pages)


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
    pages = {"index.html": env.get_template("index.j2").render(
        **common, players=_players(c, summaries[0]), common_techniques=_catalogue(c).get("techniques", []), summary=summaries[turns[-1] if turns else 0],
        seed=_seed(c, report), hands=report.hands, opening=_text(c, 0, "post.txt"),
        charts=_charts(c, turns, summaries, events), deadline=campaigns.current_deadline(c),
        titles={t: _turn_title(c, t) for t in turns},
    )}
    for i, turn in enumerate(turns):
        pages[turn_page(turn)] = env.get_template("turn.j2").render(
            **common, turn=turn, prev=turns[i - 1] if i else None, next=turns[i + 1] if i + 1 < len(turns) else None,
            orders=_orders(c, turn), orders_text=campaigns.archived(c, turn, "orders.txt"),
            parts=engine.post_parts(c, turn), dice=_dice(c, turn), meta=_meta(campaigns.archived_meta(c, turn)),
            summary=summaries[turn],
        )
    return pages


def _text(c: campaigns.Campaign, turn: int, name: str) -> str | None:
    path = c.turn_dir(turn) / name
    return campaigns.archived(c, turn, name) if path.is_file() else None


def _meta(meta: dict[str, Any]) -> dict[str, Any]:
    """What a turn page shows of ``turn.yaml``: the thread window, the order posts, the deadline,
    the notes (each only when it has the shape pbf writes)."""
    thread = meta.get("thread")
    thread = thread if isinstance(thread, dict) and {"title", "first_post", "last_post"} <= set(thread) else None
    posts = meta.get("order_posts")
    notes = meta.get("notes")
    return {
        "thread": thread,
        "order_posts": posts if isinstance(posts, dict) else {},
        "deadline": meta.get("deadline") if isinstance(meta.get("deadline"), str) else None,
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
    return {"commitment": commitment, "seed": c.seed, "verified": engine.verify(c)}


def _orders(c: campaigns.Campaign, turn: int) -> list[dict[str, Any]]:
    """Each player's order as pbf read it: the canonical form, and how it reads (check.j2)."""
    record = campaigns.archived_yaml(c, turn, "dice.yaml")
    before = yamlio.load_plain(campaigns.state_before(c, turn), f"history/{campaigns.turn_dir_name(turn)}")
    then = export.without_hand_check(c)
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

    def per_fighter(key: str) -> list[Series]:
        return [Series(n, [summaries[t]["fighters"][n].get(key) for t in all_turns]) for n in names]

    def damage(role: str) -> list[Series]:
        return [Series(n, [sum(e.get("amount", 0) for e in events[t] if e.get("type") == "damage"
                               and e.get(role) == n and (role == "target" or e.get("target") != n)) for t in turns])
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
    return charts
