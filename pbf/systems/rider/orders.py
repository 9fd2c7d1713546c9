"""Reading rider orders: lark grammar (grammar/rider.lark) -> typed order dataclasses.

The parser is LALR and built once per process. Free words are WORD tokens; the transformer
matches them (longest first) against the vocabulary below and the card data, so that an
unknown word keeps its position and gets the nearest known word as a suggestion.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from ...errors import OrderError, Problem, nearest
from ...resources import lark_parser
from .data import RiderData, norm

# -- the order objects ------------------------------------------------------------------

MOVES = ("closer", "away", "近", "中", "遠", "stay")
EVASION_POOLS = ("mobility", "defense", "attack")


@dataclass(frozen=True)
class PassiveRule:
    """A 受動 standing order: play ``card`` when ``condition`` matches the other side's action.

    condition: None (always), "attack" (the other side attacks at all) or a card id (the
    other side's 能動 card)."""

    card: str
    condition: str | None = None


@dataclass(frozen=True)
class RiderOrder:
    move: str = "stay"  # closer | away | 近 | 中 | 遠 | stay
    block: bool = True  # 阻止する (default) / 阻止しない
    card: str | None = None  # the 能動 card
    passive: tuple[PassiveRule, ...] = ()
    aim: int = 0  # 隙狙い N: defence points ignored
    hold: bool = False  # 攻撃しない
    super_evasion: int = 0  # 超回避 N: HP paid for +N evasion
    parry: bool = False  # 受け
    evasion: str | None = None  # 回避: mobility | defense | attack (None = the larger pool)
    targets: tuple[str, ...] = ()  # 攻撃: NAME, NAME (priority list; battles of three or more)
    cover: str | None = None  # 庇う NAME (battles of three or more)
    move_target: str | None = None  # 近寄る: NAME — the opponent of the movement contest (multi)
    event_final: str | None = None  # イベントファイナル: text
    canonical: str = field(default="", compare=False)  # set by parse() (names from the campaign's data)


# -- vocabulary -------------------------------------------------------------------------

PHRASES: dict[str, tuple[str, Any]] = {}


def _words(kind: str, value: Any, *spellings: str) -> None:
    for spelling in spellings:
        PHRASES[norm(spelling)] = (kind, value)


_words("move", "closer", "近寄る", "近づく", "接近", "接近する", "前進", "move closer", "closer", "approach", "advance")
_words("move", "away", "離れる", "遠ざかる", "後退", "move away", "away", "retreat", "back off")
_words("move", "近", "近へ", "近距離へ", "近に", "to near", "near", "move to near", "to close", "close")
_words("move", "中", "中へ", "中距離へ", "中に", "to mid", "mid", "move to mid", "to middle", "middle")
_words("move", "遠", "遠へ", "遠距離へ", "遠に", "to far", "far", "move to far")
_words("move", "stay", "留まる", "とどまる", "移動しない", "動かない", "stay", "hold position", "no move")
_words("block", True, "阻止する", "阻止", "block", "blocking")
_words("block", False, "阻止しない", "allow", "no block", "don't block", "do not block", "let pass")
_words("hold", True, "攻撃しない", "hold", "no attack", "don't attack", "do not attack", "hold attack")
_words("parry", True, "受け", "受ける", "parry")
_words("pool", "mobility", "運動性", "mobility", "agility")
_words("pool", "defense", "防御力", "defense", "defence", "guard")
_words("pool", "attack", "攻撃力", "attack")
_words("condition", "attack", "攻撃", "攻撃する", "攻撃された", "attack", "attacked", "any attack", "attacks")
_words("condition", None, "常に", "always", "any")

MOVE_WORDS = {"closer": "近寄る", "away": "離れる", "近": "近へ", "中": "中へ", "遠": "遠へ", "stay": "留まる"}
POOL_WORDS = {"mobility": "運動性", "defense": "防御力", "attack": "攻撃力"}


# -- normalisation that keeps positions ----------------------------------------------------

def normalise(text: str) -> tuple[str, list[int]]:
    """NFKC per character (a half-width kana with its sound mark as one), remembering for
    each output character the index of the input character it came from."""
    out: list[str] = []
    where: list[int] = []
    i = 0
    while i < len(text):
        j = i + 1
        while j < len(text) and (unicodedata.combining(text[j]) or text[j] in "\uff9e\uff9f"):
            j += 1
        piece = unicodedata.normalize("NFKC", text[i:j])
        out.append(piece)
        where.extend([i] * len(piece))
        i = j
    where.append(len(text))
    return "".join(out), where


def position(text: str, index: int) -> tuple[int, int]:
    """1-based (line, column) of ``index`` in ``text``."""
    before = text[:index]
    line = before.count("\n") + 1
    column = index - (before.rfind("\n") + 1) + 1
    return line, column


# -- the parser ----------------------------------------------------------------------------

@lru_cache(maxsize=1)
def parser() -> Lark:
    return lark_parser("rider", parser="lalr", lexer="contextual", maybe_placeholders=False)  # positions: from the tokens


@dataclass
class Clause:
    kind: str
    value: Any
    pos: int  # index in the normalised text
    text: str
    spots: tuple[int, ...] = ()  # targets: where each name was written


class _Clauses(list):
    """Several clauses from one piece of the order (近寄る: 名前 -> move + move_target)."""


# 名前に近寄る / 名前から離れる / 名前を庇う (one word: Japanese writes no spaces)
_SUFFIXES: list[tuple[str, str, Any]] = []
for _spelling in ("近寄る", "近づく", "接近する", "接近"):
    _SUFFIXES += [("に" + _spelling, "move", "closer"), ("へ" + _spelling, "move", "closer")]
for _spelling in ("離れる", "遠ざかる", "後退"):
    _SUFFIXES.append(("から" + _spelling, "move", "away"))
_SUFFIXES.append(("を庇う", "cover", None))
_SUFFIXES.sort(key=lambda s: -len(s[0]))


def _suffix_form(words: list[Token]) -> list[Clause] | None:
    if len(words) != 1:
        return None
    word = str(words[0])
    for suffix, kind, value in _SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix):
            name = word[: -len(suffix)]
            pos = words[0].start_pos
            if kind == "cover":
                return [Clause("cover", name, pos, word)]
            return [Clause("move", value, pos + len(name) + 1, suffix[1:] if suffix[0] in "にへ" else suffix[2:]),
                    Clause("move_target", name, pos, name)]
    return None


