"""Orders: the lark grammar (grammar/alterego.lark) and its Transformer (the plot objects are in plotted.py).

A plot is what one player wrote: cards left to right, with cancel markers. Positions are kept
as line/column of the player's own text (1-based) so that problems point at what they typed.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ...errors import OrderError, Problem, nearest
from ...reader import kana
from ...reader.lexicon import Lexicon, Word
from ...reader.scan import _EMOTICON, Token as Piece, chat_lines, chat_sentences, flavour, holds_order, lines_of, passed_over, resolve_unknowns, scan, taken_back
from ...reader.text import Text, position
from ...resources import lark_parser
from .plotted import Cancel, Card, Plot, Split

CARD_OF_TERMINAL = {"WEAK": "弱", "STRONG": "強", "FORWARD": "→", "BACK": "←", "UP": "↑"}
WORDS = ["light", "weak", "heavy", "strong", "forward", "fwd", "back", "guard", "up", "jump", "cancel"]
CARD_HELP = "使えるカード：弱(L) 強(H) →(6, ->) ←(4, <-) ↑(8, ^)、技の名前（ジャンプ、投げ…）／キャンセルは C(弱←)"


def fold(text: str) -> str:
    """The key words are looked up by: hiragana as katakana, ASCII in lower case (same length)."""
    return kana.fold(text)


# A word ends at a separator, a card symbol or a bracket (弱→ジャンプ強 is three words).
_STOPS = set(" \t\n\r\u3000,、・/.。弱強→←↑⇒➡⇐⬅⇑⬆<>-^()[]{}「」【】〔〕")


def word_end(norm: str, pos: int) -> int:
    """End of the unreadable word at ``pos``: an ASCII word, or a run of other characters."""
    end = pos
    if norm[pos : pos + 1].isascii():
        while end < len(norm) and norm[end].isascii() and norm[end].isalpha():
            end += 1
        return max(end, pos + 1)
    while end < len(norm) and norm[end] not in _STOPS and not norm[end].isascii():
        end += 1
    return max(end, pos + 1)


_LEXICONS: dict[int, tuple[Any, Lexicon]] = {}


def lexicon_of(words: "dict[str, str] | Lexicon | None") -> Lexicon:
    """The lexicon a plot is read with: the system's (pbf.systems.alterego.lexicon), or one made
    of a plain words dict (word -> cards) and the reader's function words (tests, tools)."""
    if isinstance(words, Lexicon):
        return words
    kept = _LEXICONS.get(id(words))
    if kept is None or kept[0] is not words:
        lex = Lexicon()
        for word, cards in (words or {}).items():
            lex.add(word, Word(cards, word, value=cards))
        lex.add_closed_lists()
        if len(_LEXICONS) >= 64:
            _LEXICONS.clear()
        kept = _LEXICONS[id(words)] = (words, lex)
    return kept[1]


_CARD_SYMBOLS = frozenset("弱強→←↑⇒➡⇐⬅⇑⬆^|")
# a run of card letters ends where the letters end, or right before a cancel's C( (LC(L4): L, then the cancel)
_ASCII_CARD_RUN = re.compile(r"(?:light|weak|heavy|strong|forward|fwd|back|guard|up|jump|[lh])+(?:(?![a-z])|(?=c[ \u3000]*[(\[{]))")
_CANCEL_WORD = re.compile(r"(?:cancel|キャンセル|c)(?![a-z])")
_TIMES = frozenset("×✕✖")
_ENGLISH_TIMES = {"twice": 2, "thrice": 3}  # after the move: walk forward twice
# what says a named move is not made (ジャンプはしないで弱攻撃, ジャンプはせずに前進して投げ)
_NOT_DOING = ("しない", "しないで", "せず", "せずに", "しません")
# an arrow typed with a long mark or a dash (ー＞ on a phone keyboard) is -> or <-
_DASH_ARROWS = {"ー>": "->", "−>": "->", "―>": "->", "<ー": "<-", "<−": "<-", "<―": "<-"}
_OPENS = "([{「【〔"


def _unvoiced(folded: str) -> str:
    """Katakana without their sound marks (ド → ト): a phone's slip of a mark."""
    return "".join(ch for ch in unicodedata.normalize("NFD", folded) if ch not in "\u3099\u309a")


def _symbol(folded: str, i: int) -> int | None:
    """The grammar's own symbols (passed to lark as written): cards, ->/<-, | (a split between
    techniques), a cancel with its brackets, a run of card letters (LH), the × of a repeat."""
    ch = folded[i]
    if ch in _CARD_SYMBOLS:
        return i + 1
    if folded.startswith(("->", "<-", *_DASH_ARROWS), i):
        return i + 2
    if ch in _TIMES or (ch in "x*" and re.match(r"[x*]\s?\d", folded[i:i + 3])):
        return i + 1
    if ch in "><" and (i == 0 or folded[i - 1] not in "弱強"):
        return i + 1
    if ch in "([{" and _CLOSING[ch] not in folded[i:].split("\n", 1)[0]:
        return i + 1  # a bracket that closes nowhere: the grammar says what is wrong with it
    if ch in ")]}」】〕":
        line_start = folded.rfind("\n", 0, i) + 1
        opened = max(folded.rfind(o, line_start, i) for o in "([{「【〔")
        cancel = re.search(r"(?:c|キャンセル|cancel)\s*$", folded[line_start:opened]) if opened >= 0 else None
        if cancel is not None and cancel.group().startswith("c") and cancel.start() + line_start > 0 and \
                folded[cancel.start() + line_start - 1].isascii() and folded[cancel.start() + line_start - 1].isalpha() and \
                not _after_card_letters(folded, cancel.start() + line_start):
            cancel = None  # EC（９弱）: the c ends a word (EC, energy cannon's initials), no cancel's C(
        if opened >= 0 and cancel is None:
            return None  # the close of a remark's bracket (（前進投げ）): a separator, as its open was
        return i + 1
    before = folded[i - 1] if i else " "
    if before.isascii() and before.isalpha() and not (ch == "c" and _after_card_letters(folded, i)):
        return None
    m = _CANCEL_WORD.match(folded, i)
    if m:
        j = m.end()
        while j < len(folded) and folded[j] in " \u3000":
            j += 1
        if j < len(folded) and folded[j] in _OPENS:
            return j + 1  # the marker and its bracket; the two cards inside are read as any words are
        if m.group() != "c" or not (m.end() < len(folded) and folded[m.end()].isascii() and folded[m.end()].isalpha()):
            return m.end()
    m = _ASCII_CARD_RUN.match(folded, i)
    if m:
        return m.end()
    return None


def _after_card_letters(folded: str, i: int) -> bool:
    """The c at ``i`` is a cancel's C( written right after a run of card letters (LC(L4), HC(弱←))."""
    start = i
    while start > 0 and folded[start - 1].isascii() and folded[start - 1].isalpha():
        start -= 1
    m = _ASCII_CARD_RUN.match(folded, start)
    return m is not None and m.end() == i


_CARD_TEXT = frozenset("弱強→←↑ \t\n\r\u3000")


def _only_cards(norm: str) -> bool:
    """Card symbols and spaces only: the scanner would read each symbol as itself and each space
    as a space, with nothing to note — the same text, without the scanner (a bot, a cold replay)."""
    return all(ch in _CARD_TEXT for ch in norm)


_KANJI_DIGITS = {"一": "1", "二": "2", "三": "3", "四": "4", "五": "5"}
_NUMPAD = {"6": "→", "4": "←", "8": "↑", "9": "↑→", "7": "↑←"}
_CLOSING = {"(": ")", "[": "]", "{": "}", "「": "」", "【": "】", "〔": "〕"}


def _by_reading(tok: Piece, src: Text, lexicon: Lexicon) -> bool:
    """A near miss that is its word by the lexicon's reading rules alone (なけ: 投げ with its
    dakuten dropped; a small kana, a long mark): the word as written, no guess."""
    if not tok.corrected or tok.word is None:
        return False
    found = lexicon.near(src.norm[tok.start:tok.end])
    return bool(found) and found[0][0] <= 0 and found[0][2].concept == tok.word.concept


def _guessed_lines(tokens: list[Piece], src: Text, lexicon: Lexicon) -> list[Piece]:
    """A line after the plot whose only order words are near misses (距離詰めます, いけるかな) is
    chat about the plot, not more cards: its near misses are dropped (chat_lines then names it).
    A line whose every word is an order word by its reading (``なけ`` under ``ぜんしん``: 投げ, its
    dakuten dropped) is an order line, as the same word on the first line is."""
    lines = lines_of(tokens, src)
    seen_order = False
    for line in lines:
        exact = any(t.kind in ("word", "symbol") for t in line)
        guessed = [t for t in line if t.kind == "unknown" and (t.corrected or t.candidates)]
        said = [t for t in line if t.kind not in ("sep", "laugh", "comment")]
        if guessed and not exact and all(t.kind == "unknown" and _by_reading(t, src, lexicon) for t in said):
            exact = True
        if seen_order and guessed and not exact:
            for t in guessed:
                t.word, t.corrected, t.candidates = None, False, ()
        seen_order = seen_order or exact
    return tokens


_THEIRS = ("相手の", "敵の", "向こうの")
_DISCARD = re.compile(r"(?:を|[ \u3000]ヲ)?[ \u3000]*(?:捨て|すて|ステ)(?:て|る|ます|た|テ|ル|マス|タ)?(?:[ \u3000]*て)?[ \u3000]*$")  # を捨てて: the cancel's discarding said
_ROMAJI_DIGITS = {"ichi": "1", "ni": "2", "san": "3", "yon": "4", "go": "5"}
_ROMAJI_COUNT = re.compile(r"(ichi|ni|san|yon|go)-?(kaime|kai)")
_HANGUL = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3131-\u318e]+")


def _script(ch: str) -> str:
    """Which script a letter is written in (a word glossed is written apart from others of its script)."""
    if _HANGUL.match(ch):
        return "hangul"
    if ch.isascii():
        return "latin" if ch.isalnum() else ""
    if "ぁ" <= ch <= "ゖ" or "ァ" <= ch <= "ヺ" or ch == "ー":
        return "kana"
    return "kanji" if kana.has_kanji(ch) else ""


def _emoticon_arms(tokens: list[Piece], src: Text) -> list[Piece]:
    """``(ง •̀_•́)ง``, ``ᕦ(ò_óˇ)ᕤ``, ``୧(๑•̀ᴗ•́)૭``, ``ლ(╹◡╹ლ)``: a face's arms are letters of scripts no player
    writes an order in (Thai, Canadian syllabics, Oriya and Gujarati digits, Georgian), written against its
    bracket — the reader knows some arms (ノ, ゞ, 9, و) and cut these off as words or numbers of their own,
    and refused them. One or two such letters touching an emoticon's bracket are the emoticon's."""
    def foreign(t: Piece) -> bool:
        said = src.norm[t.start:t.end]
        return t.kind in ("unknown", "number") and t.word is None and 1 <= len(said) <= 2 \
            and all(not ch.isascii() and not _script(ch) and unicodedata.category(ch)[0] in "LN" for ch in said)
    for k, t in enumerate(tokens):
        if t.kind != "comment" or src.norm[t.start:t.start + 1] != "(" and src.norm[t.end - 1:t.end] != ")":
            continue
        if k + 1 < len(tokens) and tokens[k + 1].start == t.end and foreign(tokens[k + 1]):
            t.end = tokens[k + 1].end
            tokens[k + 1].kind, tokens[k + 1].start = "sep", t.end
        if k and tokens[k - 1].end == t.start and foreign(tokens[k - 1]):
            t.start = tokens[k - 1].start
            tokens[k - 1].kind, tokens[k - 1].end = "sep", t.start
    return tokens


_COMING = frozenset(("くる", "来る", "きた", "来た", "くるなら", "きたら", "来たら", "くると", "きそう", "来そう"))


def _theirs(tokens: list[Piece], src: Text) -> list[Piece]:
    """``相手の投げが怖いので``: a move said of the opponent (相手の, 敵の before it) is theirs,
    not a card of this plot: the words are passed over as a remark (noted); so is a move coming at
    the player (飛んでくると見た: the te-form and くる; 強攻撃が来そう: the move, が and くる)."""
    out: list[Piece] = []
    k = 0
    while k < len(tokens):
        tok = tokens[k]
        said = src.norm[tok.start:tok.end]
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        joined = said + (src.norm[nxt.start:nxt.end] if nxt is not None else "")
        if tok.kind == "word" and tok.word is not None and said.endswith(("て", "で")) and nxt is not None and \
                nxt.kind == "function" and nxt.start == tok.end and src.norm[nxt.start:nxt.end] in _COMING:
            out.append(Piece(tok.start, nxt.end, "comment"))  # 飛んでくると見た: the opponent coming at them
            k += 2
            continue
        after = tokens[k + 2] if k + 2 < len(tokens) else None
        if tok.kind == "word" and tok.word is not None and nxt is not None and after is not None and nxt.kind == "function" \
                and src.norm[nxt.start:nxt.end] == "が" and nxt.start == tok.end and after.start == nxt.end \
                and src.norm[after.start:after.end].startswith(tuple(_COMING)):
            out.append(Piece(tok.start, after.end, "comment"))  # 強攻撃が来そうなので: the opponent's move coming
            k += 3
            continue
        for head in _THEIRS:
            if said == head or (joined == head and nxt is not None and nxt.kind == "function"):
                j = k + (1 if said == head else 2)
                move = tokens[j] if j < len(tokens) else None
                if move is not None and move.kind in ("word", "symbol", "unknown") and (move.word is not None or move.kind == "symbol"):
                    out.append(Piece(tok.start, move.end, "comment"))  # 相手の投げ: theirs
                    k = j + 1
                    break
        else:
            out.append(tok)
            k += 1
    return out


def _a_word_of_its_own(written: str, meant: str) -> str | None:
    """``かーど`` read as ガード (a sound mark off) is, as written, カード — a word of its own in
    janome's dictionary (card): that word, in katakana; None for a slip that is no word (ガート, がーと)."""
    said = kana.fold(written)
    if not said or not all("ァ" <= ch <= "ヺ" or ch == "ー" for ch in said) or said == kana.fold(meant) \
            or kana.unmarked(said) != kana.unmarked(meant):
        return None
    found = list(kana._tokenizer().tokenize(said))
    return said if len(found) == 1 and found[0].node_type == "SYS_DICT" and found[0].surface == said else None


def _anchors_to_names(tokens: list[Piece], src: Text) -> list[Piece]:
    """``>>楓 飛んできたら…``: >> at a line's start written against a word pbf does not know (a
    name) is an anchor to that poster, as >>12 is — not two 前進 cards."""
    out: list[Piece] = []
    k = 0
    while k < len(tokens):
        tok = tokens[k]
        starts = not out or (out[-1].kind == "sep" and src.norm[out[-1].start:out[-1].end] == "\n")
        pair = tokens[k:k + 3]
        if starts and len(pair) == 3 and all(t.kind == "symbol" and src.norm[t.start:t.end] == ">" for t in pair[:2]) \
                and pair[2].kind == "unknown" and pair[2].word is None and not pair[2].candidates \
                and pair[0].end == pair[1].start and pair[1].end == pair[2].start \
                and (k + 3 == len(tokens) or tokens[k + 3].kind == "sep"):
            out.append(Piece(tok.start, pair[2].end, "anchor"))
            k += 3
            continue
        out.append(tok)
        k += 1
    return out


_SPOKEN_NUMBERS = {"イチ": 1, "ニ": 2, "サン": 3, "ヨン": 4, "シ": 4, "ゴ": 5}  # a phone's voice input: こうどう いち 前ジャンプ に 弱
_KANJI = re.compile(r"[\u4e00-\u9fff々]")
_MOVE_NOUN = re.compile(r"[\u4e00-\u9fff々]+|[ぁ-ゖァ-ヺー]+(?<![てでしテデシ])")
_SLOT_WORDS = ("スロット", "slot", "すろっと")
_TABLE_RULE = re.compile(r"^[ \u3000]*\|?(?:[ \u3000]*:?-{2,}:?[ \u3000]*\|)+(?:[ \u3000]*:?-{2,}:?[ \u3000]*)?$")


def _slot_numbers(tokens: list[Piece], src: Text) -> tuple[list[Piece], list[Problem]]:
    """``1：前進\n2：前進\n3：投げ``, ``1:→ 2:↑ 3:弱``, ``スロット1　前ジャンプ``, ``いち 前ジャンプ に 弱 さん 弱``
    (a phone's voice input), a markdown table with the slots' numbers as its head: the numbers of
    the slots, counted 1, 2, 3… in order (two at least), are which card each is, never a count nor
    a numpad card (4: ← is the fourth slot here) — passed over as the numbers of a list's steps,
    noted. A number that breaks the count (1:→ 3:弱) is read as before."""
    notes: list[Problem] = []

    def text(t: Piece) -> str:
        return src.norm[t.start:t.end]

    def digit(t: Piece) -> bool:
        return t.kind in ("number", "word") and text(t).isdigit() and len(text(t)) <= 2

    def spaced(k: int) -> bool:
        return (k == 0 or (tokens[k - 1].kind == "sep" and text(tokens[k - 1]) in (" ", "\u3000", "\n"))) and \
            (k + 1 == len(tokens) or (tokens[k + 1].kind == "sep" and text(tokens[k + 1]) in (" ", "\u3000", "\n")))

    # a markdown table: | 1 | 2 | 3 |, its rule |---|---|, then the row of cards (its | are the cells' walls)
    lines = lines_of(tokens, src)
    for r, rule in enumerate(lines):
        if not rule or r == 0 or r + 1 >= len(lines) or not _TABLE_RULE.match(src.norm[rule[0].start:rule[-1].end]):
            continue
        head, rows = lines[r - 1], [row for row in lines[r + 1:] if row]
        numbers = [t for t in head if t.kind not in ("sep", "symbol") or text(t) not in ("|", " ", "\u3000")]
        if not head or not rows or not all(digit(t) for t in numbers) or \
                [int(text(t)) for t in numbers] != list(range(1, len(numbers) + 1)) or len(numbers) < 2:
            continue
        row = rows[0]
        if len(rows) > 1 or src.norm[row[0].start:row[-1].end].strip(" \u3000")[:1] != "|":
            continue
        walls = [t for t in row if t.kind == "symbol" and text(t) == "|"]
        if len(walls) != len(numbers) + 1:
            continue
        for t in [*head, *rule, *walls]:
            t.kind, t.word, t.corrected, t.candidates = "sep", None, False, ()
        line, column, shown = src.where(head[0].start, rule[-1].end)
        notes.append(Problem("は表の見出し（何枚目か）として読みました（表の「|」はカードの区切りで、技の区切りではありません）。",
                             line=line, column=column, text=shown.split("\n")[0]))
        return tokens, notes
    # numbered slots: 1: 2: …, スロット1 スロット2 …, いち … に … さん …
    labels: list[tuple[int, int]] = []  # (token index, the number it says)
    for k, t in enumerate(tokens):
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        before = tokens[k - 1] if k else None
        if digit(t) and nxt is not None and nxt.kind == "sep" and text(nxt) == ":" and nxt.start == t.end \
                and (before is None or before.kind == "sep"):
            labels.append((k, int(text(t))))
        elif digit(t) and before is not None and before.end == t.start and fold(text(before)).lower() in map(fold, _SLOT_WORDS):
            labels.append((k, int(text(t))))
        elif t.kind in ("unknown", "function") and kana.fold(text(t)) in _SPOKEN_NUMBERS and spaced(k) \
                and all("\u3041" <= ch <= "\u3096" for ch in text(t)):
            labels.append((k, _SPOKEN_NUMBERS[kana.fold(text(t))]))
    if len(labels) < 2 or [n for _k, n in labels] != list(range(1, len(labels) + 1)):
        return tokens, notes
    # Move 1: forward / Move 2: forward — one word written, then a space, before every number at its line's start is
    # the name of the list's steps (Move, Step, Card, 手), passed over with its number; a word that differs, or one
    # said before only some of the numbers, is read as before
    named = [tokens[k - 2] if k >= 2 and tokens[k - 1].kind == "sep" and text(tokens[k - 1]) in (" ", "\u3000")
             and tokens[k - 2].kind == "unknown" and (k == 2 or text(tokens[k - 3]) == "\n") else None for k, _n in labels]
    said_with = all(named) and len({fold(text(t)).lower() for t in named}) == 1
    spoken = any(not text(tokens[k]).isdigit() for k, _n in labels)
    if spoken and not all(not text(tokens[k]).isdigit() for k, _n in labels):
        return tokens, notes
    out = list(tokens)
    for k, _n in labels:
        t = tokens[k]
        before = tokens[k - 1] if k else None
        if before is not None and before.end == t.start and fold(text(before)).lower() in map(fold, _SLOT_WORDS):
            out[k - 1] = Piece(before.start, before.end, "sep")
        out[k] = Piece(tokens[k - 2].start if said_with else t.start, t.end, "comment", step=True)
    if said_with:  # the name and its space are in the number's note (「Move 1」は注釈として読みませんでした)
        gone = {k - d for k, _n in labels for d in (1, 2)}
        out = [t for k, t in enumerate(out) if k not in gone]
    return out, notes  # each number is noted as a step's (passed_over)


