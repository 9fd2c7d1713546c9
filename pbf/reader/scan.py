"""A post cut into what a GM sees in it: order words, symbols, separators, function words,
comments, chat — every character accounted for.

:func:`scan` walks the normalised text once: at each position the game's own symbols (a card,
a cancel's brackets), then the lexicon's longest word (order words, function words, negations),
then the shapes of a post (separators, ！？, 笑・ｗ, an emoticon or a remark in brackets, a
``>>12`` anchor, a number); whatever is left is an ``unknown`` run, which the game reader looks
up as a near miss or reports. :func:`chat_lines` then passes over each line that holds no order
word at all, with a note.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Callable

from ..errors import Problem
from ..record import record
from . import kana
from .lexicon import Lexicon, Word
from .text import Text


@record
class Token:
    start: int  # in the normalised text
    end: int
    kind: str  # word | symbol | sep | function | negation | comment | anchor | number | laugh | unknown
    word: Word | None = None
    corrected: bool = False  # a near miss read as ``word`` (noted)
    candidates: tuple = ()  # for an unknown run: what it could be (a problem names them)
    named: tuple = ()  # for a remark passed over: the order words it holds (its note warns of them)
    step: bool = False  # for a comment: the number of a step of the order (1. 前進, ③): the line is the order's
    what: str = ""  # for a comment: what a bridged post carries, as a note names it (ハッシュタグ, 宛先（@）, リンク)


SEPARATORS = frozenset("-_+=~ \t\r\u3000,、・/／;；。.!?！？♪☆★♡♥～〜…‥「」『』\"'`:：")
_OPEN, _CLOSE = "([{〔【《〈", ")]}〕】》〉"  # after NFKC: （ is (, ［ is [
_ANCHOR = r">>\d+(?:[-,]\d+)*"
# ㅋㅋ ㅎㅎ (and kk, ㅋㅋ in romaji): a Korean-speaking player's laugh; the jamo as NFKC makes them (ᄏ ᄒ)
_LAUGH = r"(?:w{2,}|ｗ+|笑+|草+|orz|otl|wktk|k{2,}|[ᄏᄒㅋㅎ]{2,})(?![a-z])"
# ㅇㅇ (yes), ㄱㄱ (go go), ㅠㅠ ㅜㅜ (tears): a Korean-speaking player's chat in jamo, no word of the game
_JAMO_CHAT = r"[\u110b\u1100\u1172\u116eㅇㄱㅠㅜ]{2,}"
# :shield:, :thumbsup: — a Discord emoji's code (a bridge bot passes it on as text): colon, ASCII name, colon, after
# a space or the line's start and before a space or a stop (受動:FV: RV is a label)
_EMOJI_CODE = r"(?<![^\s\u3000]):[a-z0-9_+\-]{2,32}:(?=[\s\u3000。、.,!！?？]|$)"
_NUMBER = r"\d+|[一二三四五](?=\s*(?:回|階|会|解|界|かい|カイ|マス|歩|度|発|枚))"
# an emoticon: a face in brackets, with what is written around it (m9(^Д^) <(_ _)> (｀・ω・´)ゞ)
_EMOTICON = r"[<>m9ヽ\\oｍ٩]*[(][^()\n]{0,12}[_^;´`･ωдд∀▽ﾟ゜°＾｀*Д•][^()\n]{0,12}[)][<>/ノゞヾゝヽ9oﾉmｍو۶]*(?:[ｦ-ﾟァ-ヺー]{1,6}(?![ァ-ヺ]))?|[(][ァ-ヺー]{1,5}ッ(?=[ \t\u3000]*(?:\n|$))"
# … or a face said in kana, its bracket left open at the line's end: （ｷﾘｯ, (ﾄﾞﾔｯ (キリッ after folding)
# an arrow pointing back at what was written, and what is said of it, to the end of the line
# (強攻撃←これでどうだ, ↑↑ ←これで決める): on the folded text, after something on the line
_POINTING = "←⬅<"
_POINTER = rf"[{_POINTING}]+[ \t\u3000]*(?:コレ|コッチ|ココ|コイツ|コンナ|本命|ドウダ)[^\n]*"
# the number of a step in a list, at a line's start or after a space: 1.前進 2.前進, 1) 弱
_ENUMERATION = r"[1-9][.)](?=\s*[^\d\s.)])"
# what a post bridged from X (Twitter) carries besides its words, on the folded text: a hashtag (#オルタリゴ; where it
# names no order word: ＃受動 is a bullet), a mention (@kaede_pbf, RT @kaede_pbf:), a link (https://t.co/…)
_HASHTAG = r"#[\w・ー]*[^\W\d_][\w・ー]*"
_MENTION = r"(?:(?:rt|qt)[ \t\u3000]*)?@[a-z0-9_]{1,15}(?![a-z0-9_])(?:[ \t\u3000]*:)?"
_LINK = r"https?://[!-~]+"
# a face without brackets after a word of talk (よろしくです^^, ありがとう^_^;): not ↑↑
_CARET_FACE = r"\^[_o\-]?\^;*"
_TALK_BEFORE = r"[ァ-ヺー!w。~〜]"
# a remark that reads as chat by its end: a laugh, an ending of talk (ですわ, かな, よね), ！
_CHATTY_REMARK = r"(?:(?<![a-z])w+|笑+|草+|デス[ワネヨ]?|カナ|カモ|ヨネ|ダネ|[!]+)\s*$"  # on the folded text


@lru_cache(maxsize=1)
def _compiled() -> dict[str, re.Pattern[str]]:
    """The patterns above, compiled on first use: a plot of card symbols is never scanned, and
    compiling them all costs a few milliseconds of every start-up that imports this module."""
    return {name: re.compile(source) for name, source in (
        ("anchor", _ANCHOR), ("laugh", _LAUGH), ("number", _NUMBER), ("emoticon", _EMOTICON),
        ("caret_face", _CARET_FACE), ("talk_before", _TALK_BEFORE), ("chatty_remark", _CHATTY_REMARK),
        ("not_flavour", _NOT_FLAVOUR), ("jamo_chat", _JAMO_CHAT), ("emoji_code", _EMOJI_CODE), ("correction", _CORRECTION), ("pointer", _POINTER), ("enumeration", _ENUMERATION),
        ("hashtag", _HASHTAG), ("mention", _MENTION), ("link", _LINK))}


def scan(text: Text, lexicon: Lexicon, symbol: Callable[[str, int], int | None] | None = None,
         remarks: bool | str = True, readings: bool = False) -> list[Token]:
    """``readings``: a word written in kana is found by the reading of its kanji form (はなれる,
    いちばんちかいひと), with a note. ``remarks``: a remark in brackets is passed over (Alter EGO: （投げ狙いです）); ``"chatty"``:
    only one that reads as chat by its end (the rider game: （城戸から） names whom to move from,
    （刃さんそろそろ撃ってきそうｗ） is chat); False: what brackets hold is read as any text is."""
    patterns = _compiled()
    anchor, laugh, number, emoticon = patterns["anchor"], patterns["laugh"], patterns["number"], patterns["emoticon"]
    caret_face, talk_before, chatty_remark = patterns["caret_face"], patterns["talk_before"], patterns["chatty_remark"]
    pointer, enumeration = patterns["pointer"], patterns["enumeration"]
    folded = text.folded
    n = len(folded)
    out: list[Token] = []
    i = 0

    def unknown(at: int) -> None:
        if out and out[-1].kind == "unknown" and out[-1].end == at:
            out[-1].end = at + 1
        else:
            out.append(Token(at, at + 1, "unknown"))

    while i < n:
        ch = folded[i]
        if ch == "\n":
            out.append(Token(i, i + 1, "sep"))
            i += 1
            continue
        m = emoticon.match(folded, i) or (patterns["emoji_code"].match(folded, i) if ch == ":" else None) \
            or (patterns["jamo_chat"].match(folded, i) if "\u1100" <= ch <= "\u11ff" or "\u3131" <= ch <= "\u318e" else None)
        if m:
            out.append(Token(i, m.end(), "comment"))
            i = m.end()
            continue
        m = caret_face.match(folded, i)
        if m and i > 0 and talk_before.match(folded, i - 1):
            out.append(Token(i, m.end(), "comment"))
            i = m.end()
            continue
        if ch == "*" and folded.startswith("**", i):
            j = i
            while j < n and folded[j] == "*":
                j += 1
            out.append(Token(i, j, "sep"))  # **【行動】**, **前進**: markdown's bold (a bridge from Discord), decoration
            i = j
            continue
        if folded.startswith("||", i) and _spoiler(folded, i):
            out.append(Token(i, i + 2, "sep"))  # ||前進 投げ||: markdown's spoiler, its pipes no ｜ of the plot
            i += 2
            continue
        shared = _shared(folded, i, lexicon, patterns) if ch in "#@rqh" else None
        if shared is not None:  # #オルタリゴ, @kaede_pbf, https://t.co/…: a bridged post's, passed over
            out.append(Token(i, shared[0], "comment", what=shared[1]))
            i = shared[0]
            continue
        if ch == "#" and (i == 0 or folded[i - 1] in " \t\u3000\n") and lexicon.match(folded, i + 1) is not None:
            out.append(Token(i, i + 1, "sep"))  # ＃受動：GV, ＃移動　接近: a bullet before a label
            i += 1
            continue
        m = anchor.match(folded, i)
        if m:
            out.append(Token(i, m.end(), "anchor"))
            i = m.end()
            continue
        m = enumeration.match(folded, i) if ch.isdigit() and (i == 0 or folded[i - 1] in " \t\u3000\n") else None
        if m and m.group().endswith(")") and i > 0 and folded[i - 1] != "\n":
            m = None  # C(弱 6): a card in a cancel's brackets; 1) only where a line starts
        if m is None and (i == 0 or folded[i - 1] in " \t\u3000\n") and ch.isdigit() and _circled(text, i):
            m = re.compile(r"\d+").match(folded, i)  # ③前進: a circled number, the number of a step
        if m:
            out.append(Token(i, m.end(), "comment", step=True))  # 1.前進 2.前進 3.ガード: the numbers of the steps, passed over
            i = m.end()
            continue
        m = pointer.match(folded, i) if ch in _POINTING else None
        if m and out and out[-1].kind not in ("sep",) and "\n" not in folded[out[-1].start:i]:
            out.append(Token(i, m.end(), "comment"))  # 強攻撃←これでどうだ: a pointer and a remark, passed over
            i = m.end()
            continue
        end = symbol(folded, i) if symbol is not None else None
        found = lexicon.match(folded, i, text.norm)
        if readings and "ぁ" <= text.norm[i] <= "ゖ" and (found is None or found[0] - i < 3):
            by_reading = next((m for m in lexicon.match_reading(folded, i) if _ends_a_word(folded, m[0], lexicon, symbol)), None)
            if by_reading is not None and (found is None or by_reading[0] > found[0]) and (not end or by_reading[0] > end):
                out.append(Token(i, by_reading[0], "word", by_reading[1], corrected=True))
                i = by_reading[0]
                continue
        if end and (found is None or found[0] < end):  # a word of the lexicon as long wins (backjump)
            out.append(Token(i, end, "symbol"))
            i = end
            continue
        if found is not None:
            end, word = found
            kind = "word" if word.kind == "order" else word.kind
            out.append(Token(i, end, kind, word))
            i = end
            continue
        if ch in SEPARATORS:
            out.append(Token(i, i + 1, "sep"))
            i += 1
            continue
        m = laugh.match(folded, i)
        if m is None and folded[i] == "w" and i > 0 and not (folded[i - 1].isascii() and folded[i - 1].isalpha()) \
                and (i + 1 == n or not (folded[i + 1].isascii() and (folded[i + 1].isalnum() or folded[i + 1] == "/"))):
            out.append(Token(i, i + 1, "laugh"))  # 隙１ｗ: one w after a word that is no letter is a laugh too
            i += 1
            continue
        if m and (i == 0 or not folded[i - 1].isascii() or not folded[i - 1].isalpha()):
            out.append(Token(i, m.end(), "laugh"))
            i = m.end()
            continue
        if ch in _OPEN:
            close = _closing(folded, i)
            if close is not None and remarks == "chatty" and chatty_remark.search(folded, i + 1, close):
                out.append(Token(i, close + 1, "comment"))  # （刃さんそろそろ撃ってきそうｗ）: chat, whatever its words
                i = close + 1
                continue
            if remarks is True and close is not None and not _symbols_only(folded, i + 1, close, symbol) and (
                    _aside_line(folded, i, close) or
                    not _holds_order_word(folded, i + 1, close, lexicon) or _talk_inside(folded, i + 1, close, lexicon, symbol) or (
                    chatty_remark.search(folded, i + 1, close) and not chatty_remark.match(folded, i + 1, close))):
                # (ビビりガード笑): a remark that ends as talk does is talk, its order words named in a warning
                out.append(Token(i, close + 1, "comment", named=_order_words(text.norm, folded, i + 1, close, lexicon)))
                i = close + 1
                continue
            out.append(Token(i, i + 1, "sep"))
            i += 1
            continue
        if ch in _CLOSE:
            out.append(Token(i, i + 1, "sep"))
            i += 1
            continue
        m = number.match(folded, i)
        if m:
            out.append(Token(i, m.end(), "number"))
            i = m.end()
            continue
        if _decoration(ch) or (ch == "彡" and i > 0 and folded[i - 1] in "☆★"):
            j = i + 1
            while j < n and _decoration(folded[j]):
                j += 1
            out.append(Token(i, j, "comment"))  # 🙏 🌙 💪 ☆彡: decoration, passed over
            i = j
            continue
        if ch in _LOOKS_LIKE_A_CARD and out and out[-1].kind == "word" and out[-1].end == i and \
                out[-1].word is not None and out[-1].word.technique:
            j = i + 1  # ｴﾅｼﾞｰｷｬﾉﾝ👊: after a technique named in full, at its line's end — decoration
            while j < n and (folded[j] in _LOOKS_LIKE_A_CARD or _decoration(folded[j])):
                j += 1
            if j == n or folded[j] in " \t\n\u3000!！。":
                out.append(Token(i, j, "comment"))
                i = j
                continue
        unknown(i)
        i += 1
    return out


def _shared(folded: str, i: int, lexicon: Lexicon, patterns: dict[str, re.Pattern[str]]) -> tuple[int, str] | None:
    """Where a hashtag, a mention or a link at ``i`` ends (what a post bridged from X carries) and what a
    note calls it, or None. Each starts a word (after a space or a line's start); a hashtag names no order
    word (＃受動：GV is a bullet before a label, read as the label is)."""
    if i > 0 and folded[i - 1] not in " \t\u3000\n(。、,.!?":
        return None
    ch = folded[i]
    if ch == "#":
        m = patterns["hashtag"].match(folded, i)
        found = lexicon.match(folded, i + 1)
        return (m.end(), "ハッシュタグ") if m and not (found is not None and found[1].kind not in ("function", "negation")) else None
    if ch == "h":
        m = patterns["link"].match(folded, i)
        return (m.end(), "リンク") if m else None
    m = patterns["mention"].match(folded, i)
    return (m.end(), "宛先（@）") if m else None


def _spoiler(folded: str, i: int) -> bool:
    """``||`` at ``i`` is one of a pair of markdown's spoiler pipes: ``||…||``, the first after a
    line's start or a space, the second before its end or a space, something between them. A
    lone ``||``, or one between cards (弱||強), is the plot's own."""
    def opens(at: int) -> bool:
        return (at == 0 or folded[at - 1] in " \t\u3000\n") and folded[at + 2:at + 3] not in ("", "|", " ", "\n")

    def closes(at: int) -> bool:
        return folded[at - 1:at] not in ("", "|", " ", "\n") and (at + 2 == len(folded) or folded[at + 2] in " \t\u3000\n。!！")

    pairs = [m.start() for m in re.finditer(r"\|\|", folded)]
    open_at = None
    for at in pairs:
        if open_at is None and opens(at):
            open_at = at
        elif open_at is not None and closes(at):
            if i in (open_at, at):
                return True
            open_at = None
    return False


def _circled(text: Text, i: int) -> bool:
    """The digit at ``i`` of the normalised text was written as a circled number (①…⑳, ❶…)."""
    ch = text.original[text.span(i)[0]]
    return "\u2460" <= ch <= "\u2473" or "\u2776" <= ch <= "\u277f" or "\u2780" <= ch <= "\u2793" or "\u24eb" <= ch <= "\u24ff"


def _talk_inside(folded: str, start: int, end: int, lexicon: Lexicon,
                 symbol: Callable[[str, int], int | None] | None) -> bool:
    """A remark after something on its line that holds a word pbf does not know, two letters or
    more with a kanji (なし（ガード継続）, ９ L、L（ＥＣ→刻み）): talk about the order — passed over,
    its order words named in a warning. Kana alone may be a slip of an order word."""
    if start == 0 or not folded[:start - 1].strip(" \u3000").rsplit("\n", 1)[-1]:
        return False  # a bracket that opens its line holds the order, if anything
    i, run, kanji = start, 0, False
    while i < end:
        found = lexicon.match(folded, i, None)
        if found is not None and str(found[1].concept).startswith("ask:"):
            return True  # (dash heavy): a word that names no one card says how, not which
        at = found[0] if found is not None else (symbol(folded, i) if symbol is not None else None)
        if at is not None and at > i:
            run, kanji, i = 0, False, at
            continue
        if folded[i].isalpha():
            run, kanji = run + 1, kanji or "\u4e00" <= folded[i] <= "\u9fff"
        else:
            run, kanji = 0, False
        if run >= 2 and kanji:
            return True
        i += 1
    return False


def _symbols_only(folded: str, start: int, end: int, symbol: Callable[[str, int], int | None] | None) -> bool:
    """A bracket of cards alone ([→][→][弱強]: each card in its box, as some boards write a plot)."""
    if symbol is None or start >= end:
        return False
    i = start
    while i < end:
        if folded[i] in " \u3000":
            i += 1
            continue
        found = symbol(folded, i)
        if found is None or found <= i or found > end:
            return False
        i = found
    return True


def _ends_a_word(folded: str, at: int, lexicon: Lexicon, symbol: Callable[[str, int], int | None] | None) -> bool:
    """A word read by its reading ends where the kana do, or where another word begins
    (こうげき|ないと, not こうげきな|いと)."""
    if at >= len(folded) or not ("ァ" <= folded[at] <= "ヺ" or folded[at] == "ー"):
        return True
    return lexicon.match(folded, at) is not None or (symbol is not None and symbol(folded, at) is not None)


def _decoration(ch: str) -> bool:
    """An emoji or a symbol that decorates (🙏, ✨; with its variation selector or joiner)."""
    if ch in _LOOKS_LIKE_A_CARD or 0x2190 <= ord(ch) <= 0x21FF or 0x2B00 <= ord(ch) <= 0x2BFF:
        return False  # ↗️ 👊: it may be meant as a card — asked about, not passed over
    return unicodedata.category(ch) == "So" or ch in "\ufe0f\u200d" or 0x1F000 <= ord(ch) <= 0x1FAFF


_LOOKS_LIKE_A_CARD = frozenset("👊✊🤜🤛🦵🦶🛡")


def _closing(folded: str, i: int) -> int | None:
    """Where the bracket opened at ``i`` closes on the same line (nested brackets counted)."""
    depth = 0
    for j in range(i, len(folded)):
        ch = folded[j]
        if ch == "\n":
            return None
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
            if depth == 0:
                return j
    return None


def _order_words(norm: str, folded: str, start: int, end: int, lexicon: Lexicon) -> tuple[str, ...]:
    """The order words a remark holds, as written (（FVのみ）: FV)."""
    i, out = start, []
    while i < end:
        found = lexicon.match(folded, i, None)
        if found is None:
            i += 1
            continue
        if found[1].kind == "order" and found[0] - i >= 2:
            out.append(norm[i:found[0]])
        i = found[0]
    return tuple(dict.fromkeys(out))


def _aside_line(folded: str, opened: int, close: int) -> bool:
    """A line of its own in brackets below the line that holds the plot (（何もしないジャンプ）ｗ): an
    aside about the plot, whatever its words (a plot is one line; they are named in a warning)."""
    line_start = folded.rfind("\n", 0, opened) + 1
    if folded[line_start:opened].strip() or not folded[:line_start].strip():
        return False
    rest = folded[close + 1:].split("\n", 1)[0]
    return not rest.strip(" \u3000wｗ笑!！?？")


def _holds_order_word(folded: str, start: int, end: int, lexicon: Lexicon) -> bool:
    """A remark in brackets is passed over when it holds no order word, or when it reads as a
    sentence about the order (（投げ狙いです）: a word, then a function word such as です)."""
    i, words, functions = start, 0, 0
    while i < end:
        found = lexicon.match(folded, i, None)
        if found is None:
            i += 1
            continue
        if found[1].kind == "order":
            words += 1
        else:
            functions += 1
        i = found[0]
    return words > 0 and functions == 0


def lines_of(tokens: list[Token], text: Text) -> list[list[Token]]:
    """The tokens of each line (the newline tokens dropped)."""
    lines: list[list[Token]] = [[]]
    for tok in tokens:
        if tok.kind == "sep" and (tok.end == tok.start or text.norm[tok.start] == "\n"):  # (chat_lines ends a kept line so)
            lines.append([])
        else:
            lines[-1].append(tok)
    return lines


ORDER_KINDS = frozenset(("word", "symbol", "negation", "event_final", "number"))


def holds_order(line: list[Token]) -> bool:
    return any(t.kind in ORDER_KINDS or (t.kind == "unknown" and (t.candidates or t.corrected)) for t in line)


def _chatty(line: list[Token], text: Text) -> bool:
    """A line that reads as chat: Japanese words, a laugh, a remark — not a lone ASCII word
    (jmp, x: more likely a slip of an order word, which the reader then names)."""
    letters = sum(ch.isalpha() and not ch.isascii() for t in line for ch in text.norm[t.start:t.end])
    return letters >= 2 or any(t.kind in ("function", "laugh", "comment", "anchor") for t in line)


# a later line that ends telling what was done (区切りました, 決めました): said about the order, not in it
_TOLD = frozenset(("ました", "でした", "しました", "ましたー", "ましたよ"))


_BESIDE_NAMES = frozenset(("さん", "くん", "君", "氏", "様", "と", "を", "に", "で", "へ", "、", ",", "・"))


def chat_lines(tokens: list[Token], text: Text, prose: bool = False,
               named: Callable[[str], bool] | None = None) -> tuple[list[Token], list[Problem]]:
    """Each line without an order word (nor a near miss of one) is chat: its tokens are dropped
    and a note names it; the other lines are kept. A post with no order line at all keeps
    everything (the reader then says what it could not read). With ``prose`` (a game whose order
    is one short line), a later line that reads as a sentence about the order is passed over
    too, with a warning naming the order words in it (:func:`_prose`). ``named`` tells a game's
    names: a line that names a fighter (蓮>城戸 under the card: whom to attack) is no chat."""
    lines = lines_of(tokens, text)
    if not any(holds_order(line) for line in lines):
        return tokens, []
    kept: list[Token] = []
    notes: list[Problem] = []
    first = next(k for k, line in enumerate(lines) if holds_order(line))
    for number, line in enumerate(lines, 1):
        if not line:
            continue
        said = [t for t in line if t.kind != "sep"]
        if said and said[0].step and holds_order(line):  # ２．前進 under １．前進: a step of the order, never talk
            kept.extend(line)
            kept.append(Token(line[-1].end, line[-1].end, "sep"))
            continue
        told = number - 1 > first and said and said[-1].kind == "function" and \
            text.norm[said[-1].start:said[-1].end] in _TOLD and \
            not re.search(r"(?:おう|よう|ろう)\s*と\s*(?:思|考)", text.norm[said[0].start:said[-1].end])  # 使おうと思いました: what they will do
        # いったん様子見ｗ under a plot: "wait and see" said of the order above, no order of its own
        idle = number - 1 > first and any(t.kind in ("unknown", "laugh") for t in said) and all(
            t.kind not in ORDER_KINDS or (t.kind == "word" and t.word is not None and t.word.value in ("", ("head", "")))
            for t in said) and not any(t.kind == "unknown" and (t.candidates or t.corrected) for t in said)
        told = told or idle
        prose_line = prose and number - 1 > first and not told and (_prose(said, text) or _restated(said, kept, text))
        # a line of names (蓮>城戸, 蓮さん、城戸さん), or of names after a short word pbf does not know
        # (的 蓮>城戸: a label of another board): whom the order is against — kept, for the reader
        # to read or to name the word it could not
        who = [] if named is None else [t for t in said if t.kind in ("unknown", "symbol") and named(text.norm[t.start:t.end])]
        names = False
        if who:
            other = [t for t in said if t not in who and not (t.kind == "function" and text.norm[t.start:t.end] in _BESIDE_NAMES)]
            names = not other or (len(other) == 1 and other[0] is said[0] and other[0].kind == "unknown"
                                  and other[0].end - other[0].start <= 2)
        if (holds_order(line) and not told and not prose_line) or not _chatty(line, text) or names:
            kept.extend(line)
            kept.append(Token(line[-1].end, line[-1].end, "sep"))
            continue
        if said and prose_line and holds_order(line):
            # 来ターンはガードかなぁ under the plot: a sentence about the order, not more of it
            line_no, column, shown = text.where(said[0].start, said[-1].end)
            words = "」「".join(dict.fromkeys(text.norm[t.start:t.end] for t in said
                                               if t.kind in ORDER_KINDS and not _talk_negated(t, said)))
            notes.append(Problem(f"は行動の後の文として読みませんでした（「{words}」は行動に入れていません）。",
                                 line=line_no, column=column, text=shown, severity="warning",
                                 hint="行動の続きなら、行動の行に続けて書いてください。"))
        elif said:
            line_no, column, shown = text.where(said[0].start, said[-1].end)
            aside = [w for t in said if t.kind == "comment" for w in t.named]
            if aside and not who:  # (ムーブベントは阻止されないカードだと…？): an aside that names order words
                notes.append(Problem(f"は雑談として読みませんでした（「{'」「'.join(dict.fromkeys(aside))}」は行動に入れていません）。",
                                     line=line_no, column=column, text=shown, severity="warning",
                                     hint="行動のつもりなら、括弧の外に書いてください。"))
            elif who:  # 的 蓮>城戸 under the card: the names may be whom to attack
                written = dict.fromkeys(text.norm[t.start:t.end] for t in who)
                notes.append(Problem(f"は雑談として読みませんでした（「{'」「'.join(written)}」は行動に入れていません）。",
                                     line=line_no, column=column, text=shown, severity="warning",
                                     hint="攻撃の対象なら「攻撃：名前」と書いてください。"))
            else:
                notes.append(Problem("は雑談として読みませんでした。", line=line_no, column=column, text=shown))
    return kept, notes


# what marks a later line as saying the order again: …, or とりあえずジャンプだけしておきます
_RESTATING = frozenset(("…", "...", "‥", "だけ", "とりあえず", "ひとまず", "一応", "いちおう", "と読み", "と思い", "ので"))


def _restated(said: list[Token], kept: list[Token], text: Text) -> bool:
    """今回は守りで…ｗ under ガード ガード: a later line of talk (a laugh, or …) whose order words
    all say again what the lines above hold — not more of the order."""
    if said:  # the first sentence says it again; the ones after it are talk (chat_sentences names them)
        stop = min((k for k in (text.norm.find(ch, said[0].start, said[-1].end) for ch in "。!") if k >= 0), default=-1)
        said = [t for t in said if stop < 0 or t.start < stop]
    written = text.norm[said[0].start:said[-1].end] if said else ""
    # talk: a laugh, a face, …, とりあえず/だけ, or a sentence's polite end (一度守ってから前に出ます。)
    # or a sentence-ending quirk (守る吧～, 見守るにぇ: a game's ``endings``, read as the word "ending")
    talk = any(t.kind in ("laugh", "comment") or (t.word is not None and t.word.concept == "ending") for t in said) \
        or any(w in written for w in _RESTATING) or \
        re.search(r"(?:ます|です|ですわ|ました|でした)[。!！]*$", written) is not None
    words = [t for t in said if t.kind == "word" and t.word is not None]
    # what the lines above say, each word as its value and each symbol as written, in a row: a word
    # said again is in it (逃げる's ← under 後ろジャンプ's ↑←, バクジャン under ↑←)
    plot = "".join(str(t.word.value) if t.kind == "word" and t.word is not None else text.norm[t.start:t.end]
                   for t in kept if t.kind in ("word", "symbol"))
    said_again = all(str(t.word.value) in plot for t in words)
    return talk and bool(words) and said_again and not any(t.kind in ("symbol", "number") for t in said)


def _prose(said: list[Token], text: Text) -> bool:
    """A line of sentence after the order (来ターンはガードかなぁ, 投げと間違えないように区切りました):
    more of its letters are words pbf does not know, near none of an order word, than order
    words — what a GM reads as talk about the order. A slip (強攻撃をためます) stays an order line."""
    unknown = sum(t.end - t.start for t in said if (t.kind == "unknown" and t.word is None and not t.candidates
                  and not t.corrected and any(ch.isalpha() for ch in text.norm[t.start:t.end])) or _talk_negated(t, said))
    ordered = sum(t.end - t.start for t in said if t.kind in ORDER_KINDS and not _talk_negated(t, said))
    return unknown >= 2 and unknown >= ordered


def _talk_negated(tok: Token, said: list[Token]) -> bool:
    """A negation written against a word pbf does not know (ゲージない, 足りない): it negates that
    word, part of the talk, no card of the order."""
    k = next((k for k, t in enumerate(said) if t is tok), 0)
    before = said[k - 1] if k else None
    return tok.kind == "negation" and before is not None and before.end == tok.start and before.kind == "unknown" \
        and before.word is None and not before.candidates and not before.corrected


# how an order is said, not chat after it (近寄ります, 近寄らせていただきます)
_POLITE_ENDINGS = frozenset(("します", "です", "ます", "お願いします", "おねがいします", "出します", "撃ちます", "使います",
                             "いたします", "致します", "いただきます", "ていただきます", "頂きます", "て頂きます", "させていただきます"))


def passed_over(tokens: list[Token], text: Text, attached: bool = False) -> list[Problem]:
    """Notes for what an order line held besides the order: remarks in brackets, anchors, and
    the greeting or chat of function words after the last order word of a line (よろしくお願いします)."""
    notes = []
    lines = lines_of(tokens, text)
    for line in lines:
        last = max((k for k, t in enumerate(line) if t.kind in ORDER_KINDS or t.word is not None and t.kind == "unknown"),
                   default=None)
        if last is None:
            continue
        tail = [t for t in line[last + 1:] if t.kind != "sep"]
        while tail and tail[0].kind == "function" and tail[0].end - tail[0].start == 1:
            tail = tail[1:]  # をお願いします: the particle belongs to the order; the request is noted
        if len(tail) == 1 and text.norm[tail[0].start:tail[0].end] in _POLITE_ENDINGS:
            tail = []  # a polite ending is how the order is said, not chat
        if tail and all(t.kind in ("function", "laugh") for t in tail) and \
                sum(ch.isalpha() for t in tail for ch in text.norm[t.start:t.end]) >= 4:
            where_line, column, shown = text.where(tail[0].start, tail[-1].end)
            notes.append(Problem("は雑談として読みませんでした。", line=where_line, column=column, text=shown))
    for line in lines:
        said = [t for t in line if t.kind != "sep" or text.norm[t.start:t.end] in "?？"]
        if said and holds_order(line) and text.norm[said[-1].start:said[-1].end] in ("?", "？") and \
                any(t.kind in ORDER_KINDS for t in said[:-1]):
            where_line, column, shown = text.where(said[0].start, said[-1].end)  # ガード 投げ？ / 弱か強か…どっち？
            notes.append(Problem("は問いかけで終わっています。行動として読みましたが、迷っているならそう書いてください。",
                                 line=where_line, column=column, text=shown, severity="warning"))
    for index, tok in enumerate(tokens):
        if tok.kind == "flavour":
            line, column, shown = text.where(tok.start, tok.end)
            notes.append(Problem("は行動の語ではないとして読みませんでした（行動のつもりなら、書き方を変えてください）。",
                                 line=line, column=column, text=shown, severity="warning"))
        if tok.kind in ("comment", "anchor"):
            line, column, shown = text.where(tok.start, tok.end)
            what = "安価" if tok.kind == "anchor" else tok.what or "注釈"
            before = tokens[index - 1] if index > 0 else None
            against = attached and before is not None and before.end == tok.start and before.kind in ORDER_KINDS \
                and text.norm[tok.start] not in _POINTING  # ←これで耐える: a pointer says nothing of the clause
            if against and not tok.named:  # 超回避1(本体のみ): written against the clause, it may be its condition
                notes.append(Problem(f"は{what}として読みませんでした（前の語に続けて書かれています）。", line=line,
                                     column=column, text=shown, severity="warning",
                                     hint="行動の続き（条件など）なら、括弧を使わずに書いてください。"))
            elif tok.named:  # （FVのみ）, （本体のみ）: a remark that names order words may be more than a remark
                words = "」「".join(tok.named)
                notes.append(Problem(f"は{what}として読みませんでした（「{words}」は行動に入れていません）。", line=line,
                                     column=column, text=shown, severity="warning",
                                     hint="行動のつもりなら、括弧の外に書いてください。"))
            else:
                notes.append(Problem(f"は{what}として読みませんでした。", line=line, column=column, text=shown))
    return notes


# what janome calls the words a GM reads past in a sentence around an order (様子を見ます, すぐに,
# 守りに徹して): verbs, adverbs, particles, endings — and a plain noun only as a verb's object
_FLAVOUR_POS = ("動詞", "助動詞", "助詞", "副詞", "接続詞", "連体詞", "感動詞", "形容詞", "記号")
_FLAVOUR_NOUNS = ("非自立", "代名詞", "副詞可能", "接尾", "形容動詞語幹", "サ変接続", "一般", "数")


def flavour(tokens: list[Token], text: Text) -> list[Token]:
    """An unknown run inside a sentence that holds an order word, which is only a verb phrase by
    janome's analysis (様子を見ます, 守りに徹して, すぐに) — the words of the sentence, not of the
    order — becomes a ``flavour`` token: passed over, with a note. A run with a katakana word
    (ダッシュ), a name, a near miss or a negation after it is kept for the reader to name."""
    out = list(tokens)
    lines = lines_of(out, text)
    if not any(holds_order(line) for line in lines):
        return out
    line_of = {id(t): k for k, line in enumerate(lines) for t in line}
    ordered = [holds_order(line) for line in lines]
    i = 0
    while i < len(out):
        tok = out[i]
        if tok.kind != "unknown" or tok.word is not None or tok.candidates:
            i += 1
            continue
        j = i  # the phrase: the unknown run and the function words written against it
        while j + 1 < len(out) and out[j + 1].start == out[j].end and (
                out[j + 1].kind == "function" or (out[j + 1].kind == "unknown" and out[j + 1].word is None
                                                  and not out[j + 1].candidates)):
            j += 1
        while j > i and out[j].kind == "function":
            j -= 1
        phrase = text.norm[out[i].start:out[j].end]
        after = out[j + 1] if j + 1 < len(out) else None
        in_order = ordered[line_of[id(tok)]] if id(tok) in line_of else False
        # written against an order word (一番とおい人に知+か+寄る: a slip of it, more likely), it is kept
        against = after is not None and after.start == out[j].end and after.kind in ("word", "unknown", "function") and (
            after.kind != "function" or (j + 2 < len(out) and out[j + 2].start == after.end and out[j + 2].kind == "word"))
        before = next((t for t in reversed(out[:i]) if t.kind != "function"), None)
        about = before is not None and before.word is not None and isinstance(before.word.value, tuple) and \
            before.word.value[:1] == ("mention",)  # 距離を撮る: what is said of the distance is the move
        if in_order and not (after is not None and after.kind == "negation") and not against and not about \
                and _verb_phrase(phrase):
            out[i:j + 1] = [Token(out[i].start, out[j].end, "flavour")]
        i += 1
    return out


# what a verb phrase must not hold to be passed over: a condition (来たときだけ, 撃ったら), or a
# word of the game's own (ためがある: the charge; 構え, 着地, 転倒)
_NOT_FLAVOUR = (r"とき|時|たら|だら|なら|れば|えば|けば|場合|際|ため|溜|構え|着地|転倒|空中|ダウン|迷|悩|どっち|どちら|"
                r"やっぱ|やはり|やめ|じゃなく|ではなく|代わり|かわり")
# a player who takes back what they wrote: 旋風脚…いや、やっぱり朧月で / AじゃなくてB / AかBか迷う…B
_CORRECTION = (r"(?:(?:いや|いえ)[、,…\s]*)?(?:やっぱり|やっぱ|やはり)|じゃなくて|ではなくて|じゃなく|ではなく|"
               r"[…\.。・]{2,}\s*いや[、,!！]?|"
               # 一番近い人から離れて…はウソで、一番遠い人に: what was written said to be untrue; …失礼しました、: an apology for it
               r"(?:[…\.。・]{2,}\s*)?(?:は|って(?:のは)?)\s*(?:ウソ|うそ|嘘)(?:で|です|でした)[、,!！]?|"
               r"[…\.。・]{2,}\s*(?:失礼しました|失礼いたしました|失礼致しました|すみません|すいません)[、,!！]?|"
               r"迷っています|迷ってます|迷ってる|迷いましたが|迷ったけど|迷うけど|迷います|迷う|悩んでいます|"
               r"悩んだけど|悩みます|悩む|訂正[:：]?|訂正します")


# a joke said after the order (対空\nなんちゃって): what was written may be taken back — warned
_JOKE = re.compile(r"な[ー～〜]?んちゃって|うそうそ|嘘です|うそです|冗談です|冗談だよ|\(嘘\)|（嘘）|\(うそ\)|jk\b|just kidding", re.I)


# the post says it is not all there, or wrong (途中で送信, 続きはあとで, まちがえた): warned
_UNFINISHED = re.compile(r"途中で送信|送信して(?:しまい|しま)|続きは(?:あとで|後で|次)|書きかけ|まち[がか](?:えた|った)|間違(?:えた|った)|ミスった|misposted", re.I)


# what a post may say after its order, each warned (the order is read as written): that it is not
# all there (前進して\n（途中で送信してしまいました）), then that it was a joke (対空\nなんちゃって)
_DOUBTS = ((_UNFINISHED, "と書かれています。行動が書きかけか間違いかもしれません。書かれたところまでを読みました。",
            "続きや直しがあるなら、行動全体を書き直してください。"),
           (_JOKE, "は冗談の言葉なので、前の行動を取り消すつもりかもしれません。前の行動を読みました。",
            "取り消すなら、出す行動だけを書き直してください。"))


def taken_back(tokens: list[Token], text: Text,
               parts: Callable[[list[Token]], set[str]] | None = None) -> tuple[list[Token], list[Problem]]:
    """What a player wrote and then took back in the same post (旋風脚…いや、やっぱり朧月で): only
    what follows the last correction is read, with a warning that names what was not.

    ``parts`` (a game whose order has parts: the rider's move, card, 阻止…) names the parts a run of
    tokens says; a correction then takes back only the sentences before it that say a part it says
    again (…阻止しないでおきます…\nいえ、やっぱり阻止します: the 阻止 sentence, not the move and the card
    before it), and when it says no part said before, nothing (it adds to the order), warned."""
    orderly = [t for t in tokens if t.kind in ORDER_KINDS or (t.kind == "unknown" and t.word is not None)]
    if not orderly:
        return tokens, []
    cut = None
    for m in _compiled()["correction"].finditer(text.norm):
        if any(t.start < m.start() for t in orderly) and any(t.start >= m.end() for t in orderly):
            cut = m
    if cut is None:
        for doubt, message, hint in _DOUBTS:  # said after the order: it may not be all there, or not meant
            m = doubt.search(text.norm, orderly[-1].end)
            if m is not None:
                line, column, shown = text.where(m.start(), m.end())
                return tokens, [Problem(message, line=line, column=column, text=shown, severity="warning", hint=hint)]
        return tokens, []
    first = next(t for t in tokens if t.kind not in ("sep", "function"))

    def sentence_start(at: int) -> int:
        return max(text.norm.rfind(ch, 0, at) for ch in "\n。!！?？") + 1

    if parts is not None and not re.fullmatch(r"(?:じゃ|では)なく(?:て)?", cut.group()):
        partial = _taken_back_in_part(tokens, text, cut, parts, orderly)
        if partial is not None:
            return partial
    start = 0
    if re.fullmatch(r"(?:じゃ|では)なく(?:て)?", cut.group()):  # 防御力ではなく運動性で: only what its sentence said before
        start = sentence_start(cut.start())
        while start > 0 and not any(start <= t.start < cut.start() for t in orderly):
            start = sentence_start(start - 1)  # じゃなくて on its own: the sentence before
        first = next((t for t in tokens if t.start >= start and t.kind not in ("sep", "function")), first)
    kept = [t for t in tokens if t.end > cut.end() or t.end <= start  # く運動性 across the cut's end: what follows it
            or (t.kind == "sep" and t.end > t.start and text.norm[t.start] == "\n")]
    line, column, shown = text.where(first.start, cut.end())
    after = text.where(cut.end(), orderly[-1].end)[2]
    note = Problem(f"は書き直しとして読まず、後の「{after.strip()}」を読みました。", line=line, column=column,
                   text=shown.strip(), severity="warning")
    return kept, [note]


def _taken_back_in_part(tokens: list[Token], text: Text, cut: re.Match[str],
                        parts: Callable[[list[Token]], set[str]],
                        orderly: list[Token]) -> tuple[list[Token], list[Problem]] | None:
    """``taken_back`` for an order of parts: the sentences before ``cut`` that say a part the
    correction says again are dropped, the others kept; None when every sentence before says one
    (the whole order is taken back, as without parts) or the correction says no part at all."""
    said = parts([t for t in tokens if t.start >= cut.end()])
    if not said:
        return None
    bounds = [0] + [m.end() for m in re.finditer(r"[\n。!！?？]", text.norm[:cut.start()])]
    sentences = [(a, b) for a, b in zip(bounds, bounds[1:] + [cut.start()]) if text.norm[a:b].strip()]
    held = [(a, b) for a, b in sentences if any(a <= t.start < b for t in orderly)]
    chosen = _chosen_between(tokens, text, cut, parts, held[-1]) if held else None
    if chosen is not None:
        return chosen
    dropped = [(a, b) for a, b in held if parts([t for t in tokens if a <= t.start < b]) & said]
    if len(dropped) == len(held):
        return None
    kept = [t for t in tokens if not any(a <= t.start < b for a, b in dropped) and not (cut.start() <= t.start < cut.end())
            or (t.kind == "sep" and t.end > t.start and text.norm[t.start] == "\n")]
    after = text.where(cut.end(), orderly[-1].end)[2].strip()
    if not dropped:
        line, column, shown = text.where(cut.start(), cut.end())
        return kept, [Problem(f"の後の「{after}」は前の行動に書き足したものとして読みました（取り消したものはありません）。",
                              line=line, column=column, text=shown.strip(), severity="warning",
                              hint="前に書いたことを取り消すつもりなら、行動全体を書き直してください。")]
    notes = []
    for a, b in dropped:
        line, column, shown = text.where(a, b)
        notes.append(Problem(f"は書き直しとして読まず、後の「{after}」を読みました。", line=line, column=column,
                             text=shown.strip(), severity="warning"))
    return kept, notes


def _chosen_between(tokens: list[Token], text: Text, cut: re.Match[str],
                    parts: Callable[[list[Token]], set[str]],
                    last: tuple[int, int]) -> tuple[list[Token], list[Problem]] | None:
    """A correction that chooses between the words its sentence before hesitated over
    (受動: ガードベント…あ、でもリフレクトも捨てがたい\\nやっぱりガードで！): the words it names again are all in
    that sentence, which names another of the same part next to them, with no other order word
    between; the other is dropped, with what the sentence said after it (捨てがたい), and the rest of
    the sentence (the 受動 label) stays — the correction names no new part. None when it is not so."""
    def words(a: int, b: float) -> list[Token]:
        return [t for t in tokens if a <= t.start < b and t.kind == "word" and t.word is not None]

    sentence = words(*last)
    named = [t for t in words(cut.end(), float("inf")) if t.word.concept in {s.word.concept for s in sentence}]
    concepts = {t.word.concept for t in named}  # (what else the correction says is added: …やっぱりソード！ 攻撃: 蓮)
    if not named:
        return None
    part = parts(named)
    picked = [i for i, t in enumerate(sentence) if t.word.concept in concepts]
    others = [i for i, t in enumerate(sentence) if t.word.concept not in concepts and parts([t]) & part]
    if len(part) != 1 or not others or len(picked) != len(concepts):
        return None
    span = sorted(picked + others)
    if span != list(range(span[0], span[-1] + 1)):
        return None  # another order word between them (攻撃ならガードベント、アドベントならリフレクト): not a choice
    first_other, chosen_at = sentence[others[0]].start, sentence[picked[0]].start
    talk_end = chosen_at if chosen_at > first_other else last[1]  # what the sentence said of the other
    gone = {id(sentence[i]) for i in others} | {id(t) for t in named}
    said_end = min((m.start() for m in re.finditer(r"[\n。!！?？]", text.norm) if m.start() >= named[-1].end),
                   default=len(text.norm))  # やっぱりガードで！: the correction's own sentence
    kept = [t for t in tokens
            if id(t) not in gone and not cut.start() <= t.start < cut.end()
            and not (t.kind == "unknown" and first_other <= t.start < talk_end)
            and not (t.kind == "function" and cut.start() <= t.start < said_end)
            or (t.kind == "sep" and t.end > t.start and text.norm[t.start] == "\n")]
    line, column, shown = text.where(*last)
    choice = "・".join(dict.fromkeys(text.norm[t.start:t.end] for t in named))
    return kept, [Problem(f"で迷った語のうち、後で選んだ「{choice}」を読みました（ほかの語は読みませんでした）。",
                          line=line, column=column, text=shown.strip(), severity="warning")]


def _verb_phrase(phrase: str) -> bool:
    if not phrase or any("ァ" <= ch <= "ヺ" or ch.isascii() for ch in phrase) or _compiled()["not_flavour"].search(phrase):
        return False
    if not any("ぁ" <= ch <= "ゖ" for ch in phrase) or not any("\u4e00" <= ch <= "\u9fff" for ch in phrase):
        return False  # 若: a kanji alone, きど: kana alone — a slip or a name more likely than a verb phrase
    from .kana import _tokenizer

    verb = False
    for token in _tokenizer().tokenize(phrase):
        pos = token.part_of_speech.split(",")
        if pos[0] == "名詞":
            if pos[1] not in _FLAVOUR_NOUNS or pos[1] == "数" or "固有名詞" in pos:
                return False
            continue
        if pos[0] not in _FLAVOUR_POS:
            return False
        verb = verb or pos[0] in ("動詞", "副詞", "形容詞", "感動詞")
    return verb


# how many unknown runs of one post are looked up as near misses (each is a search of the lexicon):
# an order has a few; a post with more is not an order a slip explains
_MOST_LOOKED_UP = 48


def _spelled_in_particles(tokens: list[Token], text: Text, lexicon: Lexicon, kinds: tuple[str, ...]) -> list[Token]:
    """A word written in hiragana that the scanner cut into function words (とおくへ is と+おく+へ):
    a run of three kana or more, made only of hiragana function words written against each other,
    that is one lexicon word by its very reading, is that word (with a note). With a long mark
    among them (が+ー+と, か+ーど), the kana are one word whatever they read as: one word a sound mark
    off (がーと, かーど: ガード) is that word too."""
    def kana_part(tok: Token) -> bool:  # a hiragana function word, or a long mark left between two (が+ー+と)
        said = text.norm[tok.start:tok.end]  # or the rest of the word after a particle, from its long mark (か+ーど)
        return (tok.kind == "function" and all("ぁ" <= ch <= "ゖ" for ch in said)) or \
            (tok.kind == "unknown" and said.startswith("ー") and all(ch == "ー" or "ぁ" <= ch <= "ゖ" for ch in said)) or \
            (tok.kind == "unknown" and bool(said) and all("ぁ" <= ch <= "ゖ" for ch in said))  # あと+べん+と

    out: list[Token] = []
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens) and kana_part(tokens[j]) and (j == i or tokens[j].start == tokens[j - 1].end):
            j += 1
        if j - i >= 2 and tokens[j - 1].end - tokens[i].start >= 3 and tokens[i].kind == "function":
            word = text.norm[tokens[i].start:tokens[j - 1].end]
            near = lexicon.near(word, kinds)
            # the very reading; or, where a long mark says the kana are one word, one word only a sound mark off (がーと)
            # (a piece that is no particle says so too: あと+べん+と, あとべんと for あどべんと)
            best = 0 if "ー" in word or any(t.kind == "unknown" for t in tokens[i:j]) else -1
            if near and near[0][0] <= best and (len(near) == 1 or near[1][0] > near[0][0]):
                out.append(Token(tokens[i].start, tokens[j - 1].end, "unknown", near[0][2], corrected=True))
                i = j
                continue
        out.append(tokens[i])
        i += 1
    return out


