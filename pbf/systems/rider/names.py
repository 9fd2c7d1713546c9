"""The battle's names as players write them: a player's name, a rider's or monster's name,
English name or alias (find_fighter), loosely (near_fighter: a courtesy title dropped, by reading,
cut short, a near miss), and the roster the GM's reading knows (rewrite.py). Kept apart from
checks.py so that the reading (rewrite.py) and the checks of an order both use them and neither
imports the other."""

from __future__ import annotations

from typing import Any

from .data import RiderData, norm


_COURTESY = ("さん", "くん", "君", "ちゃん", "氏", "様", "さま", "殿")


def near_fighter(raw: str, fighters: dict[str, Any], data: RiderData) -> str | None:
    """The one fighter a loosely written name means (a courtesy title dropped, or a near miss by
    reading of a player's or a character's name), or None when it is none or several."""
    from ...reader import kana
    from ...reader.lexicon import Lexicon, Word

    word = raw.strip()
    for courtesy in _COURTESY:
        if word.endswith(courtesy) and len(word) > len(courtesy):
            found = find_fighter(word[: -len(courtesy)], fighters, data)
            return found[0] if len(found) == 1 else None
    spellings: list[tuple[str, str, bool]] = []  # (fighter, a spelling of its name, English)
    for name, fighter in fighters.items():
        try:
            _kind, sheet = data.character(fighter["character"])
        except KeyError:  # pragma: no cover
            continue
        spellings += [(name, s, False) for s in (name, sheet.get("name", ""), *(sheet.get("aliases", []) or [])) if s]
        spellings += [(name, sheet["english"], True)] if sheet.get("english") else []
    said = kana.looses(word)
    # a name written by its reading (レン, キド, ren) or a kanji of the same (連 for 蓮)
    by_reading = {name for name, spelling, _english in spellings if said and word and kana.looses(spelling) & said}
    if not by_reading and word:
        # a name cut short (ゾル for ゾルダ, 龍 for 龍騎): the beginning of one fighter's names only
        by_reading = {name for name, spelling, english in spellings if not english and len(spelling) > len(word)
                      and spelling.startswith(word) and (len(word) >= 2 or kana.has_kanji(word))}
    if len(by_reading) == 1:
        return by_reading.pop()
    if by_reading:
        return None
    lex = Lexicon((spelling, Word(name, name)) for name, spelling, _english in spellings)
    found, _candidates = lex.correction(word)
    return found.concept if found is not None else None


def roster(state: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """(name, character) of every fighter of the battle: the names a GM's reading knows
    (ないとにちかよる, ファイナル 北岡>城戸)."""
    return tuple((name, str(f.get("character", ""))) for name, f in state["fighters"].items())


def is_fighter(raw: str, roster_: tuple[tuple[str, str], ...], data: RiderData) -> bool:
    """The written word names one fighter of ``roster_`` (as :func:`find_fighter` or
    :func:`near_fighter` read it)."""
    fighters = {name: {"character": character} for name, character in roster_}
    word = raw.strip()
    return bool(word) and one_fighter(word, fighters, data) is not None


def one_fighter(raw: str, fighters: dict[str, Any], data: RiderData) -> str | None:
    """The one fighter the written name means: by :func:`find_fighter` when it finds one, else
    loosely by :func:`near_fighter`; None when it is none or several."""
    found = find_fighter(raw, fighters, data)
    return found[0] if len(found) == 1 else near_fighter(raw, fighters, data)


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