def _neutral_fives(tokens: list[Piece], src: Text) -> tuple[list[Piece], list[Problem]]:
    """``5L 5L 9L``: in numpad notation 5 is neutral (standing where one is), so 5L is L — when the
    post writes numpad notation (another key written against an attack: 9L, 8H, or 5L twice, or a key
    of a card alone: 6 5H); the
    5 is no card and no count, noted. A 5 before any other word is read as before (a count?)."""
    def attack(k: int) -> bool:
        t = tokens[k]
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        return t.kind in ("number", "word") and len(src.norm[t.start:t.end]) == 1 and src.norm[t.start].isdigit() \
            and nxt is not None and nxt.kind == "symbol" and nxt.start == t.end and src.folded[nxt.start:nxt.end] in ("l", "h")
    def key(k: int) -> bool:  # 6, 66, 64: a run of numpad keys of cards, no count (6 5H)
        t = tokens[k]
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        written = src.norm[t.start:t.end]
        return t.kind in ("number", "word") and written.isdigit() and written.isascii() and set(written) <= set("46789") \
            and not (nxt is not None and nxt.kind == "counter")
    keyed = [k for k in range(len(tokens)) if attack(k)]
    fives = [k for k in keyed if src.norm[tokens[k].start] == "5"]
    if not fives or (len(keyed) < 2 and not any(key(k) for k in range(len(tokens)))):
        return tokens, []
    out = list(tokens)
    for k in fives:
        out[k] = Piece(tokens[k].start, tokens[k].end, "sep")
    line, column, shown = src.where(tokens[fives[0]].start, tokens[fives[0]].end)
    return out, [Problem("はテンキーの5（その場、ニュートラル）として読みました（カードは出しません：5L は弱）。",
                         line=line, column=column, text=shown)]


_LIST_ITEM = re.compile(r"""\s*(["'])([^"'\n]{1,8})\1\s*(?:,|(?=\]))""")


def _list_literals(tokens: list[Piece], src: Text) -> tuple[list[Piece], list[Problem]]:
    """``["^", "->", "L"]``: a list as a program writes it, each item in quotes a card's symbol, is the
    plot (the scanner had passed the bracket over as a remark): read as those symbols, noted."""
    notes: list[Problem] = []
    out: list[Piece] = []
    for tok in tokens:
        said = src.folded[tok.start:tok.end]
        if tok.kind != "comment" or not said.startswith("[") or not said.endswith("]"):
            out.append(tok)
            continue
        items, at = [], 1
        while at < len(said) - 1:
            m = _LIST_ITEM.match(said, at)
            if m is None:
                break
            start = tok.start + m.start(2)
            end = _symbol(src.folded, start)
            if end != tok.start + m.end(2):
                break
            items.append(Piece(start, end, "symbol"))
            at = m.end()
        if not items or said[at:].strip() != "]":
            out.append(tok)
            continue
        pieces, cursor = [], tok.start
        for item in items:
            pieces.append(Piece(cursor, item.start, "sep"))
            pieces.append(item)
            cursor = item.end
        pieces.append(Piece(cursor, tok.end, "sep"))
        out.extend(pieces)
        line, column, shown = src.where(tok.start, tok.end)
        notes.append(Problem("はプログラムのリストの書き方として、引用符の中のカードを読みました。", line=line, column=column, text=shown))
    return out, notes


def _not_read(src: Text, start: int, end: int, what: str, named: list[str], hint: str) -> Problem:
    """The note for a part of a post passed over as ``what`` (コメント, 引用, 雑談): a warning that
    names the card words it held (「弱」は行動に入れていません) with ``hint``, else a plain note."""
    line, column, shown = src.where(start, end)
    if named:
        words = "」「".join(dict.fromkeys(named))
        return Problem(f"は{what}として読みませんでした（「{words}」は行動に入れていません）。",
                       line=line, column=column, text=shown, severity="warning", hint=hint)
    return Problem(f"は{what}として読みませんでした。", line=line, column=column, text=shown)


def _code_comments(tokens: list[Piece], src: Text) -> tuple[list[Piece], list[Problem]]:
    """``L L L L L  // 5 renda``, ``["^", "->", "L"]  # python no list de kaita``: a programmer's
    comment — ``//`` or ``#`` after the plot on its line, apart from it by a space, and a space
    after it (or a hashtag: ``6LL　#固め``, # against a Japanese word) — is the player's remark, to the line's end: passed over, warned when it holds order
    words or numbers (5 renda says again L L L L L; a GM would not read it as more cards)."""
    notes: list[Problem] = []
    out = list(tokens)
    for k, tok in enumerate(tokens):
        said = src.norm[tok.start:tok.end]
        two = said == "/" and k + 1 < len(tokens) and src.norm[tokens[k + 1].start:tokens[k + 1].end] == "/" \
            and tokens[k + 1].start == tok.end
        if not (said == "#" or two) or k == 0 or src.norm[tok.start - 1] not in " \u3000":
            continue
        after = tok.end + (1 if two else 0)
        # a hashtag after the plot (6LL　#固め): # against a word that is no card's letter or digit
        if after >= len(src.norm) or (src.norm[after] not in " \u3000" and (two or src.norm[after].isascii() or src.norm[after] in "弱強")):
            continue
        line_start = src.norm.rfind("\n", 0, tok.start) + 1
        if not src.norm[line_start:tok.start].strip():
            continue  # a line of its own that starts so: read as before
        line_end = src.norm.find("\n", tok.start)
        line_end = len(src.norm) if line_end < 0 else line_end
        inside = [t for t in tokens[k:] if t.start < line_end]
        ordered = [src.norm[t.start:t.end] for t in inside
                   if t.kind in ("word", "symbol", "number") or (t.kind == "unknown" and (t.corrected or t.candidates))]
        notes.append(_not_read(src, tok.start, line_end, f"コメント（{said * (2 if two else 1)} の後ろ）", ordered,
                               "行動の続きなら、コメントの前に書いてください。"))
        for j in range(k, k + len(inside)):
            out[j] = Piece(tokens[j].start, tokens[j].end, "sep")
        break
    return out, notes


# what says a technique is not meant, right after its name: 対空技にはしない, 対空化させない, taikuu ja nakute
_NOT_MEANT = re.compile(r"[ \u3000]*(?:ニハシナイ|ニシナイ|ニハナラナイ|ニナラナイ|化サセナイ|化シナイ|ジャナク|ジャナイ|デハナク|デハナイ"
                        r"|ノツモリデハ|ノツモリジャ|ja ?naku|ja ?nai|jya ?naku|dewa ?naku|ni wa shinai|ni shinai)")


def _NOT_MEANT_WORD(tok: Piece, src: Text) -> bool:
    """The word is a technique's name followed by what says it is not meant."""
    return tok.word is not None and tok.word.technique and len(str(tok.word.value)) >= 2 \
        and _NOT_MEANT.match(src.folded, tok.end) is not None


def _apart(plot: Plot, not_meant: list[tuple[str, int, int, str]], table: dict[str, Any] | None) -> tuple[Plot, list[Problem]]:
    """The plot's cards that would read as a technique the player says they do not mean
    (対空技にはしない under ジャンプ 弱: ↑弱) are read apart: a ｜ before the technique's last card,
    when the cards before it are a technique of their own or one card (↑｜弱, ↑→｜弱), warned; asked
    otherwise. A technique not in the plot's reading needs nothing."""
    if not not_meant or not table:
        return plot, []
    from .reading import read_cards

    items = list(plot.items)
    out: list[Problem] = []
    for cards, line, column, shown in not_meant:
        segment: list[int] = []
        for index, item in enumerate((*items, None)):
            if isinstance(item, Card):
                segment.append(index)
                continue
            at = 0
            for read in read_cards([items[k] for k in segment], table):
                if read.cards == cards:
                    head = cards[:-1]
                    if len(head) != 1 and head not in table:
                        raise OrderError([Problem(f"のカード（{cards}）は続けて読むと「{read.technique.name}」です。どう分けるか読めません。",
                                                  line=line, column=column, text=shown,
                                                  hint="別々の技にするなら「｜」で区切って書いてください。")])
                    last = items[segment[at + len(cards) - 1]]
                    items.insert(segment[at + len(cards) - 1], Split(last.line, last.column, ""))
                    out.append(Problem(f"とあるので、{read.technique.name}にせず「{head}｜{cards[-1]}」と読みました。",
                                       line=line, column=column, text=shown, severity="warning",
                                       hint=f"{read.technique.name}のつもりなら「{cards}」と書いてください。"))
                    break
                at += len(read.cards)
            else:
                segment = []
                continue
            break
    return Plot(tuple(items), plot.notes), out


_LOTS = re.compile(r"を?[ \u3000]*(?:いっぱい|イッパイ|たくさん|沢山|たっぷり|何回も|なんかいも|何発も|なんぱつも)")


def _nothing_read(tokens: list[Piece]) -> bool:
    """No token of the post is one a plot is read from."""
    return not any(t.kind in ("word", "symbol", "number", "unknown", "negation", "counter") for t in tokens)


def _pointer_remarks(tokens: list[Piece], src: Text) -> list[Piece]:
    """``弱→強 ←これでどうだ``: an arrow pointing back at the order from a remark after it (a
    ← or <- written against words that are no order word, to the end of the line) is part of
    the remark, not a card."""
    for k, tok in enumerate(tokens):
        said = src.norm[tok.start:tok.end] if tok.kind == "symbol" else ""
        # ↑これで！ on the line after the order points up at it, as ← points back on its line
        up = said in ("↑", "⬆", "^") and k > 0 and tokens[k - 1].kind == "sep" and src.norm[tokens[k - 1].start:tokens[k - 1].end] == "\n"
        if said not in ("←", "<-", "⬅") and not up:
            continue
        after = tokens[k + 1:]
        line_end = next((j for j, t in enumerate(after) if t.kind == "sep" and src.norm[t.start] == "\n"), len(after))
        rest = after[:line_end]
        spaced = k > 0 and tokens[k - 1].kind == "sep"
        if rest and spaced and any(t.kind in ("unknown", "laugh") and not t.corrected for t in rest) \
                and not any(t.kind == "symbol" for t in rest) and any(t.kind in ("word", "symbol") for t in tokens[:k]):
            for t in rest:
                if t.kind not in ("function", "laugh", "sep", "comment"):
                    t.kind, t.word, t.corrected, t.candidates = "unknown", None, False, ()
            tok.kind = "unknown"
    return tokens


# a condition or a purpose said after the plot (飛んだら落とす, 来なかったら, キャノン化せんように)
# a card said not put in, after its word: 弱攻撃は入れていません, 強は出さない, 投げは使いません
_NOT_PUT_IN = re.compile(r"[はを]?(?:入れて(?:い|は|お)?(?:ません|ない)|入れ(?:ません|ない)|出して(?:い)?(?:ません|ない)|出(?:しません|さない)"
                         r"|使って(?:い)?(?:ません|ない)|使(?:いません|わない))")
_CONDITION = re.compile(r"[たっだ]ら|なら|れば|ように|ないよう|んよう|作戦")  # 作戦: 近づいて待つ作戦, the plan said
_CLAUSE_STOPS = frozenset((" ", "\u3000", "、", ",", "，", "。"))
_PART = re.compile(r"[(\[]\s*([1-9])\s*/\s*([1-9])\s*[)\]]")  # (1/2): a part of a post split as a thread's
_GOES_ON = re.compile(r"[ \u3000]*(?:それから|その後|そのあと|その次|次に|つぎに|続けて|つづけて|あとは|後は|最後に|さいごに|then|and then|after that)")  # a line that goes on with the order
_TALK_END = re.compile(r"(?:です|ます|ません|ました|でした|つもり|予定)[。.!！]*$")  # a sentence's polite end (talk, not an order's words)
_CLAUSE_CORRECTION = re.compile(r"間違|まちが|訂正|やっぱ|やはり|じゃなく|ではなく|代わり|かわり")


_PASSED = ("sep", "function", "laugh", "comment", "anchor", "flavour")  # tokens that are no part of the plot


_TIMES_COUNTERS = frozenset(("回", "かい", "度", "発", "連", "連発", "回目", "枚", "kai", "times", "time"))
_KANA_COUNTS = {"に": 2, "さん": 3, "よん": 4, "ご": 5,  # 前進に回: the count typed in kana (に is also a particle)
                "ニ": 2,  # 前進ニ回: katakana ニ for 二, the kanji it looks like (an IME's or a hand's slip)
                "いっ": 1, "いち": 1,  # こうげき いっかい: 一回 said (voice input) or typed in kana
                "壱": 1, "弐": 2, "参": 3}  # 弱攻撃参回: an IME's 大字 for 一・二・三


def _significant(tokens: list[Piece]) -> list[Piece]:
    """The tokens that say something of the plot (words, symbols, numbers, unknown runs)."""
    return [t for t in tokens if t.kind not in _PASSED]


def _names_a_move(tok: Piece) -> bool:
    """The token is a technique's name of two cards or more (エナジーキャノン, 前ジャンプ, 飛び込み)."""
    return tok.kind in ("word", "unknown") and tok.word is not None and tok.word.technique and len(str(tok.word.value)) > 1


# a line that says the arrows are "then" (↑の矢印は「次に」のつもり, →は「その後」の意味です)
_ARROW_GLOSS = re.compile(r"(?:矢印|やじるし|ヤジルシ|→|->)(?:の記号)?は[「『\"]?(?:次に|つぎに|その後|そのあと|それから|then|順番)[」』\"]?"
                          r"(?:の|って)?(?:つもり|意味|いみ)")


def _arrow_between_words(tokens: list[Piece], src: Text) -> list[Problem]:
    """``エナジーキャノン→弱攻撃``, ``前ジャンプ→強``: a lone → written against a technique's name
    is a 前進 card by the grammar — or "then". Read as the card, with a warning naming the other
    reading (a run of arrows, 弱→→弱強, is cards)."""
    out: list[Problem] = []
    gloss = _ARROW_GLOSS.search(src.norm)
    glossed = gloss.group() if gloss else ""
    significant = _significant(tokens)
    for k, tok in enumerate(significant):
        if gloss is not None and tok.start >= gloss.start():
            break
        if tok.kind != "symbol" or src.norm[tok.start:tok.end] not in ("→", "->", "➡"):
            continue
        before = significant[k - 1] if k > 0 else None
        after = significant[k + 1] if k + 1 < len(significant) else None
        if before is None or after is None:
            continue
        arrows = [t for t in (before, after) if t.kind == "symbol" and src.norm[t.start:t.end] in ("→", "->", "➡")]
        named = [t for t in (before, after) if _names_a_move(t)]
        # ガード→前進→強, 前進×2→弱: an arrow between words (or after a count) reads as "then" as well
        worded = [t for t in (before, after) if t.kind in ("word", "unknown", "number", "counter") and
                  (t.word is not None or t.kind in ("number", "counter"))]
        if arrows or not (named or worded):
            continue
        line, column, shown = src.where(tok.start, tok.end)
        what = "技の名前" if named else "語"
        first = (named or worded)[0]
        if glossed:  # ↑の矢印は「次に」のつもり: the post says what its arrows are — separators
            out.append(Problem(f"は投稿の説明（{glossed}）から「次に」の区切りとして読みました（カードは出しません）。",
                               line=line, column=column, text=shown))
            tok.kind = "sep"
            continue
        out.append(Problem(f"は前進（→）のカードとして読みました（{what}の{'後' if first is before else '前'}の→です）。",
                           line=line, column=column, text=shown, severity="warning",
                           hint="「次に」のつもりなら、→ではなく空白か「、」で区切ってください。"))
    return out


_LETTER_CARDS = {"l": "弱", "h": "強", "^": "↑"}
# a bare direction, which takes に as its particle (前に, うしろに): まえに回 is no 2回 for sure (folded)
# words of sequence that end where the next word begins (a kanji after them stands alone: そのあと若)
_THEN_BEFORE_KANJI = frozenset(("そのあと", "その後", "それから", "次に", "つぎに", "あと", "最後に", "さいごに", "続けて"))
_DIRECTIONS = frozenset(("前", "マエ", "後ロ", "後", "ウシロ", "上", "ウエ"))
# a bare direction before the word jump, apart from it by a space (うしろ じゃんぷ): which jump (folded)
_JUMP_WAYS = {"前": "前ジャンプ", "マエ": "前ジャンプ", "後ロ": "後ろジャンプ", "後": "後ろジャンプ", "ウシロ": "後ろジャンプ"}
_TALK_STOPS = " \u3000、。,.!！?？…〜~"
_CARD_KANJI_ONLY = re.compile(r"[弱強]+")  # cards written as kanji: a plot in words, not notation


def _named_after_symbols(tokens: list[Piece], src: Text) -> list[Problem]:
    """``8｜L　飛び込み``: a technique's name written apart after a plot in symbols, the last word
    of its line, may be the plot's description rather than more cards: read as cards, warned."""
    out: list[Problem] = []
    significant = _significant(tokens)
    lines = [src.where(t.start)[0] for t in significant]
    for k, tok in enumerate(significant):
        if not _names_a_move(tok):
            continue
        before = [t for t, line in zip(significant[:k], lines) if line == lines[k]]
        after = [t for t, line in zip(significant[k + 1:], lines[k + 1:]) if line == lines[k]]
        above = [t for t, line in zip(significant[:k], lines) if line == lines[k] - 1]
        if not before and not after and above and len(above) == k and all(
                t.kind == "symbol" or (t.kind == "word" and t.end - t.start == 1) for t in above):
            # ↑←\n後ろジャンプで逃げ！: a sentence on the line below a plot in symbols that names the
            # technique those symbols make, and says more of it, is their gloss (it was read ↑←↑←)
            line_end = src.norm.find("\n", tok.end)
            rest = src.norm[tok.end:len(src.norm) if line_end < 0 else line_end].strip(" \u3000")
            made = "".join(str(t.word.value) if t.kind == "word" else "".join(
                _NUMPAD.get(d, _LETTER_CARDS.get(d, d)) for d in src.folded[t.start:t.end]) for t in above)
            if rest and tok.word.value and made == str(tok.word.value):
                where_line, column, shown = src.where(tok.start, tok.end)
                out.append(Problem("は上の行の記号の技の名前として読みました（カードは出しません）。", line=where_line,
                                   column=column, text=shown))
                tok.kind, tok.word = "sep", None
                continue
        spaced = tok.start > 0 and src.norm[tok.start - 1] in " \u3000"
        if after or not spaced or len(before) < 2 or not all(
                t.kind in ("symbol", "number") or (t.kind == "word" and t.end - t.start == 1) for t in before):
            continue
        where_line, column, shown = src.where(tok.start, tok.end)
        made = "".join(str(t.word.value) if t.kind == "word" else "".join(_NUMPAD.get(d, _LETTER_CARDS.get(d, d))
                                                                          for d in src.folded[t.start:t.end]) for t in before)
        if tok.word.value and made.endswith(str(tok.word.value)):  # 8L　対空: the name of the technique the symbols make
            out.append(Problem("は直前の記号の技の名前として読みました（カードは出しません）。", line=where_line, column=column, text=shown))
            tok.kind, tok.word = "sep", None
            continue
        out.append(Problem(f"は{tok.word.shown}（{tok.word.value}）のカードとして読みました（記号の後に離して書かれています）。",
                           line=where_line, column=column, text=shown, severity="warning",
                           hint="前の記号の説明のつもりなら、この語は消してください。"))
    return out