def _phrases_by_reading(tokens: list[Token], text: Text, lexicon: Lexicon, kinds: tuple[str, ...]) -> list[Token]:
    """A whole chunk (between separators) of unknown words and function words, one of them a
    kanji the reader does not know, or one unknown word of three kanji or more, that reads as one
    lexicon word (何+も+市内: なにもしない, 一番地階人: いちばんちかいひと, an IME's conversion of the
    phrase; 最も問い相手 before the particle that ties it to the next word, に 近寄る): that word,
    corrected (with a note)."""
    def kanji(t: Token) -> bool:
        return t.kind == "unknown" and kana.has_kanji(text.norm[t.start:t.end])

    def particle(t: Token) -> bool:
        said = text.norm[t.start:t.end]
        return len(said) <= 2 and all("ぁ" <= ch <= "ゖ" for ch in said)

    out: list[Token] = []
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens) and tokens[j].kind in ("unknown", "function", "negation") and \
                (j == i or tokens[j].start == tokens[j - 1].end):
            j += 1
        starts = i == 0 or tokens[i - 1].kind == "sep"
        k = j  # the chunk without the particles that tie it to the next word (最も問い相手+に 近寄る)
        while k > i and tokens[k - 1].kind == "function" and particle(tokens[k - 1]):
            k -= 1
        ends = [e for e in (j if j == len(tokens) or tokens[j].kind == "sep" else None, k if k < j else None)
                if e is not None and e - i >= 2]
        spans = [(i, e) for e in ends if starts and any(kanji(t) for t in tokens[i:e])]
        spans += [(k, k + 1) for k in range(i, max(j, i + 1)) if kanji(tokens[k]) and tokens[k].end - tokens[k].start >= 3]
        for a, b in spans:
            found = lexicon.phrase(text.norm[tokens[a].start:tokens[b - 1].end], kinds)
            if found is not None:
                out.extend(tokens[i:a])
                out.append(Token(tokens[a].start, tokens[b - 1].end, "unknown", found, corrected=True))
                out.extend(tokens[b:j])
                break
        else:
            out.extend(tokens[i:max(j, i + 1)])
        i = max(j, i + 1)
    return out


