"""Reading rider orders: lark grammar (grammar/rider.lark) -> typed order dataclasses.

The parser is LALR and built once per process. Free words are WORD tokens; the transformer
matches them (longest first) against the vocabulary below and the card data, so that an
unknown word keeps its position and gets the nearest known word as a suggestion.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import field
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ...errors import OrderError, Problem, nearest
from ...resources import lark_parser
from .data import RiderData, norm
from ...record import record

# -- the order objects ------------------------------------------------------------------

MOVES = ("closer", "away", "近", "中", "遠", "stay")
EVASION_POOLS = ("mobility", "defense", "attack")


@record(frozen=True)
class PassiveRule:
    """A 受動 standing order: play ``card`` when ``condition`` matches an opponent's action.

    condition: None (always), "attack" (a weapon of the acting opponent's reaches this fighter;
    rules versions 2–3: it will attack this fighter, in range) or a card id (the acting
    opponent's 能動 card, played and not cancelled)."""

    card: str
    condition: str | None = None


@record(frozen=True)
class RiderOrder:
    move: str = "stay"  # closer | away | 近 | 中 | 遠 | stay
    block_closer: bool = True  # the answer when the other side moves closer (阻止する, the default)
    block_away: bool = True  # ... and when it moves away (離れるなら阻止しない sets False)
    card: str | None = None  # the 能動 card
    passive: tuple[PassiveRule, ...] = ()
    aim: int = 0  # 隙狙い N: defence points ignored
    hold: bool = False  # 攻撃しない
    super_evasion: int = 0  # 超回避 N: HP paid for +N evasion
    super_threshold: int = 0  # 超回避 N: 達成値T以上なら — pay only against an attack of at least T (0: any)
    # 超回避 N: 本体の攻撃だけ — which evasion rolls it is for (rules version 4): actor (the acting
    # fighter's own attack), advent (its contract monster's), cover (evading while covering); () = every one
    super_scope: tuple[str, ...] = ()
    parry: bool = False  # 受け
    evasion: str | None = None  # 回避: mobility | defense | attack (None = the larger pool)
    targets: tuple[str, ...] = ()  # 攻撃: NAME, NAME (priority list; battles of three or more)
    cover: str | None = None  # 庇う NAME (battles of three or more)
    move_targets: tuple[str, ...] = ()  # 近寄る: NAME, NAME — the movement contest's opponent, by priority (multi)
    move_rule: str | None = None  # 近寄る: 最も遠い相手 — farthest | nearest (multi)
    event_final: str | None = None  # イベントファイナル: text
    canonical: str = field(default="", compare=False)  # set by parse() (names from the campaign's data)
    notes: tuple = field(default=(), compare=False)  # what the reading passed over or corrected (pbf.errors.Problem)

    def blocks(self, direction: str) -> bool:
        """This fighter's answer when the other side moves ``direction`` (closer | away)."""
        return self.block_closer if direction == "closer" else self.block_away


# -- 超回避's scope: which evasion rolls it is for -----------------------------------------

SUPER_KINDS = ("actor", "advent", "cover")  # the acting fighter's own attack, its contract monster's, 庇う
SUPER_KIND_WORDS = {"actor": "本体の攻撃", "advent": "アドベント", "cover": "庇うとき"}
_SCOPE_PATTERNS = (
    ("actor", re.compile(r"(?:本体|ライダー|本人|相手)の攻撃|own\s+attack|rider", re.I)),
    ("advent", re.compile(r"(?:契約)?モンスターの攻撃|アドベント|advent|monster", re.I)),
    ("cover", re.compile(r"庇う|cover", re.I)),
)


def super_scope(text: str) -> tuple[str, ...]:
    """A SUPER_SCOPE token -> the kinds of evasion roll, in SUPER_KINDS order (以外 / except /
    not: every kind but those named). Every kind named: () (every roll)."""
    named = {kind for kind, pattern in _SCOPE_PATTERNS if pattern.search(text)}
    if re.search(r"以外|^\s*(?:except|not)\b", text, re.I):
        named = set(SUPER_KINDS) - named
    kinds = tuple(k for k in SUPER_KINDS if k in named)
    return () if len(kinds) == len(SUPER_KINDS) else kinds


def scope_words(scope: tuple[str, ...]) -> str:
    """超回避's scope as the canonical order writes it: 本体の攻撃とアドベントだけ."""
    return "と".join(SUPER_KIND_WORDS[k] for k in scope) + "だけ"


# -- vocabulary -------------------------------------------------------------------------

PHRASES: dict[str, tuple[str, Any]] = {}
SPELLED: dict[str, str] = {}  # normalised -> as written here (a 「もしかして」 shows 近寄る, not its folded key)


def _words(kind: str, value: Any, *spellings: str) -> None:
    for spelling in spellings:
        PHRASES[norm(spelling)] = (kind, value)
        SPELLED.setdefault(norm(spelling), spelling)


_words("move", "closer", "近寄る", "近づく", "接近", "接近する", "前進", "ちかよる", "ちかづく", "せっきん",
       "chikayoru", "chikazuku", "sekkin", "move closer", "closer", "approach", "advance")
_words("move", "away", "離れる", "遠ざかる", "後退", "はなれる", "とおざかる", "こうたい", "hanareru",
       "toozakaru", "move away", "away", "retreat", "back off")
_words("move", "近", "近へ", "近距離へ", "近に", "to near", "near", "move to near", "to close", "close")
_words("move", "中", "中へ", "中距離へ", "中に", "to mid", "mid", "move to mid", "to middle", "middle")
_words("move", "遠", "遠へ", "遠距離へ", "遠に", "to far", "far", "move to far")
_words("move", "stay", "留まる", "とどまる", "移動しない", "動かない", "うごかない", "todomaru", "stay", "hold position", "no move")
_words("block", True, "阻止する", "阻止", "そし", "そしする", "soshi", "block", "blocking")
_words("block", False, "阻止しない", "そししない", "soshishinai", "allow", "no block", "don't block", "do not block", "let pass")
_words("hold", True, "攻撃しない", "こうげきしない", "hold", "no attack", "don't attack", "do not attack", "hold attack")
_words("parry", True, "受け", "受ける", "うけ", "uke", "parry")
_words("pool", "mobility", "運動性", "うんどうせい", "mobility", "agility")
_words("pool", "defense", "防御力", "防御", "ぼうぎょりょく", "ぼうぎょ", "defense", "defence", "guard")
_words("pool", "attack", "攻撃力", "こうげきりょく", "attack")
_words("condition", "attack", "攻撃", "攻撃する", "攻撃された", "attack", "attacked", "any attack", "attacks")
_words("condition", None, "常に", "always", "any")
# the movement target as a rule (3+ fighters): applied after the distances are rolled
_words("move_rule", "farthest", "最も遠い相手", "一番遠い相手", "最も遠い", "一番遠い", "farthest", "the farthest",
       "farthest opponent", "the farthest opponent", "furthest", "the furthest")
_words("move_rule", "nearest", "最も近い相手", "一番近い相手", "最も近い", "一番近い", "nearest", "the nearest",
       "nearest opponent", "the nearest opponent", "closest", "the closest")

MOVE_WORDS = {"closer": "近寄る", "away": "離れる", "近": "近へ", "中": "中へ", "遠": "遠へ", "stay": "留まる"}
POOL_WORDS = {"mobility": "運動性", "defense": "防御力", "attack": "攻撃力"}
MOVE_RULE_WORDS = {"farthest": "最も遠い相手", "nearest": "最も近い相手"}
DIRECTION_WORDS = {"closer": "近寄る", "away": "離れる"}


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

_OPTIONS: dict[str, Any] = {"parser": "lalr", "lexer": "contextual", "maybe_placeholders": False}  # positions: from the tokens


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The grammar alone (parse trees); orders are read by :func:`_reader`."""
    return lark_parser("rider", **_OPTIONS)


# id(data) -> (data, parser): the parser with the Transformer of that data inside it (lark calls the
# Transformer's methods as it reduces: no parse tree, no second pass, and v_args' wrappers made once,
# not per node), built once per data object (from pbf's cache, like parser()).
_READERS: dict[int, tuple[RiderData, Lark]] = {}


def _reader(data: RiderData) -> Lark:
    kept = _READERS.get(id(data))
    if kept is None or kept[0] is not data:
        if len(_READERS) >= 8:
            _READERS.clear()
        kept = _READERS[id(data)] = (data, lark_parser("rider", transformer=_Transform(data), **_OPTIONS))
    return kept[1]


@record
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
for _spelling in ("近寄る", "近づく", "接近する", "接近", "ちかよる", "ちかづく"):
    _SUFFIXES += [("に" + _spelling, "move", "closer"), ("へ" + _spelling, "move", "closer")]
for _spelling in ("離れる", "遠ざかる", "後退", "はなれる", "とおざかる"):
    _SUFFIXES.append(("から" + _spelling, "move", "away"))
_SUFFIXES.append(("を庇う", "cover", None))
_SUFFIXES.sort(key=lambda s: -len(s[0]))


def _suffix_form(words: list[Token]) -> list[Clause] | None:
    if len(words) != 1:
        return None
    word = str(words[0])
    folded = norm(word)
    for suffix, kind, value in _SUFFIXES:
        if folded.endswith(norm(suffix)) and len(word) > len(suffix):
            name = word[: -len(suffix)]
            pos = words[0].start_pos
            if kind == "cover":
                return [Clause("cover", name, pos, word)]
            return [Clause("move", value, pos + len(name) + 1, suffix[1:] if suffix[0] in "にへ" else suffix[2:]),
                    _move_target([(name, pos)])]
    return None


def _move_target(names: list[tuple[str, int]]) -> Clause:
    """The movement target: a rule (最も遠い相手 / the nearest) or a priority list of names."""
    found = PHRASES.get(norm(names[0][0]))
    if len(names) == 1 and found is not None and found[0] == "move_rule":
        return Clause("move_rule", found[1], names[0][1], names[0][0])
    return Clause("move_targets", tuple(n for n, _ in names), names[0][1], ", ".join(n for n, _ in names),
                  tuple(p for _, p in names))


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
                _move_target([(name, words[k + 1].start_pos)])]
    return None


def _count(token: Token) -> int:
    """A number an order gives (隙狙い N, 超回避 N, 達成値T): no game needs more than 3 digits;
    a longer one is an error before int() is asked to read thousands of digits."""
    digits = str(token)
    if len(digits) > 3:
        raise _Unknown(token, [], text=digits[:6] + ("…" if len(digits) > 6 else ""),
                       why="数が大きすぎます（3桁まで）。 / number too large")
    return int(digits)


class _Unknown(Exception):
    def __init__(self, token: Token, candidates: list[str], text: str | None = None, why: str | None = None,
                 hint: str | None = None):
        self.token = token
        self.candidates = candidates
        self.text = text if text is not None else str(token)
        self.why = why  # what belongs here, when the word is known but not in this place
        self.hint = hint  # a whole rewrite, when a 「もしかして」 word would point the wrong way


# 攻撃されたらガードベント / ファイナルベントの時はリフレクト: a condition written as a sentence
_CONDITION_TAILS = tuple(norm(t) for t in ("されたら", "たら", "ならば", "なら", "ら", "のときは", "のとき", "の時は", "の時", "とき", "時"))


def _passive_form(words: list[Token], data: RiderData) -> str | None:
    """The 受動 clause a one-word conditional phrase means (「受動: 攻撃ならガードベント」), or None."""
    if len(words) != 1:
        return None
    word = norm(str(words[0]))
    for tail in _CONDITION_TAILS:  # 攻撃されたら alone: the condition without its card
        if word.endswith(tail) and _lookup(word[: -len(tail)], data, ("condition",)) is not None:
            return "例：受動: 攻撃ならガードベント"
    for spelling, card in sorted(data.card_words.items(), key=lambda kv: -len(kv[0])):
        if not (word.endswith(spelling) and len(word) > len(spelling)):
            continue
        condition = word[: -len(spelling)]
        for tail in ("", *_CONDITION_TAILS):
            head = condition[: len(condition) - len(tail)] if tail and condition.endswith(tail) else condition
            if tail and head == condition:
                continue
            found = _lookup(head, data, ("card", "condition"))
            if found is not None and found[1] is not None:
                shown = "攻撃" if found[1] == "attack" else data.card_name(found[1])
                return f"受動: {shown}なら{data.card_name(card)}"
        return None
    return None


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
    words = [SPELLED[w] for w, (kind, _) in PHRASES.items() if kind in allowed]
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
                try:
                    out.extend(special if special else _match_phrase(c, self.data, ORDER_KINDS))
                except _Unknown:
                    rewrite = _passive_form(c, self.data)
                    if rewrite is None:
                        raise
                    hint = rewrite if rewrite.startswith("例：") else f"もしかして「{rewrite}」？"
                    raise _Unknown(c[0], [], why="相手の行動を条件にするカードは、受動カードとして書きます。",
                                   hint=hint) from None
            elif isinstance(c, Clause):
                out.append(c)
        return out

    def moving(self, words, *names):
        found = _match_phrase(words, self.data, ("move",))
        if len(found) != 1:
            raise _Unknown(words[0], _candidates(self.data, ("move",)), " ".join(str(w) for w in words))
        return _Clauses([found[0], _move_target(list(names))])

    def blocking_when(self, direction, _nara, answer):
        """近寄るなら阻止 / 離れるなら阻止しない: the answer to one direction of the other side's move."""
        return self._blocking(direction, answer)

    def blocking_if(self, answer, _if, direction):
        """block if closer / allow if away."""
        return self._blocking(direction, answer)

    def _blocking(self, direction, answer) -> Clause:
        moves = _match_phrase(direction, self.data, ("move",))
        if len(moves) != 1 or moves[0].value not in DIRECTION_WORDS:
            raise _Unknown(direction[0], list(DIRECTION_WORDS.values()) + ["closer", "away"],
                           " ".join(str(w) for w in direction),
                           "阻止の条件は相手の移動の向き（近寄る・離れる）です（例：近寄るなら阻止しない）。")
        block = _match_phrase(answer, self.data, ("block",))
        if len(block) != 1:
            raise _Unknown(answer[0], _candidates(self.data, ("block",)), " ".join(str(w) for w in answer))
        return Clause(f"block_{moves[0].value}", block[0].value, direction[0].start_pos,
                      f"{moves[0].text}なら{block[0].text}")

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
        return Clause("aim", _count(n), kw.start_pos, f"{kw} {n}")

    def super_evasion(self, kw, n, *rest):
        """超回避 N, optionally with 達成値T以上なら (the threshold: the INT after N) and the rolls
        it is for (a SUPER_SCOPE token)."""
        at_least = next((int(t) for t in rest if isinstance(t, int) and not isinstance(t, Token)), 0)
        scope = next((super_scope(str(t)) for t in rest if isinstance(t, Token) and t.type == "SUPER_SCOPE"), ())
        return Clause("super_evasion", (_count(n), at_least, scope), kw.start_pos, f"{kw} {n}")

    def threshold(self, *tokens):
        return _count(next(t for t in tokens if t.type == "INT"))

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


def problem_at(original: str, where: list[int], index: int, message: str, text: str | None, hint: str | None = None,
             player: str | None = None) -> Problem:
    line, column = position(original, where[min(index, len(where) - 1)])
    return Problem(message, player=player, line=line, column=column, text=text, hint=hint)


# a list of names follows one of these and a colon: 攻撃: ゾルダ、ナイト / 近寄る: ナイト・ゾルダ
_LIST_HEAD = re.compile(r"(攻撃|標的|target|近寄る|近づく|接近|離れる|遠ざかる|move closer|move away|closer|away)\s*:", re.I)
_CLAUSE_END = "/;。\n"


def _first(text: str, chars: str, start: int = 0) -> int:
    """Where the first of ``chars`` is in ``text`` from ``start`` (its length when none is). Not a
    character class: one mixing ASCII and kanji costs Python's regex compiler ~0.2 ms a process."""
    found = [i for i in (text.find(ch, start) for ch in chars) if i >= 0]
    return min(found) if found else len(text)
_KEYWORDS = ("受動", "passive", "隙狙い", "超回避", "回避", "庇う", "cover", "イベントファイナル", "攻撃", "標的")


def _list_commas(normalised: str, data: RiderData) -> str:
    """In a list of names, 、 and ・ separate the names as , does (the same length: positions
    stay); a list ends at the first item that is not a name (攻撃: ゾルダ、近寄る)."""
    chars = list(normalised)
    for head in _LIST_HEAD.finditer(normalised):
        end = _first(normalised, _CLAUSE_END, head.end())
        for sep in re.finditer(r"[、・]", normalised[head.end() : end]):
            at = head.end() + sep.start()
            rest = normalised[at + 1 : end]
            item = rest[: _first(rest, "、・,")]
            if not _is_name(item, data):
                break
            chars[at] = ","
    return "".join(chars)


def _is_name(item: str, data: RiderData) -> bool:
    word = norm(item)
    if not word or ":" in word or word in PHRASES or word in data.card_words:
        return False
    return not any(word.startswith(norm(k)) for k in _KEYWORDS)


# (text, id(data)) -> (data, clauses, normalised text, where): the clauses of a text depend on
# the text and the data alone, and nothing changes a Clause once read, so a text is given to lark
# once (a replay reads the same orders turn after turn; a bot trying orders, thousands of times).
# The data is kept with the clauses, so an id is never mistaken for other data's. Problems are
# never kept (they name the player). Bounded: cleared when full.
_READ: dict[tuple[str, int, bool, tuple[tuple[str, str], ...]], tuple[RiderData, tuple[Clause, ...], str, tuple[int, ...]]] = {}
_READ_MAX = 4096


def read_clauses(text: str, data: RiderData, player: str | None = None,
                 natural: bool = False, roster: tuple[tuple[str, str], ...] = ()) -> tuple[list[Clause], str, list[int]]:
    """The order's clauses, the normalised text and where each normalised character came from.
    ``natural``: read as a GM reads a post (pbf/systems/rider/rewrite.py) rather than as the
    order language is written; ``roster`` ((name, character) of each fighter) lets that reading
    know the battle's names (ないとにちかよる, ファイナル 北岡>城戸)."""
    key = (text, id(data), natural, roster)
    kept = _READ.get(key)
    if kept is None or kept[0] is not data:
        if natural:
            clauses, normalised, where = _read_naturally(text, data, player, roster)
        else:
            clauses, normalised, where = _read_clauses(text, data, player)
        if len(_READ) >= _READ_MAX:
            _READ.clear()
        kept = _READ[key] = (data, tuple(clauses), normalised, tuple(where))
    return list(kept[1]), kept[2], list(kept[3])


def forget_orders() -> None:
    """Forget every order text read (benchmarks/bench.py measures a cold parse with it)."""
    _READ.clear()


def _read_clauses(text: str, data: RiderData, player: str | None) -> tuple[list[Clause], str, list[int]]:
    normalised, where = normalise(text)
    normalised, where, notes = _passive_lists(text, normalised, where, data)
    normalised = _list_commas(normalised, data)
    clauses, normalised, where = _parse_clauses(text, normalised, where, data, player)
    if notes:
        clauses.append(Clause("notes", tuple(notes), 0, ""))
    return clauses, normalised, where


_PASSIVE_HEAD = re.compile(r"(?:受動|passive)\s*:?\s*", re.I)


def _passive_lists(original: str, normalised: str, where: list[int], data: RiderData) -> tuple[str, list[int], list[Problem]]:
    """``受動: リフレクトベント、ガードベント``: a list of cards under the 受動 label is a list of 受動
    cards (a list under a label continues the label), not a 受動 card and a 能動 card: each card
    after a 、 ・ or , gets its own 受動 clause, with a note."""
    notes: list[Problem] = []
    if "受動" not in normalised and "passive" not in normalised.lower():
        return normalised, where, notes
    chars, origin = list(normalised), list(where)
    for head in reversed(list(_PASSIVE_HEAD.finditer(normalised))):
        end = _first(normalised, _CLAUSE_END, head.end())
        items = re.split(r"([、・,])", normalised[head.end():end])
        at = head.end()
        edits = []
        for k in range(0, len(items) - 2, 2):
            at += len(items[k])
            item = items[k + 2]
            if norm(item) in data.card_words and norm(items[k]) in data.card_words:
                edits.append((at, item))
            at += len(items[k + 1])
        for sep_at, item in reversed(edits):
            chars[sep_at:sep_at + 1] = list(" / 受動: ")
            origin[sep_at:sep_at + 1] = [where[sep_at]] * len(" / 受動: ")
            line, column = position(original, where[sep_at + 1])
            notes.append(Problem(f"も受動カードとして読みました（「受動:」の後ろの並びは受動カードの並びです）。", line=line,
                                 column=column, text=item.strip()))
    return "".join(chars), origin, notes


def _read_naturally(text: str, data: RiderData, player: str | None,
                    roster: tuple[tuple[str, str], ...] = ()) -> tuple[list[Clause], str, list[int]]:
    """The post read the way a GM reads it (rewrite.py), then by the order language; its notes
    ride along as a clause of their own (build_order puts them on the order)."""
    from .rewrite import Rewritten

    rewritten = Rewritten(text, data, roster, player)
    if rewritten.problems:
        raise ReadingProblem([p if p.player else _with_player(p, player) for p in rewritten.problems])
    try:
        clauses, normalised, where = _parse_clauses(text, _list_commas(rewritten.text, data), rewritten.where, data, player)
    except OrderError as exc:
        raise OrderError([_as_written(text, p) for p in exc.problems]) from None
    if rewritten.notes:
        clauses.append(Clause("notes", tuple(rewritten.notes), 0, ""))
    return clauses, normalised, where


def _as_written(original: str, problem: Problem) -> Problem:
    """A problem of the order language in the GM's reading names a word of the rewritten text (its
    なら for 場合は, its / for 、): shown as the player wrote it there, the words up to the next break."""
    from dataclasses import replace

    if problem.line is None or problem.column is None or not problem.text:
        return problem
    lines = original.split("\n")
    if problem.line > len(lines):
        return problem
    rest = lines[problem.line - 1][problem.column - 1:]
    if rest.startswith(problem.text) or (rest and problem.text.startswith(rest)):
        return problem
    written = re.split(r"[、。，．,/／\s]", rest, maxsplit=1)[0] or rest[:1]
    if not written:
        return problem
    return replace(problem, message="ここから先を行動として読めませんでした。", text=written,
                   hint=problem.hint or "行動の語（例：近寄る / ソードベント / 受動: ファイナルベントならリフレクトベント）で書き直してください。")


class ReadingProblem(OrderError):
    """What the GM's reading found wrong with the words (two cards with か, a number for nothing, a
    negation): more to the point than the order language's 「知らない語」 for the same text."""


def _with_player(problem: Problem, player: str | None) -> Problem:
    from dataclasses import replace

    return replace(problem, player=player)


def _parse_clauses(text: str, normalised: str, where: list[int], data: RiderData,
                   player: str | None) -> tuple[list[Clause], str, list[int]]:
    try:
        try:
            clauses = _reader(data).parse(normalised)
        except _Unknown:
            parser().parse(normalised)  # a syntax error anywhere in the text is reported before an unknown word
            raise
    except UnexpectedCharacters as exc:
        bad = normalised[exc.pos_in_stream : exc.pos_in_stream + 1]
        raise OrderError([problem_at(text, where, exc.pos_in_stream, "この位置の文字は読めません。", bad, player=player)]) from None
    except UnexpectedToken as exc:
        tok = exc.token
        if tok.type == "$END":
            last = normalised.split()[-1] if normalised.split() else None
            hint = "数を書いてください（例：隙狙い 1、超回避 2）。" if "INT" in exc.expected else None
            raise OrderError([problem_at(text, where, max(len(normalised) - len(last or ""), 0),
                                         "行動が途中で終わっています（数や名前が必要です）。", last,
                                         hint, player=player)]) from None
        expected = sorted(exc.expected)
        hint = None
        if "INT" in expected:
            hint = "数を書いてください（例：隙狙い 1、超回避 2）。"
        elif "AT_LEAST" in expected:
            hint = "「超回避 2: 達成値5以上なら」の形で書いてください。"
        raise OrderError([problem_at(text, where, tok.start_pos, "ここには書けない語です。区切り（／、改行）を確かめてください。", str(tok), hint, player)]) from None
    except UnexpectedInput as exc:  # pragma: no cover - other lark errors
        raise OrderError([Problem(f"行動を読めません：{exc}", player=player)]) from None
    except _Unknown as inner:  # raised by the Transformer, as the parser reduced
        word = inner.text
        guess = nearest(norm(word), [norm(c) for c in inner.candidates])
        shown = None
        if guess is not None:
            shown = next((c for c in inner.candidates if norm(c) == guess), guess)
        hint = inner.hint or (f"もしかして「{shown}」？" if shown else None)
        message = inner.why or "知らない語です。"
        raise OrderError([problem_at(text, where, inner.token.start_pos, message, word, hint, player)]) from None
    for c in clauses:
        if c.kind == "event_final":
            start, end = c.value
            c.value = text[where[start] : where[end]].strip()
            bad = next((i for i, ch in enumerate(c.value) if not ch.isprintable() and ch not in "\n\u3000"), None)
            if bad is not None:  # free text goes to the post: no ESC, BEL, NUL, … (shown escaped)
                at = text.index(c.value, where[start]) + bad
                raise OrderError([Problem("イベントファイナルに制御文字は書けません。 / control character", player=player,
                                          line=text.count("\n", 0, at) + 1, column=at - text.rfind("\n", 0, at),
                                          text=c.value[bad])])
    return clauses, normalised, where


def build_order(clauses: list[Clause], original: str, where: list[int], player: str | None,
                data: RiderData | None = None) -> tuple[RiderOrder, dict[str, int]]:
    """Clauses -> RiderOrder; a clause given twice is an error. Returns the order and where
    (normalised index) each field was written, for validation messages."""
    fields: dict[str, Any] = {}
    at: dict[str, int] = {}
    passive: list[PassiveRule] = []
    problems: list[Problem] = []
    labels = {"move": "移動", "block": "阻止", "card": "能動カード", "aim": "隙狙い", "super_evasion": "超回避",
              "evasion": "回避", "event_final": "イベントファイナル", "targets": "攻撃対象", "cover": "庇う",
              "hold": "攻撃しない", "parry": "受け", "move_targets": "移動の相手", "move_rule": "移動の相手",
              "block_closer": "近寄るなら阻止", "block_away": "離れるなら阻止"}
    notes: tuple = ()
    for c in clauses:
        if c.kind == "notes":
            notes = c.value
            continue
        if c.kind == "passive":
            passive.append(c.value)
            at.setdefault("passive", c.pos)
            at[f"passive{len(passive) - 1}"] = c.pos
            continue
        key = c.kind
        if key == "block" and any(k in fields for k in ("block_closer", "block_away")) and "block" not in fields:
            fields[key] = c.value  # 阻止しない / 近寄るなら阻止: the general answer, the direction's own wins
            at[key] = c.pos
            continue
        if key in fields:
            message = ("能動カードは1回に1枚までです。" if key == "card"
                       else f"「{labels.get(key, key)}」が2回書かれています。")
            hint = None
            if key == "card" and data is not None and data.cards.get(c.value, {}).get("phase", "either") != "active":
                hint = f"２枚目を受動カードにするなら「受動: {data.card_name(c.value)}」と書いてください。"
            problems.append(problem_at(original, where, c.pos, message, c.text, hint, player))
            continue
        fields[key] = c.value
        at[key] = c.pos
        for i, spot in enumerate(c.spots):
            at[f"{key}{i}"] = spot
    if problems:
        raise OrderError(problems)
    if "move_targets" in fields and "move_rule" in fields:
        problems.append(problem_at(original, where, at["move_rule"], "移動の相手が2回書かれています。",
                                 MOVE_RULE_WORDS[fields["move_rule"]], player=player))
        raise OrderError(problems)
    # a card that can only be 受動 (リフレクトベント), written as the 能動 card: there is one reading
    card = fields.get("card")
    if card is not None and data is not None and data.cards.get(card, {}).get("phase") == "passive":
        notes = (*notes, problem_at(original, where, at["card"], f"は受動カードなので「受動: {data.card_name(card)}」と読みました。",
                                    next((c.text for c in clauses if c.kind == "card"), None), player=None))
        passive.append(PassiveRule(card, None))
        at.setdefault("passive", at["card"])
        at[f"passive{len(passive) - 1}"] = at.pop("card")
        del fields["card"]
    # 受動 rules are tried in the order written, the first match wins; a rule on one card written
    # after 攻撃なら (which every attacking card matches) could never be used, so a card's own
    # rule is tried first, with a note (the only reading in which every written rule counts)
    ranked = sorted(passive, key=lambda r: 0 if r.condition not in (None, "attack") else 1 if r.condition == "attack" else 2)
    if ranked != passive:
        notes = (*notes, problem_at(original, where, at.get("passive", 0),
                                    "受動カードは、カードを条件にしたものを「攻撃なら」「常に」より先に試します（書いた順では使われない条件があるため）。",
                                    None, player=player))
        passive = ranked
    block = fields.get("block", True)
    super_evasion, super_threshold, super_scope_ = fields.get("super_evasion", (0, 0, ()))
    order = RiderOrder(
        move=fields.get("move", "stay"),
        block_closer=fields.get("block_closer", block),
        block_away=fields.get("block_away", block),
        card=fields.get("card"),
        passive=tuple(passive),
        aim=fields.get("aim", 0),
        hold=fields.get("hold", False),
        super_evasion=super_evasion,
        super_threshold=super_threshold,
        super_scope=super_scope_,
        parry=fields.get("parry", False),
        evasion=fields.get("evasion"),
        targets=tuple(fields.get("targets", ())),
        cover=fields.get("cover"),
        move_targets=tuple(fields.get("move_targets", ())),
        move_rule=fields.get("move_rule"),
        event_final=fields.get("event_final"),
        notes=notes,
    )
    return order, at


def canonical(order: RiderOrder, data: RiderData) -> str:
    """One normalised line (Japanese), identical for every spelling; "" for all defaults."""
    parts: list[str] = []
    if order.move != "stay":
        whom = ", ".join(order.move_targets) or MOVE_RULE_WORDS.get(order.move_rule or "", "")
        parts.append(MOVE_WORDS[order.move] + (f": {whom}" if whom else ""))
    if not order.block_closer and not order.block_away:
        parts.append("阻止しない")
    else:
        parts += [f"{DIRECTION_WORDS[d]}なら阻止しない" for d in DIRECTION_WORDS if not order.blocks(d)]
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
        parts.append(f"超回避 {order.super_evasion}"
                     + (f": 達成値{order.super_threshold}以上なら" if order.super_threshold else "")
                     + (f": {scope_words(order.super_scope)}" if order.super_scope else ""))
    if order.cover:
        parts.append(f"庇う {order.cover}")
    if order.event_final is not None:
        parts.append(f"イベントファイナル: {order.event_final}")
    return " / ".join(parts)
