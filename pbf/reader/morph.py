"""What a morphological analyser (janome, IPADIC) says of the words of talk around an order: the
particles, auxiliaries and light verbs of a sentence (いたします, だったときだけ, された際, 使ってきた),
which a GM passes over as a function word is. Loaded only for a post with words not found directly
(janome's dictionary costs ~0.3 s; the readings of kanji already load it).

Only the grammar of a sentence is passed over: a verb or noun of its own (戦いたい, 一緒) stays a
word pbf does not know, and a negating auxiliary (ない・ぬ・ん・ず) is never passed over — a negation
is read or refused (docs/reading.md).
"""

from __future__ import annotations

from functools import lru_cache

# verbs that say how, never what: する, いる, ある, くる, おく, いただく, させる, なる… (their base forms)
LIGHT_VERBS = frozenset({
    "する", "いる", "ある", "くる", "来る", "いく", "行く", "おく", "置く", "しまう", "もらう", "貰う", "いただく", "頂く",
    "くださる", "下さる", "いたす", "致す", "なる", "みる", "できる", "思う", "せる", "させる", "れる", "られる", "やる",
    "あげる", "くれる", "おる", "参る", "伺う", "存ずる", "存じる",
})
NEGATING = frozenset({"ない", "ぬ", "ん", "ず"})


def _grammatical(part_of_speech: str, base: str, before: str) -> bool:
    pos = part_of_speech.split(",")
    if pos[0] in ("助詞", "助動詞"):
        return base not in NEGATING
    if pos[0] == "動詞":
        return pos[1] in ("非自立", "接尾") or base in LIGHT_VERBS
    if pos[0] == "名詞":  # とき, 際, もん after the verb they are said of (された際); not 内 of 内と, nor 1点 (a count)
        return pos[1] in ("非自立", "接尾") and base not in ("点", "回", "枚") and (
            before in ("動詞", "助動詞") or (before == "助詞" and base in ("まま", "よう", "通り", "とおり")))  # のまま
    return pos[0] == "記号" and base in ("、", "。")


@lru_cache(maxsize=2048)
def grammar_mask(text: str) -> tuple[bool, ...]:
    """For each character of ``text``: whether the morpheme it belongs to is grammar only."""
    from .kana import _tokenizer

    out: list[bool] = []
    before = ""
    for m in _tokenizer().tokenize(text):
        out.extend([_grammatical(m.part_of_speech, m.base_form, before)] * len(m.surface))
        before = m.part_of_speech.split(",")[0]
    return tuple(out[: len(text)] + [False] * (len(text) - len(out)))
