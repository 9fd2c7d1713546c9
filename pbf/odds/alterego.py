"""``pbf odds`` for Alter EGO: one plot against every plot the opponent can legally make.

Nothing in a turn is random; what the player does not know is the opponent's plot. The spread of
the opponent's plots is built from what the player sees (``view``):

* ``hands = "free"``: every plot of 0..max_plot cards, each counted once;
* ``hands = "open"``: every plot of the opponent's hand (it is in the public post), once each;
* ``hands = "private"``: every plot of every hand the opponent may hold — ``hand_size`` cards out of
  the deck's 40 (弱×12 強×6 →×8 ←×8 ↑×6) — each plot weighted by the number of hands (sets of
  physical cards) that hold its cards;
* a locked opponent (guard stance, a 強攻撃 coming out) has the empty plot only.

Plots that resolve alike are resolved once (the same techniques, up to the one that ends the plot:
the cards after a 投げ or a 強攻撃 are void). Each pair is resolved by the real resolver, with the
cards taken out of the state (a turn's outcome never depends on the cards left in hand), so the
figures are exact counts, not samples. See docs/odds.md.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import comb
from typing import Any

from ..dice import Dice
from ..systems.alterego import resolver
from ..systems.alterego.data import CARDS
from ..systems.alterego.legal import card_sequences, legal_plots, plot_of
from ..systems.alterego.reading import commands, read_plot
from ..systems.alterego.state import is_locked

SCREEN = 3000  # resolves spent choosing the best plots before they are computed in full
BEST = 3  # how many of the player's plots are shown as the best


def view(state: dict[str, Any], player: str, options: dict[str, Any]) -> dict[str, Any]:
    """What ``player`` knows of the state: their own fighter whole; of the others the public part
    (HP, gauge, lock, distance) and, with open hands, the hand; never a private hand, deck or
    discard pile (the hand's size is public: ``hand_size`` here)."""
    hands = options.get("hands", "private")
    fighters = {}
    for name, f in state["fighters"].items():
        public = {k: f.get(k) for k in ("character", "hp", "soul", "stance", "charging")}
        if name == player:
            public["hand"] = list(f["hand"]) if "hand" in f else None
        elif hands == "open":
            public["hand"] = list(f.get("hand") or [])
        else:
            public["hand"] = None
            public["hand_size"] = len(f["hand"]) if isinstance(f.get("hand"), list) and f["hand"] else int(
                options.get("hand_size", 7))
        public["deck"], public["discard"] = [], []
        fighters[name] = public
    return {"turn": state.get("turn", 0), "distance": state["distance"], "winner": state.get("winner"),
            "fighters": fighters}


def _key(plot: Any, character: Any) -> tuple:
    """The techniques a plot reads as, up to the one after which the rest is void."""
    out: list[Any] = []
    for item in read_plot(plot, character):
        tech = getattr(item, "technique", None)
        if tech is None:
            out.append(("C", tuple(item.discards)))
            continue
        out.append(tech.id)
        if tech.ends_plot or tech.charge:
            break
    return tuple(out)


@lru_cache(maxsize=64)
def hand_weights(deck: tuple[str, ...], size: int, max_plot: int) -> dict[tuple[int, ...], int]:
    """Card counts of a plot (弱 強 → ← ↑) -> the number of hands of ``size`` cards from ``deck``
    (physical cards) that hold them: every hand, with the ways to draw it, adds its ways to each
    smaller count it holds."""
    have = Counter(deck)
    kinds = list(CARDS)
    out: dict[tuple[int, ...], int] = {}
    for combo in combinations_with_replacement(range(len(kinds)), size):
        counts = tuple(combo.count(i) for i in range(len(kinds)))
        ways = 1
        for i, c in enumerate(counts):
            ways *= comb(have[kinds[i]], c)
        if not ways:
            continue
        for sub in product(*(range(c + 1) for c in counts)):
            if sum(sub) <= max_plot:
                out[sub] = out.get(sub, 0) + ways
    return out


_KEYS: dict[tuple[str, tuple[str, ...]], tuple] = {}
_TABLES: dict[str, tuple[Any, dict[str, Any], int]] = {}


def _card_key(character: Any, cards: tuple[str, ...]) -> tuple:
    """``_key`` of the plot of these cards, read side by side as ``reading.read_cards`` reads them
    (the same loop on the symbols alone, a few times faster: the opponent's 3,906 plots are read on
    every call; ``test_the_fast_reading_is_the_readers`` compares every plot of every character),
    and kept: the same sequences come up in every call."""
    k = (character.id, cards)
    kept = _KEYS.get(k)
    if kept is not None:
        return kept
    entry = _TABLES.get(character.id)
    if entry is None or entry[0] is not character:
        table = commands(character)
        entry = _TABLES[character.id] = (character, table, max(len(c) for c in table))
    _, table, longest = entry
    symbols = "".join(cards)

    def at(start: int, end: int) -> int:
        for size in range(min(longest, end - start), 0, -1):
            if symbols[start:start + size] in table:
                return size
        return 0

    out: list[Any] = []
    i, end = 0, len(symbols)
    while i < end:
        size = at(i, end)
        cut = True
        while cut and size > 1:
            cut = False
            for inner in range(i + 1, i + size):
                if at(inner, end) > size:
                    size = at(i, inner)
                    cut = True
                    break
        if size == 0:
            i += 1
            continue
        tech = table[symbols[i:i + size]]
        out.append(tech.id)
        i += size
        if tech.ends_plot or tech.charge:
            break
    if len(_KEYS) > 200_000:
        _KEYS.clear()
    kept = _KEYS[k] = tuple(out)
    return kept


def spread(seen: dict[str, Any], opponent: str, options: dict[str, Any], data: Any) -> tuple[list[list[Any]], str]:
    """The opponent's plots as [plot, weight, plots it stands for, key], heaviest first (ties: the
    fixed order of legal_plots); and how they were made (locked / free / open / private)."""
    f = seen["fighters"][opponent]
    character = data.characters[f["character"]]
    hands = options.get("hands", "private")
    max_plot = int(options.get("max_plot", 5))
    if is_locked(f):
        sequences = [((), 1)]
        how = "locked"
    elif hands == "free":
        sequences = [(c, 1) for c in card_sequences(None, max_plot)]
        how = "free"
    elif hands == "open":
        sequences = [(c, 1) for c in card_sequences(f["hand"], max_plot)]
        how = "open"
    else:
        weights = hand_weights(tuple(data.deck()), int(f["hand_size"]), max_plot)
        sequences = []
        for cards in card_sequences(None, max_plot):
            w = weights.get(tuple(cards.count(c) for c in CARDS))
            if w:
                sequences.append((cards, w))
        how = "private"
    grouped: dict[tuple, list] = {}
    for cards, w in sequences:
        k = _card_key(character, cards)
        row = grouped.get(k)
        if row is None:
            grouped[k] = [cards, w, 1, k]
        else:
            row[1] += w
            row[2] += 1
    rows = sorted(grouped.values(), key=lambda r: -r[1])  # stable: the fixed order within a weight
    for row in rows:
        row[0] = plot_of(row[0])
    return rows, how


def _consumed(events: list[Any], name: str) -> int:
    """How many entries of ``name``'s queue the turn took (performed, charged or a cancel)."""
    return sum(1 for e in events if e.actor == name and type(e).__name__ in ("Performed", "Charge", "Cancelled"))


class Table:
    """Resolves pairs of plots from the player's view.

    A turn looks at a queue only at its front, and once a queue is void (隙, 転倒, the stance, a
    投げ or 強攻撃, a KO) what was left in it never matters: a pair's outcome depends on each side's
    techniques up to the one after the last it took (or on all of them, when it took all). Outcomes
    are kept by those prefixes, so a plot that differs only after them is not resolved again
    (``test_the_prefix_memo_gives_the_same_figures``)."""

    END = ("$",)

    def __init__(self, seen: dict[str, Any], ctx: Any, player: str, opponent: str, memo: bool = True):
        self.seen = seen
        self.player, self.opponent = player, opponent
        options = {**ctx.options, "hands": "free"}
        self.ctx = replace(ctx, options=options)
        self.hp = {n: f["hp"] for n, f in seen["fighters"].items()}
        self.memo: dict[tuple, tuple] | None = {} if memo else None
        self.resolved = 0
        self.locked = {n: is_locked(f) for n, f in seen["fighters"].items()}

    def _prefixes(self, key: tuple, locked: bool) -> list[tuple]:
        if locked:
            return [self.END]
        return [key[:i] for i in range(1, len(key) + 1)] + [key + self.END]

    def outcome(self, mine: Any, theirs: Any, my_key: tuple = (), their_key: tuple = ()) -> tuple:
        """(dealt, taken, my 隙, their 隙, winner)."""
        memo = self.memo
        if memo is not None:
            for a in self._prefixes(my_key, self.locked[self.player]):
                for b in self._prefixes(their_key, self.locked[self.opponent]):
                    got = memo.get((a, b))
                    if got is not None:
                        return got
        after, events = resolver.resolve(self.seen, {self.player: mine, self.opponent: theirs}, Dice.fixed([]),
                                         self.ctx)
        self.resolved += 1
        dealt = self.hp[self.opponent] - after["fighters"][self.opponent]["hp"]
        taken = self.hp[self.player] - after["fighters"][self.player]["hp"]
        suki = {e.actor for e in events if type(e).__name__ == "Suki"}
        got = (dealt, taken, self.player in suki, self.opponent in suki, after.get("winner"))
        if memo is not None:
            def seen_of(key: tuple, name: str) -> tuple:
                if self.locked[name]:
                    return self.END
                n = _consumed(events, name)
                return key + self.END if n >= len(key) else key[: n + 1]
            memo[(seen_of(my_key, self.player), seen_of(their_key, self.opponent))] = got
        return got

    def against(self, mine: Any, rows: list[list[Any]], my_key: tuple = ()) -> dict[str, Any]:
        total = sum(r[1] for r in rows)
        acc = Counter()
        worst: list[tuple[Any, ...]] = []
        for theirs, w, _, their_key in rows:
            dealt, taken, my_suki, their_suki, winner = self.outcome(mine, theirs, my_key, their_key)
            acc["dealt"] += w * dealt
            acc["taken"] += w * taken
            acc["win"] += w * (winner == self.player or (winner is None and dealt > taken))
            acc["loss"] += w * (winner == self.opponent or (winner is None and taken > dealt))
            acc["ko_win"] += w * (winner == self.player)
            acc["ko_loss"] += w * (winner == self.opponent)
            acc["my_suki"] += w * my_suki
            acc["their_suki"] += w * their_suki
            if taken > dealt:
                worst.append((dealt - taken, -w, theirs.canonical(), w, dealt, taken))
        worst.sort(key=lambda r: r[:2])
        out = {k: acc[k] / total for k in ("win", "loss", "ko_win", "ko_loss", "my_suki", "their_suki")}
        out["draw"] = 1 - out["win"] - out["loss"]
        out["dealt"], out["taken"] = acc["dealt"] / total, acc["taken"] / total
        out["net"] = out["dealt"] - out["taken"]
        out["threats"] = [{"plot": p, "share": w / total, "dealt": d, "taken": t} for _, _, p, w, d, t in worst[:3]]
        return out


def odds(state: dict[str, Any], ctx: Any, player: str, plot: Any, hand: list[str] | None = None,
         best: bool = True) -> dict[str, Any]:
    """Everything ``pbf odds`` prints for an Alter EGO plot, as data (docs/odds.md)."""
    options = ctx.options
    seen = view(state, player, options)
    opponent = next(n for n in seen["fighters"] if n != player)
    rows, how = spread(seen, opponent, options, ctx.data)
    table = Table(seen, ctx, player, opponent)
    character = ctx.data.characters[seen["fighters"][player]["character"]]
    result = table.against(plot, rows, _key(plot, character))
    out: dict[str, Any] = {
        "system": "alterego", "player": player, "opponent": opponent, "plot": plot.canonical(),
        "spread": {"how": how, "plots": sum(r[2] for r in rows), "distinct": len(rows),
                   "weight": sum(r[1] for r in rows)},
        "result": result, "best": [], "best_note": None,
    }
    if not best:
        return out
    own = hand if hand is not None else seen["fighters"][player]["hand"]
    if options.get("hands", "private") == "free" and hand is None:
        own = None  # no hands: any cards
    if own is None and options.get("hands", "private") != "free":
        out["best_note"] = "hand_unknown"
        return out
    me = seen["fighters"][player]
    mine_state = {**seen, "fighters": {**seen["fighters"], player: {**me, "hand": list(own or [])}}}
    candidates: dict[tuple, Any] = {}
    for p in legal_plots(mine_state, player, None if own is None else list(own), options=options):
        candidates.setdefault(_card_key(character, p.cards) if not p.cancels else _key(p, character), p)
    keyed = list(candidates.items())
    if len(keyed) * len(rows) > SCREEN:
        # screening: every candidate against the heaviest opponent plots, within the budget; the
        # few that do best are then computed against the whole spread
        k = max(8, SCREEN // len(keyed))
        few = rows[:k]
        scores = sorted(((-table.against(p, few, key)["net"], i) for i, (key, p) in enumerate(keyed)))
        keyed = [keyed[i] for _, i in scores[:BEST]]
        out["best_note"] = {"candidates": len(candidates), "screened_with": k,
                            "screen_share": sum(r[1] for r in few) / out["spread"]["weight"]}
    else:
        out["best_note"] = {"candidates": len(candidates), "screened_with": None, "screen_share": None}
    ranked = []
    for i, (key, p) in enumerate(keyed):
        r = table.against(p, rows, key)
        ranked.append((-r["net"], -r["win"], i, p, r))
    ranked.sort(key=lambda t: t[:3])
    out["best"] = [{"plot": p.canonical(), **{k: v for k, v in r.items() if k != "threats"}}
                   for *_, p, r in ranked[:BEST]]
    out["resolved"] = table.resolved
    return out
