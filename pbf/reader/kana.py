"""The keys words are compared by.

* :func:`fold`: for an exact match — katakana for hiragana, ASCII lower case (the length kept);
* :func:`reading`: what a word sounds like, in katakana: kana as they are, romaji converted
  (jaconv: shou / syou / sho alike), kanji by their reading (janome's dictionary, so that an IME
  slip with the same reading, 採光 for 彩光, 近付く for 近づく, is the same word);
* :func:`loose`: the reading with what a hurried or phone-typed word drops made optional:
  long marks (ソードベント / ソドベント), small kana (ジャンプ / ジヤンプ), sound marks
  (ガード / カート), a vowel lengthened by its own vowel (きょう / きょ, ou / o).

jaconv and janome are loaded only when a word is not found directly (start-up: a plot of
card symbols or known words never imports them).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from .text import _fold_char
from . import kanji


def fold(text: str) -> str:
    return "".join(_fold_char(ch) for ch in text)


def has_kanji(word: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or ch in "々〆" for ch in word)


_ROMAJI = re.compile(r"[a-z][a-z' -]*")


@lru_cache(maxsize=1)
def _tokenizer():
    from janome.tokenizer import Tokenizer  # ~0.3 s: only for a word with kanji not found directly

    return Tokenizer()


@lru_cache(maxsize=65536)
def reading(word: str) -> str:
    """The word's reading in katakana (what is not kana, kanji or romaji is kept as it is)."""
    text = unicodedata.normalize("NFKC", word)
    if has_kanji(text):  # janome reads kanji with their okurigana as written (少し, not 少シ)
        text = _read_kanji(text)
    folded = _SOUNDLESS_SMALL.sub(lambda m: m.group().translate(_SMALL), fold(text).translate(_PHONE_SMALL))
    if any("a" <= ch <= "z" for ch in folded):
        import jaconv

        # an IME caught mid-word: jゃく is ジャク, sおーど is ソード (the consonant typed, the vowel
        # converted); ベンt is ベン and its last kana half typed
        folded = re.sub(r"([bcdfghjklmnpqrstvwxz]{1,2})([ャュョアイウエオ])",
                        lambda m: fold(jaconv.alphabet2kana(m.group(1) + {"ャ": "ya", "ュ": "yu", "ョ": "yo", "ア": "a", "イ": "i",
                                                                          "ウ": "u", "エ": "e", "オ": "o"}[m.group(2)])),
                        folded)
        if not has_kanji(text) and re.fullmatch(r"[ァ-ヺー]{2,}[bcdfghjkmnprstwz]", folded):
            folded = folded[:-1]
        if not any("a" <= ch <= "z" for ch in folded):
            return folded
        if any(len(run) < 2 or not set(run) & set("aeiou") for run in re.findall(r"[a-z]+", folded)):
            return ""  # a lone letter (弱X) or no vowel (jmp) is no romaji: it has no reading
        folded = _ROMAJI.sub(lambda m: _long_vowels(fold(jaconv.alphabet2kana(_romaji_fixed(m.group())))), folded)
        # a word that ends in a consonant (shield, jab: jaconv makes the last one ッ) is English, no romaji
        if any("a" <= ch <= "z" for ch in folded) or "ッッ" in folded or (folded.endswith("ッ") and not text.endswith(("っ", "ッ"))):
            return ""  # not romaji (an English word): it has no reading, only its spelling
    return folded


def _long_vowels(said: str) -> str:
    """Romaji writes a long vowel twice (gaado, soodo): in kana it is ー (ガード, ソード)."""
    out: list[str] = []
    for ch in said:
        if out and ch in "アイウエオ" and _VOWEL_OF.get(out[-1]) == ch and out[-1] not in "アイウエオ":
            out.append("ー")
        else:
            out.append(ch)
    return "".join(out)


def unmarked(word: str) -> str:
    """The reading with its sound marks dropped (ガート = ガード, but ドウ is not トオ)."""
    said = reading(word)
    return unicodedata.normalize("NFC", "".join(ch for ch in unicodedata.normalize("NFD", said) if ch not in "\u3099\u309a"))


def bare(word: str) -> str:
    """The spelling (folded) with the sound marks of its kana dropped, its kanji kept: 投け and
    投げ are one spelling with a dakuten missed (the reading cannot say so: janome reads 投け as
    トウケ)."""
    return unicodedata.normalize("NFC", "".join(ch for ch in unicodedata.normalize("NFD", fold(word)) if ch not in "\u3099\u309a"))