def _spaced_runs(tokens: list[Token], i: int, text: Text) -> list[tuple[int, int]]:
    """An unknown word of romaji or katakana and the next one or two after a single space or
    hyphen, when they are of the same script (torikku bento, ストライク　ベント, ちか よる,
    saikou renge shou, oboro-zuki): (first, last) token of each, the longest first."""
    def script(t: Token) -> str | None:
        said = text.norm[t.start:t.end].replace(" ", "")
        if said.isascii() and said.isalpha():
            return "latin"
        if all("ァ" <= ch <= "ヺ" or "ぁ" <= ch <= "ゖ" or ch == "ー" for ch in said):
            return "kana"
        return None

    if script(tokens[i]) is None:
        return []
    found: list[tuple[int, int]] = []
    last = i
    while last + 2 < len(tokens) and len(found) < 2:
        gap, nxt = tokens[last + 1], tokens[last + 2]
        if gap.kind != "sep" or text.norm[gap.start:gap.end] not in (" ", "\u3000", "-") or nxt.start != gap.end:
            break
        if nxt.kind not in ("unknown", "word") or script(nxt) != script(tokens[i]):
            break
        last += 2
        found.append((i, last))
    if i >= 2 and tokens[i - 1].kind == "sep" and text.norm[tokens[i - 1].start:tokens[i - 1].end] in (" ", "\u3000", "-") \
            and tokens[i - 2].kind == "word" and tokens[i - 2].end == tokens[i - 1].start and script(tokens[i - 2]) == script(tokens[i]):
        end = found[-1][1] if found else i
        if end + 1 < len(tokens) and tokens[end + 1].kind == "function" and tokens[end + 1].start == tokens[end].end \
                and tokens[end + 1].end - tokens[end + 1].start == 1:
            end += 1  # とりっく + べん+と: a kana the scanner read as a particle ends the word
        found.insert(0, (i - 2, end))  # saikou renge + shou: a word and the rest of it
    return sorted(found, key=lambda ab: ab[0] - ab[1])