class _Source:
    """What the player wrote, read the way a GM reads it (pbf.reader): every character is an
    order word (replaced by the cards it stands for), a symbol of the grammar, a separator, a
    function word, a remark or a chat line (passed over, with a note), or a problem. ``norm`` is
    what lark reads; ``where`` maps a span of it back to the player's own line and column."""

    def __init__(self, text: str, words: "dict[str, str] | Lexicon | None" = None):
        self.text = text
        self.lexicon = lexicon_of(words)
        self.notes: list[Problem] = []
        self.problems: list[Problem] = []
        self.named: set[int] = set()  # positions (in what lark reads) of cards from a technique's name
        self.not_meant: list[tuple[str, int, int, str]] = []  # 対空技にはしない: (cards, line, column, as written)
        self.source = Text(text)
        if _only_cards(self.source.norm):  # the common plot (弱→→弱強): nothing to look up or pass over
            src = self.source
            self.norm = "".join(" " if ch.isspace() else ch for ch in src.norm)
            self.origin = [src.span(k, k + 1) for k in range(len(src.norm))]
            return
        tokens = self._kanji_after_then(resolve_unknowns(scan(self.source, self.lexicon, _symbol), self.source, self.lexicon))
        tokens = self._manner_before(_emoticon_arms(tokens, self.source))
        tokens = self._open_count(self._functions_apart(self._kifu_same(tokens)))
        self._part_missing()
        tokens = self._spaced_then(self._adjective_attack(self._particle_slips(self._katakana_functions(tokens))))
        self._today_or_strong(tokens)
        tokens = self._hangul_after(self._glossed(tokens))
        tokens = self._cancel_in_words(self._count_inside_phrase(self._romaji_counts(tokens)))
        self._lots(tokens)
        tokens = self._jump_by_direction(tokens)
        tokens = self._not_put_in(tokens)
        tokens = self._not_meant(tokens)
        tokens, listed = _list_literals(tokens, self.source)
        self.notes.extend(listed)
        tokens, comments = _code_comments(tokens, self.source)
        self.notes.extend(comments)
        tokens, slots = _slot_numbers(tokens, self.source)
        self.notes.extend(slots)
        tokens, fives = _neutral_fives(tokens, self.source)
        self.notes.extend(fives)
        tokens = self._nothing_by_reading(self._talk_before_marker(self._marker_in_kana(_anchors_to_names(tokens, self.source))))
        tokens = self._talk_after_nothing(tokens)
        self._waiting_after_move(tokens)
        tokens, back = taken_back(tokens, self.source)
        self.notes.extend(back)
        tokens = flavour(_pointer_remarks(_theirs(tokens, self.source), self.source), self.source)
        tokens = _guessed_lines(tokens, self.source, self.lexicon)
        tokens = self._same_move_twice(tokens)
        tokens = self._aimed_at(tokens)
        tokens = self._explaining(self._jargon(self._quoted(tokens)))
        tokens = self._talk_below(self._restated_below(tokens))
        named_after = _named_after_symbols(tokens, self.source)
        tokens, restated = self._said_of_notation(tokens)
        self.notes.extend(n for n in named_after if (n.line, n.column) not in restated)
        self.notes.extend(_arrow_between_words(tokens, self.source))
        said = _significant(tokens)
        if len(said) == 1 and said[0].word is not None and said[0].word.value == "" and \
                self.source.norm[said[0].start:said[0].end].startswith(("様子見", "様子を見")):
            # 【行動】様子見 alone: standing still (なし) or guarding (←)? — a GM asks; said with a plot it is its remark
            line, column, shown = self.source.where(said[0].start, said[0].end)
            self.problems.append(Problem("は何もしない（なし）とも、ガード（←）とも読めます。", line=line, column=column, text=shown,
                                         hint="何もしないなら「なし」、ガードなら「ガード」と書いてください。"))
        if self.source.norm.strip() and _nothing_read(tokens):
            # punctuation, a laugh, chat alone: nothing is read as a plot (never an empty plot by default)
            self._nothing("何もしないなら「なし」と書いてください。")
        tokens, chat = chat_lines(tokens, self.source, prose=True)  # a plot is one line: a sentence after it is about it
        tokens, remarks = chat_sentences(tokens, self.source, prose=True)
        self.notes.extend(chat + remarks)
        if remarks and not self.problems and _nothing_read(tokens):
            self._nothing("出すカードか技の名前を書いてください。何もしないなら「なし」。")  # 必殺技を出します: chat, and no plot
        self.notes.extend(passed_over(tokens, self.source))
        self._both_sides(tokens)
        self._english_aside(tokens)
        self._applause(tokens)  # after the talk is passed over: only 8s read as cards
        self._cut_short(tokens)
        self._two_or_particle(tokens)
        self._emit(tokens)

    def _kanji_after_then(self, tokens: list[Piece]) -> list[Piece]:
        """``旋風脚、そのあと若``: a kanji of a card's reading (若 for 弱: an IME's conversion of じゃく) is that
        card where it stands alone (the reader's own rule: separators on both sides); a word of sequence just
        before it (そのあと, それから, 次に, あと) stands between words as a separator does — the kanji is no
        part of a word there (そのあと is whole). Noted as the reader's near misses are; it was refused."""
        src = self.source
        for k, t in enumerate(tokens):
            if t.kind != "unknown" or t.word is not None or t.candidates or t.end - t.start != 1 or not k:
                continue
            before, after = tokens[k - 1], tokens[k + 1] if k + 1 < len(tokens) else None
            if before.kind != "function" or src.norm[before.start:before.end] not in _THEN_BEFORE_KANJI:
                continue
            if after is not None and after.kind not in ("sep", "comment", "symbol"):
                continue
            found = self.lexicon.same_kanji(src.norm[t.start:t.end])
            if found is not None:
                tokens[k] = Piece(t.start, t.end, "unknown", found, corrected=True)
        return tokens

    def _manner_before(self, tokens: list[Piece]) -> list[Piece]:
        """``全身全霊で強攻撃！``, ``本気で強攻撃``: a word of kanji no reader knows (and near no word of the game:
        no candidate, not corrected), then で, then an order word, at the start of a clause, says how the card is
        played (with all one's soul, in earnest) — as 全力で already does (a function word). Passed over,
        warned (it was refused). Not when the word is near a word of the game (全身 alone is 前進: an IME's)."""
        src = self.source
        for k in range(len(tokens) - 2):
            t, de, nxt = tokens[k], tokens[k + 1], tokens[k + 2]
            said = src.norm[t.start:t.end]
            if t.kind != "unknown" or t.word is not None or t.candidates or t.corrected \
                    or not 2 <= len(said) <= 4 or not all("\u4e00" <= ch <= "\u9fff" for ch in said):
                continue
            if de.kind != "function" or src.norm[de.start:de.end] != "で" or de.start != t.end:
                continue
            if nxt.kind not in ("word", "symbol") or (nxt.kind == "word" and nxt.word is None):
                continue
            if k and tokens[k - 1].kind not in ("sep", "comment", "anchor"):
                continue
            line, column, shown = src.where(t.start, de.end)
            self.notes.append(Problem("は行動の語ではないとして読みませんでした（カードの出し方を言う言葉として）。", line=line,
                                      column=column, text=shown, severity="warning",
                                      hint="行動のつもりなら、カードか技の名前で書いてください。"))
            t.kind, de.kind = "sep", "sep"
        return tokens

    def _kifu_same(self, tokens: list[Piece]) -> list[Piece]:
        """``▲弱 ▲同 ▲同``, ``▲前進 ▲同 ▲投げ``: a shogi player's 棋譜 — ▲ (or △) before each move, 同 for the
        same again. 同 alone after its mark, where the mark before it opened a move of cards, is that move again
        (弱弱弱; ▲↑→ ▲弱 ▲同 is ↑→弱弱: the move after the last mark, never the whole plot), noted; a move of more
        than one card (▲弱強 ▲同) again is warned (the last card alone may be meant). A 同 with no move of cards
        before it (▲同 first, ▲様子見 ▲同) is left unknown, as before."""
        src = self.source
        marks = [k for k, t in enumerate(tokens) if t.kind == "comment" and src.norm[t.start:t.end] in ("▲", "△")]
        if len(marks) < 2:
            return tokens
        out = list(tokens)
        again: dict[int, str] = {}  # where a 同 was read: the move it says again, as written (▲弱 ▲同 ▲同)
        for n, k in enumerate(marks):
            same = next((j for j in range(k + 1, len(tokens)) if tokens[j].kind != "sep"), None)
            if n == 0 or same is None or tokens[same].kind != "unknown" or src.norm[tokens[same].start:tokens[same].end] != "同":
                continue
            after = tokens[same + 1] if same + 1 < len(tokens) else None
            if after is not None and not (after.kind == "sep" or (after.kind == "comment" and after in [tokens[m] for m in marks])):
                continue  # 同じ, 同時: another word
            move = [t for t in out[marks[n - 1] + 1:k] if t.kind != "sep"]
            if not move or "\n" in src.norm[out[marks[n - 1]].start:tokens[same].start]:
                continue
            cards = ""
            for t in move:
                letters = "".join({"l": "弱", "h": "強"}.get(ch, ch) for ch in src.folded[t.start:t.end].lower())
                if t.kind == "symbol" and all(ch in "弱強→←↑" for ch in letters):
                    cards += letters  # ▲L ▲同: a card's letter is its card
                elif t.kind == "word" and t.word is not None and t.word.kind == "order" and isinstance(t.word.value, str) \
                        and t.word.value and all(ch in "弱強→←↑" for ch in t.word.value):
                    cards += t.word.value
                else:
                    cards = ""
                    break
            if not cards:
                continue
            technique = any(t.kind == "word" and t.word.technique for t in move)
            said = " ".join(again.get(t.start) or src.where(t.start, t.end)[2] for t in move)
            again[tokens[same].start] = said
            word = Word(cards, "同", "order", cards, technique=technique, guess=False, slip=False)
            line, column, shown = src.where(tokens[same].start, tokens[same].end)
            if len(cards) > 1:
                self.notes.append(Problem(f"を前の手と同じ「{said}」（{cards}）と読みました（最後のカードだけなら、そのカードを書いてください）。",
                                          line=line, column=column, text=shown, severity="warning"))
            else:
                self.notes.append(Problem(f"を前の手と同じ「{said}」（{cards}）と読みました。", line=line, column=column, text=shown))
            out[same] = Piece(tokens[same].start, tokens[same].end, "word", word)
        return out

    def _english_aside(self, tokens: list[Piece]) -> None:
        """``[action] 4 4 (turtle up)``: after the plot on its line, a bracket that closes the line and holds
        English words, one of them (four letters at least) near no word of the game — an aside (turtle up:
        to defend), passed over, warned with the order words inside it (up is a jump's word). A bracket of
        order words alone (弱 (jump) 強), or with a slip of one (jmup), is read as before."""
        src = self.source
        for line in lines_of(tokens, src):
            said = [t for t in line if t.kind != "sep" or src.norm[t.start:t.end] in ("(", ")")]
            if len(said) < 4 or src.norm[said[-1].start:said[-1].end] != ")":
                continue
            opened = max((k for k, t in enumerate(said) if src.norm[t.start:t.end] == "("), default=-1)
            inside, before = said[opened + 1:-1], said[:opened]
            if opened < 1 or not inside or not any(t.kind in ("word", "symbol") for t in before):
                continue
            if not all(t.kind in ("word", "unknown") and src.norm[t.start:t.end].isascii() and src.norm[t.start:t.end].isalpha()
                       for t in inside):
                continue
            if not any(t.kind == "unknown" and t.word is None and not t.candidates and t.end - t.start >= 4
                       and self.suggestion(src.norm[t.start:t.end]) is None for t in inside):
                continue
            named = [src.norm[t.start:t.end] for t in inside if t.word is not None]
            line_no, column, shown = src.where(said[opened].start, said[-1].end)
            words = f"（「{'」「'.join(named)}」は行動に入れていません）" if named else ""
            self.notes.append(Problem(f"は行動の後ろの注釈として読みませんでした{words}。", line=line_no, column=column, text=shown,
                                      severity="warning", hint="行動のつもりなら、括弧の外にカードか技の名前で書いてください。"))
            for t in inside:
                t.kind, t.word, t.corrected, t.candidates = "sep", None, False, ()

    def _both_sides(self, tokens: list[Piece]) -> None:
        """``▲前進 △ジャンプ ▲対空 △前進``: in 棋譜 ▲ is one side's move and △ the other's — a plot with both
        marks before its moves may be the player's moves and the opponent's replies he reads, or all his own: asked."""
        src = self.source
        before = {}
        for k, t in enumerate(tokens):
            if t.kind == "comment" and src.norm[t.start:t.end] in ("▲", "△"):
                nxt = next((u for u in tokens[k + 1:] if u.kind != "sep"), None)
                if nxt is not None and nxt.kind in ("word", "symbol"):
                    before.setdefault(src.norm[t.start:t.end], t)
        if len(before) == 2:
            line, column, shown = src.where(before["△"].start, before["△"].end)
            self.problems.append(Problem("と▲が両方、手の前にあります（△は相手の手の読みかもしれません）。", line=line, column=column,
                                         text=shown, hint="自分の出すカードだけを書いてください（▲・△は付けなくてかまいません）。"))

    def _part_missing(self) -> None:
        """``【行動】→→弱 (1/2)``: a post marked as a part of a thread ((1/2), （1/3）) whose later
        parts are not in it — the rest may have been posted apart, or never: the plot may be cut
        short. Read as written, warned (a post that holds (1/2) and (2/2) is whole)."""
        src = self.source
        parts = [(m, int(m.group(1)), int(m.group(2))) for m in _PART.finditer(src.norm)]
        if not parts:
            return
        whole = max(total for _m, _n, total in parts)
        if whole < 2 or whole > 9 or max(n for _m, n, _t in parts) >= whole:
            return
        m, n, total = max(parts, key=lambda p: p[1])
        line, column, shown = src.where(m.start(), m.end())
        self.notes.append(Problem(f"とありますが、続き（{n + 1}/{total}）がこの投稿にありません。行動が途中までかもしれません。",
                                  line=line, column=column, text=shown, severity="warning",
                                  hint="続きがあるなら、行動を一つの投稿にまとめて書いてください。"))

    def _applause(self, tokens: list[Piece]) -> None:
        """``【行動】888``: three 8s or more written together, a word of their own, are numpad's ↑↑↑ — or
        the applause of a ニコニコ comment (8 is ハチ: パチパチ). Read as numpad, warned: a GM asks
        whether it is a plot (8 8 8 apart, or 88 inside a plot of digits, is numpad only)."""
        src = self.source
        for tok in tokens:
            said = src.norm[tok.start:tok.end]
            if tok.kind != "number" or len(said) < 3 or set(said) != {"8"}:
                continue
            if (tok.start and src.norm[tok.start - 1] not in " \u3000\n】:：") or \
                    (tok.end < len(src.norm) and src.norm[tok.end] not in " \u3000\n!！"):
                continue
            line, column, shown = src.where(tok.start, tok.end)
            self.notes.append(Problem(f"をテンキーの{'↑' * len(said)}（垂直ジャンプ{len(said)}回）と読みました。"
                                      f"ニコニコの拍手（{said}）のつもりかもしれません。", line=line, column=column,
                                      text=shown, severity="warning",
                                      hint=f"拍手なら行動の行から消し、行動を書き直してください（垂直ジャンプなら「{'↑' * len(said)}」と書くと確実です）。"))

    def _open_count(self, tokens: list[Piece]) -> list[Piece]:
        """``弱攻撃を2回か3回``, ``前進2〜3回``, ``弱を2か3回``: two counts of one card with か (or), 〜 or
        - between them leave the count open — a GM asks which; refused, naming both (it had read
        弱弱弱弱, or said only that a number names no card). Only a count of a card said beside it
        (a word or a card before it, or after it), on its line."""
        src = self.source
        said = [t for t in tokens if t.kind != "sep" or src.norm[t.start:t.end] == "\n"]
        for k, first in enumerate(said):
            if first.kind != "number" or not src.norm[first.start:first.end].isdigit():
                continue
            j = k + 1
            counter = j < len(said) and said[j].kind == "counter" and src.norm[said[j].start:said[j].end] in (*_TIMES_COUNTERS, "マス")
            if counter:
                j += 1
            if j + 1 >= len(said) or src.norm[said[j].start:said[j].end] not in ("か", "or", "〜", "~", "～", "-", "ー", "から") \
                    or said[j + 1].kind != "number" or not src.norm[said[j + 1].start:said[j + 1].end].isdigit():
                continue
            last = j + 1
            if last + 1 < len(said) and said[last + 1].kind == "counter":
                last += 1
            elif not counter:
                continue
            before = said[k - 1] if k else None
            if before is not None and before.kind == "function" and src.norm[before.start:before.end] in _COUNT_PARTICLES and k >= 2:
                before = said[k - 2]
            after = said[last + 1] if last + 1 < len(said) else None
            def card(t: Piece | None) -> bool:
                return t is not None and (t.kind == "symbol" or (t.kind in ("word", "unknown") and t.word is not None
                                                                 and isinstance(t.word.value, str) and bool(t.word.value)))
            if not card(before) and not card(after):
                continue
            one = src.norm[first.start:said[j].start].strip()
            other = src.norm[said[j + 1].start:said[last].end]
            if not counter:
                one += src.norm[said[last].start:said[last].end]
            line, column, shown = src.where(first.start, said[last].end)
            self.problems.append(Problem(f"は回数が一つに決まっていません（{one}か{other}）。", line=line, column=column, text=shown,
                                         hint="出す回数を一つだけ書いてください（例：弱攻撃を2回）。"))
            ids = {id(t) for t in said[k:last + 1]}
            return [Piece(t.start, t.end, "sep") if id(t) in ids else t for t in tokens]
        return tokens

    def _functions_apart(self, tokens: list[Piece]) -> list[Piece]:
        """``まえ に すすんて なくる``, ``弱 なくる``: a word written apart (spaces or the line's ends
        around it) that the scanner cut into function words (な+くる) is no talk when, joined, it is an
        order word with only its sound marks off (なくる: 殴る's なぐる, dakuten dropped on a phone) —
        it is that word, read as a near miss (殴る asks 弱 or 強); it had been passed over unsaid.
        Three kana at least, at distance 0 only (なので is no 投げて)."""
        src = self.source
        out: list[Piece] = []
        k = 0
        while k < len(tokens):
            j = k
            while j < len(tokens) and tokens[j].kind == "function" and (j == k or tokens[j].start == tokens[j - 1].end):
                j += 1
            if j - k < 2:
                out.append(tokens[k])
                k += 1
                continue
            start, end = tokens[k].start, tokens[j - 1].end
            written = src.norm[start:end]
            apart = (start == 0 or src.norm[start - 1] in " \u3000\n") and (end == len(src.norm) or src.norm[end] in " \u3000\n")
            word = None
            if apart and len(written) >= 3 and all("\u3041" <= ch <= "\u3096" or "\u30a1" <= ch <= "\u30fa" for ch in written):
                near = self.lexicon.near(written)
                if near and near[0][0] <= 0:
                    word, _rivals = self.lexicon.correction(written)
            if word is None:
                out.extend(tokens[k:j])
            else:
                out.append(Piece(start, end, "unknown", word, corrected=True))
            k = j
        return out

    def _cancel_in_words(self, tokens: list[Piece]) -> list[Piece]:
        """``キャンセル（若とガードを捨てて）``: the cards a cancel discards said in words inside its
        brackets — X と Y を捨てて — are its two cards: the verb (を捨てて) is how it is said, and a kanji
        standing alone there for a card of its reading (若 for 弱) is that card, as between separators."""
        src = self.source
        out = list(tokens)
        for k, tok in enumerate(out):
            said = src.folded[tok.start:tok.end]
            if tok.kind != "symbol" or not said.endswith("(") or not _CANCEL_WORD.match(said):
                continue
            close = next((j for j in range(k + 1, len(out)) if out[j].kind == "symbol" and src.norm[out[j].start:out[j].end] == ")"), None)
            if close is None:
                continue
            inside = src.norm[out[k + 1].start:out[close].start] if close > k + 1 else ""
            m = _DISCARD.search(inside)
            if m is None:
                continue
            at = out[k + 1].start + m.start()
            verb = [j for j in range(k + 1, close) if out[j].start >= at]
            if not verb or any((out[j].kind not in ("unknown", "function", "sep") and not (
                    out[j].kind == "counter" and src.norm[out[j].start:out[j].end] in ("ます", "マス"))) or
                               (out[j].kind == "unknown" and out[j].word is not None) for j in verb):
                continue
            for j in verb:
                out[j] = Piece(out[j].start, out[j].end, "sep")
            for j in range(k + 1, close):
                t = out[j]
                if t.kind == "unknown" and t.word is None and t.end - t.start == 1:
                    found = self.lexicon.same_kanji(src.norm[t.start:t.end])
                    if found is not None:
                        out[j] = Piece(t.start, t.end, "unknown", found, corrected=True)
                elif t.kind == "function" and src.norm[t.start:t.end] == "と":
                    out[j] = Piece(t.start, t.end, "sep")  # 弱とガード: the two cards, と between them
            return out
        return tokens

    def _count_inside_phrase(self, tokens: list[Piece]) -> list[Piece]:
        """``前に1マス出て``: a count written inside a move's phrase (前に出る, with 1マス between its
        words) is the count of that move — the words after the count, joined to the word before it,
        read as the same move (前に+出て is 前に出て, 前進), so they are its verb, not a word of their own."""
        src = self.source
        for k in range(len(tokens) - 3):
            head, number, counter, rest = tokens[k:k + 4]
            if head.kind != "word" or head.word is None or number.kind != "number" or counter.kind != "counter" \
                    or rest.kind != "unknown" or rest.word is not None or not (head.end == number.start and counter.end == rest.start):
                continue
            said = src.norm[head.start:head.end]
            joined = said + src.norm[rest.start:]
            found = self.lexicon.match(kana.fold(joined), 0, joined)
            if found is None or found[0] <= len(said) or found[1].concept != head.word.concept:
                continue
            end = rest.start + found[0] - len(said)
            last = next((j for j in range(k + 3, len(tokens)) if tokens[j].end == end), None)
            if last is None or any(t.kind not in ("unknown", "function") for t in tokens[k + 3:last + 1]):
                continue
            line, column, shown = src.where(head.start, end)
            self.notes.append(Problem(f"を「{said}{src.norm[rest.start:end]}」の{src.norm[number.start:counter.end]}と読みました。",
                                      line=line, column=column, text=shown))
            return [*tokens[:k + 3], Piece(rest.start, end, "sep"), *tokens[last + 1:]]
        return tokens

    def _romaji_counts(self, tokens: list[Piece]) -> list[Piece]:
        """``zenshin nikai``, ``jaku sankai``, ``ni-kai``, ``ni kai``: a count said in romaji after an
        order word (ichi…go, then kai or kaime, as one word or two) is the number and its counter, as
        2回 is (noted). ``ni`` alone is the particle に (mae ni), never 2."""
        src = self.source
        out: list[Piece] = []
        k = 0
        while k < len(tokens):
            tok = tokens[k]
            said = src.folded[tok.start:tok.end]
            m = _ROMAJI_COUNT.fullmatch(said) if tok.kind == "unknown" and tok.word is None else None
            counter = None
            if m is not None and m.group(2):
                cut = tok.start + len(m.group(1))
                number, counter = Piece(tok.start, cut, "number"), Piece(cut, tok.end, "counter", self.lexicon.exact.get("kai"))
                step = 1
            elif said in _ROMAJI_DIGITS and tok.kind == "unknown" and k + 2 < len(tokens) and tokens[k + 1].kind == "sep" \
                    and src.norm[tokens[k + 1].start:tokens[k + 1].end] in (" ", "-") and tokens[k + 2].kind == "counter" \
                    and src.folded[tokens[k + 2].start:tokens[k + 2].end] in ("kai", "kaime"):
                number, counter, step = Piece(tok.start, tok.end, "number"), tokens[k + 2], 3
                if src.norm[tokens[k + 1].start:tokens[k + 1].end] == "-":  # ni-kai: one word, its hyphen the counter's
                    counter = Piece(tok.end, counter.end, "counter", counter.word)
            before = next((t for t in reversed(out) if t.kind != "sep"), None)
            if counter is None or counter.word is None or before is None or not (
                    before.kind in ("word", "symbol") or (before.kind == "unknown" and before.word is not None)):
                out.append(tok)
                k += 1
                continue
            line, column, shown = src.where(tok.start, counter.end)
            self.notes.append(Problem(f"を「{_ROMAJI_DIGITS[src.folded[number.start:number.end]]}回」と読みました。",
                                      line=line, column=column, text=shown))
            out.extend((number, Piece(number.end, counter.start, "sep"), counter) if counter.start > number.end else (number, counter))
            k += step
        return out

    def _glossed(self, tokens: list[Piece]) -> list[Piece]:
        """``앞으로×2、投げ\n(앞으로＝前進ねｗ)``, ``점프 強\nあ、점프はジャンプのことです``: a post that says
        what a word it uses means — ``X＝Y``, ``XはYのこと``, or ``X（Y）`` written against it — lets
        the unknown word X read as the order word Y, noted; the gloss itself is passed over. A word the
        post does not gloss stays unknown (pbf never guesses a word of another language)."""
        src = self.source
        unknown = {src.norm[t.start:t.end] for t in tokens if t.kind == "unknown" and t.word is None and not t.candidates}
        unknown = {x for x in unknown if len(x) >= 2 and any(ch.isalpha() for ch in x)}
        if not unknown:
            return tokens
        glossed: dict[str, tuple[Word, str, tuple[int, int]]] = {}
        for x in sorted(unknown, key=len, reverse=True):
            for m in re.finditer(re.escape(x) + r"[ \u3000]*(=|は|\()[ \u3000]*", src.norm):
                found = self.lexicon.match(src.folded, m.end(), src.norm)
                before = src.norm[m.start() - 1:m.start()]
                if found is None or found[1].kind != "order" or (before and _script(before) == _script(x[:1])):
                    continue  # 앞으로 inside a longer word is not the word glossed
                end, word = found
                said = m.group(1)
                if said == "は":
                    tail = re.compile(r"[ \u3000]*の?こと").match(src.norm, end)
                    if tail is None:
                        continue
                    end = tail.end()
                start = m.start()
                if said == "(":  # 점프（ジャンプ）: the word, then what it means in brackets against it
                    tail = re.compile(r"[ \u3000]*\)").match(src.norm, end)
                    if tail is None or m.start() + len(x) != src.norm.index("(", m.start()):
                        continue
                    end, start = tail.end(), m.start() + len(x)
                glossed.setdefault(x, (word, src.norm[m.start():end], (start, end)))
        if not glossed:
            return tokens
        out: list[Piece] = []
        spans = [span for _w, _g, span in glossed.values()]
        inside = [t for t in tokens if t.kind == "comment" and any(t.start <= sp[0] and sp[1] <= t.end for sp in spans)]
        for t in inside:
            t.named = ()  # (앞으로＝前進ねｗ): the gloss names its order word, which is read where the word is used
        covered = [span for span in spans if not any(t.start <= span[0] and span[1] <= t.end for t in inside)]
        for tok in tokens:
            span = next((sp for sp in covered if sp[0] <= tok.start and tok.end <= sp[1]), None)
            if span is not None:
                if not out or out[-1].start != span[0] or out[-1].kind != "comment":
                    out.append(Piece(span[0], span[1], "comment"))
                continue
            written = src.norm[tok.start:tok.end]
            if tok.kind == "unknown" and written in glossed:
                word, gloss, _span = glossed[written]
                line, column, shown = src.where(tok.start, tok.end)
                self.notes.append(Problem(f"を、投稿の中の説明（{gloss}）から「{word.shown}」と読みました。",
                                          line=line, column=column, text=shown))
                out.append(Piece(tok.start, tok.end, "word", word))
                continue
            out.append(tok)
        return out

    def _hangul_after(self, tokens: list[Piece]) -> list[Piece]:
        """``66投げ　앞으로ㄱㄱ``: a run of Hangul after the order on its line, with no order word after
        it, is passed over with a warning that names it — a Japanese GM cannot read it, and pbf does
        not guess it (never a card)."""
        src = self.source
        for k, tok in enumerate(tokens):
            written = src.norm[tok.start:tok.end]
            if tok.kind != "unknown" or tok.word is not None or not _HANGUL.fullmatch(written):
                continue
            line_start = src.norm.rfind("\n", 0, tok.start) + 1
            line_end = src.norm.find("\n", tok.end) % (len(src.norm) + 1) if "\n" in src.norm[tok.end:] else len(src.norm)
            same = [t for t in tokens if line_start <= t.start and t.end <= line_end]
            before = [t for t in same if t.end <= tok.start and (t.kind in ("word", "symbol") or (t.kind == "unknown" and t.word is not None))]
            after = [t for t in same if t.start >= tok.end and t.kind not in ("sep", "comment", "laugh", "function")]
            if not before or after or src.norm[before[-1].end:tok.start].strip(" \u3000、,") == "" and before[-1].end == tok.start:
                continue
            line, column, shown = src.where(tok.start, tok.end)
            self.notes.append(Problem("は読めない言葉（ハングル）なので、行動に入れずに読みませんでした。", line=line, column=column,
                                      text=shown, severity="warning", hint="行動のつもりなら、カードか技の名前で書いてください。"))
            tokens = [*tokens[:k], Piece(tok.start, tok.end, "sep"), *tokens[k + 1:]]
        return tokens

    def _particle_slips(self, tokens: list[Piece]) -> list[Piece]:
        """``投げ化強攻撃``: a near miss read by dropping one kanji written between two order words,
        where that kanji reads as a particle — か (化, 下: "or"), と or も (都, 戸, 藻: "and") — is the
        particle an IME converted, not a slip of the word: か leaves the choice open (refused with
        both: 「投げ」か「強攻撃」か); と and も join the two (read so, warned), never dropped unsaid."""
        src = self.source
        for k, tok in enumerate(tokens):
            if tok.kind != "unknown" or not tok.corrected or tok.word is None:
                continue
            written = src.norm[tok.start:tok.end]
            before = tokens[k - 1] if k else None
            after = tokens[k + 1] if k + 1 < len(tokens) else None

            def order_word(t: Piece | None, at: int) -> bool:
                return t is not None and (t.end == at or t.start == at) and (
                    t.kind in ("word", "symbol") or (t.kind == "unknown" and t.word is not None))

            for slip, rest, other in ((written[:1], written[1:], before if order_word(before, tok.start) else None),
                                      (written[-1:], written[:-1], after if order_word(after, tok.end) else None)):
                word = self.lexicon.exact.get(fold(rest)) if len(written) >= 3 else None
                # ナゲカジャク: か written in kana between two order words (an all-katakana post) is the
                # particle too, the choice left open — asked as 化 is
                if other is None or word is None or word.concept != tok.word.concept or not (
                        kana.has_kanji(slip) or slip in ("か", "カ")):
                    continue
                said = kana.readings(slip) if kana.has_kanji(slip) else {"カ"}
                particle = next((p for p in ("カ", "ト", "モ") if p in said), None)
                if particle is None:
                    continue
                first, second = (src.norm[other.start:other.end], rest) if other is before else (rest, src.norm[other.start:other.end])
                line, column, shown = src.where(min(tok.start, other.start), max(tok.end, other.end))
                if particle == "カ":
                    self.problems.append(Problem(f"の「{slip}」は「か」とも読めます：「{first}」か「{second}」か、どちらですか。",
                                                 line=line, column=column, text=shown,
                                                 hint=f"両方なら「{first} {second}」、どちらかならその一つを書いてください。"))
                    return tokens
                joined = "と" if particle == "ト" else "も"
                self.notes.append(Problem(f"の「{slip}」を「{joined}」（「{first}」と「{second}」の両方）と読みました。",
                                          line=line, column=column, text=shown, severity="warning",
                                          hint="どちらか一つなら、その一つだけを書いてください。"))
                at = tok.start if other is before else tok.end - 1
                kept = Piece(tok.start + 1, tok.end, "word", word) if other is before else Piece(tok.start, tok.end - 1, "word", word)
                tokens[k:k + 1] = sorted((kept, Piece(at, at + 1, "sep")), key=lambda t: t.start)
                return tokens
        return tokens

    def _marker_in_kana(self, tokens: list[Piece]) -> list[Piece]:
        """こうどう：じゃくじゃく: 行動 written in kana at the start of a line, before a colon, is the
        marker (as koudou: is) — passed over, with a note. A phone's こうとう： (a sound mark dropped),
        which the scanner cut into near misses, is the marker too, before a colon only."""
        src = self.source
        for k, tok in enumerate(tokens[:4]):  # こう+とう： at the start of a line: one word
            if tok.kind == "sep":
                break
            run = tokens[:k + 1]
            colon = tokens[k + 1] if k + 1 < len(tokens) else None
            written = src.norm[run[0].start:tok.end]
            if colon is not None and colon.kind == "sep" and src.norm[colon.start:colon.end] == ":" and len(run) > 1 \
                    and _unvoiced(fold(written)) == "コウトウ" and all(a.end == b.start for a, b in zip(run, run[1:])):
                tokens = [Piece(run[0].start, tok.end, "unknown"), *tokens[k + 1:]]
                break
        for k, tok in enumerate(tokens[:-1]):
            colon = tokens[k + 1]
            said = src.norm[colon.start:colon.end] if colon.kind == "sep" else ""
            # こうどう 全身 全身 投げ (a phone's voice input): the post's first word, before a space, is the marker too
            folded = fold(src.norm[tok.start:tok.end])
            if tok.kind != "unknown" or (folded != "コウドウ" and not (said == ":" and _unvoiced(folded) == "コウトウ")) \
                    or colon.kind != "sep" \
                    or (said != ":" and not (k == 0 and said.strip(" \u3000") == "" and said)) \
                    or (k and not (tokens[k - 1].kind == "sep" and "\n" in src.norm[tokens[k - 1].start:tokens[k - 1].end])):
                continue
            line, column, shown = src.where(tok.start, colon.end if said == ":" else tok.end)
            self.notes.append(Problem("を行動の目印（【行動】）として読みました。", line=line, column=column, text=shown))
            tokens = [*tokens[:k], Piece(tok.start, tok.end, "sep"), *tokens[k + 1:]]
            break
        return tokens

    def _talk_before_marker(self, tokens: list[Piece]) -> list[Piece]:
        """``音声入力なので変だったらごめん 行動 全身 滞空``: the marker's word (行動, こうどう) in mid-line
        after a space, with only talk before it (no order word, symbol or number) and the order after
        it: what is before it is talk, passed over with a note, as the talk before a marker line is."""
        src = self.source
        for k, tok in enumerate(tokens):
            said = src.norm[tok.start:tok.end]
            if k < 2 or not (said == "行動" or (tok.kind == "unknown" and fold(said) == "コウドウ")):
                continue
            gap = tokens[k - 1]
            if gap.kind != "sep" or src.norm[gap.start:gap.end] not in (" ", "\u3000") or "\n" in src.norm[:tok.start]:
                break
            before, after = tokens[:k - 1], tokens[k + 1:]
            guessed = [src.norm[t.start:t.end] for t in before if t.corrected or t.candidates]
            sentence = any(t.kind == "function" for t in before)  # ﾊﾞｽの中から: a near miss inside a sentence is talk
            if any(t.kind in ("word", "symbol", "number", "negation", "counter", "refer") for t in before) or \
                    (guessed and not sentence) or not any(t.kind in ("word", "symbol") or t.corrected for t in after):
                break
            self.notes.append(_not_read(src, before[0].start, before[-1].end, f"「{said}」（行動の目印）の前の雑談", guessed,
                                        "行動の続きなら、目印の後ろに書いてください。"))
            return [*(Piece(t.start, t.end, "sep") for t in tokens[:k + 1]), *after]
        return tokens

    def _katakana_functions(self, tokens: list[Piece]) -> list[Piece]:
        """``ジャンプ シテ キョウ``: in a post written with no hiragana at all, a katakana word standing
        alone between spaces that is a function word in hiragana (シテ して, ヲ を) is that word — a
        function word is otherwise never found in katakana (the ガ of ガード is no が)."""
        src = self.source
        if any("\u3041" <= ch <= "\u3096" for ch in src.norm):
            return tokens
        out = list(tokens)
        for k, t in enumerate(out):
            said = src.norm[t.start:t.end]
            if t.kind != "unknown" or t.word is not None or not said or not all("ァ" <= ch <= "ヺ" for ch in said):
                continue
            apart = (t.start == 0 or src.norm[t.start - 1] in " \u3000") and (t.end == len(src.norm) or src.norm[t.end] in " \u3000")
            word = self.lexicon.exact.get(fold(said))
            if apart and word is not None and word.kind == "function":
                out[k] = Piece(t.start, t.end, "function", word)
        return out

    def _today_or_strong(self, tokens: list[Piece]) -> None:
        """``きょう ぜんしん なげ``: きょう in hiragana, first in the post and apart from the move named
        after it (or 今日, an IME's kanji of きょう, even written against it: 今日前進前進), is 強 (a card)
        or 今日 (today, the start of the sentence) — a GM asks. きょう こうげき is 強攻撃 (_adjective_attack);
        きょう alone, after another card or before a card's own name (きょう じゃく) is 強."""
        src = self.source
        said = [t for t in tokens if t.kind not in ("sep", "comment")]
        if len(said) < 2:
            return
        first, nxt = said[0], said[1]
        written = src.norm[first.start:first.end]
        if first.kind not in ("word", "unknown") or first.word is None or first.word.value != "強" or written not in ("きょう", "今日"):
            return
        if (nxt.start == first.end and written != "今日") or nxt.word is None or not nxt.word.technique:
            return  # きょう じゃく: 強 and a card's own name — cards, read so
        line, column, shown = src.where(first.start, first.end)
        self.problems.append(Problem("は「強」（強攻撃のカード）とも「今日」とも読めます。", line=line, column=column, text=shown,
                                     hint="強攻撃なら「強」、今日のことならこの語を消してください。"))

    def _spaced_then(self, tokens: list[Piece]) -> list[Piece]:
        """``その あと``, ``その つぎ に``: easy Japanese's space between その and the word after it —
        その後 (then), a function word as written together; the そ left over had been an unknown word."""
        src = self.source
        out = list(tokens)
        for k in range(len(out) - 1):  # つぎ に: 次に, its kana apart
            if out[k].kind == "unknown" and fold(src.norm[out[k].start:out[k].end]) == "ツギ":
                j = k + 1
                while j < len(out) and out[j].kind == "sep" and src.norm[out[j].start:out[j].end] in (" ", "\u3000"):
                    j += 1
                if j < len(out) and out[j].kind == "function" and src.norm[out[j].start:out[j].end] in ("に", "ニ", "は"):
                    out[k:j + 1] = [Piece(out[k].start, out[j].end, "function", out[j].word)]
                    return self._spaced_then(out)
        for k in range(len(out) - 2):
            so, no = out[k], out[k + 1]
            if so.kind != "unknown" or src.norm[so.start:so.end] not in ("そ", "ソ") or no.end - no.start != 1 or \
                    no.start != so.end or src.norm[no.start:no.end] not in ("の", "ノ"):
                continue
            j = k + 2
            while j < len(out) and out[j].kind == "sep" and src.norm[out[j].start:out[j].end] in (" ", "\u3000"):
                j += 1
            if j == k + 2 or j >= len(out) or out[j].kind != "function" or \
                    fold(src.norm[out[j].start:out[j].end]) not in ("アト", "アトニ", "アトデ", "後", "後ニ", "後デ", "ツギ", "ツギニ", "次", "次ニ"):
                continue
            out[k:j + 1] = [Piece(so.start, out[j].end, "function", out[j].word)]
            return self._spaced_then(out)
        return out

    def _adjective_attack(self, tokens: list[Piece]) -> list[Piece]:
        """``よわい こうげき``, ``つよい　こうげき``: easy Japanese (やさしい日本語) writes 弱い攻撃 in kana
        with a space between the words — the adjective (よわ+い, a card in kana and its ending) and
        the word attack (攻撃, which alone asks 弱 or 強) are the one attack the adjective names, as
        弱い攻撃 and よわいこうげき are. Noted."""
        src = self.source
        for k in range(len(tokens) - 1):
            card, ending = tokens[k], tokens[k + 1]
            if card.word is None or card.word.value not in ("弱", "強") or card.kind not in ("word", "unknown"):
                continue
            folded = fold(src.norm[card.start:card.end])
            if card.kind == "unknown" and card.corrected and len(folded) == 1 and kana.has_kanji(folded) \
                    and ending.start == card.end and ending.word is not None and ending.word.concept.startswith("ask:") \
                    and src.norm[ending.start:ending.end] == "攻撃":
                # 全身全身若攻撃: the scanner cut 若 (a kanji of 弱's reading, a near miss of it alone) from
                # 攻撃 (which alone asks 弱 or 強) — written together they are 若攻撃, 弱攻撃 as an IME typed it
                word = self.lexicon.exact.get(fold(f"{card.word.value}攻撃"))
                if word is not None:
                    line, column, shown = src.where(card.start, ending.end)
                    self.notes.append(Problem(f"を「{word.shown}」と読みました。", line=line, column=column, text=shown))
                    return self._adjective_attack([*tokens[:k], Piece(card.start, ending.end, "word", word), *tokens[k + 2:]])
                continue
            if card.kind != "word":
                continue
            if folded in ("ジャク", "キョウ") and ending.kind == "sep":
                ending = card  # じゃく こうげき: 弱攻撃 with a space in it (no adjective ending)
                j = k + 1
            elif folded in ("ヨワ", "ツヨ") and ending.start == card.end and src.norm[ending.start:ending.end] in ("い", "イ"):
                j = k + 2
            else:
                continue
            while j < len(tokens) and tokens[j].kind == "sep" and src.norm[tokens[j].start:tokens[j].end] in (" ", "\u3000"):
                j += 1
            attack = tokens[j] if j < len(tokens) else None
            if attack is None or attack.word is None or not attack.word.concept.startswith("ask:") or \
                    fold(src.norm[attack.start:attack.end]) not in ("コウゲキ", "攻撃", "コーゲキ"):
                if ending is not card and ending.kind == "unknown" and (attack is None or j > k + 2 or attack.kind in ("sep", "function")):
                    # (よわい と ガード を すてます): よわい alone, the card the adjective names (弱い)
                    return self._adjective_attack([*tokens[:k], Piece(card.start, ending.end, "word", card.word), *tokens[k + 2:]])
                continue
            word = self.lexicon.exact.get(fold(f"{card.word.value}攻撃"))
            if word is None:
                continue
            line, column, shown = src.where(card.start, attack.end)
            self.notes.append(Problem(f"を「{word.shown}」と読みました。", line=line, column=column, text=shown))
            return self._adjective_attack([*tokens[:k], Piece(card.start, attack.end, "word", word), *tokens[j + 1:]])
        return tokens

    def _jump_by_direction(self, tokens: list[Piece]) -> list[Piece]:
        """``うしろ じゃんぷ``, ``前 ジャンプ``: a bare direction (前, 後ろ, in kana too), then only a space,
        then the word jump is the jump that way (後ろジャンプ ↑←, 前ジャンプ ↑→) — a phone's or an IME's
        space inside one word; a step and then a jump would be said by a move's own word (後退 ジャンプ,
        ← ↑). Read so, warned with the other reading."""
        src = self.source
        jumps = ("ジャンプ", "ジャンフ", "jump", "janpu", "jyanpu")
        for k in range(len(tokens) - 1):
            move, jump = tokens[k], tokens[k + 1]
            # 後退ジャンプ, 前進ジャンプ: a move's own word written against the jump, as one word — 後ろジャンプ (↑←), or
            # a step and then a jump (←↑)? Both are read by a GM; asked, naming both
            if move.kind == "word" and jump.kind == "word" and move.end == jump.start and move.word is not None \
                    and jump.word is not None and move.word.kind == "order" and move.word.value in ("←", "→") \
                    and move.word.technique and jump.word.value == "↑" and fold(src.norm[jump.start:jump.end]).startswith(jumps) \
                    and _MOVE_NOUN.fullmatch(src.norm[move.start:move.end]):  # 後退, こうたい — never 前進して (a verb's form)
                way = "後ろジャンプ" if move.word.value == "←" else "前ジャンプ"
                both = f"↑{move.word.value}"
                line, column, shown = src.where(move.start, jump.end)
                said = src.norm[move.start:move.end]
                self.problems.append(Problem(f"は{way}（{both}）とも、{said}してからジャンプ（{move.word.value}↑）とも読めます。",
                                             line=line, column=column, text=shown,
                                             hint=f"{way}なら「{both}」、{said}してからジャンプなら「{said} ジャンプ」と書いてください。"))
                return tokens
        for k in range(len(tokens) - 2):
            first, gap, jump = tokens[k], tokens[k + 1], tokens[k + 2]
            # ジャンプ ←, ｼﾞｬﾝﾌﾟ →: a bare arrow (← →) after the word jump, a space between, is the jump's way (jump back,
            # jump forward: 後ろジャンプ ↑←) — the cards the rules join; read so, warned with the moves apart
            arrow = src.norm[jump.start:jump.end] if jump.kind == "symbol" else ""
            # (an ASCII -> after a move may be 次に: read as before)
            after = tokens[k + 3] if k + 3 < len(tokens) else None
            if first.kind == "word" and first.word is not None and first.word.value == "↑" \
                    and fold(src.norm[first.start:first.end]).startswith(jumps) and gap.kind == "sep" \
                    and src.norm[gap.start:gap.end] in (" ", "\u3000") and arrow in ("←", "→") \
                    and (after is None or after.kind == "sep") \
                    and not (k and tokens[k - 1].end == first.start and tokens[k - 1].kind != "sep"):
                way = arrow
                name = "後ろジャンプ" if way == "←" else "前ジャンプ"
                word = self.lexicon.exact.get(fold(name))
                if word is not None:
                    line, column, shown = src.where(first.start, jump.end)
                    said = src.where(first.start, first.end)[2]
                    self.notes.append(Problem(f"を「{name}」（↑{way}）と読みました（ジャンプの後に{way}のカードなら「{said}｜{way}」と書いてください）。",
                                              line=line, column=column, text=shown, severity="warning"))
                    return [*tokens[:k], Piece(first.start, jump.end, "word", word), *tokens[k + 3:]]
            # うしろ に ジャンプ, まえにジャンプ: the direction's particle written apart (or in kana) is
            # 後ろにジャンプ as the lexicon reads it in kanji — the directed jump, noted (no other reading)
            particle = 0
            for n in range(k + 1, min(k + 4, len(tokens) - 1)):
                t = tokens[n]
                if t.kind == "function" and src.norm[t.start:t.end] in ("に", "へ", "ニ", "ヘ"):
                    particle = n
                elif t.kind != "sep" or src.norm[t.start:t.end] not in (" ", "\u3000"):
                    break
            if particle and particle + 1 < len(tokens):
                ahead = particle + 1
                while ahead < len(tokens) and tokens[ahead].kind == "sep" and src.norm[tokens[ahead].start:tokens[ahead].end] in (" ", "\u3000"):
                    ahead += 1
                jump = tokens[ahead] if ahead < len(tokens) else jump
                way = _JUMP_WAYS.get(fold(src.norm[first.start:first.end]))
                if first.kind == "word" and way is not None and jump.kind in ("word", "unknown") and jump.word is not None \
                        and jump.word.value == "↑" and fold(src.norm[jump.start:jump.end]).startswith(("ジャンプ", "ジャンフ")) \
                        and not (k and tokens[k - 1].end == first.start and tokens[k - 1].kind != "sep"):
                    word = self.lexicon.exact.get(fold(way))
                    if word is not None:
                        line, column, shown = src.where(first.start, jump.end)
                        self.notes.append(Problem(f"を「{way}」（{word.value}）と読みました。", line=line, column=column, text=shown))
                        return [*tokens[:k], Piece(first.start, jump.end, "word", word), *tokens[ahead + 1:]]
                jump = tokens[k + 2]
            if first.kind != "word" or jump.kind not in ("word", "unknown") or gap.kind != "sep" or jump.word is None \
                    or jump.word.value != "↑" or src.norm[gap.start:gap.end] not in (" ", "\u3000"):
                continue
            way = _JUMP_WAYS.get(fold(src.norm[first.start:first.end]))
            said = fold(src.norm[jump.start:jump.end])
            if way is None or not said.startswith(("ジャンプ", "ジャンフ", "jump", "janpu", "jyanpu")):
                continue
            if k and tokens[k - 1].end == first.start and tokens[k - 1].kind != "sep":
                continue  # 真後ろ, …の後ろ: the direction is part of another word
            word = self.lexicon.exact.get(fold(way))
            if word is None:
                continue
            line, column, shown = src.where(first.start, jump.end)
            other = f"{first.word.value} {jump.word.value}"
            self.notes.append(Problem(f"を「{way}」（{word.value}）と読みました（{first.word.value}のカードの後にジャンプなら「{other}」と書いてください）。",
                                      line=line, column=column, text=shown, severity="warning"))
            return [*tokens[:k], Piece(first.start, jump.end, "word", word), *tokens[k + 3:]]
        return tokens

    def _not_put_in(self, tokens: list[Piece]) -> list[Piece]:
        """``前ジャンプだけします。…弱攻撃は入れていません。``: after the plot and a stop, a card said not
        put in (入れていません, 出さない, 使いません) that the plot does not hold says what the plot is not
        — no card, noted. One the plot holds is a contradiction, asked as before."""
        src = self.source
        made = ""  # the plot: the cards before the first stop
        stop = False
        for k, tok in enumerate(tokens):
            said = src.norm[tok.start:tok.end]
            if tok.kind == "sep" and said in ("。", "、", "\n", ".", "!", "！"):
                stop = stop or bool(made)
                continue
            if tok.kind == "symbol" and _CARD_KANJI_ONLY.fullmatch(said):
                value = said
            elif tok.kind in ("symbol", "number"):
                if not stop:
                    made += "".join(_NUMPAD.get(d, _LETTER_CARDS.get(d, d)) for d in src.folded[tok.start:tok.end])
                continue
            elif tok.kind in ("word", "unknown") and tok.word is not None and isinstance(tok.word.value, str):
                value = tok.word.value
            else:
                continue
            if not stop:
                made += value
                continue
            m = _NOT_PUT_IN.match(src.norm, tok.end)
            if m is None or not value or any(card in made for card in value):
                continue
            covered = [t for t in tokens[k:] if t.start < m.end()]
            if any(t.end > m.end() for t in covered):
                continue
            line, column, shown = src.where(tok.start, m.end())
            self.notes.append(Problem(f"は入れないカード（{value}）の説明として読みました（カードは出しません）。",
                                      line=line, column=column, text=shown))
            for j in range(k, k + len(covered)):
                tokens[j] = Piece(tokens[j].start, tokens[j].end, "sep")
            return tokens
        return tokens

    def _waiting_after_move(self, tokens: list[Piece]) -> None:
        """``前に出て様子見``, ``前進して様子見``: 様子見 joined to a move by its te-form is a step of the
        plot — standing still after it (no more cards), or guarding (←)? Read as nothing more, warned
        (様子見 after the plot on its own, a remark, is read as before)."""
        src = self.source
        said = _significant(tokens)
        for before, tok in zip(said, said[1:]):
            if tok.word is None or tok.word.value != "" or not src.norm[tok.start:tok.end].startswith(("様子見", "様子を見")):
                continue
            if before.word is None or not before.word.value or before.end != tok.start \
                    or not src.norm[before.start:before.end].endswith(("て", "で")):
                continue
            line, column, shown = src.where(tok.start, tok.end)
            self.notes.append(Problem(f"は「{src.norm[before.start:before.end]}」の後に何もしない（カードなし）と読みました。"
                                      "ガード（←）のつもりかもしれません。", line=line, column=column, text=shown,
                                      severity="warning", hint="ガードするなら「ガード」と書いてください。"))
            return

    def _talk_after_nothing(self, tokens: list[Piece]) -> list[Piece]:
        """``なし　ねおち しそう``, ``koudou: nashi. kyou wa …``: the plot said empty (なし, first), then,
        after a space or a stop, words that name no card (no card word, symbol or number): talk,
        passed over, warned (three characters at least: なし　ねむ is named as before). A card after なし is
        read as before, warned."""
        said = _significant(tokens)
        if len(said) < 2 or said[0].word is None or said[0].word.value != "" or said[0].kind not in ("word", "unknown"):
            return tokens
        src = self.source
        first = said[0]
        at = next(k for k, t in enumerate(tokens) if t is first)
        rest = [t for t in tokens[at + 1:] if t.kind != "sep"]
        if src.norm[first.start:first.end].startswith(("様子見", "様子を見")) or rest[0].start == first.end \
                or not src.norm[first.end:rest[0].start].strip(" \u3000\n") in ("", ".", "。", ",", "、", "!", "！"):
            return tokens
        # kyou wa …: a card's word before the topic particle is the subject of a sentence (今日は), no card — warned
        subject = {id(t) for t, nxt in zip(rest, rest[1:]) if t.kind == "word" and nxt.start > t.end
                   and src.folded[nxt.start:nxt.end] in ("wa", "は", "ハ") and src.norm[t.end:nxt.start].strip() == ""}
        # gacha gave me 3 dupes: a number before a word pbf does not know counts that thing, no card
        counted = {id(t) for t, nxt in zip(rest, rest[1:]) if t.kind == "number" and nxt.kind == "unknown" and nxt.word is None
                   and not nxt.candidates and src.norm[t.end:nxt.start] in (" ", "\u3000") and len(src.norm[nxt.start:nxt.end]) >= 3}
        if any((t.kind not in ("unknown", "function", "word", "laugh", "comment") and id(t) not in counted)
               or (t.word is not None and t.word.value not in ("", None) and id(t) not in subject) for t in rest):
            cards = [t for t in rest if t.kind in ("word", "symbol", "number") and not (t.word is not None and t.word.value == "")]
            if cards:  # なし　弱: nothing, and a card — the cards are read, and the なし named
                line, column, shown = src.where(first.start, first.end)
                self.notes.append(Problem("の後にカードがあります。「なし」は読まず、後ろのカードを出すと読みました。",
                                          line=line, column=column, text=shown, severity="warning",
                                          hint="何もしないなら、カードを消してください。"))
            return tokens
        guessed = [src.norm[t.start:t.end] for t in rest if t.corrected or t.candidates or id(t) in subject or id(t) in counted]
        line, column, shown = src.where(rest[0].start, rest[-1].end)
        if len("".join(shown.split())) < 3:
            return tokens  # なし　ねむ: too short to tell talk from a slip — named, as before
        words = "（「" + "」「".join(guessed) + "」は行動に入れていません）" if guessed else ""
        self.notes.append(Problem(f"は行動の後ろの雑談として読みませんでした（「なし」の後です）{words}。", line=line, column=column,
                                  text=shown, severity="warning", hint="カードを出すなら「なし」を消してください。"))
        keep = {id(t) for t in rest}
        return [Piece(t.start, t.end, "sep") if id(t) in keep else t for t in tokens]

    def _restated_below(self, tokens: list[Piece]) -> list[Piece]:
        """``↑ ↑\n垂直ジャンプ２回ｗ``: a plot in card symbols, then a line whose words and counts make
        exactly those cards (垂直ジャンプ ×2 is ↑↑) — the line says the plot again in words, as a
        technique's name under its symbols does: no card, noted. A line that makes other cards is
        read as before (more cards)."""
        src = self.source
        lines = [[t for t in line if t.kind not in _PASSED] for line in lines_of(tokens, src)]
        lines = [line for line in lines if line]
        if len(lines) < 2:
            return tokens
        first, second = lines[0], lines[1]
        if not all(t.kind == "symbol" and src.norm[t.start:t.end] in ("弱", "強", "→", "←", "↑") for t in first):
            return tokens
        made = "".join(src.norm[t.start:t.end] for t in first)
        said, words = "", []
        for k, t in enumerate(second):
            if t.kind == "word" and t.word is not None and isinstance(t.word.value, str) and t.word.value:
                said += t.word.value
                words.append(t)
            elif t.kind == "number" and words and k + 1 < len(second) and second[k + 1].kind == "counter" \
                    and src.norm[t.start:t.end].isdigit() and second[k - 1] is words[-1]:
                said += words[-1].word.value * (int(src.norm[t.start:t.end]) - 1)
                words.append(t)
            elif t.kind == "counter" and words and second[k - 1] is words[-1]:
                words.append(t)
            elif t.kind in ("unknown",) and t.word is None and words:
                continue  # ぴょんぴょん: talk after the words, passed over as before
            else:
                return tokens
        if not words or said != made or sum(t.kind == "word" for t in words) != 1 or len(words) != 3 or \
                any(b.start != a.end for a, b in zip(words, words[1:])):
            # 弱攻撃を2回当ててから強攻撃 (弱弱強 may be 弱 and a throw): one word and its count only
            # (a technique's name alone under its symbols is _named_after_symbols's)
            return tokens
        line, column, shown = src.where(words[0].start, words[-1].end)
        self.notes.append(Problem(f"は上の行のプロット（{made}）を言葉で言い直したものとして読みました（カードは出しません）。",
                                  line=line, column=column, text=shown))
        ids = {id(t) for t in words}
        return [Piece(t.start, t.end, "sep") if id(t) in ids else t for t in tokens]

    def _said_of_notation(self, tokens: list[Piece]) -> tuple[list[Piece], set[tuple[int, int]]]:
        """``7 逃げ``, ``9LL 飛び込み``, ``66弱\n詰めるぜ〜``, ``LL|H\n刻んで強``: a plot in notation (numpad
        digits, letters, arrows), then — after a space on its line, or on the next line — words that
        talk (a verb's form, a particle, a technique of two cards) whose every card the plot already
        holds, and no number or notation of their own: the words say what the plot is (a veteran's
        remark), no card — warned, naming them. Words that add a card are read as before."""
        src = self.source
        made = ""
        notation = False  # a digit, a letter or an arrow: the plot is in notation
        seen: set[tuple[int, int]] = set()
        for line in lines_of(tokens, src):
            said = [t for t in line if t.kind not in _PASSED]
            if not said:
                continue
            k, on_line = 0, False
            while k < len(said) and (said[k].kind in ("symbol", "number", "counter")
                                     or (said[k].kind == "word" and said[k].end - said[k].start == 1 and src.norm[said[k].start].isascii())):
                written = src.norm[said[k].start:said[k].end]
                if _CARD_KANJI_ONLY.fullmatch(written) and not on_line:
                    break  # 弱 強 before any notation on the line: cards in words
                on_line = on_line or not _CARD_KANJI_ONLY.fullmatch(written)
                k += 1
            notation = notation or on_line
            head, words = said[:k], said[k:]
            made += "".join(str(t.word.value) if t.kind == "word" else "".join(_NUMPAD.get(d, _LETTER_CARDS.get(d, d))
                                                                               for d in src.folded[t.start:t.end]) for t in head)
            if not words:
                continue
            if not made or not notation or (head and src.norm[words[0].start - 1:words[0].start] not in (" ", "\u3000")):
                break
            cards = made.replace("|", "")
            named: list[str] = []
            talk = False
            for t in words:
                shown = src.norm[t.start:t.end]
                if t.kind == "symbol" and _CARD_KANJI_ONLY.fullmatch(shown) and shown in cards:
                    named.append(shown)
                elif t.kind in ("word", "unknown") and t.word is not None:
                    value = t.word.value
                    if not isinstance(value, str) or not value or value not in cards:
                        return tokens, seen
                    named.append(shown)
                    talk = talk or (t.word.technique and ("\u3041" <= shown[-1] <= "\u3096" or len(value) > 1))
                elif t.kind == "function" or (t.kind == "unknown" and not t.candidates and not t.corrected):
                    talk = talk or t.kind == "function"
                else:
                    return tokens, seen
            # a particle, an ending or a word passed over (jargon: 刻んで) among them: they talk
            talk = talk or any(t.kind == "function" or (t.kind == "sep" and src.norm[t.start:t.end].strip(_TALK_STOPS))
                               for t in line if t.start >= (head[-1].end if head else line[0].start))
            if not named or not talk:
                break
            line_no, column, shown = src.where(words[0].start, words[-1].end)
            listed = "」「".join(dict.fromkeys(named))
            self.notes.append(Problem(f"は前の記号のプロットの説明として読みました（「{listed}」はそのプロットのカードと同じです。カードは出しません）。",
                                      line=line_no, column=column, text=shown, severity="warning",
                                      hint="続けて出すカードなら、記号で書き足してください。"))
            ids = {id(t) for t in words}
            for t in words:
                seen.add(src.where(t.start, t.end)[:2])
            return [Piece(t.start, t.end, "sep") if id(t) in ids else t for t in tokens], seen
        return tokens, seen

    def _not_meant(self, tokens: list[Piece]) -> list[Piece]:
        """``(taikuu ja nakute, …)``, ``対空技にはしないでください``, ``対空化させない`` after the plot: the
        technique the player says they do not mean (of two cards or more; ジャンプはしないで is a move
        not made, read as before). The words are no card (noted); the technique is kept in
        ``not_meant``, and where the plot's cards would read as it, they are read apart
        (:func:`_apart`) — or asked, when no one cut says it."""
        src = self.source
        seen = False
        for k, tok in enumerate(tokens):
            if tok.kind == "symbol" or (tok.kind in ("word", "unknown") and tok.word is not None and not _NOT_MEANT_WORD(tok, src)):
                seen = True
                continue
            if seen and tok.kind == "comment" and src.norm[tok.start:tok.start + 1] in "([（":
                for i in range(tok.start + 1, tok.end):  # (taikuu ja nakute, …): a remark in brackets, passed over as it is
                    found = self.lexicon.match(src.folded, i, src.norm)
                    if found is not None and found[0] <= tok.end and found[1].technique and len(str(found[1].value)) >= 2 \
                            and (i == tok.start + 1 or not src.folded[i - 1].isalnum()):
                        m = _NOT_MEANT.match(src.folded, found[0])
                        if m is not None:
                            line, column, shown = src.where(i, m.end())
                            self.not_meant.append((str(found[1].value), line, column, shown))
                continue
            if not seen or tok.kind not in ("word", "unknown") or tok.word is None:
                continue
            m = _NOT_MEANT.match(src.folded, tok.end)
            if m is None:
                continue
            line_end = src.norm.find("\n", m.end())
            rest = [t for t in tokens[k + 1:] if m.end() <= t.start < (len(src.norm) if line_end < 0 else line_end)]
            if any(t.kind in ("word", "symbol", "number") or (t.kind == "unknown" and t.word is not None) for t in rest):
                continue  # 投げじゃなくて前進: a correction, read as one (taken_back)
            covered = [t for t in tokens[k:] if t.start < m.end()]
            line, column, shown = src.where(tok.start, m.end())
            self.notes.append(Problem(f"は「{tok.word.shown}」（{tok.word.value}）にしないという意味に読みました（カードは出しません）。",
                                      line=line, column=column, text=shown))
            self.not_meant.append((str(tok.word.value), line, column, shown))
            for j in range(k, k + len(covered)):
                tokens[j] = Piece(tokens[j].start, tokens[j].end, "sep")
        return tokens

    def _quoted(self, tokens: list[Piece]) -> list[Piece]:
        """``行動：ガード\nいや「ガード読みの投げ」来そうだけど…``: words in 「」 on a line below the order,
        with talk outside the quotes and no order word, are a quote (of another post, of what the
        opponent may do), not cards: passed over, warned when they name order words. A line that is
        only a quote (「前進 前進 弱」 under the marker) is read as before."""
        src = self.source
        lines = lines_of(tokens, src)
        first = next((k for k, line in enumerate(lines) if holds_order(line)), None)
        if first is None:
            return tokens
        for line in lines[first + 1:]:
            if not line:
                continue
            start, end = line[0].start, line[-1].end
            spans = [(m.start() + start, m.end() + start) for m in re.finditer(r"「[^「」\n]*」", src.norm[start:end])]
            if not spans:
                continue
            inside = [t for t in line if any(a <= t.start and t.end <= b for a, b in spans)]
            outside = [t for t in line if t not in inside and t.kind != "sep"]
            if not outside or any(t.kind in ("word", "symbol", "number", "negation") or (t.kind == "unknown" and
                                                                                          (t.corrected or t.candidates)) for t in outside):
                continue
            named = [src.norm[t.start:t.end] for t in inside if t.kind in ("word", "symbol") or (t.kind == "unknown" and t.word is not None)]
            if not named:
                continue
            for a, b in spans:
                self.notes.append(_not_read(src, a, b, "引用", named, "行動の続きなら、かぎかっこの外に書いてください。"))
            for k, t in enumerate(tokens):
                if t in inside:
                    tokens[k] = Piece(t.start, t.end, "comment")
        return tokens

    def _jargon(self, tokens: list[Piece]) -> list[Piece]:
        """``L×3　暴れ``, ``6 68L　差し込み``: a word of the fighting games' jargon (data/lexicon.yaml's
        jargon) after the plot says what the plot is for; it is no card — noted. Before any card it
        is read as before (a function word: 【行動】暴れ alone has no plot, and is asked)."""
        src = self.source
        seen = False
        for k, tok in enumerate(tokens):
            if tok.kind in ("word", "symbol") or (tok.kind == "unknown" and tok.word is not None):
                seen = True
            elif seen and tok.kind == "function" and tok.word is not None and tok.word.concept in ("jargon", "manner"):
                line, column, shown = src.where(tok.start, tok.end)
                said = "行動の狙いを言う対戦用語" if tok.word.concept == "jargon" else "カードを出す場所を言う語"
                self.notes.append(Problem(f"は{said}として読みました（カードは出しません）。",
                                          line=line, column=column, text=shown))
                tokens[k] = Piece(tok.start, tok.end, "sep")
        return tokens

    def _nothing_by_reading(self, tokens: list[Piece]) -> list[Piece]:
        """【行動】梨 (or 成し): a lone kanji word that reads なし, standing as the whole order, is an
        IME's なし — read so, with a note. Inside a plot (前進 梨) it is no card, and is named."""
        said = _significant(tokens)
        src = self.source
        if len(said) == 2 and said[1].word is not None and said[1].word.value == "" and \
                re.fullmatch(r"[ \u3000]*\(", src.norm[said[0].end:said[1].start]) and \
                re.match(r"[ \u3000]*\)[ \u3000。.!！]*$", src.norm[said[1].end:]):
            said = said[:1]  # 梨（何もしません）: the word's own gloss in brackets says it is なし
        if len(said) != 1 or said[0].kind != "unknown" or said[0].word is not None or said[0].candidates:
            return tokens
        tok = said[0]
        word = src.norm[tok.start:tok.end]
        nothing = self.lexicon.exact.get(fold("なし"))
        if nothing is None or len(word) > 2 or not kana.has_kanji(word) or "ナシ" not in kana.readings(word):
            return tokens
        return [Piece(t.start, t.end, "unknown", nothing, corrected=True) if t is tok else t for t in tokens]

    def _cut_short(self, tokens: list[Piece]) -> None:
        """ぜんしん　ぜんしん　な: one kana alone at the end of the plot, after a space, is no particle
        (a particle follows its word): a word cut short (なし? 投げ?) — asked, never passed over."""
        said = [t for t in tokens if t.kind != "sep" and t.end > t.start]
        if len(said) < 2 or said[-1].kind != "function":
            return
        last, src = said[-1], self.source
        kana = src.norm[last.start:last.end]
        # 前進前進な: written against the last word, one kana that begins a word of the game (な: なし? 投げ?)
        begun = list(dict.fromkeys(str(w.shown) for form, w in self.lexicon.exact.items()
                                   if w.kind == "order" and form.startswith(fold(kana)) and len(form) > 1 and not form.isascii()))
        against = said[-2].end == last.start and said[-2].kind in ("word", "symbol") and bool(begun)
        if kana == "で" and said[-2].kind == "word" and src.norm[said[-2].end:last.start].strip(" \u3000") == "" \
                and said[-2].end < last.start:
            return  # なし で: voice input's space before the particle that ends the request (なしで)
        # 前進、前進、な: after a comma too — a particle follows its word, never a comma
        if len(kana) == 1 and "\u3041" <= kana <= "\u3096" and src.norm[said[-2].end:last.start].strip(" \u3000、,・") == "" \
                and (said[-2].end < last.start or against) and not src.norm[last.end:].strip():
            line, column, shown = src.where(last.start, last.end)
            maybe = f"（{'？　'.join(begun[:4])}？）" if begun else ""
            self.problems.append(Problem(f"は言葉が途中で切れているように読めます{maybe}。", line=line, column=column, text=shown,
                                         hint="最後の語を最後まで書いてください（何もしないなら「なし」）。"))

    def _two_or_particle(self, tokens: list[Piece]) -> None:
        """``ぜんしんにしゃく``: に written against a card's word in hiragana and before the next is the number
        2 as a phone writes it (前進2回, →→弱) or a particle (→弱) — the count of the card before cannot be told.
        Read as the particle, as before, and warned: a GM asks. Not after a direction (うしろにじゃんぷ, まえに
        すすむ: に says where), nor before かい (にかい is the count, read as 2回)."""
        src = self.source
        def kana(t: Piece) -> bool:
            said = src.norm[t.start:t.end]
            return bool(said) and all("\u3041" <= ch <= "\u309f" or ch == "ー" for ch in said)
        for k, t in enumerate(tokens[:-1]):
            if t.kind != "word" or t.word is None or not kana(t) or fold(src.norm[t.start:t.end]) in _DIRECTIONS:
                continue
            nxt = tokens[k + 1]
            if nxt.start != t.end:
                continue
            if nxt.kind == "function" and src.norm[nxt.start:nxt.end] == "に" and k + 2 < len(tokens):
                after = tokens[k + 2]
                if after.start != nxt.end or after.kind not in ("word", "unknown") or after.word is None or not kana(after):
                    continue
            elif nxt.kind == "unknown" and nxt.word is not None and kana(nxt) and src.norm[nxt.start:nxt.end].startswith("に") \
                    and not src.norm[nxt.start:nxt.end].startswith(("にかい", "にかけ")):
                after = nxt
            else:
                continue
            if not str(t.word.value) or not str(after.word.value) or after.word.concept.startswith("ask:"):
                continue
            line, column, shown = src.where(t.start, after.end)
            self.notes.append(Problem(f"の「に」は数の2（「{src.norm[t.start:t.end]}」を2回）とも、助詞とも読めます（助詞として読み、"
                                      f"「{src.norm[t.start:t.end]}」は1回にしました）。", line=line, column=column, text=shown,
                                      severity="warning", hint=f"2回なら「{t.word.shown}2回」と書いてください。"))

    def _lots(self, tokens: list[Piece]) -> None:
        """``弱攻撃いっぱい！``: a card said with いっぱい・たくさん (lots) and no number — how many? Asked."""
        src = self.source
        for tok in tokens:
            if tok.kind in ("word", "symbol") or (tok.kind == "unknown" and tok.word is not None):
                m = _LOTS.match(src.norm, tok.end)
                if m is not None:
                    line, column, shown = src.where(tok.start, m.end())
                    self.problems.append(Problem("は何枚なのか、数が書かれていません。", line=line, column=column, text=shown,
                                                 hint="例：弱×3、弱攻撃を2回"))
                    return

    def _nothing(self, hint: str) -> None:
        line, column, shown = self.source.where(0, len(self.source.norm))
        self.problems.append(Problem("行動として読める語がありません。", line=line, column=column,
                                     text=shown.strip() or None, hint=hint))

    def _same_move_twice(self, tokens: list[Piece]) -> list[Piece]:
        """One move said twice is one move: 前へ1マス進む (a direction, then the verb of the same
        card), 後ろジャンプで離れる / ↑←で逃げる (a technique or cards, and で a verb saying how they
        move): the second word describes the first, and is noted, not played."""
        src = self.source
        units: list[tuple[int, int, str, str, Piece | None]] = []  # (first, last token, cards, shown, word)
        for k, t in enumerate(tokens):
            if t.kind in ("word", "unknown") and t.word is not None:
                units.append((k, k, str(t.word.value), t.word.shown, t))
            elif t.kind == "symbol" and src.norm[t.start:t.end] in "弱強→←↑":
                if units and units[-1][4] is None and units[-1][1] == k - 1:
                    first, _last, cards, _shown, _w = units[-1]
                    units[-1] = (first, k, cards + src.norm[t.start:t.end], cards + src.norm[t.start:t.end], None)
                else:
                    units.append((k, k, src.norm[t.start:t.end], src.norm[t.start:t.end], None))
        for (i0, i, va, shown_a, a), (j, _j1, vb, _sb, b) in zip(units, units[1:]):
            between = tokens[i + 1:j]
            if b is None or any(t.kind not in ("sep", "function", "number", "counter") for t in between):
                continue
            said_a = src.folded[a.start:a.end] if a is not None else ""
            if a is not None and va == vb and len(va) == 1 and va in "→←" and said_a.endswith(("ヘ", "ニ", " ni", " e", " he")) and b.word.technique:
                a.kind, a.word = "sep", None  # 前へ … 進む: the verb says it
            elif a is not None and va == vb and len(va) == 1 and va in "→←" and b.word.technique \
                    and re.sub(r"[ \u3000]", "", said_a) in _DIRECTIONS \
                    and any(t.kind == "function" and src.norm[t.start:t.end] in ("に", "へ", "ニ", "ヘ") for t in between):
                # まえ に すすむ, うしろにさがる: the direction and its particle, in kana or written apart,
                # then the verb of the same card — one move, as 前に進む is (it was read →→)
                line, column, shown = src.where(a.start, b.end)
                self.notes.append(Problem(f"を一枚の「{vb}」と読みました（方向と、その動きの動詞です）。",
                                          line=line, column=column, text=shown))
                a.kind, a.word = "sep", None
            elif a is not None and va == vb and b.word.technique and a.word is not None and a.word.technique and any(
                    src.norm[t.start:t.end] == "で" for t in between if t.kind == "function"):
                line, column, shown = src.where(b.start, b.end)  # ガードで守る: the verb says how, one card
                self.notes.append(Problem(f"は「{shown_a}」の動きを言う語として読みました（カードは出しません）。",
                                          line=line, column=column, text=shown))
                b.kind, b.word = "sep", None
            elif len(vb) == 1 and vb in "→←" and len(va) > 1 and vb in va and b.word.technique and (any(
                    src.norm[t.start:t.end] == "で" for t in between if t.kind == "function") or (
                    # 後ろにジャンプして離れます: a verb of the move after て says how it moves (not ガードします)
                    (any(src.norm[t.start:t.end] in ("して", "て") for t in between if t.kind == "function") or
                     (a is not None and src.norm[a.start:a.end].endswith(("して", "って", "んで"))))
                    and not src.norm[b.start:b.end].startswith((b.word.shown, "前進", "後退", "ガード")))):
                line, column, shown = src.where(b.start, b.end)
                self.notes.append(Problem(f"は「{shown_a}」の動きを言う語として読みました（カードは出しません）。",
                                          line=line, column=column, text=shown))
                b.kind, b.word = "sep", None
            elif a is not None and va == vb and len(va) == 1 and not between and b.start == a.end and \
                    said_a.endswith(("テ", "デ")) and b.word.technique:
                line, column, shown = src.where(a.start, b.end)  # 下がってガード: one ← said by a verb and a name
                self.notes.append(Problem(f"を一枚の「{vb}」と読みました（二枚なら「{vb}{vb}」と書いてください）。",
                                          line=line, column=column, text=shown, severity="warning"))
                a.kind, a.word = "sep", None
            elif a is not None and a.word is not None and a.word.technique and b.word.technique and len(vb) > len(va) \
                    and vb.startswith(va) and any(src.norm[t.start:t.end] == "で" for t in between if t.kind == "function"):
                line, column, shown = src.where(a.start, b.end)  # ジャンプで前に跳んで: the verb says which jump
                self.notes.append(Problem(f"を一つの動き「{b.word.shown}」（{vb}）として読みました。", line=line,
                                          column=column, text=shown))
                a.kind, a.word = "sep", None
        for k, t in enumerate(tokens):  # 旋風脚で攻めます: the attack verb says how the technique is used
            if t.kind in ("word", "unknown") and t.word is not None and t.word.concept.startswith("ask:"):
                before = [u for u in tokens[:k] if u.kind not in ("sep",)]
                if len(before) >= 2 and src.norm[before[-1].start:before[-1].end] == "で" and before[-2].word is not None \
                        and before[-2].word.technique and len(str(before[-2].word.value)) > 1:
                    line, column, shown = src.where(t.start, t.end)
                    self.notes.append(Problem(f"は「{before[-2].word.shown}」を出すことを言う語として読みました（カードは出しません）。",
                                              line=line, column=column, text=shown))
                    t.kind, t.word = "sep", None
        return tokens

    def _aimed_at(self, tokens: list[Piece]) -> list[Piece]:
        """``弱→弱強　投げ狙いｗ``: a technique named with 狙い after a plot that already holds its
        cards says what the plot aims at; it is noted, not played again."""
        src = self.source
        for k, tok in enumerate(tokens):
            if tok.kind not in ("word", "unknown") or tok.word is None or not tok.word.technique or k + 1 >= len(tokens):
                continue
            aim = tokens[k + 1]
            particle = aim.kind == "function" and src.norm[aim.start:aim.end] == "を" and aim.start == tok.end \
                and k + 2 < len(tokens) and tokens[k + 2].start == aim.end
            if particle:
                aim = tokens[k + 2]  # 投げを狙って
            if aim.kind != "function" or (aim.start != tok.end and not particle) or not src.norm[aim.start:aim.end].startswith("狙"):
                continue
            cards = str(tok.word.value)
            before = "".join(src.norm[t.start:t.end] if t.kind == "symbol" else str(t.word.value)
                             for t in tokens[:k] if t.kind == "symbol" or (t.kind in ("word", "unknown") and t.word is not None))
            # 投げを狙って、前に二歩進んでから投げます: the technique aimed at, then the plot that makes it
            later = particle and any(t.kind in ("word", "unknown") and t.word is not None and str(t.word.value) == cards
                                     for t in tokens[k + 3:])
            if cards and (cards in before or later):
                line, column, shown = src.where(tok.start, aim.end)
                self.notes.append(Problem(f"は行動の狙い（{tok.word.shown}）を言う語として読みました（カードは出しません）。",
                                          line=line, column=column, text=shown))
                tok.kind, tok.word = "sep", None
        return tokens

    def _explaining(self, tokens: list[Piece]) -> list[Piece]:
        """``8弱　飛んだら落とす、対空安定や``: a clause with a condition (たら・なら・れば) or a purpose
        (ように) after the plot on its line, to the line's end, whose words only say again what the
        plot holds (飛んだ: ↑, 対空: ↑弱 of ↑弱), is the player's explanation: Alter EGO's plot has no
        conditions, so it is no card — passed over, warned when it names order words. What comes at
        the player (攻撃が来なかったら: the subject of the condition) is theirs. A clause that names
        another card (着地したら弱攻撃を2回), a number, or a correction is read as before."""
        src = self.source
        lines = lines_of(tokens, src)
        plot = ""  # what the lines above and the chunks before hold, as cards
        for line in lines:
            chunks: list[list[Piece]] = [[]]
            for t in line:
                if t.kind == "sep" and src.norm[t.start:t.end] in _CLAUSE_STOPS:
                    chunks.append([])
                chunks[-1].append(t)
            for c, chunk in enumerate(chunks):
                said = src.norm[chunk[0].start:chunk[-1].end] if chunk else ""
                if plot and _CONDITION.search(said):  # after the plot: on its line, or on a line below
                    clause = [t for ch in chunks[c:] for t in ch]
                    named = self._restating(clause, plot)
                    if named is not None:
                        said = [t for t in clause if t.kind != "sep" or src.norm[t.start:t.end] not in _CLAUSE_STOPS]
                        line_no, column, shown = src.where(said[0].start, said[-1].end)
                        if named:
                            words = "」「".join(named)
                            self.notes.append(Problem(f"は行動の説明（条件や狙い）として読みませんでした（Alter EGO の行動に条件はありません。「{words}」は前の行動のカードと同じです）。",
                                                      line=line_no, column=column, text=shown, severity="warning",
                                                      hint="行動の続きなら、出すカードを行動として書いてください。"))
                        else:
                            self.notes.append(Problem("は行動の説明（条件や狙い）として読みませんでした。", line=line_no, column=column, text=shown))
                        for t in clause:
                            t.kind, t.word, t.corrected, t.candidates = "sep", None, False, ()
                        break
                plot += "".join(src.norm[t.start:t.end] if t.kind == "symbol" else str(t.word.value) for t in chunk
                                if t.kind == "symbol" or (t.kind in ("word", "unknown") and t.word is not None
                                                          and isinstance(t.word.value, str)))
        return tokens

    def _talk_below(self, tokens: list[Piece]) -> list[Piece]:
        """``↑→弱弱\nジャンプから殴りにいくｗ``, ``前進 弱攻撃 ガード\nこれで攻撃してから守りに入れますか？``,
        ``前進を2回、そのあと弱攻撃\nリーチが1なので、近づいてから当てるつもりです。``: a line below the
        plot that reads as talk (a laugh, a question, a sentence's polite end) and holds what an order line
        would not leave open — a verb of attack that names no card (殴り, 蹴る, 攻撃して: 弱 or 強), a
        number, or the question itself — while each order word in it says again what the plot above
        holds (an attack when the plot has one, 2マス詰めて when it has →→), is talk about the plot: passed
        over, warned, naming the words. A number after a word pbf does not know and its が/は (リーチが1)
        is said of that word. A line that adds a card, a symbol, or a correction is read as before (an
        attack under a plot without one is still asked 弱 or 強)."""
        src = self.source
        plot = ""
        for line in lines_of(tokens, src):
            said = [t for t in line if t.kind != "sep"]
            named = self._talk_restating(said, plot) if plot and said else None
            if named is None:
                plot += "".join(src.norm[t.start:t.end] if t.kind == "symbol" else
                                (t.word.value if isinstance(t.word.value, str) else "弱") * 1 for t in said
                                if t.kind == "symbol" or (t.kind in ("word", "unknown") and t.word is not None
                                                          and isinstance(t.word.value, str)))
                continue
            tags = [t for t in said if t.kind == "comment" and src.norm[t.start:t.start + 1] in "#@"]
            kept = [t for t in said if t not in tags]
            while len(kept) > 1 and kept[-1].kind == "comment" and kept[-1] in tags:
                kept.pop()
            line_no, column, shown = src.where(kept[0].start, kept[-1].end)
            words = "」「".join(named)
            why = f"（「{words}」は上の行動のカードと同じです）" if named else ""
            self.notes.append(Problem(f"は行動の後の文として読みませんでした{why}。", line=line_no, column=column,
                                      text=shown, severity="warning",
                                      hint="行動の続きなら、行動の行に続けて書いてください。"))
            for t in kept:
                t.kind, t.word, t.corrected, t.candidates = "sep", None, False, ()
        return tokens

    def _talk_restating(self, said: list[Piece], plot: str) -> list[str] | None:
        """The order words of a line of talk under ``plot`` (:meth:`_talk_below`), as written, when
        each says again what the plot holds and the line leaves open what an order would not; None
        otherwise."""
        src = self.source
        cards = plot.replace("|", "").replace(" ", "")
        written = src.norm[said[0].start:said[-1].end]
        if _CLAUSE_CORRECTION.search(written) or _GOES_ON.match(written):
            return None  # それから殴りますｗ: the order goes on — more of it, not talk (asked as before)
        body = re.sub(r"(?:[ \u3000]*(?:#|@)\S*)+$", "", written).rstrip(" \u3000")
        question = re.search(r"[？?]|(?:ますか|ですか|でしょうか)[。]*$", body) is not None
        # a face (上から叩き潰す( ･`ω･´)) ends a line of talk as a laugh does
        face = any(t.kind == "comment" and re.fullmatch(_EMOTICON, src.norm[t.start:t.end]) for t in said)
        talk = question or face or any(t.kind == "laugh" for t in said) or _TALK_END.search(body) is not None
        if not talk:
            return None
        named: list[str] = []
        open_said = question
        odd = False  # a card's kanji inside a word of talk (最強説), a counter with no number (不発): what an order line would refuse
        for k, t in enumerate(said):
            before = said[k - 1] if k else None
            nxt = said[k + 1] if k + 1 < len(said) else None
            if t.kind == "symbol" and src.norm[t.start:t.end] in ("弱", "強") and any(
                    u is not None and u.kind == "unknown" and u.word is None and not u.candidates
                    and (u.end == t.start or u.start == t.end) and kana.has_kanji(src.norm[u.start:u.end]) for u in (before, nxt)):
                odd = True
                continue  # 最強説: the kanji inside a word of talk pbf does not know, no card
            if t.kind in ("symbol", "refer", "negation", "event_final", "cancel"):
                return None
            if t.kind == "number":
                digits = src.norm[t.start:t.end]
                if nxt is not None and nxt.kind == "function" and src.norm[nxt.start:nxt.end] in ("枚目", "番目") \
                        and 1 <= int(_KANJI_DIGITS.get(digits, digits) if (digits.isdigit() or digits in _KANJI_DIGITS) else 0) <= 5:
                    open_said = True  # 一枚目で何も来なかったら: which card of the plot above, no count
                    continue
                if before is not None and k >= 2 and before.kind == "function" and src.norm[before.start:before.end] in ("が", "は") \
                        and said[k - 2].kind == "unknown" and said[k - 2].word is None and not said[k - 2].candidates:
                    open_said = True  # リーチが1: said of the word before it
                    continue
                if not digits.isdigit() or nxt is None or nxt.kind != "counter":
                    return None
                after = said[k + 2] if k + 2 < len(said) else None
                word = after if after is not None and after.kind == "word" and after.word is not None else \
                    before if before is not None and before.kind == "word" and before.word is not None else None
                if word is None or not isinstance(word.word.value, str) or not word.word.value \
                        or word.word.value * int(digits) not in cards:
                    return None
                open_said = True
                continue
            if t.kind == "counter" and (before is None or before.kind != "number") and src.norm[t.start:t.end] in _TIMES_COUNTERS:
                odd = True  # 不発: a counter with no number, a word of talk
            if t.kind == "counter" or t.kind not in ("word", "unknown") or t.word is None:
                continue
            if nxt is not None and nxt.kind == "function" and src.norm[nxt.start:nxt.end] == "が":
                continue  # 攻撃が来なければ: what comes at the player, not a card
            value = t.word.value
            if isinstance(value, tuple) and set(value) == {"弱", "強"}:
                if "弱" not in cards and "強" not in cards:
                    return None  # an attack under a plot with none: still asked 弱 or 強
                open_said = True
            elif not isinstance(value, str) or (value and value not in cards):
                return None
            named.append(src.norm[t.start:t.end])
        open_said = open_said or (odd and any(t.kind == "laugh" for t in said))  # 朧月ぶっぱ！不発でも草生える
        if not named and not any(t.kind == "number" for t in said):
            return None  # これでいいですか？: no order word — chat, as chat_lines reads it
        if not open_said and _TALK_END.search(body) and any(t.kind == "unknown" and t.word is None and not t.candidates
                                                           and not t.corrected and t.end - t.start >= 2 for t in said):
            open_said = True  # 画面端まで逃げます under 後退 後退: a sentence that says where, of the moves above
        if not open_said:
            return None
        return list(dict.fromkeys(named))

    def _restating(self, clause: list[Piece], plot: str) -> list[str] | None:
        """The order words of a clause, as written, when each says again what ``plot`` holds; None
        when one says more (another card, a number, a correction, a card symbol)."""
        src = self.source
        cards = plot.replace("|", "").replace(" ", "")
        written = src.norm[clause[0].start:clause[-1].end]
        if _CLAUSE_CORRECTION.search(written):
            return None
        said = [t for t in clause if t.kind != "sep"]
        named: list[str] = []
        for k, t in enumerate(said):
            if t.kind == "counter" and (k == 0 or said[k - 1].kind != "number"):
                continue  # 合っています's ます: no count (マス) without a number
            if t.kind in ("symbol", "number", "counter", "refer"):
                return None
            if t.kind not in ("word", "unknown") or t.word is None:
                continue
            nxt = said[k + 1] if k + 1 < len(said) else None
            if nxt is not None and nxt.kind == "function" and src.norm[nxt.start:nxt.end] == "が":
                continue  # 攻撃が来なかったら: what comes at the player, not a card
            value = t.word.value
            if not isinstance(value, str) or not value or value not in cards:
                return None
            named.append(src.norm[t.start:t.end])
        return list(dict.fromkeys(named))

    # -- what lark reads ------------------------------------------------------------------
    def _emit(self, tokens: list[Piece]) -> None:
        out: list[str] = []
        origin: list[tuple[int, int]] = []
        src = self.source
        last_unit: tuple[str, int] | None = None  # the cards of the last word or symbol, and where they start in out
        pending_count = 0  # 2マス前進: a count before its word
        times = False
        not_done: list[tuple[int, int]] = []  # ジャンプはしないで: moves read as not made
        significant = _significant(tokens)
        follows = {id(a): b for a, b in zip(significant, significant[1:])}

        def put(piece: str, tok: Piece, per_char: bool = False) -> None:
            o_start, o_end = src.span(tok.start, tok.end)
            for k, ch in enumerate(piece):
                out.append(ch)
                if per_char:
                    origin.append(src.span(tok.start + k, tok.start + k + 1))
                else:
                    origin.append((o_start, o_end))

        def problem(tok: Piece, message: str, hint: str | None = None, end: int | None = None) -> None:
            line, column, shown = src.where(tok.start, tok.end if end is None else end)
            self.problems.append(Problem(message, line=line, column=column, text=shown, hint=hint))

        def repeat(count: int, tok: Piece) -> None:
            nonlocal last_unit
            if last_unit is None:
                problem(tok, "何を繰り返すのか分かりません（数の前にカードか技を書きます）。", "例：弱×3、前進2回")
                return
            if not 1 <= count <= 5:
                problem(tok, f"繰り返しは5回までです（{count}回）。")
                return
            cards, at = last_unit
            for _ in range(count - 1):
                out.extend(cards)
                origin.extend(origin[at:at + len(cards)])

        for index, tok in enumerate(tokens):
            kind = tok.kind
            if tok.end == tok.start:
                continue  # the end of a line kept by chat_lines
            nxt = follows.get(id(tok))
            if kind in ("unknown", "function", "word") and src.folded[tok.start:tok.end].strip() in _ENGLISH_TIMES \
                    and last_unit is not None:
                repeat(_ENGLISH_TIMES[src.folded[tok.start:tok.end].strip()], tok)  # move forward twice
                continue
            or_what = next((t for t in tokens[index + 1:] if t.kind != "sep"), None) \
                if kind == "function" and last_unit is not None and src.norm[tok.start:tok.end] == "か" else None
            if or_what is not None and or_what.kind in ("word", "symbol", "unknown") and (or_what.word is not None or or_what.kind == "symbol"):
                problem(tok, "どちらか決まっていません（「か」で二つの行動が書かれています）。", "出す方を一つに決めて書いてください。")
                continue  # 弱か強, ぜんしんかこうたい: one or the other — asked
            if kind == "symbol":
                piece = src.norm[tok.start:tok.end]
                if piece in _TIMES or piece in ("x", "*"):
                    count_said = nxt is not None and (nxt.kind == "number" or src.norm[nxt.start:nxt.end].isdigit()
                                                      or src.norm[nxt.start:nxt.end][:3] in _KANJI_DIGITS
                                                      or src.folded[nxt.start:nxt.end] in _ROMAJI_DIGITS)
                    if not count_said and last_unit is not None:
                        # よわ×: the count after × left out — how many? never the card once, unsaid
                        problem(tok, "の後に回数がありません（何回出すのか分かりません）。", f"例：{last_unit[0]}×3")
                        continue
                    times = True
                    continue
                before = next((t for t in reversed(tokens[:index]) if t.kind != "sep"), None)
                worded = before is not None and before.kind in ("word", "unknown") and before.word is not None and \
                    nxt is not None and nxt.kind in ("word", "unknown") and nxt.word is not None  # jump > light
                jump = last_unit is not None and last_unit[0] == "↑" and nxt is not None and nxt.kind == "symbol" and \
                    fold(src.norm[nxt.start:nxt.end])[:1] in ("弱", "強", "l", "h")  # ↑>弱: EC (↑→弱) or a jump, then 弱?
                if piece in "><" and len(piece) == 1 and last_unit is not None and (
                        last_unit[0][-1:] in ("弱", "強") or fold(last_unit[0])[-1:] in ("l", "h") or worded or jump):
                    problem(tok, f"「{piece}」は前進（→）とも「次に」とも読めます。",
                            f"前進なら「→」、技の区切りなら空白か「、」と書いてください。")
                    continue
                start_at = len(out)
                piece = _DASH_ARROWS.get(piece, piece)
                put(piece, tok, per_char=True)
                last_unit = (piece, start_at) if piece not in "|" else None
                if pending_count:
                    repeat(pending_count, tok)
                    pending_count = 0
                continue
            ordinal = next((t for t in tokens[index + 1:] if t.kind != "sep"), None)
            if (kind == "number" or (kind == "word" and src.norm[tok.start:tok.end].isdigit())) and ordinal is not None \
                    and src.norm[ordinal.start:ordinal.end] in ("枚目", "枚目は", "番目"):  # 4枚目: never ← (numpad 4)
                out.append(" ")  # 1枚目：↑ — which card it is, not how many
                origin.append(src.span(tok.start, tok.end))
                continue
            if kind == "number" or (kind == "word" and tok.word is not None and src.norm[tok.start:tok.end].isdigit()
                                    and (times or (nxt is not None and nxt.kind == "counter"))):
                digits = src.norm[tok.start:tok.end][:3]
                count = int(_KANJI_DIGITS.get(digits) or _ROMAJI_DIGITS.get(src.folded[tok.start:tok.end]) or digits)
                if times:
                    times = False
                    repeat(count, tok)
                elif nxt is not None and nxt.kind == "counter" and src.norm[nxt.start:nxt.end] == "枚" \
                        and re.search(r"カード|かーど|card", src.folded, re.I):
                    # ガードのカード（左矢印）を2枚: 枚 counts cards, and the post says カード (a near miss of ガード) —
                    # which cards, how many? refused as before 枚 was a count
                    problem(tok, "数だけでは何のカードか分かりません。", "例：弱×3、2マス前進、前進2回（テンキーなら 6 4 8 7 9）")
                    continue
                elif nxt is not None and nxt.kind == "counter":
                    said = src.norm[nxt.start:nxt.end]
                    if nxt.word is not None and nxt.word.shown != said and nxt.word.shown == "回":
                        line, column, shown = src.where(nxt.start, nxt.end)  # 前進2階: an IME's 回
                        self.notes.append(Problem(f"を「{nxt.word.shown}」と読みました。", line=line, column=column, text=shown))
                    after = follows.get(id(nxt))
                    # the count goes with the word it is written against: 前進２回 ジャンプ, 弱攻撃を2回出して、
                    # 後ろに… repeat the word before; 2マス前進, 弱 2回ジャンプ the word after
                    to_before, to_after = _attached(tokens, index, -1, src.norm), _attached(tokens, tokens.index(nxt), 1, src.norm)
                    times_of = nxt.word is not None and nxt.word.shown == "回" or said in _TIMES_COUNTERS
                    rest = src.norm[nxt.end:].lstrip(" \u3000")
                    closed = not rest or rest[0] in "、,，/／・;；。\n"  # 前進 2回、弱: the count ends its clause
                    if last_unit is not None and to_before and (not to_after or times_of):
                        repeat(count, tok)  # 前進2回弱: a count of times goes with the word before it
                    elif times_of and last_unit is not None and closed and not to_after:
                        repeat(count, tok)  # 前進 2回、弱 (zenshin 2 kai, jaku): a count of times closing its clause
                    elif times_of and last_unit is not None and said.isascii() and not to_after:
                        repeat(count, tok)  # zenshin 2 kai jaku: romaji puts its spaces between every word
                    elif times_of and last_unit is not None and not to_before and not to_after and after is not None \
                            and after.kind in ("word", "symbol") and src.where(after.start)[0] == src.where(tok.start)[0]:
                        # 前進 2回 弱: a count of times apart from the words on both sides — of which?
                        problem(tok, "の数が前と後ろのどちらの行動の数か決まりません。", "前の行動なら「前進2回 弱」、後ろなら「前進 弱2回」のように、"
                                "数える行動につけて書いてください。", end=nxt.end)
                    elif to_after and not to_before and after is not None and after.kind in ("word", "symbol"):
                        pending_count = count
                    elif last_unit is not None and (after is None or after.kind not in ("word", "symbol")
                                                    or src.where(after.start)[0] != src.where(tok.start)[0]):
                        repeat(count, tok)  # 前進2回
                    else:
                        pending_count = count  # 2マス前進
                elif kind == "word":
                    pass  # a card written as a digit (6) before a counter: the count comes with it
                elif set(src.norm[tok.start:tok.end]) <= set(_NUMPAD):  # 66弱: numpad notation
                    start_at = len(out)
                    for k, digit in enumerate(src.norm[tok.start:tok.end]):
                        cards = _NUMPAD[digit]
                        out.extend(cards)
                        origin.extend([src.span(tok.start + k, tok.start + k + 1)] * len(cards))
                    last_unit = (_NUMPAD[src.norm[tok.end - 1]], len(out) - len(_NUMPAD[src.norm[tok.end - 1]]))
                    continue
                else:
                    problem(tok, "数だけでは何のカードか分かりません。", "例：弱×3、2マス前進、前進2回（テンキーなら 6 4 8 7 9）")
                    continue
                if kind == "number" or times is False:
                    out.append(" ")
                    origin.append(src.span(tok.start, tok.end))
                    continue
            if kind == "refer":
                problem(tok, "前のターンの行動を指す語は読めません（行動は毎ターン書きます）。", "出すカードを書いてください。")
                continue
            if kind == "counter":
                before = tokens[index - 1] if index else None
                if said_ascii := src.norm[tok.start:tok.end].isascii():  # 2 kai, 2 times: romaji puts a space between
                    if before is not None and before.kind == "sep" and src.norm[before.start:before.end] == " " and index >= 2:
                        before = tokens[index - 2] if tokens[index - 2].end == before.start else before
                counted = before is not None and (before.end == tok.start or said_ascii) and (
                    before.kind == "number" or src.norm[before.start:before.end].isdigit())
                said = src.norm[tok.start:tok.end]
                if not counted and said in _TIMES_COUNTERS:
                    kana = src.norm[before.start:before.end] if before is not None and before.end == tok.start else ""
                    word_before = tokens[index - 2] if index >= 2 and tokens[index - 2].end == before.start else None
                    if kana in ("に", "ニ") and word_before is not None and word_before.kind == "word" and \
                            fold(src.norm[word_before.start:word_before.end]) in _DIRECTIONS:
                        # まえに回: the に of 前に (a particle the word takes), or 2? — asked
                        problem(before, "の「に」は「" + src.norm[word_before.start:before.end] + "」の「に」とも、数の2とも読めます。",
                                "例：前進2回、前に2回", end=tok.end)
                        continue
                    if kana in _KANA_COUNTS and last_unit is not None:  # 前進に回して: an IME's 2回
                        line, column, shown = src.where(before.start, tok.end)
                        self.notes.append(Problem(f"を「{_KANA_COUNTS[kana]}{said}」と読みました。", line=line, column=column, text=shown))
                        repeat(_KANA_COUNTS[kana], tok)
                    else:  # 回 with no number before it: never passed over
                        problem(tok, "何回なのか、数が書かれていません。", "例：前進2回、弱×3")
                        continue
                out.append(" ")
                origin.append(src.span(tok.start, tok.end))
                continue
            if kind in ("word", "unknown") and tok.word is not None:
                word = tok.word
                if word.concept.startswith("ask:"):
                    shown = "・".join(f"{self._name(c)}（{c}）" if self._name(c) != c else f"「{c}」" for c in word.value)
                    problem(tok, "どのカードのことか決まらない語です。", f"{shown}のどれかを書いてください。")
                    continue
                if tok.corrected:
                    line, column, shown = src.where(tok.start, tok.end)
                    other = _a_word_of_its_own(src.norm[tok.start:tok.end], word.shown)
                    if other:  # かーど: ガード a sound mark off, or カード (card) as written — warned
                        self.notes.append(Problem(f"を「{word.shown}」と読みました（書かれたとおりなら「{other}」という別の語です）。",
                                                  line=line, column=column, text=shown, severity="warning",
                                                  hint=f"「{word.shown}」のつもりでなければ、出すカードを書き直してください。"))
                    else:
                        self.notes.append(Problem(f"を「{word.shown}」と読みました。", line=line, column=column,
                                                  text=shown))
                start_at = len(out)
                if word.technique and not src.norm[tok.start:tok.end].strip().isdigit():  # 9 is a card's numpad key
                    self.named.update(range(start_at, start_at + len(str(word.value))))
                put(str(word.value), tok)
                put(" ", tok)
                last_unit = (str(word.value), start_at) if word.value else None
                if pending_count:
                    repeat(pending_count, tok)
                    pending_count = 0
                continue
            if kind == "negation":
                before = next((t for t in reversed(tokens[:index]) if t.kind in ("word", "symbol")), None)
                between = tokens[tokens.index(before) + 1:index] if before is not None else []
                if any(t.kind == "sep" and "\n" in src.norm[t.start:t.end] for t in between):
                    before, between = None, []  # a negation never reaches across a line break (エナジーキャノン\nゲージない)
                if before is not None and last_unit is not None and before.word is not None and before.word.technique \
                        and all(t.kind in ("function", "sep") and src.norm[t.start:t.end].strip() in ("は", "を", "も", "")
                                for t in between) and src.norm[tok.start:tok.end] in _NOT_DOING:
                    del out[last_unit[1]:], origin[last_unit[1]:]  # ジャンプはしないで: the move not made
                    not_done.append((before.start, tok.end))
                    line, column, shown = src.where(before.start, tok.end)
                    self.notes.append(Problem("は出さない動きとして読みました（そのカードは出しません）。", line=line,
                                              column=column, text=shown))
                    last_unit = None
                    continue
                problem(tok, "打ち消しの語（しない・使わない）は読めません。出さないカードは書かないでください。",
                        "出すカードだけを書きます。何もしないなら「なし」。",
                        end=None) if before is None else problem(
                    before, "カードを打ち消す語があります（出さないカードは書かないでください）。",
                    "出すカードだけを書きます。何もしないなら「なし」。", end=tok.end)
                continue
            if kind == "unknown" and src.norm[tok.start:tok.end] in _KANA_COUNTS and last_unit is not None and nxt is not None \
                    and nxt.kind == "counter" and nxt.start == tok.end and src.norm[nxt.start:nxt.end] in _TIMES_COUNTERS:
                out.append(" ")  # 弱攻撃 さんかい: the count typed in kana, read with its counter (noted there)
                origin.append(src.span(tok.start, tok.end))
                continue
            if kind == "unknown":
                self._unknown(tok, tokens, index)
                continue
            out.append(" ")  # sep, function, laugh, comment, anchor
            origin.append(src.span(tok.start, tok.end))
        if pending_count:
            self.problems.append(Problem("数の後に、繰り返すカードか技がありません。", line=1, column=1, hint="例：2マス前進"))
        if not_done and not any(ch in "弱強→←↑" for ch in out):
            line, column, shown = src.where(not_done[0][0], not_done[-1][1])
            self.problems.append(Problem("しない動きだけが書かれています（出すカードがありません）。", line=line, column=column,
                                         text=shown, hint="出すカードを書いてください。何もしないなら「なし」。"))
        self.norm = "".join(out)
        self.origin = origin

    def _name(self, cards: str) -> str:
        word = self.lexicon.exact.get(fold(cards))
        return {"弱": "弱攻撃", "強": "強攻撃"}.get(cards, word.shown if word else cards)

    def _unknown(self, tok: Piece, tokens: list[Piece], index: int) -> None:
        src = self.source
        word = src.norm[tok.start:tok.end]
        line, column, shown = src.where(tok.start, tok.end)
        if word in "><" and len(word) == 1:
            self.problems.append(Problem(f"「{word}」は前進・後退とも「次に」とも読めます。", line=line, column=column,
                                         text=shown, hint="前進なら「→」、後退なら「←」、技の区切りなら空白か「、」と書いてください。"))
            return
        if tok.candidates:
            names = "」「".join(dict.fromkeys(w.shown for w in tok.candidates))
            self.problems.append(Problem("読みの近い語が２つ以上あり、どれか決まりません。", line=line, column=column,
                                         text=shown, hint=f"「{names}」のどれかを書いてください。"))
            return
        lines = self._token_lines(tokens)
        same = [t for t in tokens if lines.get(id(t)) == line]
        rest = [t for t in same if t.start > tok.start and t.kind not in ("sep", "function", "laugh", "comment")]
        done = [t for t in same if t.start < tok.start and t.kind in ("word", "symbol")]
        # chat is words of Japanese (an ASCII tail is far more often a typo of a card word: jmp, x)
        wordy = any(ch.isalpha() and not ch.isascii() for ch in src.norm[tok.start:(rest[-1].end if rest else tok.end)])
        chatty = any(t.kind in ("function", "laugh") for t in same if t.start > tok.start) \
            or any(ch in "!?" for ch in src.norm[tok.start:])
        head_of = done[-1] if done and done[-1].end == tok.start and done[-1].kind == "word" else None
        if head_of is not None and _KANJI.fullmatch(src.norm[head_of.start:head_of.end]) and _KANJI.match(word):
            # 投了ｗｗｗ: a one-kanji order word (投) written against a kanji pbf does not know makes one word with it
            # (投了, resign) — never 投げ with talk after it
            line, column, shown = src.where(head_of.start, tok.end)
            self.problems.append(Problem(f"は一つの語で、カードとして読めません（「{src.norm[head_of.start:head_of.end]}」と"
                                         f"「{word}」には分けて読みません）。", line=line, column=column, text=shown, hint=CARD_HELP))
            return
        if done and wordy and chatty and not any(t.kind in ("word", "symbol") or t.candidates or t.word is not None
                                                 for t in rest):
            tail_end = rest[-1].end if rest else tok.end
            line, column, shown = src.where(tok.start, tail_end)
            self.notes.append(Problem("は行動の後ろの雑談として読みませんでした。", line=line, column=column,
                                      text=shown))
            for t in rest:
                t.kind = "sep"
            return
        latin = [t for t in [tok, *rest] if t.kind == "unknown"]
        cut = src.norm[done[-1].end:tok.start] if done else ""
        laughing = chatty and not any(t.kind == "function" for t in same if t.start > tok.start) \
            and not any(ch in "!?" for ch in src.norm[tok.start:])  # mizu nomu kk: a laugh after romaji talk
        if done and (not chatty or laughing) and len(latin) >= 2 and len(latin) == len(rest) + 1 and any(ch in ",." for ch in cut) \
                and all(src.norm[t.start:t.end].isascii() and src.norm[t.start:t.end].isalpha() and t.word is None
                        and not t.candidates and len(src.norm[t.start:t.end]) >= 3 for t in latin) \
                and not any(self.lexicon.near(src.norm[t.start:t.end]) for t in latin):
            # nashi. pass this turn, shigoto busy yade: words of romaji talk after the order and its comma — no slip
            line, column, shown = src.where(tok.start, latin[-1].end)
            self.notes.append(Problem("は行動の後ろの雑談として読みませんでした。", line=line, column=column, text=shown,
                                      severity="warning", hint="行動のつもりなら、カードか技の名前で書いてください。"))
            for t in rest:
                t.kind = "sep"
            return
        head = tokens[index - 1] if index else None  # なし　ね+むい: the kana read as a particle begins the word
        if head is not None and head.kind == "function" and head.end == tok.start and head.end - head.start == 1 \
                and "ぁ" <= src.norm[head.start] <= "ゖ" and (index < 2 or tokens[index - 2].kind == "sep"):
            word = src.norm[head.start:tok.end]
            line, column, shown = src.where(head.start, tok.end)
        suggest = len(self.problems) < 48  # a post of hundreds of unknown words: no search for each
        guess = self.suggestion(word) if suggest and (len(word) > 1 or not word.isascii()) else None
        start = tok.start - (len(word) - len(src.norm[tok.start:tok.end]))
        if done and not rest and guess is None and suggest and len(word) >= 3 and start > 0 \
                and src.norm[start - 1] in " \u3000" and all(ch == "ー" or "ぁ" <= ch <= "ゖ" or "ァ" <= ch <= "ヺ" for ch in word):
            # なし　ねむい: one word of kana after the order on its line, near no word of the game — talk
            self.notes.append(Problem("は行動の後ろの雑談として読みませんでした。", line=line, column=column, text=shown,
                                      severity="warning", hint="行動のつもりなら、カードか技の名前で書いてください。"))
            return
        hint = f"もしかして「{guess}」？　{CARD_HELP}" if guess else CARD_HELP
        self.problems.append(Problem("カードとして読めない語です。", line=line, column=column, text=shown, hint=hint))

    def _token_lines(self, tokens: list[Piece]) -> dict[int, int]:
        """The line of each token (computed once per reading: a post of many unknown words)."""
        kept = getattr(self, "_lines_kept", None)
        if kept is None or kept[0] is not tokens:
            kept = (tokens, {id(t): self.source.where(t.start)[0] for t in tokens})
            self._lines_kept = kept
        return kept[1]

    def where(self, start: int, end: int | None = None) -> tuple[int, int, str]:
        """Line, column (1-based) and original text of a span of what lark reads."""
        if not self.origin:
            return 1, 1, self.text[:1]
        last = len(self.origin) - 1
        o_start = self.origin[min(start, last)][0]
        o_end = self.origin[min(end - 1, last)][1] if end is not None and end > start else self.origin[min(start, last)][1]
        o_end = max(o_end, o_start + 1)
        return (*position(self.text, o_start), self.text[o_start:o_end])

    def suggestion(self, word: str) -> str | None:
        """The nearest known word (English card words, or the data's words) for a 「もしかして」."""
        key = fold(word)
        ascii_word = key.isascii()
        pool = {w: w for w in WORDS} if ascii_word else {}
        pool.update({k: w.shown if w.kind == "order" and not k.isascii() else k
                     for k, w in self.lexicon.exact.items() if w.kind == "order" and k.isascii() == ascii_word and len(k) > 1})
        guess = nearest(key, list(pool), cutoff=0.6)
        return pool[guess] if guess else None