def _english_form(words: list[Token], data: RiderData) -> list[Clause] | None:
    """move closer to NAME / move away from NAME / to mid from NAME (a move phrase, to|from, a name)."""
    for k in range(1, len(words) - 1):
        if norm(str(words[k])) not in ("to", "from"):
            continue
        found = _lookup(norm(" ".join(str(w) for w in words[:k])), data, ("move",))
        if found is None:
            continue
        name = " ".join(str(w) for w in words[k + 1:])
        return [Clause("move", found[1], words[0].start_pos, " ".join(str(w) for w in words[:k])),
                Clause("move_target", name, words[k + 1].start_pos, name)]
    return None


class _Unknown(Exception):
    def __init__(self, token: Token, candidates: list[str], text: str | None = None):
        self.token = token
        self.candidates = candidates
        self.text = text if text is not None else str(token)


def _match_phrase(words: list[Token], data: RiderData, allowed: tuple[str, ...]) -> list[Clause]:
    """Split a run of words into known phrases, longest first."""
    out: list[Clause] = []
    starts: list[int] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            spelling = norm(" ".join(str(w) for w in words[i:j]))
            found = _lookup(spelling, data, allowed)
            if found is not None:
                out.append(Clause(found[0], found[1], words[i].start_pos, " ".join(str(w) for w in words[i:j])))
                starts.append(i)
                i = j
                break
        else:
            candidates = _candidates(data, allowed)
            if starts:  # "Sword Bent": blame the two words together when they read as one
                both = " ".join(str(w) for w in words[starts[-1] : i + 1])
                if nearest(norm(both), [norm(c) for c in candidates], cutoff=0.75):
                    raise _Unknown(words[starts[-1]], candidates, both)
            raise _Unknown(words[i], candidates)
    return out


