"""Alter EGO's lexicon: every word a plot may hold, per character.

From the data: each card's readings, each technique's name and readings (a character's own
technique wins over a common one), the empty plot's words; and ``data/lexicon.yaml``: the
shorthand, English and verbs players use (前J, back jump, 下がる …), words that need asking
(殴る: 弱 or 強?), the counters of a repeat (弱×3, 2マス前進). Function words and negations are
the reader's own (:mod:`pbf.reader.lexicon`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ... import yamlio
from ...reader.kana import fold as kana_fold, has_kanji
from ...reader.lexicon import Lexicon, Word, conjugations
from .data import DATA_DIR, Character, GameData

_EXTRA: list[Any] = []
_BUILT: dict[tuple[int, int], tuple[Any, Any, Lexicon]] = {}


def _extra() -> dict[str, Any]:
    if not _EXTRA:
        _EXTRA.append(yamlio.load_data_file(Path(DATA_DIR) / "lexicon.yaml") or {})
    return _EXTRA[0]


def lexicon(data: GameData, character: Character) -> Lexicon:
    """Built once per (data, character)."""
    key = (id(data), id(character))
    kept = _BUILT.get(key)
    if kept is not None and kept[0] is data and kept[1] is character:
        return kept[2]
    lex = Lexicon()
    names = {tech.command: tech.name.split("／")[0] for tech in character.techniques}
    names[""] = "なし"
    card_words = {str(w) for card in data.cards for w in card.get("readings") or ()}
    for word, cards in data.plot_words(character).items():  # the data's own words first: they win
        lex.add(word, Word(cards, names.get(cards, word), value=cards, technique=word not in card_words and cards != ""))
    for tech in character.techniques:
        lex.add(tech.id.replace("_", " "), Word(tech.command, names[tech.command], value=tech.command))
        if "_" in tech.id:  # energy_cannon: a programmer's snake_case of the name is the name
            lex.add(tech.id, Word(tech.command, names[tech.command], value=tech.command))
    for card in ("弱", "強"):  # the grammar reads the card itself; here for a kanji of its reading (若: Lexicon.same_kanji)
        lex.kanji[card] = Word(card, card, value=card)
    extra = _extra()
    for entry in extra.get("words") or ():
        if "ask" in entry:
            asked = tuple(str(c) for c in entry["ask"])
            shown = "・".join(names.get(c, c) for c in asked)
            word = Word("ask:" + "".join(asked), shown, value=asked)
        else:
            cards = str(entry["cards"])
            word = Word(cards, names.get(cards, cards or "なし"), value=cards, technique=bool(cards) and not entry.get("card"),
                        guess=bool(entry.get("guess", True)))  # guess: false — read only as written
        forms = [str(f) for f in entry.get("forms") or ()]
        for form in forms:
            lex.add(form, word)
        for form in forms:  # mae janpu written mae-janpu (a romaji phrase hyphenated, as mae-jump is listed),
            for joiner in ("-", "_"):  # or in snake_case (mae_janpu, kyou_kougeki: a programmer's one word)
                joined = form.replace(" ", joiner)
                if form.isascii() and " " in form and joined not in forms:
                    lex.add(joined, word)
        for verb in entry.get("verbs") or ():
            lex.add_verb(str(verb), word)
    for word in extra.get("refer") or ():
        lex.add(str(word), Word("refer", str(word), kind="refer"))
    for verb in extra.get("drop_verbs") or ():
        lex.add_verb(str(verb), Word("function", str(verb), kind="function"))
        for form in conjugations(str(verb)):  # 着地したら, 撃ったら: "and then" after the move before
            if form.endswith(("た", "だ")):
                lex.add(form + "ら", Word("function", str(verb), kind="function"))
    # a character's own technique by the first two characters of its name (旋風 for 旋風脚, 朧月 …),
    # when no other word is spelled so
    for tech in character.techniques[len(data.common):]:
        short = tech.name[:2]
        if len(tech.name) >= 3 and has_kanji(short) and not any(kana_fold(short) == k for k in lex.exact):
            lex.add(short, Word(tech.command, names[tech.command], value=tech.command, technique=True))
    # by its first kanji alone (朧 for 朧月), when that kanji begins no other technique's name and is
    # no word already: read only as written
    firsts: dict[str, set[str]] = {}
    for tech in character.techniques:
        if tech.name[:1] and has_kanji(tech.name[:1]):
            firsts.setdefault(tech.name[:1], set()).add(tech.command)
    for tech in character.techniques[len(data.common):]:
        first = tech.name[:1]
        if len(tech.name) >= 2 and len(firsts.get(first, ())) == 1 and kana_fold(first) not in lex.exact and first not in ("弱", "強"):
            lex.add(first, Word(tech.command, names[tech.command], value=tech.command, technique=True, guess=False))
    # a character's own technique by the initials of its English name (EC for energy cannon), when
    # no other word is so
    own = {tech.command for tech in character.techniques[len(data.common):]}
    initials: dict[str, set[str]] = {}
    for form, word in list(lex.exact.items()):
        if word.technique and str(word.value) in own and form.isascii() and len(form.split()) >= 2:
            initials.setdefault("".join(part[0] for part in form.split()), set()).add(str(word.value))
    for short, commands_ in initials.items():
        if len(commands_) == 1 and short not in lex.exact and len(short) >= 2:
            (cards,) = commands_
            lex.add(short, Word(cards, names.get(cards, cards), value=cards, technique=True))
    for term in extra.get("jargon") or ():  # 暴れ, 差し込み: what the plot is for, said in the game's jargon
        term = str(term)
        word = Word("jargon", term, kind="function", guess=False, slip=False)
        if term.endswith(("む", "す", "る", "う", "く", "つ")):  # 差し込む: every form of the verb
            lex.add_verb(term, word)
        else:
            lex.add(term, word)
    for term in extra.get("functions") or ():  # shite kara: romaji's "and then", read past as してから is
        lex.add(str(term), Word("function", str(term), kind="function"))
    for term in extra.get("endings") or ():  # でござる, なのら, 吧: a sentence's ending, no card
        lex.add(str(term), Word("ending", str(term), kind="function", guess=False, slip=False))
    for term in extra.get("manner") or ():  # 空中で: where the card after it is played, no card
        lex.add(str(term), Word("manner", str(term), kind="function", guess=False, slip=False))
    for counter in extra.get("counters") or ():
        lex.add(str(counter), Word("counter", str(counter), kind="counter"))
    for slip in extra.get("counter_slips") or ():
        lex.add(str(slip), Word("counter", "回", kind="counter"))  # shown: what it is read as (noted)
    lex.add_closed_lists()
    from .reading import commands

    lex.commands = commands(character)  # the plot reader warns where named words join into another technique
    if len(_BUILT) >= 64:
        _BUILT.clear()
    _BUILT[key] = (data, character, lex)
    return lex