def _run_corrects(tokens: list[Token], i: int, text: Text, lexicon: Lexicon, kinds: tuple[str, ...]) -> bool:
    """The run written against each other from the unknown at ``i`` (エ+ナシ+ー+キャノン) is, alone,
    a near miss of a word."""
    j = i
    while j + 1 < len(tokens) and tokens[j + 1].start == tokens[j].end and tokens[j + 1].kind in ("word", "unknown", "function"):
        j += 1
    return j > i and lexicon.correction(text.norm[tokens[i].start:tokens[j].end], kinds)[0] is not None


_okurigana = re.compile(r"[\u4e00-\u9fff]{2,}[ぁ-ゖ]{1,3}")


def resolve_unknowns(tokens: list[Token], text: Text, lexicon: Lexicon, kinds: tuple[str, ...] = ("order",),
                     grammar: bool = False) -> list[Token]:
    """Each unknown run looked up as a near miss: alone, then with the words it is written
    against (採光+蓮華掌 is one slip of 彩光蓮華掌; 阻止+しなし of 阻止しない). A run that is close
    to one concept becomes that word (``corrected``); one close to several keeps them as
    ``candidates``."""
    out = _phrases_by_reading(_spelled_in_particles(list(tokens), text, lexicon, kinds), text, lexicon, kinds)
    if grammar:  # the rider game's sentences (Alter EGO's plot reads its prose lines itself)
        out = _grammar_of_talk(out, text)
    i = 0
    looked = 0  # a post of hundreds of unknown words is refused as it is, without a search for each
    while i < len(out):
        tok = out[i]
        if tok.kind != "unknown" or not any(ch.isalnum() for ch in text.norm[tok.start:tok.end]):
            i += 1  # a mark that is no letter (↗, ＃) is a near miss of nothing
            continue
        looked += 1
        if looked > _MOST_LOOKED_UP:
            i += 1  # still unknown: the reader names it (no suggestion)
            continue
        colon = i + 1 < len(out) and out[i + 1].kind == "sep" and text.norm[out[i + 1].start:out[i + 1].end] == ":"
        heading = lexicon.heading(text.norm[tok.start:tok.end]) if colon else None
        if heading is not None:  # 農道：アドベント — a heading, by its reading
            out[i] = Token(tok.start, tok.end, "unknown", heading, corrected=True)
            i += 1
            continue
        first = last = i  # the chunk: neighbours written against it, up to two on each side

        def joins(t: Token) -> bool:
            """A one-kana function word inside a word (近よる) joins it too, and so does a card
            written as a kanji that begins a word (弱+口撃 is a slip of 弱攻撃)."""
            if t.kind == "function" and t.end - t.start == 1:  # only between kana: 近よる, not 今日は攻撃
                before, after = text.norm[t.start - 1:t.start], text.norm[t.end:t.end + 1]
                # ガード弁と, 内と: kana after a kanji, at a word's end — an IME's conversion of ベント, ナイト
                return ("ぁ" <= before <= "ゖ") or ("ぁ" <= after <= "ゖ") or (
                    "\u4e00" <= before <= "\u9fff" and not after.isalnum())
            return t.kind in ("word", "unknown", "negation") or (
                t.kind == "symbol" and text.norm[t.start:t.end] in ("弱", "強"))

        while first > 0 and i - first < 2 and out[first - 1].end == out[first].start and joins(out[first - 1]):
            first -= 1
        while last + 1 < len(out) and last - i < 2 and out[last + 1].start == out[last].end and joins(out[last + 1]) \
                and out[last + 1].kind != "symbol":  # a card begins a word (弱+口撃), it does not end one (シャンプ 強)
            last += 1
        spaced = _spaced_runs(out, i, text)  # torikku bento, ストライク　ベント: one name written in two
        spans = [(a, b) for a in range(i, first - 1, -1) for b in range(i, last + 1)]
        spans.sort(key=lambda ab: -(ab[1] - ab[0]))  # the longest first: 前+シャンプ is 前ジャンプ
        spans[:0] = spaced
        done = False
        candidates: tuple = ()
        for a, b in spans:
            word = text.norm[out[a].start:out[b].end].strip()
            if (a, b) in spaced and b - a >= 2:
                word = "".join(text.norm[t.start:t.end] for t in out[a:b + 1] if t.kind != "sep")  # saikourengeshou
            if any(t.kind == "function" for t in out[a:b + 1]) and not any(t.kind == "word" for t in out[a:b + 1]) \
                    and any("\u4e00" <= ch <= "\u9fff" for ch in word) and not _okurigana.fullmatch(word):
                continue  # と+同じ+で is no word: a function word joins a run of kanji only with an order word
                # (or as the kana after a kanji word: 地下+よ+る, an IME's ちかよる)
            if any(t.kind == "word" and t.word is not None and not t.word.slip and t.end - t.start > 1
                   for t in out[a:b + 1]):
                continue  # こおげき+なら is no slip of 攻撃なし: a word read only as written is never part of one
            if not word or (len(word) == 1 and word.isascii()):
                continue
            if any(t.kind == "function" and text.norm[t.start:t.end] == "を" for t in out[a:b + 1]):
                continue  # を is the object's particle, never part of a word (彩光蓮華掌を+やっ is no slip of 弱攻撃)
            if word.endswith("っ") and b + 1 < len(out) and out[b + 1].start == out[b].end \
                    and text.norm[out[b + 1].start:out[b + 1].start + 1] in ("て", "た", "ち", "と"):
                continue  # やっ+て, 割っ+とく: a verb cut before its ending, no slip of a word
            if ":" in word[:-1]:
                continue  # 攻撃：+連 is a label and what follows it, no slip of the label
            found, near = lexicon.correction(word, kinds)
            if found is not None and b > a and kana.has_kanji(word) and len(str(found.shown)) + 1 < len(word) and \
                    any(t.kind == "word" and t.word is not None and t.word.kind == "order" and t.word.concept != found.concept
                        for t in out[a:b + 1]):
                found = None  # 前ジャンプ+凶+攻撃 is no slip of 前ジャンプ: a correction never drops a word written in it
            if found is not None and (a, b) in spaced and lexicon.near(word, kinds)[0][0] > 0:
                found = None  # two words joined across a space only when they are one by reading (ちか よる)
            if found is not None and (a, b) in spaced and a < i and out[a].kind == "word" and _run_corrects(out, i, text, lexicon, kinds):
                found = None  # ﾏｴ ｴﾅｼｰｷｬﾉﾝ: the run after the space is a near miss alone — never swallows the word before (前)
            if found is not None:
                out[a:b + 1] = [Token(out[a].start, out[b].end, "unknown", found, corrected=True)]
                i = a + 1
                done = True
                break
            if near and not candidates and a == b == i:
                candidates = tuple(near)
        if not done and not candidates and (_alone(out, i, text) or _ends_after_word(out, i)):
            found = lexicon.same_kanji(text.norm[tok.start:tok.end], kinds)
            if found is not None:
                out[i] = Token(tok.start, tok.end, "unknown", found, corrected=True)
                i += 1
                continue
        if not done:
            pieces = _split_run(tok, text, lexicon, kinds) if not candidates else None
            if pieces:
                out[i:i + 1] = pieces  # 交替交替 is 後退 後退: one IME conversion of two words
                i += len(pieces)
                continue
            tok.candidates = candidates
            i += 1
    return out