def _lookup(spelling: str, data: RiderData, allowed: tuple[str, ...]) -> tuple[str, Any] | None:
    if "card" in allowed and spelling in data.card_words:
        return "card", data.card_words[spelling]
    found = PHRASES.get(spelling)
    if found is not None and found[0] in allowed:
        return found
    return None


def _candidates(data: RiderData, allowed: tuple[str, ...]) -> list[str]:
    words = [w for w, (kind, _) in PHRASES.items() if kind in allowed]
    if "card" in allowed:
        for card_id, card in data.cards.items():
            words.append(card.get("name", card_id))
            if card.get("english"):
                words.append(card["english"])
    return words


ORDER_KINDS = ("move", "block", "hold", "parry", "card")


@v_args(inline=True)
class _Transform(Transformer):
    """The parse tree -> clauses (kind, value, where)."""

    def __init__(self, data: RiderData):
        super().__init__()
        self.data = data

    def start(self, *clauses):
        """Top-level phrases (not under 受動 / 回避) are movement, blocking, cards, 受け, 攻撃しない."""
        out: list[Clause] = []
        for c in clauses:
            if isinstance(c, _Clauses):
                out.extend(c)
            elif isinstance(c, list):  # a top-level phrase: a run of WORD tokens
                special = _suffix_form(c) or _english_form(c, self.data)
                out.extend(special if special else _match_phrase(c, self.data, ORDER_KINDS))
            elif isinstance(c, Clause):
                out.append(c)
        return out

    def moving(self, words, name):
        found = _match_phrase(words, self.data, ("move",))
        if len(found) != 1:
            raise _Unknown(words[0], _candidates(self.data, ("move",)), " ".join(str(w) for w in words))
        return _Clauses([found[0], Clause("move_target", name[0], name[1], name[0])])

    def phrase(self, *words):
        return list(words)

    def name(self, *words):
        return (" ".join(str(w) for w in words), words[0].start_pos)

    def passive_always(self, kw, card):
        return Clause("passive", PassiveRule(self._card(card), None), kw.start_pos, str(kw))

    def passive_when(self, kw, condition, _nara, card):
        return Clause("passive", PassiveRule(self._card(card), self._condition(condition)), kw.start_pos, str(kw))

    def passive_if(self, kw, card, _if, condition):
        return Clause("passive", PassiveRule(self._card(card), self._condition(condition)), kw.start_pos, str(kw))

    def _card(self, words) -> str:
        found = _match_phrase(words, self.data, ("card",))
        if len(found) != 1:
            raise _Unknown(words[0], _candidates(self.data, ("card",)))
        return found[0].value

    def _condition(self, words):
        found = _match_phrase(words, self.data, ("card", "condition"))
        if len(found) != 1:
            raise _Unknown(words[0], _candidates(self.data, ("card", "condition")))
        return found[0].value

    def aim(self, kw, n):
        return Clause("aim", int(n), kw.start_pos, f"{kw} {n}")

    def super_evasion(self, kw, n):
        return Clause("super_evasion", int(n), kw.start_pos, f"{kw} {n}")

    def evasion_pool(self, kw, words):
        found = _match_phrase(words, self.data, ("pool",))
        if len(found) != 1:
            raise _Unknown(words[0], _candidates(self.data, ("pool",)))
        return Clause("evasion", found[0].value, kw.start_pos, str(kw))

    def event_final(self, kw, rest):
        # the span of the free text; read_clauses puts back the text as the player wrote it
        return Clause("event_final", (rest.start_pos, rest.end_pos), kw.start_pos, str(kw))

    def target(self, kw, *names):
        return Clause("targets", tuple(n for n, _ in names), kw.start_pos, str(kw), tuple(p for _, p in names))

    def cover(self, kw, name):
        return Clause("cover", name[0], name[1], str(kw))