def _read_kanji(text: str, whole: bool = True) -> str:
    """Kanji by janome's readings; a compound its dictionary lacks (耐空) by its characters' own."""
    out = []
    for token in _tokenizer().tokenize(text):
        surface = token.surface
        said = token.reading if token.reading not in ("*", "") else surface
        if has_kanji(said) and whole and len(surface) > 1:
            said = "".join(_read_kanji(ch, False) for ch in surface)
        elif has_kanji(said) and len(surface) == 1:
            said = next(iter(kanji.readings(surface)), surface)  # 耐: janome has no word of it alone
        out.append(said if has_kanji(surface) else surface)
    return "".join(out)


def _by_characters(surface: str) -> list[str]:
    """The readings a run of one to three kanji has read character by character from the kanji
    table (若: ジャク as well as ワカ; 授動: ジュドウ), at most four a character."""
    if not 1 <= len(surface) <= 3 or not all(kanji.readings(ch) for ch in surface):
        return []
    out = [""]
    for ch in surface:
        out = [head + said for head in out for said in kanji.readings(ch)[:4]]
    return out


def _romaji_fixed(word: str) -> str:
    """What jaconv does not read: "n" before a consonant or at the end (kyanon, zensin), Hepburn's
    "m" for ン before b, p and m (jampu, sembu), "-" for ー."""
    word = word.replace(" ", "").replace("'", "")
    word = re.sub(r"n(?=[^aiueoy]|$)", "ん", word)
    word = re.sub(r"(?<=[aiueo])m(?=[bpm])", "ん", word)
    return word.replace("-", "ー")


# small ゎ ゕ ゖ make no sound with the kana before them (a flip phone's toggle keypad gives them
# for わ か け: よゎ is よわ): the reading has the large kana
_PHONE_SMALL = str.maketrans("ヮヵヶ", "ワカケ")
_SMALL = str.maketrans("ァィゥェォッャュョヮヵヶ", "アイウエオツヤユヨワカケ")
# small ャュョ after a kana of no イ row (つょ, まゃ) make no sound with it: a phone's toggle (or a slip) for
# the large kana — つょ reads ツヨ, as よゎ reads ヨワ
_SOUNDLESS_SMALL = re.compile(r"(?<=[アカサタナハマヤラワガザダバパウクスツヌムユルグズヅブプエケセネヘメレゲゼベペオコソトノホモヨロヲゴゾドボポンー])[ャュョ]")
_VOWEL_OF = {}
for _row, _vowel in (("アカサタナハマヤラワガザダバパ", "ア"), ("イキシチニヒミリギジヂビピ", "イ"),
                     ("ウクスツヌフムユルグズヅブプヴ", "ウ"), ("エケセテネヘメレゲゼデベペ", "エ"),
                     ("オコソトノホモヨロヲゴゾドボポ", "オ")):
    for _kana in _row:
        _VOWEL_OF[_kana] = _vowel
_LENGTHENS = {"ア": "ア", "イ": "イエ", "ウ": "ウオ", "エ": "エイ", "オ": "オウ"}  # vowel kana → vowels it lengthens


@lru_cache(maxsize=65536)
def readings(word: str) -> frozenset[str]:
    """Every reading the word may have (katakana): :func:`reading`, and for kanji each reading
    janome's dictionary gives the same characters (蓮: レン・ハス・ハチス; 城戸: キド・ジョウド), so that
    a name written in kana (レン) or with another kanji of the same reading (連) is found; the kanji table's
    readings of each kanji (pbf.reader.kanji) too. At most 64 readings, the likeliest; a word
    without kanji has its one."""
    said = reading(word)
    text = unicodedata.normalize("NFKC", word)
    if not has_kanji(text):
        return frozenset({said} if said else ())
    options: list[list[str]] = []
    try:
        tokenizer = _tokenizer()
        for token in tokenizer.tokenize(text):
            surface = token.surface
            found = [token.reading] if token.reading not in ("*", "") else []
            if has_kanji(surface):  # the table's common readings before the dictionary's rarer ones (names)
                found += _by_characters(surface) if len(surface) == 1 else []
                known = _dictionary_readings(tokenizer, surface)
                found += known
                if len(surface) > 1:
                    found += ["".join(_read_kanji(ch, False) for ch in surface)]
                if len(surface) > 1 and not known:  # a compound janome lacks (耐空, 授動): by its kanji
                    found += _by_characters(surface)
            options.append(list(dict.fromkeys(fold(f) for f in found if f and not has_kanji(f))) or [fold(surface)])
    except Exception:  # pragma: no cover - janome's dictionary API: the one reading is still right
        return frozenset({said} if said else ())
    # the 64 likeliest: each part's readings come likeliest first, and a reading's cost is the sum
    # of its parts' ranks (so that a long word keeps the likely readings of every part)
    beam: dict[str, int] = {"": 0}
    for choices in options:
        grown: dict[str, int] = {}
        for head, cost in beam.items():
            for rank, choice in enumerate(choices):
                if grown.get(head + choice, cost + rank + 1) > cost + rank:
                    grown[head + choice] = cost + rank
        beam = dict(sorted(grown.items(), key=lambda kv: (kv[1], kv[0]))[:64])
    return frozenset(({said} if said else set()) | {r for r in beam if r})