def _grammar_of_talk(tokens: list[Token], text: Text) -> list[Token]:
    """An unknown run of kana (or kanji) between function words that a morphological analyser
    finds to be grammar only (いたし+ません's いた, だっ+た+とき, さ+れ+た+際, 使って+き+た) is a
    function word: passed over as で・ます are, before a near miss is looked for (ったと is no
    slip of 留). The run is analysed with the function words written against it, so that a
    word's context decides (janome reads き of てきた as くる)."""
    out: list[Token] = []
    for tok in tokens:  # 地下+よる, 積ん+どきます: kana written on after an unknown kanji are its okurigana, no word
        said = text.norm[tok.start:tok.end]
        if tok.kind == "word" and tok.word is not None and str(tok.word.concept).startswith("head:") and out \
                and out[-1].kind == "unknown" and out[-1].end == tok.start and "ぁ" <= said[0] <= "ゖ" \
                and kana.has_kanji(text.norm[out[-1].start:out[-1].end]):
            out[-1] = Token(out[-1].start, tok.end, "unknown")
            continue
        out.append(tok)
    i, n = 0, len(out)
    while i < n:
        if out[i].kind not in ("function", "unknown", "negation"):
            i += 1
            continue
        j = i
        while j + 1 < n and out[j + 1].kind in ("function", "unknown", "negation") and out[j + 1].start == out[j].end:
            j += 1
        run = out[i:j + 1]
        unknowns = [k for k in range(i, j + 1) if out[k].kind == "unknown" and not out[k].candidates
                    and not any(ch.isascii() for ch in text.norm[out[k].start:out[k].end])]
        # analysed with the words written against it on either side (使って+きた+場合は: き is くる)
        start = out[i - 1].start if i > 0 and out[i - 1].end == run[0].start and out[i - 1].kind != "sep" else run[0].start
        end = out[j + 1].end if j + 1 < n and out[j + 1].start == run[-1].end and out[j + 1].kind != "sep" else run[-1].end
        if unknowns and ((start, end) != (run[0].start, run[-1].end) or len(unknowns) < len(run)):
            from .morph import grammar_mask

            mask = grammar_mask(text.norm[start:end])
            for k in unknowns:
                tok = out[k]
                if all(mask[tok.start - start:tok.end - start]):
                    out[k] = Token(tok.start, tok.end, "function")
        i = j + 1
    return out