def _problem(original: str, where: list[int], index: int, message: str, text: str | None, hint: str | None = None,
             player: str | None = None) -> Problem:
    line, column = position(original, where[min(index, len(where) - 1)])
    return Problem(message, player=player, line=line, column=column, text=text, hint=hint)


def read_clauses(text: str, data: RiderData, player: str | None = None) -> tuple[list[Clause], str, list[int]]:
    normalised, where = normalise(text)
    try:
        tree = parser().parse(normalised)
    except UnexpectedCharacters as exc:
        bad = normalised[exc.pos_in_stream : exc.pos_in_stream + 1]
        raise OrderError([_problem(text, where, exc.pos_in_stream, "この位置の文字は読めません。 / unexpected character", bad, player=player)]) from None
    except UnexpectedToken as exc:
        tok = exc.token
        if tok.type == "$END":
            raise OrderError([_problem(text, where, len(normalised), "命令が途中で終わっています（数や名前が必要です）。 / order ends too early", None, player=player)]) from None
        expected = sorted(exc.expected)
        hint = None
        if "INT" in expected:
            hint = "数を書いてください（例：隙狙い 1、超回避 2）。"
        raise OrderError([_problem(text, where, tok.start_pos, "ここには書けない語です。区切り（／、改行）を確かめてください。 / unexpected word", str(tok), hint, player)]) from None
    except UnexpectedInput as exc:  # pragma: no cover - other lark errors
        raise OrderError([Problem(f"命令を読めません：{exc}", player=player)]) from None
    try:
        clauses = _Transform(data).transform(tree)
    except VisitError as exc:
        inner = exc.orig_exc
        if isinstance(inner, _Unknown):
            word = inner.text
            guess = nearest(norm(word), [norm(c) for c in inner.candidates])
            shown = None
            if guess is not None:
                shown = next((c for c in inner.candidates if norm(c) == guess), guess)
            hint = f"もしかして「{shown}」？" if shown else None
            raise OrderError([_problem(text, where, inner.token.start_pos, "知らない語です。 / unknown word", word, hint, player)]) from None
        raise
    for c in clauses:
        if c.kind == "event_final":
            start, end = c.value
            c.value = text[where[start] : where[end]].strip()
    return clauses, normalised, where


def build_order(clauses: list[Clause], original: str, where: list[int], player: str | None) -> tuple[RiderOrder, dict[str, int]]:
    """Clauses -> RiderOrder; a clause given twice is an error. Returns the order and where
    (normalised index) each field was written, for validation messages."""
    fields: dict[str, Any] = {}
    at: dict[str, int] = {}
    passive: list[PassiveRule] = []
    problems: list[Problem] = []
    labels = {"move": "移動", "block": "阻止", "card": "能動カード", "aim": "隙狙い", "super_evasion": "超回避",
              "evasion": "回避", "event_final": "イベントファイナル", "targets": "攻撃対象", "cover": "庇う",
              "hold": "攻撃しない", "parry": "受け", "move_target": "移動の相手"}
    for c in clauses:
        if c.kind == "passive":
            passive.append(c.value)
            at.setdefault("passive", c.pos)
            at[f"passive{len(passive) - 1}"] = c.pos
            continue
        key = c.kind
        if key in fields:
            message = ("能動カードは1回に1枚までです。 / one 能動 card per action" if key == "card"
                       else f"「{labels.get(key, key)}」が2回書かれています。 / given twice")
            problems.append(_problem(original, where, c.pos, message, c.text, player=player))
            continue
        fields[key] = c.value
        at[key] = c.pos
        for i, spot in enumerate(c.spots):
            at[f"{key}{i}"] = spot
    if problems:
        raise OrderError(problems)
    order = RiderOrder(
        move=fields.get("move", "stay"),
        block=fields.get("block", True),
        card=fields.get("card"),
        passive=tuple(passive),
        aim=fields.get("aim", 0),
        hold=fields.get("hold", False),
        super_evasion=fields.get("super_evasion", 0),
        parry=fields.get("parry", False),
        evasion=fields.get("evasion"),
        targets=tuple(fields.get("targets", ())),
        cover=fields.get("cover"),
        move_target=fields.get("move_target"),
        event_final=fields.get("event_final"),
    )
    return order, at


