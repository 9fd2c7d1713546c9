"""One lexicon per game, as data: every concept with its surface forms, found in a text by the
longest match, and near misses found by reading.

A :class:`Word` is what a surface form means (its ``concept``, the value the game reader emits,
the spelling to show). Verbs are given in their dictionary form and found in any conjugation
(:func:`conjugations`: 近づく・近づいて・近づき・近づきます…). :meth:`Lexicon.near` is the
near-miss search: a word is read as an entry only when its reading is close to exactly one
concept, and never as the opposite of another close one.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from typing import Any, Iterable, Iterator

from ..record import record, replace
from . import kana


@record(frozen=True)
class Word:
    concept: str  # what it means, e.g. "↑→弱" or "move:closer"
    shown: str  # the spelling a note or a hint names (the data's)
    kind: str = "order"  # order | function | negation | chat
    value: Any = None
    opposite: str | None = None  # a concept a near miss must never become instead
    technique: bool = False  # names a technique or an action (ジャンプ, 弱攻撃, 下がる), not a bare card (弱, L)
    guess: bool = True  # a near miss may be read as this word (False: なら, 使う … only as written)
    slip: bool = True  # may be part of a slip written against an unknown run (False: なら, 使う, 移動：)


# godan endings: dictionary kana -> (i-stem kana, a-stem kana, te-form, o-stem)
_GODAN = {
    "う": ("い", "わ", "って", "お"), "く": ("き", "か", "いて", "こ"), "ぐ": ("ぎ", "が", "いで", "ご"),
    "す": ("し", "さ", "して", "そ"), "つ": ("ち", "た", "って", "と"), "ぬ": ("に", "な", "んで", "の"),
    "ぶ": ("び", "ば", "んで", "ぼ"), "む": ("み", "ま", "んで", "も"), "る": ("り", "ら", "って", "ろ"),
}
_E_OR_I = set("いきぎしじちぢにひびぴみりえけげせぜてでねへべぺめれ")
_POLITE = ("ます", "ました", "ましょう", "ませう", "まして")  # まして: the polite te-form (撃ちまして、その後…)


def conjugations(verb: str, ichidan: bool | None = None, passive: bool = False) -> list[str]:
    """Every form of ``verb`` (dictionary form) a player's order uses it in: the dictionary form,
    the stem (近づき), polite (近づきます), te-form (近づいて), past (近づいた), volitional
    (近づこう), imperative-ish request (近づいてください is the te-form and a function word), and
    the causative of humble keigo (使わせていただきます, 近寄らせてもらいます: the player's own act;
    what follows it is a function word). With ``passive``, the passive too (使われた場合,
    発動された): only for a verb that says nothing of who acts (使う), never a move or an attack,
    whose passive is the opponent's act (近寄られたら is a condition, not the player's move).
    Negative forms are not included: a negation is read as such (:data:`NEGATIONS`)."""
    if verb.endswith("する"):
        stem = verb[:-2]
        return [verb, stem + "します", stem + "して", stem + "した", stem + "しよう", stem + "しました", stem + "しまして", stem + "し", stem,
                stem + "したい", stem + "したいです", *_voiced(stem + "させ")]  # 発動された: された is a condition's
    last = verb[-1:]
    if last not in _GODAN:
        return [verb]
    head = verb[:-1]
    if ichidan is None and last == "る" and kana.has_kanji(head[-1:]):
        # 出る (ichidan) or 斬る (godan): the kanji does not say; both are made (the wrong one is never written)
        return conjugations(verb, True, passive) + conjugations(verb, False, passive)[1:]
    if ichidan is None:
        ichidan = last == "る" and head[-1:] in _E_OR_I
    if ichidan:
        stem = head
        forms = [verb, stem, stem + "て", stem + "た", stem + "よう", *_voiced(stem + "させ"),
                 *(_voiced(stem + "られ") if passive else ())]
    else:
        i_stem, a_stem, te, o_stem = _GODAN[last]
        if verb in ("行く", "いく"):
            te = "って"
        stem = head + i_stem
        forms = [verb, stem, head + te, head + te[:-1] + ("だ" if te.endswith("で") else "た"), head + o_stem + "う",
                 *_voiced(head + a_stem + "せ"), *(_voiced(head + a_stem + "れ") if passive else ())]
    forms += [stem + polite for polite in _POLITE]
    forms += [stem + "たい", stem + "たいです"]  # 跳ね返したいです: a wish is the verb too
    return forms


def _voiced(stem: str) -> tuple[str, ...]:
    """A causative or passive stem (使わせ, 使われ) and its forms (ichidan: 使わせて, 使われた…)."""
    return (stem, stem + "て", stem + "た", stem + "る", *(stem + polite for polite in _POLITE))


# Function words: what a GM reads past in an order (particles, endings, politeness). A closed list.
FUNCTION_WORDS = (
    "で", "て", "を", "に", "は", "が", "と", "も", "へ", "の", "や", "から", "まで", "より", "だけ", "ね", "よ", "な", "か",
    "します", "しました", "ました", "ように", "ないように", "する", "して", "した", "しよう", "しましょう", "です", "ます", "でした", "だ", "で行きます",
    "でいきます", "で行く", "でいく", "いきます", "行きます", "いく", "行く", "お願いします", "おねがいします", "お願い",
    "おねがい", "お願いいたします", "よろしく", "よろしくお願いします", "ください", "下さい", "てください", "願います",
    "頼む", "頼みます", "たのむ", "させていただきます", "させて頂きます", "ておきます", "とく", "おく", "みる", "みます",
    "てみる", "です。", "かな", "かも", "おきます", "ておく", "でおく", "でおきます", "しておきます", "ときます",
    "くる", "てくる", "してから", "てから", "てくるなら", "きます", "来る", "こようと", "ようと", "しても", "ても", "ぜ", "ぞ", "わ", "〜", "～", "…", "‥", "まず", "次に", "つぎに",
    "それから", "そして", "最後に", "続けて", "つづけて", "さらに", "あと", "後は", "あとは", "then", "and", "and then",
    "next", "after that", "please", "pls", "plz", "desu", "masu", "shimasu", "onegai shimasu", "onegaishimasu", "shite", "soshite", "sorekara", "sore kara", "tsugi ni", "sono ato",
    "koudou", "koudou:", "action", "action:", "plot", "plot:", "act", "act:", "my plot", "my action", "order", "order:",
    "そのあと", "その後", "そのあとに", "の後", "の後に", "の後で", "の後は", "のあと", "のあとに", "のあとで", "最初に", "最初は", "初めに", "はじめに", "その場で", "とりあえず", "ひとまず", "しっかり",
    "一度", "次は", "続いて", "つなげます", "つなげる", "繋げる", "と思います", "思います", "いきたい", "たい", "ので", "なので",
    "枚目", "枚目は", "番目", "onegai", "this turn", "for this turn",
    "このまま", "この間合いで", "一緒に", "と一緒に", "いっしょに", "※", "kono taan", "konkai", "konkai wa", "yoroshiku", "sono mama", "sonomama", "kono mama", "konomama", "aite", "今回", "今回は", "今ターン", "このターン", "このターンは", "以上です",
    "で以上です", "でお願い", "でおねがい", "お願いしまーす", "よろしくです", "です！", "いきます！", "行動", "行動は", "i", "i'll", "ill", "will", "i will", "to", "a", "the",
    "from", "toward", "towards", "今日は", "きょうは", "今日も", "きょうも", "その時", "そのとき", "その時は", "その際", "相手の方",
    "真上に", "真上へ", "ため中", "溜め中", "につき", "そのまま", "あげたい", "あげたいです", "てあげたい", "あげます", "あげる", "いなければ", "だめなら", "無理なら", "届かなければ",
    "いない場合は", "いない時は", "いないときは", "いなかったら", "届かない場合は", "届かない時は", "届かないときは", "届かなかったら",
    "届かない場合", "いない場合", "射程外なら", "射程の外なら", "射程外でしたら", "射程の外でしたら", "射程外だったら", "射程の外だったら", "ダメなら", "無理だったら", "だめだったら", "もし", "もしも", "ただ", "ただし", "但し", "あ、", "あっ、", "あ,", "えっと", "えっと、", "えーと", "えーっと", "それと", "のみ", "少ない", "残り少ない", "危ない",
    "仕方ない", "間違いない", "ですが", "けど", "けれど", "すみません", "すいません", "ごめんなさい", "失礼します", "たら", "したら", "出したら", "すぐに", "すぐ", "したい", "したいです", "たいです", "いたします", "致します", "うーん", "うーむ", "んー", "えーと",
    "ええと", "えっと", "よし", "よーし", "さて", "むむ", "ふむ", "その次に", "その次は", "そのつぎに", "その次", "逃げ足", "iku", "ikimasu", "de iku", "de ikimasu",
    # humble keigo after a verb's causative (使わせていただきます) or te-form, and "someone"
    "ていただきます", "て頂きます", "いただきます", "頂きます", "いただき", "頂き", "ていただき", "ていただく", "ていただきたい", "ていただきたいです",
    "私が", "私は", "わたしが", "わたしは", "僕が", "僕は", "ぼくが", "俺が", "俺は", "おれが", "自分が",
    "ていただければ", "てもらいます", "てもらう", "てもらいたい", "どなたか", "どなたかが", "誰か", "誰かが", "だれか", "だれかが",
    # verbs that say why or how, never which card (a game's own words win where they spell the same)
    "よけます", "よける", "避けます", "避ける", "かわします", "かわす", "狙っています", "狙ってます", "狙います", "狙う",
    "狙って", "念のため", "念の為", "一応", "いったん", "一旦", "以上", "普通に", "ふつうに", "確実に", "なるべく", "思い切って",
    "全力で", "行います", "で行います", "振りたいです", "で振りたいです", "振りたい", "振ります", "で振ります", "おこないます", "で行う", "私自身", "私自身も", "私も", "備える", "備えます", "備えて", "備えておきます", "備えるべ",
    # Kansai-ben and its romaji: で ええ is "is fine" (朧月でええ, oborozuki de ee)
    "でええ", "でええで", "でええよ", "でいい", "de ee", "de ii",
    # other dialects' endings and intensifiers (a regional board): Hokkaido/Tohoku だべ・っぺ・なまら,
    # Hiroshima けぇ・じゃけぇ・ぶち, Hakata やけん・ばり, Nagoya でら. The endings of one or two kana that
    # begin words too (べ, さー, ばい, けん: べんと, さーばいぶ, ばいと) are the rider rewrite's, after a verb
    "だべ", "だべさ", "だべか", "んだべか", "っぺ", "だっぺ", "なまら", "けぇ", "じゃけぇ", "じゃけん", "やけん", "ばり", "ぶち",
    "でら", "だがや",
)
# What negates the order word before it: never dropped (ソードベントは使わない is not ソードベント).
NEGATIONS = ("しない", "しません", "せず", "せずに", "ない", "ません", "使わない", "使いません", "つかわない", "出さない",
             "ださない", "やめる", "やめます", "止める", "not", "no", "don't", "dont", "without")


class Lexicon:
    """Surface forms (folded: katakana, lower case) → :class:`Word`; the longest match wins."""

    def __init__(self, words: Iterable[tuple[str, Word]] = ()):
        self.exact: dict[str, Word] = {}
        self.spelled: dict[str, str] = {}  # folded form -> as the lexicon spells it (kana as written, for its reading)
        self.commands: dict[str, Any] | None = None  # a game's own table, for warnings its reader gives
        self.kanji: dict[str, Word] = {}  # words of one kanji a game's grammar reads itself (弱, 強), for same_kanji
        self.longest = 1
        self._near: list[_Form] | None = None
        self._near_found: dict[tuple[str, tuple[str, ...]], tuple[tuple[int, str, Word], ...]] = {}
        self._by_reading: dict[str, Word] | None = None
        self._by_loose: dict[str, Word] | None = None
        self._reading_longest = 0
        self._headings: dict[str, Word | None] | None = None
        self._phrases: dict[str, Word | None] | None = None
        for form, word in words:
            self.add(form, word)

    def add(self, form: str, word: Word) -> None:
        key = kana.fold(unicodedata.normalize("NFKC", form)).strip()
        key = " ".join(key.split())
        if key and key not in self.exact:
            self.exact[key] = word
            self.spelled[key] = " ".join(unicodedata.normalize("NFKC", form).split())
            self.longest = max(self.longest, len(key))
            self._near = self._by_reading = self._headings = self._phrases = None
            self._near_found = {}
        if key.isascii() and re.search(r"[aiueo]n(?=[bpm])", key):  # janpu and Hepburn's jampu alike
            self.add(re.sub(r"(?<=[aiueo])n(?=[bpm])", "m", key), word)

    def add_closed_lists(self) -> None:
        """The reader's own words, after a game's (which win where they spell the same): the
        negations and the function words."""
        for negation in NEGATIONS:
            self.add(negation, Word("negation", negation, kind="negation"))
        for function in FUNCTION_WORDS:
            self.add(function, Word("function", function, kind="function"))
            if function.endswith(("ます", "です")) and len(function) >= 2:  # しまーす, でーす: the ending drawn out
                self.add(function[:-1] + "ー" + function[-1], Word("function", function, kind="function"))

    def add_verb(self, verb: str, word: Word, ichidan: bool | None = None, passive: bool = False) -> None:
        """Every conjugation of ``verb`` is ``word``; a stem alone (下がり, 近づき) is found as
        written but is no target of a near miss (a fragment that short is close to too much)."""
        from dataclasses import replace

        forms = conjugations(verb, ichidan, passive)
        stems = {f for f in forms if not f.endswith(("る", "く", "ぐ", "す", "つ", "ぬ", "ぶ", "む", "う", "て", "で", "た", "だ", "ます", "ました", "ましょう", "ませう", "よう"))}
        if ichidan is None and verb.endswith("る") and kana.has_kanji(verb[-2:-1]):
            stems = set(forms) - {verb}  # 斬る: both conjugations were made, half of them never written
        for form in forms:
            self.add(form, replace(word, guess=False) if form in stems and word.guess else word)

    def match(self, folded: str, i: int, norm: str | None = None) -> tuple[int, Word] | None:
        """The longest form at ``folded[i:]`` (an ASCII form only as whole words), as (end, word).
        With ``norm`` (the text before folding), a function word written in kana is found only in
        hiragana: が・て・で in ガード or テスト are part of the word."""
        n = len(folded)
        for size in range(min(self.longest, n - i), 0, -1):
            word = self.exact.get(folded[i : i + size])
            if word is None:
                continue
            if norm is not None and word.kind in ("function", "negation") and any("ァ" <= ch <= "ヺ" for ch in norm[i : i + size]) \
                    and not any("ァ" <= ch <= "ヺ" for ch in self.spelled.get(folded[i : i + size], "")):
                continue  # (a function word spelled in katakana, プロット・ファイナルアンサー, is found as spelled)
            end = i + size
            if folded[i].isascii() and folded[i].isalnum() and i > 0 and folded[i - 1].isascii() and folded[i - 1].isalnum() \
                    and not (folded[i - 1].isdigit() and folded[i].isalpha()):  # a word after a count (2kai, 3masu) is a word
                continue
            if folded[end - 1].isascii() and folded[end - 1].isalnum() and end < n and folded[end].isascii() and folded[end].isalnum():
                continue
            return end, word
        return None

    def match_reading(self, folded: str, i: int) -> Iterator[tuple[int, Word]]:
        """Each order word whose kanji form reads as the kana at ``folded[i:]`` (three kana or
        more: はなれる is 離れる, いちばんちかいひと 一番近い人, こうげき 攻撃), as (end, word), the
        longest first; a reading two forms of different concepts share is no match."""
        if self._by_reading is None:
            index: dict[str, Word | None] = {}
            for form, w in self.exact.items():
                if w.kind != "order" or not kana.has_kanji(form):
                    continue
                for said in kana.readings(self.spelled.get(form, form)):
                    if len(said) >= 3 and all("ァ" <= ch <= "ヺ" or ch == "ー" for ch in said):
                        kept = index.get(said, w)
                        index[said] = w if kept is not None and kept.concept == w.concept else None
            self._by_reading = {k: v for k, v in index.items() if v is not None and k not in self.exact}
            self._reading_longest = max(map(len, self._by_reading), default=0)
        for size in range(min(self._reading_longest, len(folded) - i), 2, -1):
            word = self._by_reading.get(folded[i : i + size])
            if word is not None:
                yield i + size, word

    def by_loose_reading(self) -> dict[str, Word]:
        """Each order word by its loosened reading (:func:`kana.loose`: sound marks, small kana and
        long marks optional — かはう is かばう, 庇う), from its kana forms and the readings of its kanji
        forms (:meth:`match_reading`'s index); a reading two concepts share is none."""
        if self._by_loose is None:
            next(self.match_reading("", 0), None)  # builds the index of readings
            index: dict[str, Word | None] = {}
            said = [(k, w) for k, w in self.exact.items() if w.kind == "order" and not kana.has_kanji(k) and not k.isascii()]
            for form, word in [*said, *(self._by_reading or {}).items()]:
                key = kana.loose(form)
                if len(key) >= 2:
                    kept = index.get(key, word)
                    index[key] = word if kept is not None and kept.concept == word.concept else None
            self._by_loose = {k: w for k, w in index.items() if w is not None}
        return self._by_loose

    def heading(self, word: str) -> Word | None:
        """The word written before a colon (能動：, 受動：) that ``word`` (in kanji) reads as: an
        IME's conversion of the same reading (農道：, 脳動：, 受働：), or of two kanji a kana off it
        (自動： ジドウ for 受動： ジュドウ). A colon says it is a heading, so the reading alone tells
        which — when it is one word's only."""
        if self._headings is None:
            heads: dict[str, Word | None] = {}
            for form, w in self.exact.items():
                if form.endswith(":") and kana.has_kanji(form):
                    if w.shown != self.spelled.get(form, form)[:-1]:  # labels share one concept: name this one
                        w = replace(w, shown=self.spelled.get(form, form)[:-1])
                    for said in kana.readings(self.spelled.get(form, form)[:-1]):
                        kept = heads.get(said, w)
                        heads[said] = kept if kept is not None and kept.concept == w.concept else None
            self._headings = heads
        if not kana.has_kanji(word) or kana.fold(word) + ":" in self.exact:
            return None
        said = [s for s in kana.readings(word) if len(s) >= 3]
        found = {self._headings[s].concept: self._headings[s] for s in said if self._headings.get(s) is not None}
        if not found and len(word) == 2:  # 自動： for 受動： (jidou typed for judou): one kana off, one heading only
            found = {w.concept: w for h, w in self._headings.items() if w is not None and len(h) >= 3
                     and any(kana.distance(s, h, 1) == 1 for s in said)}
        return next(iter(found.values())) if len(found) == 1 else None

    def phrase(self, word: str, kinds: tuple[str, ...] = ("order",)) -> Word | None:
        """The word a phrase an IME converted wrongly reads as (何も市内 for 何もしない, 一番地階人 for
        いちばんちかいひと): a reading of five kana or more, with a kanji in it, that is one concept's
        form by any of the readings its kanji have — when one concept's only."""
        if not kana.has_kanji(word):
            return None
        if self._phrases is None:
            phrases: dict[str, Word | None] = {}
            for form, w in self.exact.items():
                for said in kana.looses(self.spelled.get(form, form)):
                    if len(said) >= 5:
                        kept = phrases.get(said, w)
                        phrases[said] = kept if kept is not None and kept.concept == w.concept else None
            self._phrases = phrases
        found = {w.concept: w for said in kana.looses(word) if len(said) >= 5
                 for w in [self._phrases.get(said)] if w is not None and w.kind in kinds}
        return next(iter(found.values())) if len(found) == 1 else None

    def same_kanji(self, word: str, kinds: tuple[str, ...] = ("order",)) -> Word | None:
        """The word of one kanji that ``word`` (one kanji, written alone) reads as: 若 for 弱
        (ジャク), an IME's conversion — when one concept's only. Only the words a game names for
        it (``kanji``: Alter EGO's cards 弱 and 強; the rider game's one-kanji words are too close
        to its fighters' names, 留 and 龍 both リュウ), and only for a kanji that stands alone
        (全身 全身 若): inside a sentence a kanji is a word's part (当たらないで, 見ます)."""
        if len(word) != 1 or not kana.has_kanji(word) or kana.fold(word) in self.exact or word in self.kanji:
            return None
        said = {r for r in kana.readings(word) if len(r) >= 2}
        found = {w.concept: w for form, w in self.kanji.items() if w.kind in kinds and said & kana.readings(form)}
        return next(iter(found.values())) if len(found) == 1 else None

    def near(self, word: str, kinds: tuple[str, ...] = ("order",)) -> list[tuple[int, str, Word]]:
        """Entries close to ``word`` by reading (and, for kanji, by spelling), best first:
        (distance, the form it is close to, the word). Only the best of each concept is kept.
        A post is read more than once (each line alone, without its asides): the answer for a
        word is kept (the lexicon does not change once built)."""
        found = self._near_found.get((word, kinds))
        if found is None:
            if len(self._near_found) >= 8192:
                self._near_found.clear()
            found = self._near_found[(word, kinds)] = tuple(self._find_near(word, kinds))
        return list(found)

    def _find_near(self, word: str, kinds: tuple[str, ...]) -> list[tuple[int, str, Word]]:
        if self._near is None:
            self._near = [_Form(form, self.spelled.get(form, form), w) for form, w in self.exact.items()]
        written = " ".join(unicodedata.normalize("NFKC", word).split())
        folded = kana.fold(written)
        said = kana.loose(written)
        written_kanji = kana.has_kanji(written)
        folded_kanji = kana.has_kanji(folded)
        folded_ascii = folded.isascii()
        folded_bare = kana.bare(folded) if folded_kanji else ""
        word_limit = _allowed(said or folded)
        best: dict[str, tuple[int, str, Word]] = {}
        digits = [ch for ch in folded if ch.isdigit()]
        for f in self._near:
            form, form_said, w = f.form, f.said, f.word
            if w.kind not in kinds or (not w.guess and not f.rule):
                continue  # a word read only as written; a rule (最も近い相手) by its very reading too (最も近い愛手)
            if f.short and len(folded) != len(form) and not (said and said == form_said and not folded_kanji):
                continue  # a word of two letters (旋風, SV) is a near miss only of a word as short, or of its reading in kana
            if f.latin and f.kanji and not folded_kanji:
                continue  # 後J, 前J: a shorthand of kanji and a letter, a near miss of nothing in kana (こう is no 後J)
            if digits != f.digits:
                continue  # 名無し4号 is not 名無し3号: a number is never a slip
            limit = min(f.limit, word_limit)
            if said and form_said and (len(said) <= 2 or len(form_said) <= 2):
                # a word of one or two kana is itself or nothing: ドウ is not 遠 (トオ) with its marks dropped
                d = 0 if kana.unmarked(written) == kana.unmarked(f.spelled) and len(folded) >= 2 else limit + 1
                if d > limit and said == form_said and len(folded) >= 3 and len(form) >= 3 and not (folded_kanji or f.kanji):
                    d = 0  # ガアド and ガード: a long vowel written as its vowel
                if d > limit and len(folded) == 2 and "ー" in form and not (folded_kanji or f.kanji) \
                        and kana.reading(written) == kana.reading(f.spelled).replace("ー", ""):
                    d = 0  # ガド and ガード: the long mark an IME dropped, every other kana and mark as written
            else:
                d = kana.distance(said, form_said, limit) if said and form_said else limit + 1
                if d > 0 and written_kanji:
                    # an IME slip keeps the reading: a word in kanji is a near miss only by the same one,
                    # any of the readings its kanji have (達成地 and 達成値 are both タッセイチ)
                    d = 0 if len(said) > 2 and _same_reading(folded, form) else limit + 1
            if d > 0 and folded_kanji and folded != form and f.kana_in_it and folded_bare == f.bare:
                d = 0  # 投け: the word's own kanji, a sound mark of its kana missed
            if (f.kanji and folded_kanji and len(form) >= 3) or (f.ascii and folded_ascii):
                spelled = kana.distance(folded, form, 1)
                if len(folded) > len(f.stem) and folded.startswith(f.stem) and kana.has_kanji(folded[len(f.stem):]):
                    spelled = 2  # 狙い+蓮: a word, and a name written against it — no slip of the word
                if len(folded) == len(form) and any(kana.has_kanji(a) and not kana.has_kanji(b) for a, b in zip(folded, form) if a != b):
                    spelled = 2  # 狙い蓮 is no slip of 狙いは: a kanji is not mistyped for a kana (近よる for 近寄る is kana left unconverted)
                if spelled <= (1 if len(form) >= 3 else 0):
                    d = min(d, spelled)
            if d > limit or (d > 0 and not w.guess):
                continue
            if d == 0 and (kana.reading(written) == kana.reading(f.spelled) or kana.marked(written) & kana.marked(f.spelled)
                           and kana.same_lengths(written, f.spelled)):
                d = -1  # the very reading (ジュドウ = 受動; 柔道 ジュウドウ too, its marks kept), before one only alike (シュート)
            if w.concept not in best or d < best[w.concept][0]:
                best[w.concept] = (d, form, w)
        return sorted(best.values(), key=lambda t: (t[0], -len(t[1]), t[1]))

    def correction(self, word: str, kinds: tuple[str, ...] = ("order",)) -> tuple[Word | None, list[Word]]:
        """A near miss that can mean only one thing: (that word, []); else (None, the candidates)."""
        found = self.near(word, kinds)
        if not found:
            return None, []
        d1, form, w1 = found[0]
        rivals = [w for d, _f, w in found[1:] if d <= d1 or (w.concept == w1.opposite and d <= d1 + 1)]
        if rivals:
            return None, [w1, *rivals]
        spelled = self.spelled.get(form, form)
        said = kana.fold(word)
        if w1.kind == "order" and w1.technique and kana.has_kanji(form) and spelled[-1:] in _GODAN and any(
                r[:-1] + kana.fold(_GODAN[spelled[-1]][0]) == said for r in kana.readings(spelled)):
            # さがり is the stem of 下がる by its very reading (a verb's stem is never a near miss's
            # target, too short): the note names the verb, not the concept's spelling — 「さがり」を
            # 「ガード」と読みました read as a far-fetched near miss of ガード
            return dataclasses.replace(w1, shown=spelled), []
        if d1 < 0 and w1.kind == "order" and kana.has_kanji(said) and kana.has_kanji(form) and all(kana.has_kanji(ch) for ch in spelled) \
                and spelled != w1.shown and not any(ch.isascii() for ch in spelled):
            # 交代 for 後退 (コウタイ): an IME's kanji of the very reading names the word it was typed for,
            # not the concept's spelling (「交代」を「ガード」と読みました read as if a guess)
            return dataclasses.replace(w1, shown=spelled), []
        return w1, []


class _Form:
    """A lexicon form with what :meth:`Lexicon.near` asks of it worked out once."""

    __slots__ = ("form", "spelled", "said", "word", "kanji", "short", "digits", "limit", "ascii", "stem", "kana_in_it", "rule", "latin", "_bare")

    def __init__(self, form: str, spelled: str, word: Word):
        self.form, self.spelled, self.word = form, spelled, word
        self.said = kana.loose(spelled)
        self.kanji = kana.has_kanji(form)
        self.short = len(form) <= 2
        self.digits = [ch for ch in form if ch.isdigit()]
        self.limit = _allowed(self.said or form)
        self.ascii = form.isascii()
        self.stem = form.rstrip(":")
        self.kana_in_it = any(not kana.has_kanji(ch) for ch in form)
        self.rule = isinstance(word.value, tuple) and word.value[:1] == ("rule",)
        self.latin = any("a" <= ch <= "z" for ch in form)
        self._bare: str | None = None

    @property
    def bare(self) -> str:
        if self._bare is None:
            self._bare = kana.bare(self.form)
        return self._bare


def _same_reading(written: str, form: str) -> bool:
    """Two spellings in kanji with a reading in common where they differ (全身 and 前進: ゼンシン;
    最高蓮華掌 and 彩光蓮華掌: 最高 and 彩光 are both サイコウ) — an IME's slip."""
    head = 0
    while head < min(len(written), len(form)) and written[head] == form[head]:
        head += 1
    tail = 0
    while tail < min(len(written), len(form)) - head and written[-1 - tail] == form[-1 - tail]:
        tail += 1
    a, b = written[head:len(written) - tail], form[head:len(form) - tail]
    if not a or not b or not kana.has_kanji(a) or (not kana.has_kanji(b) and head + tail < 2):
        return False  # ガード弁と and ガードベント: 弁と is ベント (a kana part, read against the kanji written for it)
    common = kana.looses(a) & kana.looses(b)
    if not common and tail and not kana.has_kanji(written[len(written) - tail:][:1]):
        okurigana = written[len(written) - tail:][:2]  # 撮る and 取る: トル, read with the kana after them
        common = kana.looses(a + okurigana) & kana.looses(b + okurigana)
    return any(len(r) >= 2 for r in common) or (bool(common) and len(a) == len(b) == 1 and head + tail > 0)


def _allowed(said: str) -> int:
    """How many edits a word of this reading may be off: none for one or two kana, one up to
    six, two beyond."""
    if len(said) <= 2:
        return 0
    return 1 if len(said) <= 6 else 2