# words that place what follows against the order before (その前に前進を2回入れます): the order goes on
_PLACING = ("その前", "そのまえ", "その後", "そのあと", "その次", "それから", "先に")


def _points_at_order(said: list[Token], text: Text) -> bool:
    """A sentence after the order that says where in it its own order words go (距離が2あるので、
    その前に前進を2回入れます): more of the order, never talk to pass over — it is read or refused."""
    if not said or not any(t.kind in ORDER_KINDS for t in said):
        return False
    written = text.norm[said[0].start:said[-1].end]
    return any(w in written for w in _PLACING)


def _prose_sentence(said: list[Token], text: Text) -> bool:
    """A sentence of talk: words pbf does not know at all (two letters or more), which with the
    near misses a sentence of talk holds by chance (はず, おやすみ) outweigh its order words as
    written. A sentence of near misses alone (じゃんぶ) is a slip of the order, not talk."""
    def letters(t: Token) -> int:
        return sum(ch.isalpha() for ch in text.norm[t.start:t.end])

    unknown = sum(letters(t) for t in said if t.kind == "unknown" and t.word is None and not t.candidates and not t.corrected)
    missed = sum(letters(t) for t in said if t.kind == "unknown" and (t.word is not None or t.candidates or t.corrected))
    ordered = sum(letters(t) for t in said if t.kind in ORDER_KINDS and not t.corrected)
    return unknown >= 2 and unknown + missed >= ordered