@lru_cache(maxsize=1)
def parser() -> Lark:
    """Built once per process (LALR), and kept in pbf's cache between processes."""
    return lark_parser("alterego", parser="lalr")  # tokens carry their positions; no rule needs them


class _ToPlot(Transformer):
    def __init__(self, source: _Source, problems: list[Problem], unbracketed: set[int]):
        super().__init__()
        self.source = source
        self.problems = problems
        self.unbracketed = unbracketed  # markers already reported for their missing brackets

    def card(self, tokens: list[Token]) -> Card:
        (tok,) = tokens
        line, column, text = self.source.where(tok.start_pos, tok.end_pos)
        return Card(CARD_OF_TERMINAL[tok.type], line, column, text, tok.start_pos in self.source.named)

    def cancel(self, children: list) -> Cancel:
        marker: Token = children[0]
        cards: list[Card] = children[1:]
        line, column, text = self.source.where(marker.start_pos, marker.end_pos)
        if len(cards) != 2 and marker.start_pos not in self.unbracketed:
            self.problems.append(
                Problem(
                    f"キャンセルで捨てるカードは２枚です（{len(cards)}枚書かれています）。",
                    line=line, column=column, text=text, hint="例：C(弱←)",
                )
            )
        return Cancel(tuple(c.symbol for c in cards), line, column, text)

    def split(self, tokens: list[Token]) -> Split:
        (tok,) = tokens
        line, column, text = self.source.where(tok.start_pos, tok.end_pos)
        return Split(line, column, text)

    def start(self, items: list) -> Plot:
        return Plot(tuple(items))