def _dictionary_readings(tokenizer: Any, surface: str) -> list[str]:
    """The readings of every entry of janome's system dictionary spelled exactly ``surface``."""
    sys_dic = tokenizer.sys_dic
    out = []
    for entry in sys_dic.lookup(surface.encode("utf-8"), tokenizer.matcher):
        if entry[1] == surface:
            extra = sys_dic.lookup_extra(entry[0])
            if len(extra) >= 5 and extra[4] not in ("*", ""):
                out.append(extra[4])
    return sorted(set(out))  # janome's lookup order differs from run to run (PYTHONHASHSEED)


@lru_cache(maxsize=65536)
def marked(word: str) -> frozenset[str]:
    """:func:`looses` with the sound marks kept (ジュウドウ and ジュドウ alike, シュート not)."""
    return frozenset(_loosen(said, marks=True) for said in readings(word)) - {""}


@lru_cache(maxsize=65536)
def looses(word: str) -> frozenset[str]:
    """:func:`loose` of every one of :func:`readings`."""
    return frozenset(_loosen(said) for said in readings(word)) - {""}


@lru_cache(maxsize=65536)
def loose(word: str) -> str:
    """The reading with long marks, small kana, sound marks and lengthening vowels made optional."""
    return _loosen(reading(word))


def _loosen(said: str, marks: bool = False) -> str:
    if not said:
        return ""
    said = said.replace("ー", "").replace("〜", "").replace("~", "")
    said = said.translate(_SMALL)
    if not marks:
        said = "".join(ch for ch in unicodedata.normalize("NFD", said) if ch not in "\u3099\u309a")
        said = unicodedata.normalize("NFC", said)
    out: list[str] = []
    for ch in said:
        if out and ch in _LENGTHENS and _VOWEL_OF.get(out[-1], out[-1]) in _LENGTHENS[ch]:
            continue  # キヨウ → キヨ, ソオ → ソ, ケイ → ケ
        out.append(ch)
    joined = "".join(out).replace(" ", "")
    return joined if marks else joined.translate(_SAME_SHAPE)


def _lengths(said: str) -> str:
    """The reading with its sound marks, small kana folded, and each lengthening vowel written as ー
    (シュートウ → シユートー, ガアド → ガード): where the long vowels are, which :func:`_loosen` drops."""
    out: list[str] = []
    for ch in said.replace("〜", "ー").replace("~", "ー").translate(_SMALL):
        if out and ch in _LENGTHENS and _VOWEL_OF.get(out[-1], out[-1]) in _LENGTHENS[ch]:
            ch = "ー"
        if not (ch == "ー" and out and out[-1] == "ー"):
            out.append(ch)
    return "".join(out).replace(" ", "")


@lru_cache(maxsize=65536)
def same_lengths(written: str, spelled: str) -> bool:
    """The written word has the spelled word's long vowels where it has them, or none (an IME drops
    ー: ガド for ガード) — しゅとう is not シュート (its long vowel after ト, not シュ), whatever else alike."""
    said = {_lengths(r) for r in readings(written)}
    return any(re.fullmatch("".join("ー?" if ch == "ー" else re.escape(ch) for ch in _lengths(r)), w)
               for r in readings(spelled) for w in said)


# katakana a hand or a phone's handwriting pad mistakes for each other (キャソセル, ジャソプ): alike
_SAME_SHAPE = str.maketrans({"ソ": "ン"})


def distance(a: str, b: str, limit: int = 3) -> int:
    """Levenshtein distance (insert, delete, substitute, and swap of two neighbours), or
    ``limit + 1`` when it is more than ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] | None = None
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if previous2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return min(previous[-1], limit + 1)