def _alone(tokens: list[Token], i: int, text: Text) -> bool:
    """The token stands alone: a separator (or the post's start or end), or a card symbol (↑→若,
    若→→若共: each kanji a card of its own), on both sides."""
    before = tokens[i - 1] if i > 0 else None
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    return all(t is None or t.kind in ("sep", "comment", "symbol") for t in (before, after))


def _ends_after_word(tokens: list[Token], i: int) -> bool:
    """The token ends its chunk (a separator or the post's end after it) right after a word of the
    game written against it (エナジキャノン+若: a card after the technique, as エナジーキャノン弱 is)."""
    before = tokens[i - 1] if i > 0 else None
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    return before is not None and before.end == tokens[i].start and before.kind in ("word", "unknown") \
        and before.word is not None and before.word.kind == "order" and (after is None or after.kind == "sep")


def _split_run(tok: Token, text: Text, lexicon: Lexicon, kinds: tuple[str, ...]) -> list[Token] | None:
    """An unknown run of kanji (four to eight) that is two or three words each a near miss of one
    word by reading (交替交替: 後退 後退; 全身全身 前進 前進) — an IME converts a phrase at once —
    as those words, each ``corrected``; None when no split reads so, or more than one does."""
    word = text.norm[tok.start:tok.end]
    if not all("\u4e00" <= ch <= "\u9fff" for ch in word):
        return None
    if lexicon.kanji and 2 <= len(word) <= 8:
        found_ = _split_with_kanji(tok, word, lexicon, kinds)
        if found_ is not None:
            return found_
    if not 4 <= len(word) <= 8:
        return None
    found: list[list[Token]] = []
    cuts = [(a,) for a in range(2, len(word) - 1)] + [(a, b) for a in range(2, len(word) - 3) for b in range(a + 2, len(word) - 1)]
    looked: dict[tuple[int, int], Word | None] = {}  # a part is looked up once, whichever cut holds it
    for cut in cuts:
        bounds = [0, *cut, len(word)]
        parts = []
        for a, b in zip(bounds, bounds[1:]):
            if (a, b) not in looked:
                looked[a, b] = lexicon.correction(word[a:b], kinds)[0]
            hit = looked[a, b]
            if hit is None:
                break
            parts.append(Token(tok.start + a, tok.start + b, "unknown", hit, corrected=True))
        else:
            found.append(parts)
    if len({tuple(p.word.concept for p in parts) for parts in found}) != 1:
        return None
    return found[0]