def _syntax_problem(error: UnexpectedInput, source: _Source) -> Problem:
    if isinstance(error, UnexpectedCharacters):
        pos = error.pos_in_stream
        end = word_end(source.norm, pos)
        line, column, text = source.where(pos, end)
        word = source.norm[pos:end]
        guess = source.suggestion(word) if end > pos + 1 or not word.isascii() else None
        hint = f"もしかして「{guess}」？　{CARD_HELP}" if guess is not None else CARD_HELP
        return Problem("カードとして読めない語です。", line=line, column=column, text=text, hint=hint)
    assert isinstance(error, UnexpectedToken)
    tok = error.token
    if tok.type == "$END" and "_OPEN" in error.expected:
        marker = error.interactive_parser.parser_state.value_stack[-1]
        line, column, text = source.where(marker.start_pos, marker.end_pos)
        return Problem("キャンセルの後には、捨てる２枚をかっこで書きます。", line=line, column=column, text=text, hint="例：C(弱←)")
    if tok.type == "$END":
        end = len(source.norm)
        line, column, _ = source.where(max(end - 1, 0))
        return Problem("キャンセルのかっこが閉じていません。", line=line, column=column, text=source.text[-1:] or None, hint="例：C(弱←)")
    line, column, text = source.where(tok.start_pos, tok.end_pos)
    if "_OPEN" in error.expected:
        return Problem("キャンセルの後には、捨てる２枚をかっこで書きます。", line=line, column=column, text=text, hint="例：C(弱←)")
    if tok.type == "_OPEN":
        return Problem("かっこはキャンセル（C）の後にだけ書けます。", line=line, column=column, text=text, hint="例：C(弱←)")
    if tok.type == "_CLOSE":
        return Problem("閉じかっこに対応する開きかっこがありません。", line=line, column=column, text=text)
    return Problem(f"ここに「{text}」は書けません。", line=line, column=column, text=text, hint=CARD_HELP)


