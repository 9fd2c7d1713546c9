"""A player's text normalised, with the way back to what they wrote.

Every reader compares words after NFKC (full-width ＡＢ and half-width ｶﾅ read as AB and カナ) and
case folding. Both can change a string's length (``ｶﾞ`` is one character after NFKC, ``İ`` two
after ``lower()``, ``㍿`` four after NFKC), so positions are never assumed to survive: the
normalised text keeps, for each of its characters, the index of the original character it came
from, and every position shown to a player is mapped back through it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

# what a half-width kana's sound marks and the emoji variation selectors are to a reader
_JOINERS = frozenset("\uff9e\uff9f\ufe0e\ufe0f\u200d")


# romaji's long vowels with a macron or a circumflex (kōgeki, sōdo): the vowel twice, as typed
_MACRONS = {"ā": "aa", "ī": "ii", "ū": "uu", "ē": "ee", "ō": "ou", "â": "aa", "î": "ii", "û": "uu", "ê": "ee", "ô": "ou",
            "Ā": "AA", "Ī": "II", "Ū": "UU", "Ē": "EE", "Ō": "OU"}


def _fold_char(ch: str) -> str:
    """One normalised character folded for comparison: hiragana as katakana, lower case."""
    if "ぁ" <= ch <= "ゖ":
        return chr(ord(ch) + 0x60)
    return ch.lower() if ch.isascii() else ch


def _kana(ch: str) -> bool:
    return "ぁ" <= ch <= "ヺ"


def _katakana(ch: str) -> bool:
    return "ァ" <= ch <= "ヺ" or ch == "ー"


# kanji a phone's or an IME's list offers for the katakana they look like (ストライクベン卜, ガ一ド, 口ード)
_LOOKALIKE = {"卜": "ト", "一": "ー", "口": "ロ", "二": "ニ", "工": "エ", "力": "カ", "夕": "タ", "八": "ハ", "才": "オ",
              "匕": "ヒ"}


# the kana of 歴史的仮名遣い no modern word has, and a verb's ending after its kanji (使ひ・ます, 庇ふ)
_OLD_KANA = {"ゐ": "い", "ゑ": "え", "ヰ": "イ", "ヱ": "エ"}
_OLD_ENDING = re.compile(r"ます|ませ|まし|て|た|は|[、。,.:\s!！]|$")


@lru_cache(maxsize=1)
def _variants() -> dict[str, str]:
    """``variants.tsv`` beside this module: the traditional and simplified Chinese forms of the
    games' kanji, each folded to its Japanese form (輕→軽, 击→撃, 进→進)."""
    out = {}
    for line in Path(__file__).with_name("variants.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            variant, _tab, japanese = line.partition("\t")
            out[variant] = japanese.strip()
    return out



class Text:
    """``original`` normalised to ``norm`` (NFKC; variation selectors dropped), and ``folded``
    (hiragana as katakana, ASCII lower case) of exactly ``norm``'s length; ``origin[i]`` is the
    index in ``original`` of the character ``norm[i]`` came from (``origin[len(norm)]`` is
    ``len(original)``)."""

    __slots__ = ("original", "norm", "folded", "origin")

    def __init__(self, original: str):
        self.original = original
        parts: list[str] = []
        origin: list[int] = []
        variants = _variants()  # read once, when a post is first read (not on import: start-up)
        i, n = 0, len(original)
        while i < n:
            j = i + 1  # a character with its combining marks (ｼﾞ, か゛, e + U+0301) is one unit
            while j < n and (original[j] in _JOINERS or unicodedata.combining(original[j])):
                j += 1
            piece = unicodedata.normalize("NFKC", original[i:j].replace("\ufe0f", "").replace("\ufe0e", "")
                                          .replace("\u200d", "").replace("\u20e3", ""))  # 6️⃣: the keycap is the digit
            for ch in "".join(_MACRONS.get(ch, ch) for ch in piece):
                ch = variants.get(ch, ch)  # 輕攻擊 is 軽攻撃: a kanji in Chinese script is the same kanji
                # only ASCII is lower-cased, one character for one: ``İ`` stays itself (it is
                # no order word), so the folded text has exactly the normalised text's length
                parts.append(ch)
                origin.append(i)
            i = j
        origin.append(n)
        for k in range(1, len(parts) - 1):  # a dash between kana is a long mark (ガ-ド, エナジ－キャノン)
            if parts[k] in "-‐―−—–ｰ~〜" and _kana(parts[k - 1]) and _kana(parts[k + 1]):
                parts[k] = "ー"
        for k in range(1, len(parts)):  # a kanji that looks like a katakana, after katakana (ベン卜, ガ一ド)
            after = parts[k + 1] if k + 1 < len(parts) else ""
            if parts[k] in _LOOKALIKE and _katakana(parts[k - 1]) and (
                    _katakana(after) or not (after.isalnum() or "\u4e00" <= after <= "\u9fff")):
                parts[k] = _LOOKALIKE[parts[k]]
        for k in range(len(parts)):  # 歴史的仮名遣い, as an old hand writes (使ひます, 庇ふ, 初心者ゆゑ, 届きさうなら)
            if parts[k] in _OLD_KANA:
                parts[k] = _OLD_KANA[parts[k]]
            elif parts[k] in "ひふ" and k > 0 and "\u4e00" <= parts[k - 1] <= "\u9fff" and _OLD_ENDING.match("".join(parts[k + 1:k + 4])):
                parts[k] = "い" if parts[k] == "ひ" else "う"
            elif parts[k] == "さ" and k + 1 < len(parts) and parts[k + 1] == "う" and k > 0 and parts[k - 1] in "きちしりみびにい":
                parts[k] = "そ"  # 届きさう: 届きそう
        self.norm = "".join(parts)
        self.folded = "".join(_fold_char(ch) for ch in self.norm)
        self.origin = origin

    def span(self, start: int, end: int | None = None) -> tuple[int, int]:
        """The original span of normalised ``[start, end)`` (at least one character)."""
        last = len(self.origin) - 1
        o_start = self.origin[min(max(start, 0), last)]
        o_end = self.origin[min(end, last)] if end is not None else o_start + 1
        return o_start, max(o_end, o_start + 1)

    def where(self, start: int, end: int | None = None) -> tuple[int, int, str]:
        """Line, column (1-based) and the original text of normalised ``[start, end)``."""
        o_start, o_end = self.span(start, end)
        return (*position(self.original, o_start), self.original[o_start:o_end])


def position(text: str, index: int) -> tuple[int, int]:
    """1-based (line, column) of ``index`` in ``text``."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def nfkc_origin(text: str) -> tuple[str, list[int]]:
    """``text`` after NFKC, with for each of its characters the index in ``text`` of the
    character it came from (and ``len(text)`` after the last): the mapping is kept, never
    inferred from lengths (NFKC makes ``ｶﾞ`` one character and ``㍿`` four). Normalised piece by
    piece: a character together with every following one that changes its NFKC form (a sound
    mark, a combining accent, a Hangul jamo); when the pieces do not add up to the text's own
    NFKC form (a reordering across pieces), the text is one piece."""
    whole = unicodedata.normalize("NFKC", text)
    if whole == text:
        return text, list(range(len(text) + 1))
    parts: list[str] = []
    origin: list[int] = []
    i, n = 0, len(text)
    while i < n:
        j = i + 1
        piece = unicodedata.normalize("NFKC", text[i])
        while j < n and j - i < 32:  # a longer run of marks: cut (the check below then decides)
            joined = unicodedata.normalize("NFKC", text[i:j + 1])
            if joined == piece + unicodedata.normalize("NFKC", text[j]):
                break
            piece, j = joined, j + 1
        parts.append(piece)
        origin.extend([i] * len(piece))
        i = j
    if "".join(parts) != whole:
        origin = [0] * len(whole)
    origin.append(n)
    return whole, origin