def _split_with_kanji(tok: Token, word: str, lexicon: Lexicon, kinds: tuple[str, ...]) -> list[Token] | None:
    """A run an IME converted at once that holds a game's one-kanji words by their reading
    (全身全身若: 前進 前進 弱, 若若: 弱 弱; ``Lexicon.kanji``, Alter EGO's cards): each part of one kanji
    read by :meth:`Lexicon.same_kanji`, each of two or more a near miss of one word, at least one
    of one kanji — the parts, each ``corrected``, when exactly one reading of the run is so."""
    found: set[tuple[str, ...]] = set()
    first: list[Token] | None = None
    looked: dict[tuple[int, int], Word | None] = {}

    def part(a: int, b: int) -> Word | None:
        if (a, b) not in looked:
            said = word[a:b]
            looked[a, b] = lexicon.same_kanji(said, kinds) if b - a == 1 else (
                lexicon.correction(said, kinds)[0] if not any(lexicon.kanji.get(ch) for ch in said) else None)
        return looked[a, b]

    def walk(a: int, parts: list[Token]) -> None:
        nonlocal first
        if len(found) > 1 or len(parts) > 5:
            return
        if a == len(word):
            if any(p.end - p.start == 1 for p in parts):
                found.add(tuple(p.word.concept for p in parts))
                first = first or list(parts)
            return
        for b in range(a + 1, min(len(word), a + 6) + 1):
            hit = part(a, b)
            if hit is not None:
                walk(b, [*parts, Token(tok.start + a, tok.start + b, "unknown", hit, corrected=True)])

    walk(0, [])
    return first if len(found) == 1 else None


_ENDS = "。!?！？\n"


def chat_sentences(tokens: list[Token], src: Text, prose: bool = False,
                   named: Callable[[str], bool] | None = None) -> tuple[list[Token], list[Problem]]:
    """A sentence of the order's lines that holds no order word (ついに烈火の出番ｗ, ←これでどうだ,
    誰でもいいや笑, ゲージが足りないかもしれませんが…) is chat: passed over with a note. Only a
    sentence that reads as chat (a function word, a laugh, a ← pointing back at the order) — a
    lone unknown word is left for the reader to name; ``named`` tells a game's names (a sentence
    that names a fighter says something of the order). With ``prose`` (a game whose order is one
    short sentence), a sentence after one that holds an order word is passed over too when it
    reads as a sentence about the order (:func:`_prose_sentence`: 外れたら恥ずかしいですが…,
    ゲージが3たまっているはずなので大丈夫だと思います), with a warning if it names order words."""
    sentences: list[list[Token]] = [[]]
    for tok in tokens:
        text = src.norm[tok.start:tok.end]
        if tok.kind == "unknown" and text.startswith("←") and sentences[-1]:
            sentences.append([])
        sentences[-1].append(tok)
        if tok.kind == "sep" and (tok.end == tok.start or src.norm[tok.start] in _ENDS):
            sentences.append([])
        elif prose and tok.kind == "function" and text.endswith("。"):
            sentences.append([])  # 強攻撃です。次のターンは…: the function word です。 ends its sentence
        elif prose and tok.kind == "laugh" and src.norm[tok.end:tok.end + 1] in (" ", "\u3000"):
            sentences.append([])  # 後ろジャンプｗｗ 逃げる的: a laugh and a space end the sentence as 。 does
    kept: list[Token] = []
    notes: list[Problem] = []
    ordered = False  # a sentence before held an order word as written
    for sentence in sentences:
        said = [t for t in sentence if t.kind != "sep"]
        if prose and ordered and not (said and said[0].step) and not _points_at_order(said, src) \
                and (_prose_sentence(said, src) or _restated(said, kept, src)):
            line, column, shown = src.where(said[0].start, said[-1].end)
            words = "」「".join(dict.fromkeys(src.norm[t.start:t.end] for t in said
                                               if t.kind in ("word", "symbol") and not t.corrected))
            if words:
                notes.append(Problem(f"は行動の後の文として読みませんでした（「{words}」は行動に入れていません）。",
                                     line=line, column=column, text=shown, severity="warning",
                                     hint="行動の続きなら、行動の文に続けて書いてください。"))
            else:
                notes.append(Problem("は雑談として読みませんでした。", line=line, column=column, text=shown))
            kept.extend(t for t in sentence if t.kind == "sep")
            continue
        ordered = ordered or any(t.kind in ("word", "symbol") and not t.corrected for t in said)
        # an order word says something of the order; なら, 相手が or a monster's name alone does not
        # (お願い当たらないで, ドラグレッダー頼んだ！ are chat)
        orderly = any(t.kind in ("symbol", "counter") or (t.kind == "word" and not (t.word is not None and isinstance(t.word.value, tuple)
                                                 and t.word.value[0] in ("nara", "their", "monster")))
                      or t.kind in ("number", "event_final")
                      or (t.kind == "unknown" and (t.word is not None or t.candidates or t.corrected))
                      or (named is not None and t.kind in ("unknown", "symbol") and named(src.norm[t.start:t.end].lstrip("←")))
                      for t in sentence)  # a fighter's name (named) is said of the order: 蓮さんがいなければ城戸さんです
        # a negation counts only after an order word (当たらないで, said of nothing in the order, is chat)
        chatty = any(t.kind in ("function", "laugh") for t in said) or (
            said and said[0].kind == "unknown" and src.norm[said[0].start] == "←")
        letters = sum(ch.isalpha() for t in said for ch in src.norm[t.start:t.end])
        if said and not orderly and chatty and (any(t.kind == "unknown" for t in said) or letters >= 4):
            line, column, shown = src.where(said[0].start, said[-1].end)
            notes.append(Problem("は雑談として読みませんでした。", line=line, column=column, text=shown))
            kept.extend(t for t in sentence if t.kind == "sep")
            continue
        kept.extend(sentence)
    return kept, notes
