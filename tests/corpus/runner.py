"""Read a corpus of natural orders the way ``pbf check`` reads a post, and count how each fared.

A corpus (``tests/corpus/alterego.yaml``, ``tests/corpus/rider.yaml``) lists orders as players
write them, each with the meaning a GM would read (``means``: the canonical order) or marked
``unclear`` (a GM would ask). For each entry:

* clear and read as ``means``: **read as meant**; read otherwise: **misread** (a bug);
  refused: a cost (the player has to write it again);
* unclear and refused, or read with a warning: **handled**; read without a warning: not handled.

``benchmarks/corpus.py`` prints the three figures per game; ``tests/corpus/test_corpus.py``
holds them to the issue's bar.
"""

from __future__ import annotations

import re
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML

HERE = Path(__file__).resolve().parent
CAMPAIGNS = {
    "alterego": ["--system", "alterego", "--player", "美鈴=meiling", "--player", "楓=kaede", "--set", "hands=free"],
    "duel": ["--system", "rider", "--player", "城戸=ryuki", "--player", "刃=jinshu"],
    "three": ["--system", "rider", "--player", "城戸=ryuki", "--player", "蓮=knight", "--player", "北岡=zolda"],
}
DEFAULT_PLAYER = {"alterego": "美鈴", "duel": "城戸", "three": "城戸"}


@dataclass
class Outcome:
    entry: dict
    status: str  # meant | misread | refused | handled | unhandled
    read: str | None = None
    messages: list[str] = field(default_factory=list)
    warned: bool = False  # read with a warning (※注意)


def entries(game: str) -> list[dict]:
    """The entries of a bundled corpus by name (``rider-2``), or of a corpus file by path."""
    path = Path(game) if game.endswith(".yaml") else HERE / f"{game}.yaml"
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def campaigns(root: Path) -> dict:
    from pbf.campaign.folder import load
    from pbf.cli import main

    out = {}
    for key, argv in CAMPAIGNS.items():
        folder = root / key
        if not folder.exists():
            import contextlib
            import io

            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                assert main(["new", str(folder), *argv, "--seed", "corpus"]) == 0
        out[key] = load(folder)
    return out


def read(campaign, player: str, text: str):
    """(canonical, notes) as ``pbf check`` reads the post; raises OrderError."""
    from pbf.turn.check import read_for_check

    return read_for_check(campaign, player, text)


def judge(entry: dict, found: dict) -> Outcome:
    from pbf.errors import PbfError

    key = entry.get("campaign", "alterego" if "campaign" not in entry and entry.get("game") == "alterego" else "duel")
    campaign = found[key]
    player = entry.get("player", DEFAULT_PLAYER[key])
    try:
        canonical, notes = read(campaign, player, entry["text"])
    except PbfError as exc:
        messages = [p.format() for p in exc.problems]
        return Outcome(entry, "handled" if "unclear" in entry else "refused", None, messages)
    messages = [p.format() for p in notes]
    warned = any(getattr(p, "severity", None) == "warning" for p in notes)
    if "unclear" in entry:
        return Outcome(entry, "handled" if warned else "unhandled", canonical, messages, warned)
    same = _same(canonical, entry["means"]) or _same_techniques(campaign, player, entry["text"], entry["means"])
    return Outcome(entry, "meant" if same else "misread", canonical, messages, warned)


def _same(canonical: str, means: str) -> bool:
    """The order read is the one meant: the same clauses (a rider order's clauses are a set —
    the order they are written or shown in says nothing), a move to the far end of the bands
    being the same move however it is named (近寄る and 近へ both end at 近, 離れる and 遠へ at 遠:
    the resolver moves toward the same band, docs/guide/rider.md), and イベントファイナル's free text
    the same in half-width kana."""
    means = means.replace("｜", "|")  # as pbf writes the separator
    if canonical == means:
        return True

    def clauses(order: str) -> list[str]:
        # イベントファイナル's text is the player's own, taken as written: half-width kana are the same words
        return sorted(_FAR_END.sub(lambda m: _FAR_END_AS[m.group(1)], unicodedata.normalize("NFKC", clause)
                                   if clause.startswith("イベントファイナル: ") else clause) for clause in order.split(" / "))

    return clauses(canonical) == clauses(means)


_FAR_END = re.compile(r"^(近へ|遠へ)(?=:|$)")
_FAR_END_AS = {"近へ": "近寄る", "遠へ": "離れる"}


def _same_techniques(campaign, player: str, text: str, means: str) -> bool:
    """An Alter EGO plot read as the same techniques, in the same order, as ``means`` is the plot
    meant, whatever ｜ it shows: ``↑→|弱`` and ``↑→弱`` are both 前ジャンプ then 弱攻撃 for a
    character without ↑→弱 (the ｜ is notation; the techniques are the meaning)."""
    from pbf.turn.check import read_order

    def techniques(order: str):
        view = read_order(campaign, player, order).view
        return [(t["id"], t["cards"], t["cancel"]) for t in view["techniques"]]

    if campaign.system.name != "alterego":
        return False
    return techniques(text) == techniques(means)


def run(game: str, root: Path | None = None) -> list[Outcome]:
    with tempfile.TemporaryDirectory() as tmp:
        found = campaigns(Path(root or tmp))
        out = []
        for entry in entries(game):
            entry = {**entry, "game": game}
            if Path(game).name.startswith("alterego"):
                entry.setdefault("campaign", "alterego")
            out.append(judge(entry, found))
        return out


def figures(outcomes: list[Outcome]) -> dict[str, float | int]:
    clear = [o for o in outcomes if "unclear" not in o.entry]
    unclear = [o for o in outcomes if "unclear" in o.entry]
    return {
        "clear": len(clear),
        "meant": sum(o.status == "meant" for o in clear),
        "misread": sum(o.status == "misread" for o in clear),
        "unclear": len(unclear),
        "handled": sum(o.status == "handled" for o in unclear),
    }