# (text, id(words)) -> (words, plot). A plot is immutable and the same text with the same words
# always reads the same, so a text read once is not given to lark again: a replay reads the same
# few orders (弱, ←, なし …) turn after turn, and a bot that tries plots reads the same ones
# thousands of times. The words dict is kept with the plot (the data keeps one per character),
# so an id is never mistaken for another dict's. Bounded: cleared when full.
_READ: dict[tuple[str, int], tuple[Any, Plot]] = {}
_READ_MAX = 4096


def parse_plot(text: str, words: dict[str, str] | None = None) -> Plot:
    """Syntax only: text → Plot. Raises OrderError with every problem found.

    ``words``: words that stand for cards (the data's readings and technique names)."""
    key = (text, id(words))
    kept = _READ.get(key)
    if kept is not None and kept[0] is words:
        return kept[1]
    plot = _read_plot(text, words)
    if len(_READ) >= _READ_MAX:
        _READ.clear()
    _READ[key] = (words, plot)
    return plot


def forget_plots() -> None:
    """Forget every plot read: the next reading of any text goes through lark again
    (benchmarks/bench.py measures a cold parse with it)."""
    _READ.clear()


def _read_plot(text: str, words: dict[str, str] | None) -> Plot:
    source = _Source(text or "", words)
    problems: list[Problem] = list(source.problems)
    unbracketed: set[int] = set()

    def on_error(error: UnexpectedInput) -> bool:
        if isinstance(error, UnexpectedToken) and error.token.type == "$END" and problems and "_OPEN" not in error.expected:
            return False  # the earlier problem already explains it
        problems.append(_syntax_problem(error, source))
        if isinstance(error, UnexpectedToken) and "_OPEN" in error.expected:
            # a marker without brackets: close it empty, so that the cards after it read as cards
            # (one problem, not one per card) and it is not reported again for its card count
            unbracketed.add(error.interactive_parser.parser_state.value_stack[-1].start_pos)
            error.interactive_parser.feed_token(Token("_OPEN", "("))
            error.interactive_parser.feed_token(Token("_CLOSE", ")"))
        if isinstance(error, UnexpectedCharacters):
            # skip a whole unknown word at once ("jmp" or よろしく is one problem, not one per letter)
            pos = error.pos_in_stream
            end = word_end(source.norm, pos)
            if end > pos + 1:
                error.interactive_parser.lexer_thread.state.line_ctr.feed(source.norm[pos:end])
        return len(problems) < 20

    try:
        tree = parser().parse(source.norm, on_error=on_error)
    except UnexpectedInput as error:
        if not problems:
            problems.append(_syntax_problem(error, source))
        raise OrderError(problems) from None
    plot = _ToPlot(source, problems, unbracketed).transform(tree)
    if problems:
        raise OrderError(sorted(problems, key=lambda p: (p.line or 0, p.column or 0)))
    plot, joined = _joined(plot, source.lexicon.commands, source.source.original)
    plot, apart = _apart(plot, source.not_meant, source.lexicon.commands)
    notes = source.notes + joined + apart
    if notes:
        plot = Plot(plot.items, tuple(sorted(notes, key=lambda p: (p.line or 0, p.column or 0))))
    return plot