def canonical(order: RiderOrder, data: RiderData) -> str:
    """One normalised line (Japanese), identical for every spelling; "" for all defaults."""
    parts: list[str] = []
    if order.move != "stay":
        parts.append(MOVE_WORDS[order.move] + (f": {order.move_target}" if order.move_target else ""))
    if not order.block:
        parts.append("阻止しない")
    if order.card:
        parts.append(data.card_name(order.card))
    for rule in order.passive:
        if rule.condition is None:
            parts.append(f"受動: {data.card_name(rule.card)}")
        elif rule.condition == "attack":
            parts.append(f"受動: 攻撃なら{data.card_name(rule.card)}")
        else:
            parts.append(f"受動: {data.card_name(rule.condition)}なら{data.card_name(rule.card)}")
    if order.targets:
        parts.append("攻撃: " + ", ".join(order.targets))
    if order.hold:
        parts.append("攻撃しない")
    if order.aim:
        parts.append(f"隙狙い {order.aim}")
    if order.parry:
        parts.append("受け")
    if order.evasion:
        parts.append(f"回避: {POOL_WORDS[order.evasion]}")
    if order.super_evasion:
        parts.append(f"超回避 {order.super_evasion}")
    if order.cover:
        parts.append(f"庇う {order.cover}")
    if order.event_final is not None:
        parts.append(f"イベントファイナル: {order.event_final}")
    return " / ".join(parts)


# -- validation against the state and the data ------------------------------------------------

