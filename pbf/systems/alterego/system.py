"""The Alter EGO game system object (pbf.systems.base.GameSystem)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...dice import Dice
from ...errors import OrderError, PbfError, Problem
from ...lazy import lazy
from ...reader.text import position
from ..base import Context, Player
from . import data as data_mod
from .state import CANCEL_COST, RULES_VERSION, SUPER_COST, is_locked, new_fighter

if TYPE_CHECKING:
    from .plot import Plot

# The order parser (lark), the reading and the resolver (its events) are imported by the methods
# that use them: `pbf show` and `pbf list` need none of them (start-up, benchmarks/bench.py).
_plot = lazy("pbf.systems.alterego.plot")
_resolver = lazy("pbf.systems.alterego.resolver")
_lexicon = lazy("pbf.systems.alterego.lexicon")

HANDS = ("private", "open", "free")
CARD_ORDER = {c: i for i, c in enumerate(data_mod.CARDS)}
INT_OPTIONS = {
    # key: (minimum, maximum)
    "hp": (1, 999),
    "start_distance": (0, 99),
    "max_distance": (1, 99),
    "hand_size": (1, 40),
    "max_plot": (1, 40),
    "turn_limit": (0, 9999),
}


# technique_rows: (techniques, data) ids -> (techniques, data, rows)
_ROWS: dict[tuple[int, int], tuple[Any, Any, list[dict[str, Any]]]] = {}

# What the thread may be told about a card the hand lacks (which card is private).
HAND_PROBLEM = "手札にないカードが行動に書かれています（どのカードかは本人にだけ伝えます）。"


class AlterEgo:
    name = "alterego"
    title = "Alter EGO ―オルタリゴ―"
    # Bumped whenever a ruling changes what a turn resolves to; archived with every turn. A turn
    # archived under an older version is replayed under it (Context.rules_version): every changed
    # ruling and post wording is kept behind the version that changed it.
    rules_version = RULES_VERSION
    default_options: dict[str, Any] = {
        "hands": "private",  # private / open / free
        "hp": 20,
        "start_distance": 2,
        "max_distance": 6,
        "hand_size": 7,
        "max_plot": 5,
        "turn_limit": 0,  # 0 = no limit; otherwise the higher HP wins after that turn
    }

    # -- options and data ------------------------------------------------------------------
    def coerce_option(self, key: str, value: Any) -> Any:
        if key not in self.default_options:
            raise PbfError(
                f"オプション「{key}」はありません（{' / '.join(self.default_options)}）。 / unknown option"
            )
        if key == "hands":
            text = str(value).strip().lower()
            if text not in HANDS:
                raise PbfError(f"hands は {' / '.join(HANDS)} のどれかです（「{value}」）。")
            return text
        low, high = INT_OPTIONS[key]
        try:
            number = int(str(value).strip())
        except ValueError:
            raise PbfError(f"{key} は整数です（「{value}」）。") from None
        if not low <= number <= high:
            raise PbfError(f"{key} は {low}〜{high} です（「{value}」）。")
        return number

    def check_options(self, options: dict[str, Any], state: dict[str, Any] | None = None) -> None:
        """The options together, where one bounds another: the starting distance is at most the
        screen's edge (``pbf new``); a ``max_distance`` chosen later is at least the fighters'
        distance now (``state``: ``pbf set``), so that state.yaml stays valid."""
        edge = int(options.get("max_distance", self.default_options["max_distance"]))
        if state is None:
            start = int(options.get("start_distance", self.default_options["start_distance"]))
            if start > edge:
                raise PbfError(
                    Problem(
                        f"start_distance は 0〜{edge}（max_distance 以下）です（「{start}」）。"
                        " / start_distance must not exceed max_distance",
                        hint=f"start_distance を {edge} 以下にするか、max_distance を {start} 以上にしてください。",
                    )
                )
            return
        now = state.get("distance")
        if isinstance(now, int) and not isinstance(now, bool) and edge < now:
            raise PbfError(
                Problem(
                    f"max_distance は今の距離 {now} 以上です（「{edge}」）。 / max_distance below the distance now",
                    hint=f"max_distance={now} 以上にしてください（{INT_OPTIONS['max_distance'][1]} まで）。",
                )
            )

    def load_data(self, campaign_data: Path | None) -> data_mod.GameData:
        return data_mod.load(campaign_data)

    def check_players(self, players: dict[str, Player], data: data_mod.GameData) -> None:
        valid = "、".join(f"{cid}（{c.name}）" for cid, c in data.characters.items())
        for name, player in players.items():
            if player.character not in data.characters:
                raise PbfError(
                    f"【{name}】のキャラクター「{player.character}」はありません。使えるのは {valid} です。 / unknown character"
                )
        if len(players) != 2:
            raise PbfError(f"Alter EGO は１対１です（プレイヤーが{len(players)}人います）。 / exactly two players")

    # -- state -------------------------------------------------------------------------------
    def new_state(self, ctx: Context, dice: Dice) -> dict[str, Any]:
        opts = {**self.default_options, **ctx.options}
        fighters: dict[str, Any] = {}
        for name, player in ctx.players.items():
            fighter = new_fighter(player.character, int(opts["hp"]))
            if opts["hands"] != "free":
                deck = ctx.data.deck()
                dice.shuffle(deck)
                size = int(opts["hand_size"])
                fighter["hand"], fighter["deck"] = deck[:size], deck[size:]
            fighters[name] = fighter
        return {
            "turn": 0,
            "distance": min(int(opts["start_distance"]), int(opts["max_distance"])),
            "winner": None,
            "fighters": fighters,
        }

    # -- orders ------------------------------------------------------------------------------
    def parse_order(self, text: str, player: str, state: dict[str, Any], ctx: Context) -> Plot:
        plot_mod = _plot()
        Cancel, Card = plot_mod.Cancel, plot_mod.Card
        character = ctx.data.characters.get(ctx.players[player].character)
        signed: list[Problem] = []
        if "\n" in text:
            from ...reader.post import bullets, signature

            text, signed = signature(text)
            text, listed = bullets(text)
            signed += listed
        said_discards: list[Problem] = []
        if "捨" in text:
            text, said_discards = _discards_said(text)
        spaced: list[Problem] = []
        if _SPACED_KANA.search(text):
            text, spaced = _kana_apart(text, plot_mod, _lexicon().lexicon(ctx.data, character) if character else None)
        corrected: list[Problem] = []
        if "\n" in text and _SED.search(text):
            text, corrected = _substituted(text, plot_mod, _lexicon().lexicon(ctx.data, character) if character else None)
        if "\n" in text and not corrected and _AMENDS.search(text):
            text, corrected = self._amended(text, plot_mod, _lexicon().lexicon(ctx.data, character) if character else None)
        try:
            plot = plot_mod.parse_plot(text, _lexicon().lexicon(ctx.data, character) if character else None)
            if "ので" in text and "\n" in text:
                plot, text = _reason_under(plot, text, plot_mod, _lexicon().lexicon(ctx.data, character) if character else None)
        except OrderError as exc:
            aside = _asides_under(text, plot_mod, _lexicon().lexicon(ctx.data, character) if character else None)
            if aside is None:
                raise OrderError([self._other_technique(p, character, ctx) for p in exc.problems]) from None
            plot, text = aside
        if corrected:
            plot = plot_mod.Plot(plot.items, (*corrected, *plot.notes))
        if said_discards:
            plot = plot_mod.Plot(plot.items, (*said_discards, *plot.notes))
        if spaced:
            plot = plot_mod.Plot(plot.items, (*spaced, *plot.notes))
        if signed:
            plot = plot_mod.Plot(plot.items, (*plot.notes, *signed))
        if character is not None:
            self._others_named_alone(plot, character, ctx)
        if "ので" in text or "のつもりで" in text:
            plot = self._explained(text, plot, plot_mod, ctx, character)
        if "(" in text or "（" in text:
            plot = self._glossed(text, plot, plot_mod, ctx, character)
        plot = _left_open(plot, plot_mod, corrected, text, _lexicon().lexicon(ctx.data, character) if character else None)
        plot = _broken_off(plot, plot_mod, text)
        options, defaults = ctx.options, self.default_options
        fighter = state["fighters"][player]
        problems: list[Problem] = []
        cards = [i for i in plot.items if isinstance(i, Card)]
        if is_locked(fighter) and plot.items:
            first = plot.items[0]
            why = "ガードの構えが続いている" if fighter.get("stance") else f"{self._charged(fighter, ctx)}の力をためている"
            problems.append(
                Problem(
                    f"{why}ので、このターンはカードを出せません。",
                    player=player, line=first.line, column=first.column, text=first.text,
                    hint="このターンの行動は「なし」（または何も書かない）にしてください。",
                )
            )
            raise OrderError(problems)
        limit = int(options.get("max_plot", defaults["max_plot"]))
        if len(cards) > limit:
            shorter = self._restated(text, plot_mod, ctx, character, limit) or _named_twice(plot, plot_mod, limit)
            if shorter is not None:  # 弱→→弱強\n投げまで届くといいな: the later words only describe the plot
                plot = shorter
                cards = [i for i in plot.items if isinstance(i, Card)]
        if len(cards) > limit:
            extra = cards[limit]
            problems.append(
                Problem(
                    f"カードは１ターンに{limit}枚までです（{len(cards)}枚あります）。",
                    player=player, line=extra.line, column=extra.column, text=extra.text,
                    hint=f"{limit + 1}枚目から後を消してください。",
                )
            )
        for index, item in enumerate(plot.items if plot.cancels else ()):
            if isinstance(item, Cancel):
                following = plot.items[index + 1] if index + 1 < len(plot.items) else None
                if not isinstance(following, Card):
                    problems.append(
                        Problem(
                            "キャンセルの後に技（カード）がありません。キャンセルは飛ばす技の直前に書きます。",
                            player=player, line=item.line, column=item.column, text=item.text,
                            hint="例：弱C(弱←)↑→弱",
                        )
                    )
        if options.get("hands", defaults["hands"]) != "free" and (cards or plot.cancels):
            hand = list(fighter.get("hand") or [])
            left = list(hand)  # what the cards so far have not used
            # the plotted cards first, then the two discards of each cancel, from what is left
            wanted: list[tuple[str, Any]] = [(card.symbol, card) for card in cards]
            wanted += [(card, cancel) for cancel in plot.cancels for card in cancel.discards]
            for symbol, where in wanted:
                if symbol in left:
                    left.remove(symbol)
                else:
                    if isinstance(where, Card):
                        message = f"手札に「{symbol}」が足りません。"
                    else:
                        message = f"キャンセルで捨てる「{symbol}」が、行動に使った残りの手札にありません。"
                    shown = "".join(sorted(hand, key=lambda c: CARD_ORDER.get(c, 9))) or "なし"
                    problems.append(
                        Problem(message, player=player, line=where.line, column=where.column, text=where.text,
                                hint=f"手札：{shown}", public=HAND_PROBLEM)
                    )
        if problems:
            problems.sort(key=lambda p: (p.line or 0, p.column or 0))
            raise OrderError(problems)
        return plot

    @staticmethod
    def _amended(text: str, plot_mod: Any, words: Any) -> tuple[str, list[Problem]]:
        """前進、エナジーキャノン\n↑間違え増した、前進は無しでエナジーキャノンだけです: a later line that
        says the order above is a mistake (間違え・まちがい・訂正, or 前進は無しで) is never passed over as
        talk. What it says instead (the cards after it), or the order above without the card it drops
        (前進は無しで), is read — the text with all else blanked, so that lines and columns stay — with a
        warning naming what was not read; a line that says so but can be read neither way is refused."""
        lines = text.split("\n")
        at = 0
        for k, line in enumerate(lines):
            start, at = at, at + len(line) + 1
            if not k:
                continue
            m = _AMENDS.search(line)
            if m is None or not _AMEND_BEFORE.fullmatch(line[: m.start()]):
                continue
            above = text[:start - 1]
            try:
                if not plot_mod.parse_plot(above, words).cards:
                    continue
            except OrderError:
                continue
            rest, rest_at = line[m.end():], start + m.end()
            drop = re.match(r"[\s、,，。]*([^\s、,，。]+?)(?:は|を)?(?:無し|なし|ナシ|抜き|ぬき)で?", rest)
            if m.group("word") is None and drop is None:
                continue  # a line that starts so without a word of mistake: only …は無しで is a correction
            keep_from = rest_at + (drop.end() if drop else 0)
            tail = re.search(r"(?:[\s\u3000]+で|だけ(?:です|で)?|です|でお願いします)?[\s\u3000。!！ｗw]*$", text[keep_from:start + len(line)])
            keep_to = keep_from + (tail.start() if tail else len(text[keep_from:start + len(line)]))
            shown = line.strip()
            note = Problem(f"は行動の直しとして読みました（前の「{above.strip().splitlines()[-1].strip()}」は直す前の行動として読みません）。",
                           line=k + 1, column=1, text=shown, severity="warning",
                           hint="直した行動だけを書き直すと確実です。")
            if text[keep_from:keep_to].strip(" \u3000、,，。"):
                amended = _blanked(text, keep_from, keep_to)
                try:
                    if plot_mod.parse_plot(amended, words).cards:
                        return amended, [note]
                except OrderError:
                    pass
            elif drop is not None and above.count(drop.group(1)) == 1:
                x = above.index(drop.group(1))
                amended = text[:x] + " " * len(drop.group(1)) + text[x + len(drop.group(1)):start - 1] \
                    + "\n" + _blanked(text[start:], 0, 0)
                try:
                    if plot_mod.parse_plot(drop.group(1), words).cards and plot_mod.parse_plot(amended, words).cards:
                        note = replace(note, message=f"は行動の直しとして読みました（「{drop.group(1)}」を除いて読みました）。")
                        return amended, [note]
                except OrderError:
                    pass
            if m.group("fails"):
                return text, []  # 届かない…けどまあいいや: no plot after the realisation — read as before (talk)
            if re.search(r"(?:まちが|間違)(?:えた|った)", line):
                return text, []  # あ まちがえた: says it is wrong, says no fix — warned as before (scan's doubts)
            raise OrderError([Problem("は前の行動を直す言葉のようですが、どう直すのか読めません。", line=k + 1, column=1, text=shown,
                                      hint="出す行動だけを書き直してください。")])
        return text, []

    def _explained(self, text: str, plot: Any, plot_mod: Any, ctx: Context, character: Any) -> Any:
        """弱攻撃のあとに強攻撃をしたいので、弱攻撃｜強攻撃 でお願いします: the sentence before ので says
        why, the part after is the plot — the cards before said again after (all of them, or as a
        part: 投げを狙いたいので、前進を２回してから投げます) are one plot, read from the part after (as
        written there), with a note. Otherwise the plot as read."""
        m = re.search(r"(?:な?ので|のつもりで)[、,。\s]*", text)
        if m is None or not text[m.end():].strip():
            return plot
        words = _lexicon().lexicon(ctx.data, character) if character else None
        try:
            before = plot_mod.parse_plot(text[: m.start()], words)
            after = plot_mod.parse_plot(text[m.end():], words)
        except OrderError:
            return plot
        said = tuple(before.cards)
        within = any(tuple(after.cards[k:k + len(said)]) == said for k in range(len(after.cards) - len(said) + 1))
        line = text.count("\n", 0, m.start()) + 1
        if before.cards and after.cards and not within and plot.cards == before.cards + after.cards:
            # 強を出したいので、弱弱: the reason names other cards — read as one plot, and said
            note = Problem("の後ろも続けてカードとして読みました（理由の文のカードも行動に入れています）。", line=line, column=1,
                           text=text[: m.end()].strip().split("\n")[-1], severity="warning",
                           hint="理由の文のカードが行動でないなら、行動だけを書いてください。")
            return plot_mod.Plot(plot.items, (*plot.notes, note))
        if not before.cards or not within or plot.cards != before.cards + after.cards:
            return plot  # 投げを狙いたいので、前進を２回してから投げます: the cards before are part of the plot after
        note = Problem("は行動の説明として読みませんでした（後ろに同じカードが書かれています）。", line=line, column=1,
                       text=text[: m.end()].strip().split("\n")[-1])
        return plot_mod.Plot(tuple(_shifted(item, text, m.end()) for item in after.items),
                             (note, *(_shifted(n, text, m.end()) for n in after.notes)))

    def _glossed(self, text: str, plot: Any, plot_mod: Any, ctx: Context, character: Any) -> Any:
        """Cards in brackets after the plot on their line say what the plot is (66H (dash heavy),
        朧月（←→強）): when they are the last cards before them, a gloss — passed over, with a note;
        when they are other cards (エナジーキャノン（↑→強）), the plot outside is read and a warning
        says which cards in brackets were not. Cards in brackets right before the word that is
        those very cards (（←）ガード、（→）前進) say what that word is: a gloss of it, passed over
        with a note (each was read as one more card). Otherwise the plot as read."""
        words = _lexicon().lexicon(ctx.data, character) if character else None
        notes: list[Problem] = []
        outside = re.sub(r"[（(][^（()）\n]*[）)]", lambda b: " " * len(b.group()), text)
        try:
            bare = not plot_mod.parse_plot(outside, words).cards
        except OrderError as exc:  # よろしく outside them: nothing read is no card either
            bare = all("行動として読める語がありません" in p.message for p in exc.problems)
        if bare:
            return plot  # （→）（→）（弱強）: every card is in brackets — the brackets are the plot, no gloss
        restated = self._restated_brackets(text, plot_mod, words)
        if restated is not None:
            return restated
        for m in re.finditer(r"[（(]([^（()）\n]+)[）)]", text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            meant = _MEANT.fullmatch(m.group(1))
            said = meant.group(1) if meant else m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            column = m.start() - line_start + 1
            if not meant and (before_word := self._gloss_of_next(text, m, line_start, plot_mod, words)) is not None:
                text, read = before_word  # the bracket blanked: the brackets after it are read without it
                plot = plot_mod.Plot(read.items, (*read.notes, *notes))
                notes.append(Problem("は直後の語の説明として読みました（カードは出しません）。", line=line, column=column,
                                     text=m.group(0)))
                continue
            if not text[line_start : m.start()].strip() and not (meant and line_start and text[:line_start].strip()):
                continue  # a bracket that opens its line is no gloss of anything — unless it says what the plot above is meant as
            try:
                inside = plot_mod.parse_plot(said, words)
                blanked = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end():]
                without = plot_mod.parse_plot(blanked, words)
                ahead = plot_mod.parse_plot(text[: m.start()], words)
            except OrderError:
                continue
            if not inside.cards or not ahead.cards or inside.notes:
                continue  # （投げ狙いです）: a remark that says more than cards
            text = blanked  # 1枚目：前進（→）\n2枚目：前進（→）: the next bracket is read without this one
            if ahead.cards[-len(inside.cards):] == inside.cards:
                if plot.cards != without.cards:  # the gloss was read as cards: read without it
                    plot = plot_mod.Plot(without.items, (*without.notes, *notes))
                if not any(isinstance(i, plot_mod.Split) for i in inside.items):
                    plot = _joined_as_glossed(plot, len(inside.cards), plot_mod)
                notes.append(Problem("は直前の行動の説明として読みました（カードは出しません）。", line=line, column=column,
                                     text=m.group(0)))
            else:
                notes.append(Problem(f"のカード（{''.join(inside.cards)}）は読みませんでした：括弧の前の行動（{''.join(ahead.cards)}）と違います。",
                                     line=line, column=column, text=m.group(0), severity="warning",
                                     hint="括弧の中のカードのつもりなら、括弧を外して書いてください。"))
                if plot.cards != without.cards:
                    plot = plot_mod.Plot(without.items, without.notes)
        if not notes:
            return plot
        kept = [n for n in plot.notes if not (n.text and any(n.text == g.text or n.text in g.text for g in notes))]
        return plot_mod.Plot(plot.items, tuple(sorted((*kept, *notes), key=lambda p: (p.line or 0, p.column or 0))))

    @staticmethod
    def _restated_brackets(text: str, plot_mod: Any, words: Any) -> Any:
        """``左から順に（→）（弱強）でお願いします。前進してから投げのつもりです。``: the cards in brackets
        are the plot (nothing outside them before the stop reads as a card), and a sentence after
        them makes exactly those cards — it says the plot again in words (→弱強 had been read as
        more cards, →→弱強): the brackets' plot, the sentence noted. Other cards are read as before."""
        for stop in re.finditer(r"[。\n]", text):
            head, tail = text[: stop.end()], text[stop.end():]
            if not tail.strip() or not re.search(r"[（(][^（()）\n]+[）)]", head) or re.search(r"[（(）)]", tail):
                continue
            outside = re.sub(r"[（(][^（()）\n]*[）)]", lambda b: " " * len(b.group()), head)
            try:
                if plot_mod.parse_plot(outside, words).cards:
                    continue
            except OrderError as exc:
                if not all("行動として読める語がありません" in p.message for p in exc.problems):
                    continue
            try:
                first = plot_mod.parse_plot(head + " " * len(tail), words)
                again = plot_mod.parse_plot(tail, words)
            except OrderError:
                continue
            if not first.cards or first.cards != again.cards:
                continue
            at = stop.end() + len(tail) - len(tail.lstrip())
            line = text.count("\n", 0, at) + 1
            column = at - (text.rfind("\n", 0, at) + 1) + 1
            note = Problem(f"は括弧のカード（{''.join(first.cards)}）を言葉で言い直した文として読みました（カードは出しません）。",
                           line=line, column=column, text=tail.strip().split("\n")[0])
            return plot_mod.Plot(first.items, tuple(sorted((*first.notes, note), key=lambda p: (p.line or 0, p.column or 0))))
        return None

    @staticmethod
    def _gloss_of_next(text: str, m: Any, line_start: int, plot_mod: Any, words: Any) -> Any:
        """（→）前進: the bracket ``m`` holds the cards of the word written right after it, and is
        no gloss of the plot before it (its cards are not that plot's last) — the text with the
        bracket blanked and the plot read from it; None otherwise (a cancel's discards, C(弱←)弱←,
        are never a gloss)."""
        if re.search(r"(?:[cCＣ]|キャンセル|cancel)\s*$", text[line_start:m.start()], re.I):
            return None
        after = re.match(r"[^\s、,，。.．/／・;；（()）「」【】]+", text[m.end():])
        if after is None:
            return None
        try:
            inside = plot_mod.parse_plot(m.group(1), words)
            word = plot_mod.parse_plot(after.group(), words)
        except OrderError:
            return None
        if not inside.cards or inside.notes or word.cards != inside.cards:
            return None
        try:  # the plot before the bracket already ends with its cards: the gloss of that plot (as before)
            ahead = plot_mod.parse_plot(text[: m.start()], words) if text[line_start:m.start()].strip() else None
        except OrderError:
            ahead = None
        if ahead is not None and ahead.cards and ahead.cards[-len(inside.cards):] == inside.cards:
            return None
        blanked = text[: m.start()] + " " * (m.end() - m.start()) + text[m.end():]
        try:
            return blanked, plot_mod.parse_plot(blanked, words)
        except OrderError:
            return None

    @staticmethod
    def _charged(fighter: dict[str, Any], ctx: Context) -> str:
        """The name (from data) of the technique a fighter is charging (強攻撃 in the bundled data)."""
        character = ctx.data.characters.get(fighter.get("character"))
        if character is not None:
            try:
                return character.technique(fighter["charging"]).name
            except PbfError:  # a state naming a technique the data lacks: its id, as written
                pass
        return str(fighter["charging"])

    def _restated(self, text: str, plot_mod: Any, ctx: Context, character: Any, limit: int) -> Any:
        """A plot too long for the turn whose first part alone is a whole plot, the rest a remark
        about it (a later line, ``←投げ``, ``（前進投げ）``): read as the first part, with a note —
        the longer reading cannot be played, so it is the one reading left. None otherwise."""
        cuts = []
        for m in re.finditer(r"\n|\s[←<⬅]|[（(]", text):
            if not text[: m.start()].strip():
                continue
            if m.group() in "（(":  # a remark in brackets only when nothing but its line's end follows it
                close = text.find("）" if m.group() == "（" else ")", m.end())
                line_end = text.find("\n", m.end())
                after = text[close + 1 : line_end if line_end >= 0 else len(text)] if close >= 0 else "x"
                if after.strip(" \t\u3000。！!？?ｗw笑"):
                    continue
            cuts.append(m.start())
        # the longest first part that is a whole plot (→ ← 強\n（蓮華掌！）: the remark is the line after,
        # not the spaced ← of the plot itself)
        first = cut = None
        for at in reversed(cuts):
            try:
                tried = plot_mod.parse_plot(text[:at], _lexicon().lexicon(ctx.data, character) if character else None)
            except OrderError:
                continue
            kept = [i for i in tried.items if isinstance(i, plot_mod.Card)]
            if kept and len(kept) <= limit:
                first, cut = tried, at
                break
        if first is None or cut is None:
            return None
        rest = text[cut:].strip()
        line = text.count("\n", 0, cut + (len(text[cut:]) - len(text[cut:].lstrip()))) + 1
        column = cut - (text.rfind("\n", 0, cut) + 1) + 1 if "\n" not in text[cut:cut + 1] else 1
        note = Problem(f"は行動の説明として読みませんでした（カードとして読むと{limit}枚を超えます）。", line=line,
                       column=column, text=rest.split("\n")[0])
        return plot_mod.Plot(first.items, (*first.notes, note))

    def _others_named_alone(self, plot: Any, character: Any, ctx: Context) -> None:
        """``【行動】弱\n旋風脚`` written by 美鈴: a line passed over as chat that is nothing but a
        technique of another character (with a request's words after it: で, をお願いします, ！) names
        a move the player means to play — and cannot, it is not their character's: refused, saying
        whose it is and its cards (as on the order line). A line that says more (相手の旋風脚が怖い, 旋風脚で落とす)
        stays talk."""
        own = {name for tech in character.techniques for name in (tech.name, *tech.readings)}
        for note in plot.notes:
            if note.message != "は雑談として読みませんでした。" or not note.text:
                continue
            m = _ALONE.fullmatch(note.text.strip())
            if m is None or m.group(1) in own:
                continue
            problem = self._other_technique(Problem("カードとして読めない語です。", line=note.line, column=note.column,
                                                    text=m.group(1)), character, ctx)
            if problem.hint is not None:
                raise OrderError([problem])

    def _other_technique(self, problem: Problem, character: Any, ctx: Context) -> Problem:
        """An unreadable word that is another character's technique: say whose, and its cards."""
        for other in ctx.data.characters.values():
            if character is None or other.id == character.id:
                continue
            for tech in other.techniques[len(ctx.data.common):]:
                if problem.text and problem.text.strip() in (tech.name, *tech.readings):
                    return replace(problem, hint=f"{tech.name}は{other.name}の技です（{character.name}にはありません）。"
                                                 f"同じカードを出すなら「{tech.command}」と書いてください。")
        return problem

    def canonical_order(self, order: Plot) -> str:
        return order.canonical()

    # -- resolver ----------------------------------------------------------------------------
    def resolve(self, state: dict[str, Any], orders: dict[str, Any], dice: Dice, ctx: Context):
        if not self.default_options.keys() <= ctx.options.keys():  # a context made without the defaults
            ctx = replace(ctx, options={**self.default_options, **ctx.options})
        return _resolver().resolve(state, orders, dice, ctx)

    # -- views -------------------------------------------------------------------------------
    def summary(self, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        fighters = {}
        for name, f in state["fighters"].items():
            character = ctx.data.characters.get(f["character"])
            charging = None
            if f.get("charging") and character is not None:
                charging = character.technique(f["charging"]).name
            fighters[name] = {
                "character": f["character"],
                "name": character.name if character else f["character"],
                "hp": f["hp"],
                "alive": f["hp"] > 0,
                "soul": f["soul"],
                "hand": list(f.get("hand") or []),
                "locked": is_locked(f),
                "hand_size": len(f.get("hand") or []),
                "deck_size": len(f.get("deck") or []),
                "stance": bool(f.get("stance")),
                "charging": charging,
            }
        from ...npc import mark_npcs

        return mark_npcs({
            "system": self.name,
            "turn": state["turn"],
            "distance": state["distance"],
            "winner": state.get("winner"),
            "fighters": fighters,
        }, ctx)  # an NPC's level word under "npc" (pbf show, the posts)

    def order_view(self, order: Plot, player: str, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        from .reading import CancelMark, read_plot

        opts = {**self.default_options, **ctx.options}
        fighter = state["fighters"][player]
        character = ctx.data.characters[ctx.players[player].character]
        techniques = []
        void = False
        void_after = None  # the technique after which the rest of the plot is void
        skipped = False  # the technique right after a cancel marker is skipped when the cancel works
        ender = None  # that technique (強攻撃, 投げ, an ends_plot technique of the data)
        for item in read_plot(order, character):
            if isinstance(item, CancelMark):
                techniques.append(
                    {"cancel": True, "discards": "".join(item.discards), "cost": CANCEL_COST, "void": void,
                     "void_after": void_after, "line": item.line, "column": item.column}
                )
                skipped = True
                continue
            tech = item.technique
            techniques.append(
                {
                    "cancel": False,
                    "id": tech.id,
                    "name": tech.name,
                    "cards": item.cards,
                    "class": tech.cls,
                    "class_name": ctx.data.classes.get(tech.cls, tech.cls),
                    "kind_id": tech.kind,
                    "kind": ctx.data.matchups.kinds.get(tech.kind, "移動技"),
                    "reach": tech.reach,
                    "damage": tech.damage,
                    "cost": SUPER_COST if tech.cls == "super" else 0,
                    "charge": tech.charge,
                    "ends_plot": tech.ends_plot,
                    "void": void,
                    "void_after": void_after,
                    "skipped": skipped and not void,
                    "split": item.split,
                    "line": item.line,
                    "column": item.column,
                }
            )
            if (tech.charge or tech.ends_plot) and not skipped and not void:
                void, void_after, ender = True, tech.name, tech
            skipped = False
        lock = "stance" if fighter.get("stance") else ("charging" if fighter.get("charging") else None)
        return {
            "player": player,
            "character": character.id,
            "character_name": character.name,
            "order": order.canonical(),
            "cards": len(order.cards),
            "techniques": techniques,
            "empty": not order.items,
            "locked": lock is not None,
            "lock_reason": lock,
            "charging": self._charged(fighter, ctx) if lock == "charging" else None,
            "hands": opts["hands"],
            "hand": list(fighter.get("hand") or []),
            "soul": fighter["soul"],
            "distance": state["distance"],
            "warnings": self._warnings(techniques, ender, opts),
        }

    def _warnings(self, techniques: list[dict[str, Any]], ender: Any, opts: dict[str, Any]) -> list[dict[str, Any]]:
        """What the order will cost that the player may not mean (``pbf check``'s ※注意, worded by
        ``templates/alterego/warning.j2``):

        * ``void_after``: cards after a technique that ends the plot (強攻撃 charges, 投げ and the
          data's ``ends_plot`` techniques: 「以降全て無効」). They are void, and with hands they are
          played from the hand all the same: discarded at the end of the turn, spent for nothing."""
        if ender is None:
            return []
        voided = [t for t in techniques if t["void"] and not t["cancel"]]
        if not voided:
            return []
        cards = "".join(t["cards"] for t in voided)
        return [{
            "kind": "void_after",
            "technique": ender.name,
            "reason": "charge" if ender.charge else "ends_plot",
            "techniques": [t["name"] for t in voided],
            "cards": cards,
            "count": len(cards),
            "spent": opts["hands"] != "free",  # played from the hand: discarded with the rest
        }]

    def order_data(self, order: Plot, player: str, state: dict[str, Any], ctx: Context,
                   place: Any = None) -> dict[str, Any]:
        """The order as plain data (``pbf check --json``, docs/check.md): the cards, and each
        technique (or cancel marker) as read, left to right, with where it starts. ``place(line,
        column)`` gives a position of the order text where the player's text has it."""
        view = self.order_view(order, player, state, ctx)
        out = []
        for t in view["techniques"]:
            line, column = place(t["line"], t["column"]) if place else (t["line"], t["column"])
            if t["cancel"]:
                out.append({"cancel": True, "discards": list(t["discards"]), "cost": t["cost"], "void": t["void"],
                            "line": line, "column": column})
                continue
            out.append({
                "name": t["name"], "cards": t["cards"], "line": line, "column": column, "cancel": False,
                "id": t["id"], "class": t["class"], "kind": t["kind_id"], "reach": t["reach"], "damage": t["damage"],
                "cost": t["cost"], "charge": t["charge"], "ends_plot": t["ends_plot"], "void": t["void"],
                "skipped": t["skipped"], "split": t["split"],
            })
        return {"cards": list(order.cards), "techniques": out}

    def notices(self, state: dict[str, Any], ctx: Context) -> dict[str, dict[str, Any]]:
        opts = {**self.default_options, **ctx.options}
        if opts["hands"] == "free":
            return {}  # nothing is private without hands
        summary = self.summary(state, ctx)
        out = {}
        for name in ctx.players:
            f = summary["fighters"][name]
            out[name] = {
                "character_name": f["name"],
                "hand": f["hand"],
                "hand_size": f["hand_size"],
                "deck_size": f["deck_size"],
                "hp": f["hp"],
                "soul": f["soul"],
                "locked": f["locked"],
                "stance": f["stance"],
                "charging": f["charging"],
                "distance": summary["distance"],
                "next_turn": summary["turn"] + 1,
                "winner": summary["winner"],
                "techniques": self.technique_rows(self._character(state, name, ctx).techniques, ctx),
            }
        return out

    def _character(self, state: dict[str, Any], name: str, ctx: Context) -> Any:
        return ctx.data.characters[state["fighters"][name]["character"]]

    def opening(self, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        """The opening post's player section: each fighter's techniques (public data)."""
        common = ctx.data.common
        own = {}
        for name, f in state["fighters"].items():
            character = ctx.data.characters.get(f["character"])
            own[name] = self.technique_rows(character.techniques[len(common):] if character else (), ctx)
        return {"common": self.technique_rows(common, ctx), "own": own}

    def technique_rows(self, techniques: Any, ctx: Context) -> list[dict[str, Any]]:
        """What a fighter can do (for the notice and the opening): cards → technique, kind, reach, damage.

        Built once per techniques and data: the same list each time (never changed), which the
        notice writes once (``once`` in pbf/render.py). Both objects are kept with the rows, so
        that their ids cannot be reused while the entry lives."""
        key = (id(techniques), id(ctx.data))
        kept = _ROWS.get(key)
        if kept is not None and kept[0] is techniques and kept[1] is ctx.data:
            return kept[2]
        rows = [
            {"name": t.name, "cards": t.command, "class": t.cls, "class_name": ctx.data.classes.get(t.cls, t.cls),
             "kind": ctx.data.matchups.kinds.get(t.kind, "移動技"), "reach": t.reach, "damage": t.damage,
             "cost": SUPER_COST if t.cls == "super" else 0}
            for t in techniques
        ]
        if len(_ROWS) >= 64:
            _ROWS.clear()
        _ROWS[key] = (techniques, ctx.data, rows)
        return rows

    def public_order_view(self, order: Plot, player: str, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        """How an order reads, for the thread (receipts): with private hands, no hand."""
        view = self.order_view(order, player, state, ctx)
        if view["hands"] == "private" and state.get("winner") is None:
            view["hand"] = None
        return view

    def public_summary(self, state: dict[str, Any], ctx: Context) -> dict[str, Any]:
        """The summary the thread may see: with private hands, no hand until the battle ends."""
        summary = self.summary(state, ctx)
        opts = {**self.default_options, **ctx.options}
        if opts["hands"] == "private" and summary["winner"] is None:
            for fighter in summary["fighters"].values():
                del fighter["hand"]
        return summary

    def template_filters(self) -> dict[str, Any]:
        from ...npc import npc_word

        return {"npc_word": npc_word}

    def catalogue(self, data: data_mod.GameData, options: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
        """``pbf list``: characters, the common techniques and the deck's cards (see catalogue.py)."""
        from .catalogue import catalogue

        return catalogue(data)


SYSTEM = AlterEgo()


def _shifted(item: Any, text: str, offset: int) -> Any:
    """An item read from ``text[offset:]``, placed where it is in ``text`` (line and column)."""
    from dataclasses import replace

    line = text.count("\n", 0, offset)
    if getattr(item, "line", None) is None or (line == 0 and not offset):
        return item
    start_col = offset - (text.rfind("\n", 0, offset) + 1)
    return replace(item, line=item.line + line, column=item.column + (start_col if item.line == 1 else 0))


_CARD = "[弱強←→↑]"
_AND = "[ \u3000]*(?:と|、|,|・)?[ \u3000]*"
# the two cards a cancel discards, said in words (キャンセル（弱と←を捨てます）, 弱と←を捨ててキャンセル)
_DISCARDS = [re.compile(p) for p in (
    rf"キャンセル[ \u3000]*[（(][ \u3000]*({_CARD}){_AND}({_CARD})[ \u3000]*を?[ \u3000]*捨て(?:ます|る|て)?[ \u3000]*[)）]",
    rf"({_CARD}){_AND}({_CARD})[ \u3000]*を[ \u3000]*捨てて[ \u3000]*キャンセル(?:して|し|を)?",
    rf"キャンセル[、, \u3000]*({_CARD}){_AND}({_CARD})[ \u3000]*を[ \u3000]*捨て(?:ます|る|て)",
)]


def _discards_said(text: str) -> tuple[str, list[Problem]]:
    """The cancel's two discards said in words, as the order language writes them (キャンセル(弱←)),
    the rest of the text where it was (the span is padded with spaces), with a note for each."""
    notes: list[Problem] = []
    for pattern in _DISCARDS:
        for m in list(pattern.finditer(text)):
            written = f"キャンセル({m.group(1)}{m.group(2)})"
            if len(written) > len(m.group()):
                continue
            line, column = position(text, m.start())
            notes.append(Problem(f"を「C({m.group(1)}{m.group(2)})」（{m.group(1)}と{m.group(2)}を捨てるキャンセル）と読みました。",
                                 line=line, column=column, text=m.group()))
            text = text[:m.start()] + written + " " * (len(m.group()) - len(written)) + text[m.end():]
    return text, notes


# が ー ど, よ わ よ わ: a phone's stray spaces, one between every kana — three kana or more, each alone
# talk passed over that says the plot is not all there (途中送信, 続きはあとで, >>20 の続き, sent early), that a
# card is wrong with no correction given (一枚目が違いました), that another plot is open (もしくは), or that the
# line goes on with the order (次に…, つきに with its dakuten dropped): never passed over in silence
_UNFINISHED = re.compile(r"途中送|途中で送|とちゅうそう|続きは?(?:あと|後|また|書|かく|今度)|つ[つづ]きあと|つ[つづ]きは?かく|の続き|続きです|"
                         r"sent (?:it )?(?:too )?early|hit send|to be continued|more (?:to come|later)|rest later", re.I)
_ALL_THERE = re.compile(r"これで全部|これで終わり|これで以上|全部です|以上です|that's all|that is all", re.I)
# 届かない！, …って当たらないじゃん (a line of its own, passed over as talk): the player says the plot above fails
_FAILS_SAID = re.compile(r"[\s\u3000…、あっ]*(?:って|て)?(?:届か|とどか|当たら|あたら|間に合わ|まにあわ)(?:ない|ねー|ねえ|ん)"
                         r"(?:じゃん|やん|じゃないか|じゃねーか|わ|な(?=[!！…]))?[ｗw]*(?:[!！…]|$)")
_NO_FIX = re.compile(r"違いました|違ってました|ちがいました|ちがってました|間違えました|まちがえました|wrong card|got (?:it|one) wrong", re.I)
_OPEN_CHOICE = re.compile(r"もしくは|または|あるいは|or else")
_GOES_ON_TALK = re.compile(r"[ \u3000]*(?:次に|つぎに|つきに|それから|そのあと|その後|続けて|つづけて|つつけて|あとは|最後に|さいごに|さいこに)")
_ADDED = re.compile(r"\b(?:add|plus|and) (?:one|another|1|two|2) more\b|\bone more\b|もう一[枚回つ発]|もう1[枚回発]|もういっ?[かこ]|追加", re.I)
_ONE_MORE = re.compile(r"\b(?:one|1|another) more (?P<word>[a-z]+)\b", re.I)
_AT_THE_END = re.compile(r"\bat the end\b|\bto the end\b|\blast\b", re.I)
_THEN_DECIDED = re.compile(r"(?:^|[、。 \u3000])(?:では|じゃあ|じゃ|それなら|なら|やっぱり|やっぱ|やはり)[、 \u3000]")
_MARKER_ONLY = re.compile(r"【[^】]*】|^[^:：\s]{1,6}[:：]")
_CHANGED = re.compile(r"(?:に|へ)(?:します|する|しました|変更します|変更|変えます|かえます)[。.!！ｗw笑]*$")


_FOOTNOTE = re.compile(r"[ \u3000]*※?[ \u3000]*注[ \u3000]*[：:]")  # 注：朧月（おぼろづき）: a translator's footnote line
_QUESTION = re.compile(r".*[?？][ \u3000ｗw笑wW]*")  # あれ、↑→って前ジャンプでいいんだよね？ｗ: a question to the GM
_CHANGES = re.compile(r"変更|変え|かえ|やっぱ|やはり|訂正|間違|まちが|じゃなく|ではなく|代わり|かわり|にします|にする")
_COUNT_SLIPS = {"参会": "三回", "参回": "三回"}  # さんかい (階 for 回 is read already, by the IME's 回)
_VOICE_STOP = re.compile(r"(?<=[^\s\u3000])[ \u3000]+(まる|マル)[ \u3000]*$", re.M)  # 投げ まる: voice input's 。 said


# これで飛び込み！ under the plot: a remark that points at the plot (これで, これなら, こんな感じで) and says what it is for
_POINTING = re.compile(r"[ \u3000]*(?:これで|これなら|これは|これが|それで|こんな感じ|こんなかんじ)")


def _asides_under(text: str, plot_mod: Any, lexicon: Any) -> tuple[Any, str] | None:
    """A plot refused for the words of a line under it, or for a slip of voice or IME input, read the way a GM
    reads it — only where the order's own line reads, and every change is said:
    a footnote line (注：…) or a question line (…？) under the plot is passed over, warned with the line (what
    it says of the plot is not read: a footnote or a question that changes the plot — 変更, やっぱり, にします —
    is left refused); so is a remark that points at the plot (これで飛び込み！), if the cards it names are the
    plot's (a remark naming other cards may add them: left refused); an IME's count 参会 (さんかい) is 三回, noted; voice input's まる (。) ending the
    order's line is passed over, noted. The plot and the text read (the lines passed over blanked), or None."""
    lines = text.split("\n")
    notes: list[Problem] = []
    restating: list[str] = []  # the cards a pointing remark names: the plot must hold them (これで飛び込み: ↑→ in ↑→弱)
    for k, line in enumerate(lines):
        if k == 0 or not line.strip():
            continue
        # a remark pointing at the plot above (これで飛び込み！): passed over as the footnote is, only where the
        # post was refused (これ is no card) and only if its own cards, if any, are the plot's (it says, not adds)
        pointing = _POINTING.match(line) if any(lines[j].strip() for j in range(k)) else None
        aside = _FOOTNOTE.match(line) or (_QUESTION.fullmatch(line) and not _FOOTNOTE.match(line)) or pointing
        if not aside or _CHANGES.search(line):
            continue
        if pointing and not _FOOTNOTE.match(line) and not _QUESTION.fullmatch(line):
            try:
                restating.append("".join(plot_mod.parse_plot(line[pointing.end():], lexicon).cards))
            except OrderError:
                restating.append("")
        what = "注釈" if _FOOTNOTE.match(line) else "質問" if _QUESTION.fullmatch(line) else "一言"
        notes.append(Problem(f"は行動の下の{what}として読みませんでした（行の中の語は行動に入れていません）。", line=k + 1, column=1,
                             text=line.strip(), severity="warning", hint="行動のつもりなら、行動の行に書いてください。"))
        lines[k] = ""
    for k, line in enumerate(lines):
        for slip, meant in _COUNT_SLIPS.items():
            at = line.find(slip)
            if at > 0 and not line[at - 1].isspace():
                lines[k] = line = line[:at] + meant + line[at + len(slip):]
                notes.append(Problem(f"を「{meant}」と読みました（変換の誤りとして）。", line=k + 1, column=at + 1, text=slip))
        m = _VOICE_STOP.search(line)
        if m is not None:
            lines[k] = line[:m.start()] + " " * (m.end() - m.start())
            notes.append(Problem("を音声入力の句点（。）として読みませんでした。", line=k + 1, column=m.start(1) + 1, text=m.group(1)))
    if not notes:
        return None
    try:
        plot = plot_mod.parse_plot("\n".join(lines), lexicon)
    except OrderError:
        return None
    if not any(isinstance(i, plot_mod.Card) for i in plot.items):
        return None
    symbols = "".join(plot.cards)
    if any(said not in symbols for said in restating):
        return None  # これで前進: the remark names a card the plot has not — it may add it; left refused
    return plot_mod.Plot(plot.items, (*plot.notes, *notes)), "\n".join(lines)


def _left_open(plot: Any, plot_mod: Any, corrected: list[Problem], text: str = "", lexicon: Any = None) -> Any:
    """A line of talk passed over as no part of the plot may still say the plot is not what is written:
    the post was sent mid-way (its rest comes later, or it is the rest of another post), a card is said to be
    wrong with no correction, another plot is left open, or cards are added (one more light at the end) —
    read as written, warned, naming what was said. A line that goes on with the order (つきに しやんふ) and a
    line that changes it (では、ジャンプにします) under the plot are refused: which cards were meant is not
    written on the order's line, and reading the line's words as cards would be a guess."""
    added: list[Problem] = []
    lines = text.split("\n")
    for k, line in enumerate(lines):  # 強攻撃にはガードは負けるのですね。では、ジャンプにします: the plot changed, under it
        m = _THEN_DECIDED.search(line)
        if k and m and _CHANGED.search(line) and any(_MARKER_ONLY.sub("", before).strip() for before in lines[:k]):
            raise OrderError([Problem("は行動を変えると言っているようです（前の行の行動と、この行のどちらなのか分かりません）。",
                                      line=k + 1, column=1, text=line.strip(), hint="出す行動だけを書き直してください。")])
    for note in plot.notes:
        said = (note.text or "").strip()
        if not said or "読みませんでした" not in note.message:
            continue
        more = _ONE_MORE.search(said)
        if more is not None and _AT_THE_END.search(said) and lexicon is not None:
            try:
                card = [i for i in plot_mod.parse_plot(more.group("word"), lexicon).items if isinstance(i, plot_mod.Card)]
            except OrderError:
                card = []
            if len(card) == 1:  # add one more light at the end: the card said, after the plot's
                items = [*plot.items, plot_mod.Card(card[0].symbol, note.line, note.column, more.group("word"))]
                added.append(Problem(f"を、最後に「{more.group('word')}」（{card[0].symbol}）を足すと読みました。",
                                     line=note.line, column=note.column, text=said, severity="warning",
                                     hint="足さないなら、行動を書き直してください。"))
                plot = plot_mod.Plot(tuple(items), tuple(n for n in plot.notes if n is not note))
                continue
        if _UNFINISHED.search(said) and not _ALL_THERE.search(said) and not re.search(
                r"^[ \u3000]*(?:続き|つづき|続)[ \u3000:：]", text[text.find(said) + len(said):] if said in text else "", re.M):
            added.append(Problem("は投稿が途中か、別の投稿の続きだと言っています（書かれたカードだけを読みました）。",
                                 line=note.line, column=note.column, text=said, severity="warning",
                                 hint="続きがあるなら、行動の全部を一つの投稿に書き直してください。"))
        elif not corrected and _FAILS_SAID.match(said):
            # 届かない！ under the plot with no plot after it: the player says the plot fails — read as written, warned
            added.append(Problem("は行動が届かない（当たらない）と言っていますが、直した行動が書かれていません（書かれたとおりに読みました）。",
                                 line=note.line, column=note.column, text=said, severity="warning",
                                 hint="行動を変えるなら、書き直してください。"))
        elif _NO_FIX.search(said) and not corrected:
            added.append(Problem("はカードが違うと言っていますが、正しいカードが書かれていません（書かれたとおりに読みました）。",
                                 line=note.line, column=note.column, text=said, severity="warning",
                                 hint="正しい行動を書き直してください。"))
        elif _OPEN_CHOICE.search(said):
            added.append(Problem("は別の行動も選べると言っています（書かれた行動だけを読みました）。",
                                 line=note.line, column=note.column, text=said, severity="warning",
                                 hint="出す行動を一つに決めて書いてください。"))
        elif _ADDED.search(said):
            added.append(Problem("はカードを足すと言っていますが、行動には入れていません（書かれたとおりに読みました）。",
                                 line=note.line, column=note.column, text=said, severity="warning",
                                 hint="足すカードも行動の行に書き直してください。"))
        elif note.line > 1 and _GOES_ON_TALK.match(said):
            rest = said[_GOES_ON_TALK.match(said).end():]
            try:
                going = plot_mod.parse_plot(rest, lexicon) if lexicon is not None and rest.strip() else None
            except OrderError:
                going = None
            cards = [i for i in going.items if isinstance(i, plot_mod.Card)] if going is not None else []
            if cards and len(cards) == len(going.items):  # つきに しやんふ: 次に and its cards, the order's next line
                shift = note.column - 1 + _GOES_ON_TALK.match(said).end()
                items = [*plot.items, *(replace(c, line=note.line, column=c.column + shift) for c in cards)]
                added.append(Problem(f"を行動の続きとして読みました（{''.join(c.symbol for c in cards)}）。",
                                     line=note.line, column=note.column, text=said, severity="warning",
                                     hint="続きでなければ、行動を書き直してください。"))
                plot = plot_mod.Plot(tuple(items), (*(n for n in plot.notes if n is not note), *(replace(n, line=note.line, column=(n.column or 1) + shift) for n in going.notes)))
                continue
            raise OrderError([Problem("は行動の続きのようですが、カードとして読めませんでした（前の行だけを行動として読むと、続きが抜けます）。",
                                      line=note.line, column=note.column, text=said,
                                      hint="行動を一つの行に続けて書いてください。")])
        elif note.line > 1 and "行動に入れていません" in note.message and _CHANGED.search(said):
            raise OrderError([Problem("は行動を変えると言っているようです（前の行の行動と、この行のどちらなのか分かりません）。",
                                      line=note.line, column=note.column, text=said,
                                      hint="出す行動だけを書き直してください。")])
    if not added:
        return plot
    return plot_mod.Plot(plot.items, (*plot.notes, *added))


# the post's last words say more is to come: ぜんしんして、 (a phone's post sent mid-way), 弱、そのあと, 前進してから
_BROKEN_OFF = re.compile(r"(?:(?:して|って|んで|て|で|から)[、,，]+|(?:してから|そのあと|その後|それから|次に|つぎに"
                         r"|続けて|つづけて|最後に|さいごに|(?<![a-z])then)[、,，]*)[ \u3000]*$")


def _broken_off(plot: Any, plot_mod: Any, text: str) -> Any:
    """``【行動】ぜんしんして、``: a post that ends on a word that goes on (a て form and its comma, そのあと,
    次に, then) ends mid-way — sent too early, or the rest is to come. A GM asks; the cards written are read,
    warned (it had been read → with nothing said). A word that ends a request (ガードで, ガードして) is no
    break: only with its comma, or a word of sequence that always has something after it."""
    m = _BROKEN_OFF.search(text.rstrip())
    if m is None or not plot.cards or not text[:m.start()].strip():
        return plot
    line, column = position(text, m.start())
    note = Problem("で投稿が終わっています（続きが書かれていないようです。書かれたカードだけを読みました）。",
                   line=line, column=column, text=m.group().strip(), severity="warning",
                   hint="続きがあるなら、行動の全部を書き直してください。")
    return plot_mod.Plot(plot.items, (*plot.notes, note))


_SPACED_KANA = re.compile(r"(?<![^\s\u3000】：:、,])(?:[ぁ-ゖァ-ヺー][ \u3000]){2,}[ぁ-ゖァ-ヺー](?![^\s\u3000、,。!！?？])")


# s/→/←/ (sed's substitution, as a programmer corrects a message in chat): a line of its own under the plot
_SED = re.compile(r"^[ \u3000]*s/(?P<old>[^/\n]+)/(?P<new>[^/\n]*)/(?P<g>g?)[ \u3000]*$", re.M)


def _substituted(text: str, plot_mod: Any, words: Any) -> tuple[str, list[Problem]]:
    """``【行動】弱→弱強\ns/→/←/``: a line ``s/old/new/`` under the plot says, as sed would do it, that ``old``
    above is ``new`` — a chat's correction (it was refused: 「s」カードとして読めない語). The plot above with
    ``old`` replaced is read, warned, the line blanked. ``old`` must be written once above (or the ``g`` flag
    said: every one), and the plot above and the replaced one must read; otherwise the line is refused —
    which one was meant is not written."""
    m = _SED.search(text)
    above = text[:m.start()].rstrip("\n")
    if not above.strip() or "\n" in text[m.end():].strip():
        return text, []
    old, new = m.group("old"), m.group("new")
    line = text.count("\n", 0, m.start()) + 1
    shown = m.group().strip()
    count = above.count(old)
    try:
        plot_mod.parse_plot(above, words)
    except OrderError:
        return text, []
    if count == 1 or (count > 1 and m.group("g")):
        amended = above.replace(old, new) + text[len(above):m.start()] + " " * (m.end() - m.start()) + text[m.end():]
        try:
            if plot_mod.parse_plot(amended, words).cards:
                return amended, [Problem(f"を行動の直しとして読みました（前の行の「{old}」を「{new}」に置き換えました）。",
                                         line=line, column=1, text=shown, severity="warning",
                                         hint="直した行動だけを書き直すと確実です。")]
        except OrderError:
            pass
    why = "前の行にありません" if not count else ("前の行に二つ以上あります" if count > 1 else "置き換えると行動として読めません")
    raise OrderError([Problem(f"は行動の置き換えのようですが、「{old}」が{why}。", line=line, column=1, text=shown,
                              hint="出す行動だけを書き直してください。")])


# a line under the plot that is one word and a reason, its result talk: 歩きなので短くてすまん (walking, so the
# post is short), 移動中なので雑ですみません
_REASON_LINE = re.compile(r"[ \u3000]*(?P<why>[^\s、,，。!！?？「」]{1,8}?)な?ので[、,，\s\u3000]*(?P<rest>.*)")


def _reason_under(plot: Any, text: str, plot_mod: Any, words: Any) -> tuple[Any, str]:
    """``【行動】ｼﾞｬﾝﾌﾟ\n歩きなので短くてすまん``: a line under the plot that says why of the post, not of the
    order — one word, (な)ので, then words that read as no card at all — is talk, and the word before ので
    with it (歩き is 前進 by its verb, but here it is the player walking): the plot is read without the
    line, warned (it had been read ↑|→). A line whose part after ので reads as cards is the plot after
    its reason (``_explained``), and is not touched; so is a line with no card before ので."""
    lines = text.split("\n")
    at = 0
    for k, line in enumerate(lines):
        start, at = at, at + len(line) + 1
        if not k:
            continue
        m = _REASON_LINE.fullmatch(line)
        if m is None or not m.group("rest").strip():
            continue
        try:
            if plot_mod.parse_plot(m.group("rest"), words).items:
                continue  # …ので、前進します: a plot after its reason
        except OrderError:
            pass
        why = m.group("why")
        named = words.match(plot_mod.fold(why), 0) if hasattr(words, "match") else None
        if named is not None and named[0] == len(why) and named[1].shown == why:
            continue  # ガードなので…: the card by its own name is the card the reason is about — not passed over
        try:
            if not plot_mod.parse_plot(why, words).cards:
                continue
            if not plot_mod.parse_plot(text[:start - 1], words).cards:
                continue
            kept = text[:start] + " " * len(line) + text[start + len(line):]
            read = plot_mod.parse_plot(kept, words)
        except OrderError:
            continue
        if not read.cards:
            continue
        note = Problem(f"は理由を言う文として読みませんでした（「{m.group('why')}」はカードに入れていません）。",
                       line=k + 1, column=1, text=line.strip(), severity="warning",
                       hint=f"「{m.group('why')}」もカードなら、行動の行に書いてください。")
        return plot_mod.Plot(read.items, (*read.notes, note)), kept
    return plot, text


def _kana_apart(text: str, plot_mod: Any, words: Any) -> tuple[str, list[Problem]]:
    """``【行動】が ー ど``, ``よ わ よ わ``: kana each alone between spaces (three or more in a row)
    are one word typed with a space after every kana — read joined (the spaces moved to the run's
    end, so that what follows keeps its column), with a note, when the joined text reads as a plot;
    as written otherwise. A word of kana is never one kana, so no reading is lost."""
    notes: list[Problem] = []
    joined = text
    for m in reversed(list(_SPACED_KANA.finditer(text))):
        run = m.group()
        word = re.sub(r"[ \u3000]", "", run)
        joined = joined[:m.start()] + word + " " * (len(run) - len(word)) + joined[m.end():]
        line, column = position(text, m.start())
        notes.insert(0, Problem(f"を、字の間の空白を詰めて「{word}」と読みました。", line=line, column=column, text=run))
    try:
        plot_mod.parse_plot(joined, words)
    except OrderError:
        return text, []
    return joined, notes


# a line that is one name and a request's words (旋風脚でお願いします, 旋風脚！)
_ALONE = re.compile(r"([^\s、,。!！?？ｗw]+?)(?:で|を)?(?:お願いします|おねがいします|お願い|です|します|でいきます|で|！|!|ｗ|w|…|。|[ \u3000])*")


# a bracket that says what the plot above is meant as: （朧月のつもり）, （投げのつもりです）
# a later line that says the order above is a mistake: 間違え増した（an IME's ました）、まちがい、訂正; 前進は無しで
# …って届かないじゃん！ (the plot above will not reach, said as one realises it: a correction too — the
# plot after it is the order); only with an ending of realisation (じゃん, ！, …), never 届かないなら (a condition)
_AMENDS = re.compile(r"(?P<word>(?:間違|まちが)[えい][^\s、,，。!！]*|訂正[^\s、,，。!！]*"
                     r"|(?P<fails>(?:って|て)?(?:届か|とどか|当たら|あたら|間に合わ|まにあわ)(?:ない|ねー|ねえ|ん)"
                     r"(?:じゃん|やん|じゃないか|じゃねーか|わ|な(?=[!！…]))?[ｗw]*[!！…]+))"
                     r"|(?=[^\s、,，。]+?(?:は|を)?(?:無し|なし|ナシ|抜き|ぬき)で)")
_AMEND_BEFORE = re.compile(r"[\s\u3000↑^⬆あっ、,，.。…!！]*")


def _blanked(text: str, keep_from: int, keep_to: int) -> str:
    """``text`` with every character outside ``[keep_from, keep_to)`` a space, its line breaks kept."""
    return "".join(ch if keep_from <= k < keep_to or ch == "\n" else " " for k, ch in enumerate(text))


_MEANT = re.compile(r"\s*(.+?)\s*の?つもり(?:です)?[。!！]*\s*")


def _named_twice(plot: Any, plot_mod: Any, limit: int) -> Any:
    """A plot too long for the turn that names a technique and, against it, lists the words that
    make it (ガード、前進、強攻撃の順番で朧月を出します; 旋風脚を出したいです。前進、ジャンプ、弱攻撃の順番で): the
    same move said twice — read once, as the words list it (any ｜ between them taken out: the player
    named the technique), with a note. None when no such pair makes the plot fit."""
    items = list(plot.items)
    groups: list[list[int]] = []  # the indices of the cards of each word, left to right
    for index, item in enumerate(items):
        if not isinstance(item, plot_mod.Card):
            continue
        last = items[groups[-1][-1]] if groups else None
        if last is not None and (last.line, last.column) == (item.line, item.column):
            groups[-1].append(index)
        else:
            groups.append([index])
    total = sum(len(g) for g in groups)

    def symbols(gs: list[list[int]]) -> str:
        return "".join(items[i].symbol for g in gs for i in g)

    for at, group in enumerate(groups):
        named = symbols([group])
        if len(group) < 2 or total - len(group) > limit:
            continue
        for before, side in ((True, groups[:at][::-1]), (False, groups[at + 1:])):
            run: list[list[int]] = []
            for g in side:
                run.append(g)
                if sum(len(r) for r in run) >= len(group):
                    break
            if before:
                run = run[::-1]
            if len(run) < 2 or symbols(run) != named:
                continue
            first, last = run[0][0], run[-1][-1]
            head = items[first]
            kept = [item for k, item in enumerate(items) if k not in group and not (
                first < k < last and isinstance(item, plot_mod.Split))]
            notes = tuple(n for n in plot.notes if not (n.severity == "warning" and (n.line, n.column) == (head.line, head.column)))
            word = items[group[0]]
            note = Problem(f"は並べて書いたカード（{named}）の技の名前として読みました（カードは出しません）。",
                           line=word.line, column=word.column, text=word.text)
            return plot_mod.Plot(tuple(kept), (*notes, note))
    return None


def _joined_as_glossed(plot: Any, count: int, plot_mod: Any) -> Any:
    """The plot's last ``count`` cards read as the one technique a gloss names (ガード、前進、強攻撃
    （朧月）: the ｜ its words apart put in is taken out), and the warning that offered that reading
    dropped: the player said it."""
    items = list(plot.items)
    seen, start = 0, len(items)
    for index in range(len(items) - 1, -1, -1):
        if isinstance(items[index], plot_mod.Card):
            seen += 1
            if seen == count:
                start = index
                break
    if seen < count or not any(isinstance(i, plot_mod.Split) for i in items[start:]):
        return plot
    first = items[start]  # the warning that named the words apart is at the first of them
    items = items[:start] + [i for i in items[start:] if not isinstance(i, plot_mod.Split)]
    notes = tuple(n for n in plot.notes if not (n.severity == "warning" and (n.line, n.column) == (first.line, first.column)))
    return plot_mod.Plot(tuple(items), notes)