def _joined(plot: Plot, table: dict[str, Any] | None, text: str = "") -> tuple[Plot, list[Problem]]:
    """Never a wrong guess: where the cards of two moves the player named apart would join into
    another technique by the rules (ジャンプ 弱攻撃 would be 対空技 ↑弱; 弱攻撃 強攻撃 投げ), the
    moves are read as named — a ｜ before the one that would join (独自裁定, docs/rules/alterego.md:
    as few as keep each named move itself) — and a warning names the other reading and how to
    write it. Written against each other (前J弱, ジャンプ←強) or as cards (弱 強, 9弱), they read as
    the rules give, and a warning shows the ｜ form."""
    if not table or not (any(isinstance(i, Card) and i.named for i in plot.items) or _THEN.search(text)
                         or any(isinstance(i, Card) and i.text.endswith(("て", "で")) for i in plot.items)):
        return plot, []  # cards only, and no word of sequence: nothing is named apart (弱→→弱強)

    items = list(plot.items)
    out: list[Problem] = []
    cuts: list[tuple[int, Card]] = []
    segment: list[int] = []
    for index, item in enumerate((*items, None)):
        if isinstance(item, Card):
            segment.append(index)
            continue
        units: list[list[int]] = []
        for at in segment:
            card = items[at]
            if units and (items[units[-1][-1]].line, items[units[-1][-1]].column) == (card.line, card.column):
                units[-1].append(at)
            else:
                units.append([at])
        run: list[list[int]] = units[:1]
        for unit in units[1:]:
            crossing = _crossing([*run, unit], items, table, text)
            if crossing is not None and crossing[2]:
                cuts.append((unit[0], items[unit[0]]))
                words = [items[u[0]].text for u in crossing[1]]
                out.append(Problem(
                    f"は別々の技として読みました（続けると{crossing[0].technique.name}（{crossing[0].cards}）になります）。",
                    line=items[crossing[1][0][0]].line, column=items[crossing[1][0][0]].column, text=" ".join(words),
                    severity="warning", hint=f"{crossing[0].technique.name}のつもりなら「{crossing[0].cards}」と書いてください。"))
                run = [unit]
                continue
            run.append(unit)
        for read, covered, _gap in _crossings(run, items, table, text):
            words = [items[u[0]].text for u in covered]
            out.append(Problem(
                f"は続けて{read.technique.name}（{read.cards}）になります（カードの並びで技が決まります）。",
                line=items[covered[0][0]].line, column=items[covered[0][0]].column, text=" ".join(words),
                severity="warning", hint=f"別々の技にするなら「{'｜'.join(words)}」と書いてください。"))
        segment = []
    if not out:
        return plot, []
    for at, card in reversed(cuts):
        items.insert(at, Split(card.line, card.column, ""))
    return Plot(tuple(items), plot.notes), out