def validate(order: RiderOrder, at: dict[str, int], player: str, state: dict[str, Any], data: RiderData,
             original: str, where: list[int], teams: dict[str, str | None] | None = None) -> RiderOrder:
    """Every problem of a readable order at once (OrderError). Returns the order with names
    resolved to the players' names."""
    from . import cards as fx

    problems: list[Problem] = []

    def bad(key: str, message: str, text: str | None = None, hint: str | None = None) -> None:
        index = at.get(key, 0)
        problems.append(_problem(original, where, index, message, text, hint, player))

    fighter = state["fighters"].get(player)
    if fighter is None:  # pragma: no cover - the core checks players first
        raise OrderError([Problem("この戦闘に参加していません。", player=player)])
    is_monster = fighter.get("kind") == "monster"
    deck = fighter.get("deck", {}) or {}

    def check_card(card_id: str, key: str, phase: str) -> None:
        name = data.card_name(card_id)
        if is_monster:
            bad(key, "モンスターはカードを使えません。 / monsters play no cards", name)
            return
        if deck.get(card_id, 0) < 1:
            if card_id in deck or card_id in (fighter.get("used_once") or []):
                bad(key, "このカードはもう使い切っています。 / used up", name)
            else:
                held = "、".join(data.card_name(c) for c, n in deck.items() if n > 0) or "なし"
                bad(key, "このカードを持っていません。 / not in your deck", name, f"残りのカード：{held}")
            return
        if card_id in (fighter.get("used_once") or []):
            bad(key, "このカードは1回の戦闘で1度しか使えません。 / once per battle", name)
            return
        if not fx.phase_ok(data, card_id, phase):
            if phase == "active":
                bad(key, "このカードは受動フェイズ専用です（「受動: カード名」と書いてください）。 / 受動 only", name)
            else:
                bad(key, "このカードは能動フェイズ専用です。 / 能動 only", name)

    if order.card is not None:
        check_card(order.card, "card", "active")
    for i, rule in enumerate(order.passive):
        check_card(rule.card, f"passive{i}", "passive")

    # the vent after this order's 能動 card (a new vent replaces the old)
    vent_after = fighter.get("vent")
    if order.card is not None and data.cards.get(order.card, {}).get("vent"):
        vent_after = order.card
    passive_cards = [r.card for r in order.passive]
    final = order.card is not None and fx.has(data, order.card, "final")

    if order.aim:
        if not 1 <= order.aim <= 3:
            bad("aim", "隙狙いで無視できる防御力は1～3点です。 / aim 1-3", f"隙狙い {order.aim}")
        elif fx.stat(data, fighter, "attack") - 2 * order.aim < 1:
            bad("aim", f"隙狙い{order.aim}では攻撃力が0以下になります（攻撃力{fx.stat(data, fighter, 'attack')}、"
                       f"1点ごとに-2）。 / leaves no attack dice", f"隙狙い {order.aim}")
        if final:
            bad("aim", "ファイナルベントの攻撃には隙狙いを使えません。 / not with Final Vent", f"隙狙い {order.aim}")
    if order.hold and final:
        bad("hold", "ファイナルベントを使うなら「攻撃しない」とは書けません。 / Final Vent attacks", "攻撃しない")
    if order.super_evasion:
        if not 1 <= order.super_evasion <= 3:
            bad("super_evasion", "超回避は1～3点です。 / super evasion 1-3", f"超回避 {order.super_evasion}")
        elif fighter["hp"] - order.super_evasion < 1:
            bad("super_evasion", f"超回避でHPを0にはできません（HP{fighter['hp']}）。 / would bring HP to 0",
                f"超回避 {order.super_evasion}")
        if order.parry or order.evasion == "attack":
            bad("super_evasion", "超回避は受けと併用できません。 / not with parry", f"超回避 {order.super_evasion}")
    if order.parry or order.evasion == "attack":
        if not (fx.has(data, vent_after, "parry") or any(fx.has(data, c, "parry") for c in passive_cards)):
            bad("parry" if order.parry else "evasion",
                "受けにはソードベント（ベントイン中か、この命令で使うもの）が必要です。 / parry needs a sword", "受け")
    if order.evasion == "defense":
        if not (fx.has(data, vent_after, "guard") or any(fx.has(data, c, "guard") for c in passive_cards)):
            bad("evasion", "防御力で回避するにはガードベントが必要です。 / needs Guard Vent", "回避: 防御力")
    if order.parry and order.evasion in ("mobility", "defense"):
        bad("parry", "受けと「回避: 運動性／防御力」は同時に選べません。", "受け")

    # -- names: attack targets (priority list), the movement target, 庇う (複数人による戦闘) --------
    teams = teams or {}
    fighters = state["fighters"]
    multi = len(fighters) >= 3
    def ally(other: str) -> bool:
        return bool(teams.get(player)) and teams.get(player) == teams.get(other)

    def listing(names: list[str]) -> str:
        return "、".join(f"{n}（{_character_name(data, fighters[n])}）" for n in names) or "なし"

    living = [n for n, f in fighters.items() if n != player and f.get("alive", True)]
    foes = listing([n for n in living if not ally(n)])
    friends = listing([n for n in living if ally(n) or not any(teams.values())])

    def resolve(raw: str, key: str, role: str) -> str | None:
        """A written name -> the player's name; a problem (with every valid name) when it is none."""
        found = find_fighter(raw, fighters, data)
        if len(found) != 1:
            why = "この戦闘にいません" if not found else "に当たる人が複数います（プレイヤー名で書いてください）"
            valid = friends if role == "庇う相手" else foes
            ask = "庇う味方" if role == "庇う相手" else "対戦相手"
            bad(key, f"{role}「{raw}」{'は' if not found else ''}{why}（{ask}の名前を書いてください）。 / "
                     f"{'not in this battle' if not found else 'ambiguous name'}", raw,
                f"{'庇える相手' if role == '庇う相手' else '対戦相手'}：{valid}")
            return None
        return found[0]

    def opponent(raw: str, key: str, role: str) -> str | None:
        name = resolve(raw, key, role)
        if name is None:
            return None
        if name == player:
            bad(key, f"{role}に自分自身は選べません。 / not yourself", raw)
        elif not fighters[name].get("alive", True):
            bad(key, f"{role}「{name}」はもう倒れています。 / already down", raw)
        elif role == "庇う相手":
            return name
        elif ally(name):
            bad(key, f"{role}「{name}」は味方です（チーム{teams[player]}）。 / an ally", raw)
        else:
            return name
        return None

    resolved: dict[str, Any] = {}
    if order.targets:
        names: list[str] = []
        for i, raw in enumerate(order.targets):
            name = opponent(raw, f"targets{i}" if f"targets{i}" in at else "targets", "攻撃の対象")
            if name is not None and name not in names:
                names.append(name)
        resolved["targets"] = tuple(names)
        if len(order.targets) > 1 and not multi:
            bad("targets", "1対1の戦闘では対象は1人です。 / one target in a duel", ", ".join(order.targets))
        if len(order.targets) > 1 and order.aim and multi:
            bad("aim", "隙狙いは攻撃の対象を1人にしたときだけ使えます（複数攻撃には使えません）。"
                       " / aim needs a single target", f"隙狙い {order.aim}")
    if order.move_target is not None:
        if order.move == "stay":
            bad("move_target", "留まるときは移動の相手を書けません。 / no move, no movement target", order.move_target)
        else:
            resolved["move_target"] = opponent(order.move_target, "move_target", "移動の相手")
    if order.cover is not None:
        if is_monster:
            bad("cover", "モンスターは庇えません（ソードベントかガードベントが必要です）。 / monsters cannot cover",
                order.cover)
        elif not multi:
            bad("cover", "「庇う」は3人以上の戦闘でのみ使えます。 / cover needs three or more fighters", order.cover)
        else:
            name = resolve(order.cover, "cover", "庇う相手")
            if name is not None:
                if name == player:
                    bad("cover", "自分自身は庇えません。 / cannot cover yourself", order.cover)
                elif not fighters[name].get("alive", True):
                    bad("cover", f"庇う相手「{name}」はもう倒れています。 / already down", order.cover)
                elif any(teams.values()) and not ally(name):
                    bad("cover", f"庇えるのは味方だけです（「{name}」は対戦相手）。 / cover an ally only", order.cover,
                        f"庇える相手：{friends}")
                else:
                    resolved["cover"] = name
    if problems:
        raise OrderError(problems)
    return replace(order, **resolved)