def _offset(text: str, line: int, column: int) -> int:
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
    return start + column - 1


# what says "then" between two moves (jump してから jaku, 前進の後に投げ): they are two moves
_THEN = re.compile(r"(?:し?てから|それから|その後|そのあと|のあと|の後|あとに|後に|次に|続けて|then|and then|after that|shite ?kara|sono ?ato)", re.I)


def _said_then(first: Card, second: Card, text: str) -> bool:
    """Between the two cards the player wrote a word of sequence (してから, then)."""
    if not text:
        return False
    a, b = _offset(text, first.line, first.column), _offset(text, second.line, second.column)
    between = _BRACKETED.sub(" ", text[a:b])  # （抱っこ交代してから続き書く）: a remark's してから is no word of the order's
    return bool(_THEN.search(between)) or first.text.endswith(("て", "で"))


_BRACKETED = re.compile(r"（[^（）\n]*）|\([^()\n]*\)")


def _crossings(run: list[list[int]], items: list[Any], table: dict[str, Any], text: str = "") -> list:
    """Each technique the run's cards read as that takes cards of two written units, one of them
    a named move or the two with a word of sequence between: (the reading, the units it covers,
    whether the moves are written apart — not side by side, or with a verb of sequence between
    them: ジャンプして弱攻撃)."""
    from .reading import _adjacent, read_cards

    cards = [items[at] for unit in run for at in unit]
    owner = [k for k, unit in enumerate(run) for _at in unit]
    found, at = [], 0
    for read in read_cards(cards, table):
        span = range(at, at + len(read.cards))
        at += len(read.cards)
        covered = sorted({owner[k] for k in span})
        if len(covered) < 2:
            continue
        pairs = [(items[run[a][-1]], items[run[b][0]], items[run[a][0]].named or items[run[b][0]].named)
                 for a, b in zip(covered, covered[1:])]
        then = [_said_then(first, second, text) for first, second, _named in pairs]
        if not (any(items[run[k][0]].named for k in covered) or any(then)):
            continue
        gap = any((not _adjacent(first, second) or said) and (named or said)
                  for (first, second, named), said in zip(pairs, then))
        found.append((read, [run[k] for k in covered], gap))
    return found


def _crossing(run: list[list[int]], items: list[Any], table: dict[str, Any], text: str = ""):
    """The first crossing (:func:`_crossings`) of the run that takes its last unit, or None."""
    last = run[-1]
    return next((c for c in _crossings(run, items, table, text) if c[1][-1] is last), None)


# what a count may be written against: the particle of 弱攻撃を2回, an ending that is only a verb's (出して)
_COUNT_PARTICLES = ("を", "は", "で", "ずつ")


def _attached(tokens: list[Any], index: int, step: int, norm: str) -> bool:
    """The token at ``index`` (a count, or its counter) is written against an order word on that
    side: the word itself, or the word and a particle (弱攻撃を2回) — no space, separator or verb."""
    j = index + step
    while 0 <= j < len(tokens):
        t = tokens[j]
        if t.kind == "symbol" or (t.kind in ("word", "unknown") and t.word is not None and t.word.kind == "order"):
            return True
        if t.kind == "function" and step < 0 and norm[t.start:t.end] in _COUNT_PARTICLES:
            j += step
            continue
        return False
    return False