def _character_name(data: RiderData, fighter: dict[str, Any]) -> str:
    try:
        return data.character(fighter["character"])[1].get("name", fighter["character"])
    except KeyError:  # pragma: no cover - checked at campaign creation
        return fighter["character"]


def find_fighter(raw: str, fighters: dict[str, Any], data: RiderData) -> list[str]:
    """Who a written name means: a player's name (NFKC), else a character's id, name, English
    name or alias (e.g. ナイト, Knight) when exactly those fighters play it."""
    want = norm(raw)
    exact = [n for n in fighters if norm(n) == want]
    if exact:
        return exact
    out = []
    for name, fighter in fighters.items():
        try:
            _kind, sheet = data.character(fighter["character"])
        except KeyError:  # pragma: no cover
            continue
        spellings = [fighter["character"], sheet.get("name", ""), sheet.get("english", "")]
        spellings += list(sheet.get("aliases", []) or [])
        if want in {norm(w) for w in spellings if w}:
            out.append(name)
    return out


def parse(text: str, player: str, state: dict[str, Any], data: RiderData,
          teams: dict[str, str | None] | None = None) -> RiderOrder:
    fighter = state["fighters"].get(player) or {}
    if not fighter.get("alive", True):  # 複数人 (ruling): the fallen have left the battle; a post is ignored
        return RiderOrder(canonical="")
    clauses, _normalised, where = read_clauses(text, data, player)
    order, at = build_order(clauses, text, where, player)
    order = validate(order, at, player, state, data, text, where, teams)
    return replace(order, canonical=canonical(order, data))
