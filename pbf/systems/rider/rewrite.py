"""Rider orders read the way a GM reads them (pbf.reader): a post in the words players use —
sentences, shorthand (SV, GV), labels (移動：近), conditions (FVならRV, 攻撃されたらガード),
chat — rewritten into the order language of ``grammar/rider.lark`` before lark reads it.

Every character is accounted for: an order word becomes its canonical spelling (近づいて →
近寄る, SV → ソードベント, 阻止はしません → 阻止しない); function words and chat lines are passed
over (chat with a note); a near miss of one word is read as that word with a note; what is left
(a name, an unknown word) goes to lark as written, which names it in its problem. Each character
of the rewritten text keeps where it came from, so problems point at what the player wrote.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ...errors import Problem
from ...reader import kana
from ...reader.kana import fold as kana_fold
from ...reader.lexicon import Lexicon, Word
from ...reader.scan import Token, chat_lines, chat_sentences, flavour, passed_over, resolve_unknowns, scan, taken_back
from ...reader.text import Text, position
from ... import yamlio
from .data import DATA_DIR, NOT_ORDER_COUNTERS, RiderData, norm as card_spelling
from .names import _COURTESY, find_fighter, is_fighter, one_fighter

# The words of the rider game's orders, as data: data/lexicon.yaml (role, value, forms, verbs; the
# roles are explained at its top). Read once per process, from pbf's cache.
_LEXICON_FILE = DATA_DIR / "lexicon.yaml"


def _words() -> dict[str, Any]:
    return yamlio.load_data_file(_LEXICON_FILE) or {}


_BUILT: dict[int, tuple[RiderData, Lexicon]] = {}


def lexicon(data: RiderData) -> Lexicon:
    kept = _BUILT.get(id(data))
    if kept is not None and kept[0] is data:
        return kept[1]
    lex = Lexicon()
    for card_id, card in data.cards.items():
        name = card.get("name", card_id)
        word = Word("card:" + card_id, name, value=name, technique=True)
        lex.add(name, word)
    for spelling, card_id in data.card_words.items():
        name = data.card_name(card_id)
        lex.add(spelling, Word("card:" + card_id, name, value=name, technique=True))
    for abbreviation, card_id in _abbreviations(data).items():
        name = data.card_name(card_id)  # read only as written: ヤバイ is no slip of サバイ(ブ)
        lex.add(abbreviation, Word("card:" + card_id, name, value=name, technique=True, guess=False))
    for rider in data.riders.values():  # ドラグセイバーで受けます: a card by the weapon it brings out, read only as written
        for card_id, names in (rider.get("weapons") or {}).items():
            for spelling in names or ():
                # (ドラグセイバ: its last long mark missed, as an IME drops it — only the last, only a katakana name)
                for form in {str(spelling), str(spelling).removesuffix("ー") if "ァ" <= str(spelling)[0] <= "ヺ" else str(spelling)}:
                    lex.add(form, Word("card:" + card_id, data.card_name(card_id), value=data.card_name(card_id),
                                       technique=True, guess=False, slip=False))
    for monster in data.monsters.values():  # ドラグレッダーをアドベントで呼び出す: the monster a card calls
        weapon = monster.get("weapon") if isinstance(monster.get("weapon"), dict) else {}
        for spelling in (monster.get("name"), monster.get("english"), weapon.get("name")):  # its weapon too (火炎弾)
            if spelling:
                lex.add(str(spelling), Word("monster:", str(spelling), "order", ("monster", ""), guess=False, slip=False))
    words = _words()
    for entry in words.get("words") or ():
        role, value = str(entry["role"]), str(entry.get("value") or "")
        forms, verbs = [str(f) for f in entry.get("forms") or ()], [str(v) for v in entry.get("verbs") or ()]
        guess = role in ("head", "keyword", "attack", "pool")  # なら, 使う, 移動：, a rule (nearest) only as written
        word = Word(f"{role}:{value}", value or forms[0], "order" if role not in ("drop", "label", "flavour") else role, (role, value),
                    _OPPOSITE.get(value), role == "head", guess, slip=role in ("head", "keyword", "attack", "pool", "rule", "mention"))
        for form in forms:
            lex.add(form, word)
            if form.endswith("しない") and len(form) >= 5 and kana.has_kanji(form[:-3]):
                for mark in ("×", "✕", "✖"):  # 移動× as 移動しない, as boards write 攻撃×
                    lex.add(form[:-3] + mark, word)
        for verb in verbs:
            lex.add_verb(verb, word, passive=role == "drop")  # 使われた場合: whoever uses it
    flavour_word = Word("flavour:", "", "flavour", ("flavour", ""), guess=False, slip=False)
    for band in ("近", "中", "遠", "近距離", "中距離", "遠距離"):  # 火炎弾は中距離まで届くので: a weapon's reach, no move
        for joint in ("まで", "でも", "なら", "には", "から"):
            for verb in ("届く", "届きます", "届くので", "届くから", "届かない", "当たる", "当たります"):
                lex.add(band + joint + verb, flavour_word)
    for courtesy in words.get("courtesy") or ():
        lex.add(courtesy, Word("function", courtesy, kind="function"))
    for said in words.get("function") or ():  # で合っていますか: asked of the order, no card (合っ is no アド)
        lex.add(said, Word("function", said, kind="function"))
    lex.add_closed_lists()
    if len(_BUILT) >= 8:
        _BUILT.clear()
    _BUILT[id(data)] = (data, lex)
    return lex


def _abbreviations(data: RiderData) -> dict[str, str]:
    """Katakana names cut short the way players do (ナス, コンファ, サバ, ストライク): every beginning
    of two kana or more, before its ベント, that begins one card's name only -> {beginning: card}."""
    seen: dict[str, set[str]] = {}
    for card_id, card in data.cards.items():
        name = str(card.get("name", ""))
        stem = name[: -len("ベント")] if name.endswith("ベント") else name
        if not stem or not all("ァ" <= ch <= "ヺ" or ch == "ー" for ch in stem):
            continue
        for size in range(2, len(stem) + 1):
            seen.setdefault(stem[:size], set()).add(card_id)
    return {short: next(iter(ids)) for short, ids in seen.items() if len(ids) == 1 and not short.endswith("ー")}


_OPPOSITE = {"近寄る": "head:離れる", "離れる": "head:近寄る", "阻止する": "head:阻止しない", "阻止しない": "head:阻止する",
             "近へ": "head:遠へ", "遠へ": "head:近へ"}

# the page's own declarations: 「ＨＰ１点消費、回避達成値＋１点」 and 「攻撃力を2点マイナスして隙狙い」
_SUPER_DECLARED = re.compile(r"(?:超回避\s*(?:は|で|を)?\s*|(?:回避|避ける|よける)\s*(?:(?:の|する)?\s*(?:とき|時|際|場合)\s*(?:は|に|には)?|は|で)[、,\s]*)?"
                             r"hp\s*を?\s*(\d+)\s*(?:点|てん)?\s*(?:消費|使って|使い(?:ます)?|使う|払って|払い(?:ます)?)(?:して)?[、,\s]*"
                            r"(?:回避\s*の?\s*(?:達成.)?\s*を?\s*[+＋]?\s*\d*\s*(?:点|てん)?\s*(?:上げます|上げる|上げて|上げたい(?:です)?|アップ(?:します|する|したい(?:です)?)?)?)?(?:で)?"
                            r"(?:超回避(?:します|する|したい|いたします|致します)?|お願いします|おねがいします)?"
                            r"|(?:burn|spend|use|pay)\s+(\d+)\s*hp(?:\s+(?:on|for)\s+(?:super\s+)?(?:evasion|evade|dodging|dodge))?", re.I)
# (攻撃するときは、攻撃力を二つ落として隙狙いにします: when it applies, said before — every attack; the number in kanji)
_AIM_DECLARED = re.compile(r"(?:攻撃(?:する|の)?\s*(?:とき|時|際)\s*(?:は|に)?[、,\s]*)?"
                           r"<?攻撃力>?\s*を?\s*(\d+|[一二三四五六])\s*(?:点|つ)?\s*(?:マイナス|減らし|下げ|落とし)\S*?\s*(?:して|て)?\s*(?:隙狙い|スキ狙い|すき狙い|好き狙い)"
                           r"(?:を?します|する|です|に(?:します|する|いたします))?")
_AIM_IGNORE = re.compile(r"[。、,!！\s]*<?防御力>?\s*を?\s*(\d+)\s*点?\s*無視(?:します|する)?")
# the page's effect said for the declaration: 隙狙いで防御力を1点無視したい, 防御力2点無視の隙狙い
_AIM_BY_IGNORE = re.compile(r"(?:(?:隙狙い|スキ狙い)\s*(?:で|を使って|をして|して)?[、,\s]*)?(?:相手の|敵の)?\s*防御力?\s*を?\s*(\d+)\s*点?\s*(?:無視|抜き|抜く|抜いて|抜きます)"
                            r"(?:するために|するため|したいので|したいです|したい|します|する|して|で|の)?"
                            r"(?:\s*(?:隙狙い|スキ狙い)\s*(?P<again>\d{1,2})?\s*(?:にします|します|する|です|で)?)?")


# the threshold of 超回避 on the attack's achievement: 5以上なら, (5↑), 6 or more, 相手の攻撃が5以上だったら (異常, 異状: an IME's kanji of いじょう)
_THRESHOLD = re.compile(r"(?:(?:相手の|敵の)?(?:攻撃の)?(?:攻撃|達成.?|たっせいち|tasseichi|tasseiti)\s*(?:が|は|ga|wa)?\s*)?(\d+)\s*(?:以上|いじょう|いしょう|異常|異状|ijou|ijo|izyou|↑|\+|or\s+more|or\s+higher|and\s+up)"
                        r"\s*(?:(?:の|で)?(?:とき|時|場合)(?:だけ|のみ)(?:に|で)?\s*(?:してください|して下さい|します|する|お願いします)?|だったら|ならば|なら|の時は?|のときは?|の場合は?|なら:)?", re.I)
THRESHOLD_MARK = "\x00≥"


_SCOPE_WORDS = {"本体": "本体の攻撃", "ライダー本体": "本体の攻撃", "ライダー本人": "本体の攻撃", "ライダー": "本体の攻撃", "本人": "本体の攻撃", "モンスター": "モンスターの攻撃",
                "契約モンスター": "モンスターの攻撃", "アドベント": "アドベント"}
# the scope's words as the order language writes them (本体|ライダー|本人|モンスター|契約モンスター|アドベント)
_SCOPE_WHO = "|".join(sorted(_SCOPE_WORDS, key=len, reverse=True))
# 超回避1(本体のみ), 超回避 2（アドベント以外）: the scope of the 超回避 in brackets, as its colon form
_SCOPE_IN_BRACKETS = re.compile(rf"(?:(?:回避|避)\s*[:：]\s*)?((?:超回避|超回|超避|ちょうかいひ|超)\s*(\d+))\s*[(（]\s*({_SCOPE_WHO}|av|庇う?(?:とき|時)?|かばう?(?:とき|時)?)"
                                r"(?:の攻撃)?\s*(のみ|だけ|限定|以外)\s*[)）]", re.I)
# the scope's words as boards and phones write them too: ほんたい, hontai, AV, advent, 意外 (an IME's 以外), igai, dake
_BODY, _ADVENT = r"(?:本体|ほんたい|ホンタイ|hontai|ライダー本人|ライダー|本人|body|the body|rider|the rider)", r"(?:アドベント|アドベンド|あどべんと|advent|av)"
_WHO = rf"(?:{_BODY}|(?:契約)?モンスター|{_ADVENT}|庇う(?:とき|時)?|かばう(?:とき|時)?|cover(?:ing)?)"
_OF_ATTACK, _ONLY_OR_NOT = r"(?:\s*(?:の攻撃|の口撃|no\s+kougeki|'s attacks?))?", r"(?:のみ|だけ|たけ|ダケ|ノミ|限定|以外|意外|イガイ|dake|nomi|igai|only)"
_SCOPE_START = re.compile(rf"\s*(?:{_BODY}|相手の攻撃|(?:契約)?モンスター|{_ADVENT}|庇う|かばう|cover)", re.I)
_SCOPE_FOLLOWS = re.compile(r"\s*(?:(?:except|only)\s+(?:advent|monster|the monster|cover|own attack|rider|the rider)\b|"
                            rf"{_WHO}{_OF_ATTACK}\s*{_ONLY_OR_NOT})", re.I)
_SCOPE_WRITTEN = re.compile(rf"({_WHO}){_OF_ATTACK}\s*({_ONLY_OR_NOT})", re.I)
_SCOPE_ENGLISH = re.compile(r"(except|not|only)\s+(advent|monsters?|the monster|cover(?:ing)?|own attacks?|rider|the rider)", re.I)
# 超回避's scope in brackets after its number, as romaji and English write it: chou kaihi 2 (hontai dake)
_SCOPE_IN_BRACKETS_SPELLED = re.compile(r"(?:超回避|超|ちょうかいひ|chou\s*kaihi|choukaihi|chokaihi|super\s*evasion|super\s*evade)\s*:?\s*(\d{1,2})"
                                        r"\s*[(（]\s*([^()（）\n]{2,30}?)\s*[)）]", re.I)


# 超回避１：アドベントの時は払わない — the attacks it is not paid for, said as a negation: the scope's 以外
# (超1（契約獣の牙には払わず）: in brackets, the monster said by its fangs, には for when)
_SCOPE_NOT_PAID = re.compile(rf"(?:超回避|超回|超)\s*(\d{{1,2}})\s*[:：]?\s*[(（]?\s*({_WHO}|契約獣|ミラーモンスター)\s*(?:の\s*(?:攻撃|牙|爪))?\s*(?:の)?\s*"
                             r"(?:(?:時|とき|場合)\s*(?:は|に)?|には|に対しては)\s*"
                             r"(?:払わない|払いません|払わず|使わない|使いません|使わず|しない|しません|なし)\s*[)）]?", re.I)


def _scope_named(who: str) -> str:
    """超回避's scope by the word that names it (hontai, advent, 庇う, monster, rider)."""
    who = who.lower()
    if who in ("契約獣", "ミラーモンスター"):
        return "アドベント"  # the monster's attacks are the advent's (超回避 1: アドベント以外)
    return "本体の攻撃" if re.fullmatch(_BODY, who, re.I) or who in ("own attack", "own attacks") else \
        "アドベント" if re.fullmatch(_ADVENT, who, re.I) else \
        "庇うとき" if who.startswith(("庇う", "かばう", "cover")) else "モンスターの攻撃"


# a card, は, another card and なら: the first is the 受動 card, the second its condition (checked: passive only)
# the card answered, then the 受動 card that answers it (ファイナルベントにはリフレクトベントで返す, FVはコンファインで消す)
_CARD_ANSWERED = re.compile(r"(?<![ァ-ヶーa-z])([ァ-ヶー]{2,12}|[a-z]{2,3})\s*(?:(?:には|に対しては|に対して|は)\s*([ァ-ヶー]{2,12}|[a-z]{2,3})\s*(?:で|を)\s*"
                            r"(?:返|跳ね返|はね返|消|止め|防|封じ|無効に|対抗)|には\s*([ァ-ヶー]{2,12}|[a-z]{2,3})(?=\s*(?:[、。!！/／\n]|$)))", re.I)
# a card not used and the one used instead (ストライクベントは使わずに、アドベントにします; シュートではなくソードで)
_INSTEAD = re.compile(r"(?<![ァ-ヶーa-z])([ァ-ヶー]{2,12}|[a-z]{2,3})\s*(?:は|を)?\s*(?:使わずに|使わず|使わないで|使用せずに|使用せず|ではなくて|ではなく|じゃなくて|じゃなく|をやめて|はやめて)"
                      r"[、,\s]*([ァ-ヶー]{2,12}|[a-z]{2,3})(?![ァ-ヶーa-z])", re.I)
_PASSIVE_IS = re.compile(r"(?<![ァ-ヶーa-z])([ァ-ヶー]{2,12}|[a-z]{2,3})\s*は\s*([ァ-ヶー]{2,12}|[a-z]{2,3})\s*(?:なら|ならば)", re.I)
# a move with whom it is against in brackets: 離れる(北岡), 近寄る(北岡,城戸), 移：中(秋山), 中へ（内と）
# (近 alone with a name is read, and noted, as 近寄る where 近:ゾルダ is)
_MOVE_SAID = {"近寄る": "近寄る", "近寄り": "近寄る", "近寄": "近寄る", "近づく": "近寄る", "離れる": "離れる", "離れ": "離れる",
              "離": "離れる", "接近": "近寄る", "前進": "近寄る", "後退": "離れる", "近へ": "近へ", "中へ": "中へ", "遠へ": "遠へ", "中": "中へ", "遠": "遠へ", "近": "近寄る"}
_MOVE_WITH_NAMES = re.compile(r"(?<![^\s、。,/／・】|:：])(近寄る|近寄り|近寄|近づく|接近|前進|離れる|離れ|後退|離|近へ|中へ|遠へ|中|遠|近)"
                              r"\s*[(（]\s*(?:(?:対象|相手|移動の相手)\s*(?:[:：]|は)\s*)?([^()（）\n]{1,30}?)\s*(?:の順(?:番)?(?:で)?)?\s*[)）]")
# 蓮さん、北岡さんの順で近寄ります: names in order before the move (a priority list, as 近寄る: 蓮, 北岡)
_NAMES_IN_ORDER = re.compile(r"(?<![^\s、。,/／・】|:：])([^\s、。,/／・】:：()（）]{1,12}(?:\s*[,、・，]\s*[^\s、。,/／・】:：()（）]{1,12})+)"
                             r"\s*の順(?:番)?\s*(?:で|に)?\s*(近寄|近づ|ちかよ|ちかづ|寄|離れ|はなれ|下が)")
_ORDER_MOVE = {"近寄": "近寄る", "近づ": "近寄る", "ちかよ": "近寄る", "ちかづ": "近寄る", "寄": "近寄る",
               "離れ": "離れる", "はなれ": "離れる", "下が": "離れる"}
# a reason from a rider's stats (ゾルダは運動性が低いので、, 防御力が2しかないから): why the order is so, not what
_STAT_REASON = re.compile(r"(?:(?<=^)|(?<=[\s、。,!！】]))(?:[^\s、。,!！0-9]{1,8}?(?:は|の))?\s*(?:運動性|攻撃力|防御力|HP|体力)\s*(?:が|は)\s*"
                          r"(?:低い|高い|少ない|多い|弱い|強い|足りない|\d+\s*(?:しかない|もある|ある)?)\s*(?:ので|から|ため)[、,]?")
# a move told as a deed rather than ordered (後ろへ跳んで, 間合いを外す, 距離を詰める): never passed over silently
# where the order says no move
_MOVE_TOLD = re.compile(r"間合い|距離|後ろへ|後ろに|前へ|前に|下が|退|詰め|跳|飛び|踏み込")
# a move in any writing, its fighters in brackets: chikayoru (Ren, Kitaoka), ちかよる(れん、きたおか), to near (Kido):
# the bracket, and the words before it (up to three, the move the longest of them that is one)
_NAMES_IN_BRACKETS = re.compile(r"\s*[(（]\s*([^()（）\n]{1,30}?)\s*[)）]")
_MOVE_BEFORE = re.compile(r"(?:^|(?<=[\s、。,/／・】:：]))((?:[^\s、。,/／・()（）:：]{1,12}\s+){0,2}[^\s、。,/／・()（）:：]{2,12})\s*$")


# what separates the names of a list in brackets (蓮,北岡 / れん、きたおか / 蓮>城戸), and a name between them
_NAME_SEP = re.compile(r"\s*[,、・，>＞→]\s*")
_NAME_RUN = re.compile(r"[^,、・，>＞→]+")


def _listed(head: str, start: int, end: int, names: str, at: int, shown: list[str] | None = None) -> list[tuple[str, int, int]]:
    """A declared move and its names as pieces, each at its place in the text: (近寄る: , 城戸, ",", 蓮) —
    so a problem with one name says where that name is written. ``shown`` replaces the names written."""
    found = [(w.group(), at + w.start(), at + w.end()) for w in _NAME_RUN.finditer(names) if w.group().strip()]
    found = [(w.strip(), a + len(w) - len(w.lstrip()), b - len(w) + len(w.rstrip())) for w, a, b in found]
    pieces = [(head, start, end)]
    for k, (written, a, b) in enumerate(found):
        if k:
            pieces.append((", ", a, a))
        pieces.append((shown[k] if shown and k < len(shown) else written, a, b))
    return pieces


# a move, an arrow, a name: chikayoru -> Kitaoka, 近寄る→北岡
_MOVE_ARROW = re.compile(r"(?<![^\s、,/／:：】])([^\s、,/／:：>→⇒=\-]{1,12}?)\s*(?:->|→|⇒|=>)\s*([^\s、,/／。>→⇒=\-]{1,12})(?=[\s、,/／。]|$)")
# a 受動 label over two or more conditions, each with its card after an arrow: 受：FV→GV、攻→SV
_PASSIVE_WORD = r"(?:攻撃?|こうげき|atk|attack|[ァ-ヶー]{2,12}|[a-z]{2,3})"
_PASSIVE_PAIR = re.compile(rf"({_PASSIVE_WORD})\s*(?:→|->|⇒|=>)\s*({_PASSIVE_WORD})", re.I)
_PASSIVE_PAIRS = re.compile(rf"(?:受動|受|授動)\s*[:：]\s*({_PASSIVE_WORD}\s*(?:→|->|⇒|=>)\s*{_PASSIVE_WORD}"
                            rf"(?:\s*[、,，]\s*{_PASSIVE_WORD}\s*(?:→|->|⇒|=>)\s*{_PASSIVE_WORD})+)", re.I)
# a 受動 card with its condition in brackets after it: 受:GV(攻), 受動 RV（FV時）, 受:GV(攻撃のとき)
_BRACKETED_PASSIVE = (r"([ァ-ヶー]{2,12}|[a-z]{2,3})\s*[(（]\s*"
                      r"(攻撃?|こうげき|atk|attack|[ァ-ヶー]{2,12}|[a-z]{2,3})\s*(?:の?(?:時|とき)|なら|に)?\s*[)）]")
_PASSIVE_BRACKET = re.compile(r"(?:受動|受|授動|ukemi|passive)\s*[:：]?\s*" + _BRACKETED_PASSIVE, re.I)
# a card and its condition in brackets with no label, on a line of its own (a phone's ｶﾞｰﾄﾞ(ｺｳｹﾞｷ)); a card's word
_PASSIVE_BRACKET_BARE = re.compile(r"(?m)^[ \t\u3000]*" + _BRACKETED_PASSIVE + r"[ \t\u3000]*$", re.I)
_CARD_WORD = re.compile(r"[ァ-ヶー]{2,12}|(?<![a-z])[a-z]{2,3}(?![a-z])", re.I)
_PASSIVE_BRACKET_NEXT = re.compile(r"\s*[、,，・]\s*" + _BRACKETED_PASSIVE, re.I)  # 、GV(攻): the next of a list
# a fighting game's numpad as the move (4 back, 5 neutral, 6 forward): only with the move said in
# brackets after it (4（離）, 5(留)) or after the move's label (移動5): a digit alone is a count
_NUMPAD_MOVE = re.compile(r"(?<![\d.])([456])\s*[(（]\s*([^)）]{1,8})\s*[)）]|移動\s*[:：]?\s*([456])(?![\d点.])")
_NUMPAD_MOVES = {"4": "離れる", "5": "留まる", "6": "近寄る"}
_NUMPAD_WORDS = {"4": ("離", "バクステ", "バックステップ", "後退", "下が", "さが"), "5": ("留", "とど", "待", "動かない", "ニュートラル", "その場"),
                 "6": ("近", "前進", "詰め", "寄")}
# （相手は北岡さんです）after a move: whom it is against
_WHOM = re.compile(r"[(（]\s*(?:相手|対象|移動の相手)\s*(?:は|:)\s*(.+?)\s*(?:さん|くん|君|氏)?\s*(?:です|で)?\s*[)）]")
_MOVE_CONCEPTS = frozenset(("head:近寄る", "head:離れる", "head:近へ", "head:中へ", "head:遠へ"))
# a vent card, then the attack it answers: ガードベントは攻撃されたときに使います (受動: 攻撃ならガードベント)
_PASSIVE_AFTER = re.compile(r"([ァ-ヶー]+ベント)\s*(?:は|を)[、,\s]*(?:相手に|相手から)?\s*攻撃\s*(?:され|を受け)"
                            r"(?:た(?:とき|時|場合)(?:に|は)?|たら)\s*(?:使います|使う|使って|出します|出す|発動します|します)?")
# 超回避's scope said in the next sentence: ただ、アドベントの攻撃には使わないでください (else アドベント
# and 攻撃 would be read as a card played and 攻撃しない)
_SCOPE_SENTENCE = re.compile(rf"[。、,.\s]*(?:が|けど|ですが)?[、,\s]*(?:ただ|でも|但し|ただし)?[、,\s]*({_SCOPE_WHO})\s*の\s*攻撃\s*"
                             r"(?:(?:に|には|では|のときは|の時は|に対しては)\s*(?:(?:使わ|し)ない(?:で(?:ください|下さい|お願いします)?|です|ように(?:してください|お願いします)?)?|使いません|しません)"
                             r"|(?P<only>(?:の)?\s*(?:とき|時|場合)?\s*(?:だけ|のみ|限定)\s*(?:に|で)?\s*(?:してください|して下さい|します|する|でお願いします|お願いします)?))")
# 超回避 with its condition said first, then the HP it costs: 超回避は本体の攻撃のときだけ、1点使います;
# 超回避は、相手の達成値が5以上のときだけ2点使います
_SUPER_CONDITION_FIRST = re.compile(
    rf"超回避\s*(?:は|を)?[、,\s]*(?:(?P<who>{_SCOPE_WHO})\s*の\s*攻撃"
    r"|(?:相手の)?\s*(?:攻撃の)?\s*達成値\s*(?:が|は)?\s*(?P<at>\d{1,2})\s*以上)\s*(?:の)?\s*(?:とき|時|場合)(?:だけ|のみ)?[、,\s]*"
    r"(?:hp\s*を?\s*)?(?P<n>\d{1,2})\s*点\s*(?:を)?\s*(?:使います|使う|使って|消費します|消費する|払います)", re.I)
# the band to be at from someone: 北岡さんとの距離を中距離にします, 城戸さんとの距離を中距離にしたいです
_DISTANCE_WITH = re.compile(r"(?<![^\s、。,.!！])([^\s、。,./!！:]{1,10}?)(?:さん|くん|君|氏)?との距離を\s*(近|中|遠)(?:距離)?\s*(?:に|まで)\s*"
                            r"(?:したいです|したい|します|する|して|広げます|取ります|とります)?")
# the scope, then 超回避 and its number, with no particle between: ほんたいだけちょうかいひ1, 本体のみ超回避2
_SCOPE_THEN_SUPER = re.compile(rf"(?P<who>{_WHO}){_OF_ATTACK}\s*(?:のみ|だけ|dake|nomi|(?P<not>以外|いがい))\s*(?:の|で|に)?\s*"
                               r"(?:超回避|ちょうかいひ|超回)\s*(?P<n>\d{1,2})", re.I)
# the scope said before the HP it costs, as a sentence of its own: 庇うときだけ、HPを1点使って超回避します
_SCOPE_BEFORE = re.compile(rf"(?<![^\s、。,.!！])(?:({_SCOPE_WHO})\s*の\s*攻撃\s*(?:の)?|庇う)\s*(?:とき|時|場合)\s*(?:だけ|のみ|限定)\s*(?:は|に)?[、,\s]*$")
_SUPER_WRITTEN = re.compile(r"超回避\s*(?:は|を)?\s*(?:hp|ＨＰ)?\s*(\d+)\s*点?\s*(?:でお願いします|を?お願いします|します|する|で)?", re.I)


def _parts(tokens: list[Token]) -> set[str]:
    """The parts of an order a run of tokens says, for a correction that takes back only what it
    says again (``taken_back``): 阻止 (with its condition), a 受動 rule (a card under a condition),
    the move, the card, the attack, each option."""
    concepts = [t.word.concept for t in tokens if t.kind == "word" and t.word is not None]
    if any(c.startswith("head:") and "阻止" in c for c in concepts):
        return {"block"}
    if "keyword:受動:" in concepts or (any(c.startswith(("nara:", "their:")) for c in concepts) and any(c.startswith("card:") for c in concepts)):
        return {"passive"}  # (攻撃されたら受けで: a condition with no card is the evasion's own, said of the attack;
        # 相手のファイナルベントにはリフレクトベント: the opponent's card and one's own, a 受動 rule)
    said = set()
    for c in concepts:
        if c.startswith("card:"):
            said.add("card")
        elif c in _MOVE_CONCEPTS or c.startswith("rule:"):
            said.add("move")
        elif c.startswith("attack:") or c in ("keyword:攻撃:", "head:攻撃しない"):
            said.add("attack")
        elif c in ("head:受け", "keyword:超回避"):
            said.add("evasion")  # 受け or 超回避: one of them (受けで…やっぱり超回避1で takes 受け back)
        elif c.startswith(("keyword:", "evade:", "pool:")):
            said.add(c.split(":")[1] or c)
    return said


# the particles a phone's run of kana is cut at (きたおか・を・かばう)
_RUN_PARTICLES = frozenset(("を", "に", "から", "は", "で", "の", "と", "が", "へ", "も", "まで"))


def _without_courtesy(word: str) -> str:
    """The name without the courtesy title written after it (城戸さん: 城戸)."""
    for courtesy in _COURTESY:
        if word.endswith(courtesy) and len(word) > len(courtesy):
            return word[: -len(courtesy)]
    return word


def _past_courtesy(tokens: list[Token], j: int, src: Text) -> int:
    """Where the courtesy titles written after a name (城戸さん, 蓮くん) end: the first token from
    ``j`` that is none."""
    while j < len(tokens) and tokens[j].kind == "function" and src.norm[tokens[j].start:tokens[j].end] in _COURTESY:
        j += 1
    return j


def _body_by_reading(word: str) -> bool:
    """Two kanji read ホンタイ (本隊, an IME's 本体)."""
    return len(word) == 2 and all("一" <= ch <= "龯" for ch in word) and kana.reading(word) == "ホンタイ"


_ONE_KANJI_TO = re.compile(r"(?<![一-龯々])([一-龯])(?:へ|まで)(?![一-龯ぁ-ゖ])")
_BAND_READINGS = {"近": ("キン", "チカ"), "中": ("チュウ", "ナカ"), "遠": ("エン", "トオ")}


def _band_by_reading(kanji_: str) -> str | None:
    """The band whose kanji reads as ``kanji_`` does (宙 チュウ: 中; 十 トオ: 遠; 塔 トウ, トオ with its
    long vowel written otherwise: 遠), when one band only."""
    if kanji_ in _BAND_READINGS:
        return None
    from ...reader.kanji import readings

    said = {kana.loose(r) for r in readings(kanji_)}
    found = [band for band, sounds in _BAND_READINGS.items() if said & {kana.loose(s) for s in sounds}]
    return found[0] if len(found) == 1 else None


def _outside(notes: list[Problem], declared: list[tuple[int, int, str]], src: Text) -> list[Problem]:
    """The notes on what was passed over, but those inside a declaration (…本体の攻撃のときだけにしてください
    is read whole as 超回避's scope: its だけにしてください was never passed over)."""
    if not declared:
        return notes
    spans = [(position(src.original, a), position(src.original, b)) for a, b in (src.span(s, e) for s, e, _r in declared)]
    return [n for n in notes if n.line is None or n.column is None
            or not any(a <= (n.line, n.column) < b for a, b in spans)]


def _scope_said(scope: re.Match[str] | None) -> str:
    """The colon form of a scope said in a sentence (_SCOPE_SENTENCE): '' for none."""
    if scope is None:
        return ""
    return f": {_SCOPE_WORDS[scope.group(1)]}{'だけ' if scope.group('only') else '以外'}"


# a label's shorthands for what has a form of its own: 避:受け / 回避は受けで (受け), 避：超2 (超回避 2),
# 攻:隙1 (隙狙い 1), 阻：近寄り× / 近寄りは阻止しない (近寄るなら阻止しない)
_EVADE_UKE = re.compile(r"(?<![^\s、。,/／・】|:：])(?:回避|避|回|かいひ)\s*(?:[:：]|は|を|\s)\s*(?:受け|うけ)(?:で|にします|します|する)?(?![ぁ-ん一-龯])")
_EVADE_SUPER = re.compile(r"(?<![^\s、。,/／・】|:：])(?:回避|避)\s*[:：]\s*(?:超回避|超回|超)\s*(\d{1,2})(?!\d)")
_ATTACK_AIM = re.compile(r"(?<![^\s、。,/／・】|:：])攻(?:撃)?\s*[:：]\s*(?:隙狙い|隙|スキ)\s*(\d{1,2})(?!\d)")
_BLOCK_MOVES = {"近寄り": "近寄る", "寄り": "近寄る", "近づき": "近寄る", "接近": "近寄る", "寄": "近寄る", "離れ": "離れる", "離脱": "離れる",
                "後退": "離れる", "離": "離れる"}
# 阻:離×, 阻止：近寄り時× — the label, the move it is of (its first kanji will do), when, and none or done
_BLOCK_LABEL = re.compile(r"(?<![^\s、。,/／・】|:：])(?:阻止|阻)\s*[:：]\s*(近寄り|寄り|近づき|接近|離れ|離脱|後退|寄|離)?\s*"
                          r"(?(1)(?:\s*(?:時|とき|の時|のとき|なら))?)\s*(?:は|のみ|だけ)?\s*"
                          r"(×|✕|なし|無し|しない|せず|通す|ok|○|〇|有|あり|する)(?![ぁ-ん一-龯])", re.I)
# 近寄ってくるのも離れるのも、阻止しません, 近寄ってくる人も離れていく人も止めません (either way round): neither is blocked
_WHO_MOVES = r"[^、。\n]{0,10}?(?:の|人|方|相手|もの|やつ|奴)も[、,\s]*"
_BLOCK_BOTH = re.compile(r"(?:[^\s、。,!！]{1,8}?(?:さん|くん|君|氏)?が\s*)?(?:(?:近寄|近づ|寄)" + _WHO_MOVES + r"(?:離れ|下が)|(?:離れ|下が)"
                         + _WHO_MOVES + r"(?:近寄|近づ|寄))" + _WHO_MOVES +
                         r"(?:どちらも|両方とも|両方)?\s*(?:阻止|邪魔|止め)\s*(?:は)?\s*(?:しません|しない|せず|なし|ません|ない|いたしません)")
_SUPER_SCOPED = re.compile(rf"(?:超回避|超回)\s*(\d{{1,2}})\s*(?:は|を)\s*({_SCOPE_WHO}|av|庇う|かばう|庇)\s*(?:の攻撃)?\s*(?:の)?\s*(?:とき|時|場合)?\s*"
                           r"(だけ|のみ|限定|以外)(?:で|に|です)?", re.I)
_ATTACK_NEAREST = re.compile(r"(?<![^\s、。,/／・】|:：])攻撃\s*(?:は|:|：)\s*(?:(?:いちばん|一番|最も|もっとも)\s*)?近(?:い|くに\s*いる|くの)\s*(?:人|相手|ライダー|敵|方)\s*(?:に|で|を|から)?(?:します)?")
_NO_PASSIVE = re.compile(r"(?<![^\s、。,/／・】|:：])受動(?:カード)?\s*(?:は|も)?\s*(?:使いません|使わない|なし|無し|ありません)(?:です)?(?=[。、,!！\s]|$)")
_PASSIVE_ONLY_WHEN = re.compile(r"([ァ-ヶー]+ベント)\s*(?:は|を)[、,\s]*(?:相手に|相手が)?\s*([ァ-ヶー]+ベント)\s*を\s*(?:使われ|使ってこられ|使ってきた|出され)"
                                r"(?:た)?\s*(?:とき|時|場合)(?:だけ|のみ)?\s*(?:に|は)?\s*(?:使います|使う|使って|出します|出す)")
# (隙狙いはまだよく分からないので使いません: the reason between, a clause of a few words ending in ので/から)
_OPTION_NONE = re.compile(r"(?<![^\s、。,/／・】|:：])(?:隙狙い|スキ狙い|超回避)\s*(?:は|も)?\s*(?:[^\n。、,!！]{1,16}?(?:ので|から)[、,\s]*)?"
                          r"(?:なし|無し|しません|しない|使いません|使わない|使わずに|やめておきます|やめときます)(?:です|で)?(?=[。、,!！\s]|$)")
# a dialect's short ending after a verb, at a clause's end: Hakata's and Hiroshima's けん (留まるけん, tomaru
# ken, utsu ken ne) — not 剣 (ソードベント), which a sword is after の or before で (つよいほうのけん,
# けんでたたかう) —, Tohoku's べ (斬るべ), Okinawa's さー (使うさー), Kyushu's ばい; where a word begins
# so (べんと, さーばいぶ, ばいと) it is no ending
_DIALECT_ENDING = re.compile(r"(?:(?<=[うくぐすつぬぶむるたんい])|(?<=[うくぐすつぬぶむるたんい] )|(?<=[aiun] ))"
                             r"(?:けん|ken|べさ|べか|べ|さー|さぁ|ばい)(?=\s*(?:ね|よ|ne|yo)?\s*(?:[/／、。,.!！?？\nｗw笑]|$))", re.I)
_NOT_ORDER_COUNTER = re.compile(r"\s*(?:" + "|".join(NOT_ORDER_COUNTERS) + ")")
# a label with none after it: 受:なし, 受動：×, 攻:× (what the label names is not done)
_LABEL_NONE = re.compile(r"(?<![^\s、。,/／・】|:：])(受動カード|受動|受|攻撃|攻|移動|移|能動カード|能動|能|阻止|阻)\s*[:：]\s*(?:×|✕|x|なし|無し|ナシ|none|no|せず|しない|不要|無)(?![ぁ-んァ-ヶ一-龯A-Za-z])", re.I)
# 相手の攻撃にはガードベントで備える: a 受動 card said after its condition, with a verb of readiness
_THEIR_ATTACK = re.compile(r"(?<![^\s、。,/／・】|:：])(?:(?:相手|敵)の\s*攻撃\s*(?:には|に対しては|に対して)[、,\s]*([ァ-ヶー]+ベント)\s*(?:で|を)\s*"
                           r"(?:備え|構え|対応し|対応す)(?:る|ます|ておきます|ておく|て)?"
                           # ファイナルベントにはリフレクトベント、それ以外の攻撃にはガードベントです: the rest of the attacks
                           r"|(?:それ以外|その他|ほか|他)の\s*攻撃\s*(?:には|に対しては|に対して|は)[、,\s]*([ァ-ヶー]+ベント)(?:\s*(?:です|で|を使います|を使う))?"
                           r"(?=\s*(?:[、。!！/／\n]|$)))")
# 阻止：接近時のみ — only the one move is blocked: the other is not (離れるなら阻止しない)
_BLOCK_ONLY = re.compile(r"(?<![^\s、。,/／・】|:：])(?:阻止|阻)\s*[:：]\s*(近寄り|寄り|近づき|接近|離れ|離脱|後退|寄|離)\s*(?:時|とき|の時|のとき)?\s*"
                         r"(?:のみ|だけ)(?:\s*(?:阻止|する|します))?(?![ぁ-ん一-龯])")
_BLOCK_TOPIC = re.compile(r"(?<![^\s、。,/／・】|:：])(近寄り|近づき|接近|離れ|離脱|後退)\s*は\s*(?:全部|すべて)?\s*阻止\s*"
                          r"(しない|しません|せず|なし|無し|する|します)")


# the number of a step at a line's start, as TRPG declarations write it: 宣言１：, 宣言一, 宣言：, 一、, 二．, 1 移動 中
_STEP_MARK = re.compile(r"(?m)^[ \t\u3000]*(?:宣言[ \t\u3000]*(?:[0-9]{1,2}|[一二三四五六七八九十])?[ \t\u3000]*[.:、)]?|"
                        r"[一二三四五六七八九十][ \t\u3000]*[.、:)]|[0-9]{1,2}[ \t\u3000]+(?=[^\s0-9]))[ \t\u3000]*")
# 回避判定は防御力で, 回避の判定は運動性でロールします, 回避判定：運動性, かいひろーるはうんとうせい, evade roll: agility
_POOL_SAID = {"運動性": "運動性", "うんとうせい": "運動性", "うんどうせい": "運動性", "運": "運動性", "agility": "運動性", "mobility": "運動性",
              "防御力": "防御力", "ぼうぎょりょく": "防御力", "ほうきょりょく": "防御力", "防": "防御力", "defense": "防御力", "defence": "防御力",
              "攻撃力": "攻撃力", "こうげきりょく": "攻撃力", "攻": "攻撃力", "attack": "攻撃力"}
_EVADE_ROLL = re.compile(r"(?:回避|かいひ|避)\s*(?:の)?\s*(?:判定|はんてい|ロール|ろーる)\s*(?:[:：]|は|を)?\s*"
                         r"(運動性|うん[とど]うせい|防御力|ぼうぎょりょく|ほうきょりょく|攻撃力|こうげきりょく|運|防|攻)(?![ぁ-ん一-龯]*力)"
                         r"\s*(?:で|に)?\s*(?:ロールします|ロールする|振ります|振る|ふります|します|する|お願いします|にします)?"
                         r"|evade\s+roll\s*[:：]?\s*(?:with\s+)?(agility|mobility|defen[cs]e|attack)", re.I)
# a dice bot's notation (2d6, 4b6, 4-2=2b6, in brackets or not): the player's own count of the roll
_DICE = re.compile(r"[(（]\s*(?:\d{1,2}\s*[-+]\s*\d{1,2}\s*=\s*)?\d{1,2}\s*[dDbB]\s*\d{1,2}(?:\s*[-+]\s*\d{1,2})?\s*[)）]"
                   r"|(?<![0-9A-Za-z])(?:\d{1,2}\s*[-+]\s*\d{1,2}\s*=\s*)?\d{1,2}[dDbB]\d{1,2}(?:[-+]\d{1,2})?(?![0-9A-Za-z])")
_DICE_MARK = "\x00dice"
# 超回避 cut to its first kanji, a clause of its own (避:防・超1, / 超2 /)
_SUPER_SHORT = re.compile(r"(?:(?<=[/／\s、,，・:：】])|^)(?:(?:回避|避)\s*[:：]\s*)?超\s*(\d{1,2})(?=\s|$|[/／、,，。:：]|[(（](?![^)）\n]*(?:だけ|のみ|限定|以外)))")  # 超1(5↑); 超1(本体だけ) is a scope's
# しない as an IME writes it (攻撃し内, 阻止し無い): the negation of the two that have one
_NOT_BY_KANJI = re.compile(r"(攻撃|阻止)\s*し\s*(?:内|無い|亡い)(?![ぁ-ん一-龯ァ-ヶ])")
# 超回避 as an IME writes its reading (ちょうかいひ: 長回避, 調回避)
_SUPER_BY_READING = re.compile(r"(?:(?:長|調|腸|蝶)(?:回避|会費|回費)|超(?:会費|回費|快避))\s*(\d{1,2})")
# 隙狙い１（攻撃力を２点マイナス）: the declaration's cost said again in brackets
_AIM_GLOSSED = re.compile(r"(?:隙狙い|スキ狙い)\s*(\d{1,2})\s*[(（]\s*<?攻撃力>?\s*を?\s*(\d{1,2})\s*点?\s*(?:マイナス|減らす|減らします|下げる|下げます)?\s*[)）]")


def _declarations(norm: str) -> list[tuple[int, int, str]]:
    """(start, end, replacement) for the page's declaration forms (a threshold: its mark)."""
    out = []
    steps = list(_STEP_MARK.finditer(norm))
    if len(steps) >= 2:  # 宣言１：, 一、, 1 移動 中: the numbers of a list's steps, at two lines' starts or more
        out.extend((m.start(), m.end(), "") for m in steps)
    for m in _EVADE_ROLL.finditer(norm):
        out.append((m.start(), m.end(), f"回避: {_POOL_SAID[(m.group(1) or m.group(2)).lower()]}"))
    for m in (*_SUPER_BY_READING.finditer(norm), *_SUPER_SHORT.finditer(norm)):
        out.append((m.start(), m.end(), f"超回避 {m.group(1)}"))
    for m in _AIM_GLOSSED.finditer(norm):
        if int(m.group(2)) == 2 * int(m.group(1)):
            out.append((m.start(), m.end(), f"隙狙い {m.group(1)}"))
    for m in _ATTACK_AIM.finditer(norm):
        out.append((m.start(), m.end(), f"隙狙い {m.group(1)}"))
    for m in (*_BLOCK_LABEL.finditer(norm), *_BLOCK_TOPIC.finditer(norm)):
        blocked = m.group(2).lower() in ("○", "〇", "有", "あり", "する", "します")
        said = f"{_BLOCK_MOVES[m.group(1)]}なら" if m.group(1) else ""
        out.append((m.start(), m.end(), f"{said}阻止{'する' if blocked else 'しない'}"))
    for m in _BLOCK_ONLY.finditer(norm):  # 阻止：接近時のみ: the other move is let go
        other = "離れる" if _BLOCK_MOVES[m.group(1)] == "近寄る" else "近寄る"
        out.append((m.start(), m.end(), f"{other}なら阻止しない"))
    for m in _BLOCK_BOTH.finditer(norm):  # 近寄ってくるのも離れるのも、阻止しません: neither is blocked
        out.append((m.start(), m.end(), "阻止しない"))
    for m in _SUPER_SCOPED.finditer(norm):  # 超回避1は庇うときだけ
        who = m.group(2)
        scope = "庇うとき" if who.startswith(("庇", "かば")) else _SCOPE_WORDS.get(who, "アドベント" if who.lower() == "av" else "本体の攻撃")
        out.append((m.start(), m.end(), f"超回避 {m.group(1)}: {scope}{'以外' if m.group(3) == '以外' else 'だけ'}"))
    for m in _ATTACK_NEAREST.finditer(norm):  # 攻撃はいちばん近い人で: no list (the nearest first)
        out.append((m.start(), m.end(), ""))
    for m in _NO_PASSIVE.finditer(norm):  # 受動カードは使いません: none, as if not written
        out.append((m.start(), m.end(), ""))
    for m in _PASSIVE_ONLY_WHEN.finditer(norm):  # リフレクトベントは、ファイナルベントを使われたときだけ使います
        out.append((m.start(), m.end(), f"受動: {m.group(2)}なら{m.group(1)}"))
    for m in _OPTION_NONE.finditer(norm):  # 隙狙いはなしです: the option not taken, as if not written
        out.append((m.start(), m.end(), ""))
    for m in _LABEL_NONE.finditer(norm):  # 受:なし, 能:なし — none, as if not written; 攻:× — 攻撃しない; 移:なし — 留まる
        out.append((m.start(), m.end(), {"攻": "攻撃しない", "移": "留まる", "阻": "阻止しない"}.get(m.group(1)[0], "")))
    for m in _SCOPE_IN_BRACKETS.finditer(norm):
        scope = _SCOPE_WORDS.get(m.group(3), "アドベント" if m.group(3).lower() == "av" else "庇うとき")
        out.append((m.start(), m.end(), f"超回避 {m.group(2)}: {scope}{'以外' if m.group(4) == '以外' else 'だけ'}"))
    for m in _SCOPE_IN_BRACKETS_SPELLED.finditer(norm):  # chou kaihi 2 (hontai dake), super evasion 1 (rider only)
        if any(s < m.end() and m.start() < e for s, e, _r in out):
            continue
        inside = _SCOPE_WRITTEN.fullmatch(m.group(2)) or _SCOPE_ENGLISH.fullmatch(m.group(2))
        if inside is None:
            continue
        if inside.re is _SCOPE_ENGLISH:
            who, negated = inside.group(2), inside.group(1).lower() in ("except", "not")
        else:
            who, negated = inside.group(1), inside.group(2).lower() in ("以外", "意外", "イガイ", "igai")
        out.append((m.start(), m.end(), f"超回避 {m.group(1)}: {_scope_named(who)}{'以外' if negated else 'だけ'}"))
    for m in _EVADE_UKE.finditer(norm):
        out.append((m.start(), m.end(), "受け"))
    for m in _EVADE_SUPER.finditer(norm):
        if not any(s < m.end() and m.start() < e for s, e, _r in out):
            out.append((m.start(), m.end(), f"超回避 {m.group(1)}"))
    for m in _THRESHOLD.finditer(norm):
        out.append((m.start(), m.end(), THRESHOLD_MARK + m.group(1)))
    for m in _PASSIVE_AFTER.finditer(norm):  # ガードベントは攻撃されたときに使います: a 受動 card, its condition after it
        out.append((m.start(), m.end(), f"受動: 攻撃なら{m.group(1)}"))
    for m in _SUPER_CONDITION_FIRST.finditer(norm):  # 超回避は本体の攻撃のときだけ、1点使います
        if m.group("who"):
            said = f": {_SCOPE_WORDS.get(m.group('who'), '本体の攻撃')}だけ"
        else:
            said = f": 達成値{m.group('at')}以上なら"
        out.append((m.start(), m.end(), f"超回避 {m.group('n')}{said}"))
    for m in _DISTANCE_WITH.finditer(norm):  # 北岡さんとの距離を中距離にします: the band, against that one
        out.append((m.start(), m.end(), f"{m.group(2)}へ: {m.group(1)}"))
    for m in _SCOPE_THEN_SUPER.finditer(norm):  # ほんたいだけちょうかいひ1: the scope, then 超回避 N
        if not any(s < m.end() and m.start() < e for s, e, _r in out):
            out.append((m.start(), m.end(), f"超回避 {m.group('n')}: {_scope_named(m.group('who'))}{'以外' if m.group('not') else 'だけ'}"))
    for m in _SUPER_DECLARED.finditer(norm):
        if any(s <= m.start() < e for s, e, _r in out):
            continue
        first = _SCOPE_BEFORE.search(norm, 0, m.start())  # 庇うときだけ、HPを1点使って超回避します
        if first and not any(s < m.start() and first.start() < e for s, e, _r in out):
            who = _SCOPE_WORDS.get(first.group(1), "本体の攻撃") if first.group(1) else "庇うとき"
            out.append((first.start(), m.end(), f"超回避 {m.group(1) or m.group(2)}: {who}だけ"))
            continue
        scope = _SCOPE_SENTENCE.match(norm, m.end())
        out.append((m.start(), scope.end() if scope else m.end(), f"超回避 {m.group(1) or m.group(2)}" + _scope_said(scope)))
    for m in _SUPER_WRITTEN.finditer(norm):  # 超回避は2点で。ただ、アドベントの攻撃には使わないでください
        scope = _SCOPE_SENTENCE.match(norm, m.end())
        if scope and not any(s < scope.end() and m.start() < e for s, e, _r in out):
            out.append((m.start(), scope.end(), f"超回避 {m.group(1)}" + _scope_said(scope)))
    for m in _AIM_DECLARED.finditer(norm):
        digits = str("一二三四五六".index(m.group(1)) + 1) if m.group(1) in "一二三四五六" else m.group(1)
        end = m.end()
        ignore = _AIM_IGNORE.match(norm, end)
        if ignore:
            end = ignore.end()
        if len(digits) > 6:  # thousands of digits are no number for int(): as written, for the count's own message
            out.append((m.start(), end, f"隙狙い {digits}"))
            continue
        dice = int(digits)
        out.append((m.start(), end, f"隙狙い {dice // 2 if dice % 2 == 0 else dice}"))
    for m in _AIM_BY_IGNORE.finditer(norm):  # 隙狙いで防御力を1点無視したい
        if m.group("again") and m.group("again") != m.group(1):
            continue  # 防御力を2点無視するために隙狙い1: the two numbers disagree — left for the reader to name
        if "狙い" in m.group(0) and not any(s < m.end() and m.start() < e for s, e, _r in out):
            out.append((m.start(), m.end(), f"隙狙い {int(m.group(1))}" if len(m.group(1)) <= 6 else f"隙狙い {m.group(1)}"))
    for m in _SCOPE_NOT_PAID.finditer(norm):  # 超回避１：アドベントの時は払わない, 避：超1（契約獣の牙には払わず）
        plain = [d for d in out if d[0] < m.end() and m.start() < d[1]]  # a 超回避 read without its scope gives way
        if all(re.fullmatch(r"超回避 \d+", d[2]) for d in plain):
            start = min([m.start(), *(d[0] for d in plain)])
            out = [d for d in out if d not in plain] + [(start, m.end(), f"超回避 {m.group(1)}: {_scope_named(m.group(2))}以外")]
    return out


class Rewritten:
    """``text`` (what lark reads), ``where`` (for each of its characters, the index in the
    original), the notes and the problems of the rewriting."""

    def __init__(self, original: str, data: RiderData, roster: tuple[tuple[str, str], ...] = (), player: str | None = None):
        self.notes: list[Problem] = []
        self._roster, self._data, self._player = roster, data, player
        self._names: set[int] = set()  # where a word the battle knows as a fighter's name starts
        self._looked_up: dict[str, bool] = {}  # a word -> whether it names a fighter (_is_name)
        self.problems: list[Problem] = []
        self._raw: set[int] = set()  # where a word passed to lark as written (a name) starts
        self._moved_against: tuple[str, int, int] | None = None  # the name of 名前に近づく
        self._moved_also: list[tuple[str, int, int]] = []  # the names approached after it (a fallback)
        self._their = False  # 相手が… was written: the next move is the opponent's
        self.card_names = {card.get("name", cid) for cid, card in data.cards.items()}
        self.phase = {cid: card.get("phase", "either") for cid, card in data.cards.items()}
        src = Text(original)
        self.src = src
        lex = lexicon(data)
        pieces: list[tuple[str, int, int]] = []  # (text, original start, original end)
        declared = _declarations(src.norm)
        self._declared_parts: dict[tuple[int, int], list[tuple[str, int, int]]] = {}
        for m in _DICE.finditer(src.norm):  # 攻:城戸(3b6), 4-2=2b6: a dice bot's notation, the roll counted
            if not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), _DICE_MARK))
                line, column, shown = src.where(m.start(), m.end())
                self.notes.append(Problem("はダイスの式として読みませんでした（ダイスは pbf が振ります）。", line=line, column=column, text=shown))
        for m in _STAT_REASON.finditer(src.norm):  # ゾルダは運動性が低いので、: why, not what
            if not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), ""))
                line, column, shown = src.where(m.start(), m.end())
                self.notes.append(Problem("は理由の説明として読みませんでした。", line=line, column=column, text=shown))
        for m in _NOT_BY_KANJI.finditer(src.norm):  # 攻撃し内: an IME's 内 for ない, said
            if not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), f"{m.group(1)}しない"))
                line, column, shown = src.where(m.start(), m.end())
                self.notes.append(Problem(f"を「{m.group(1)}しない」と読みました。", line=line, column=column, text=shown))
        for m in _SUPER_BY_READING.finditer(src.norm):  # 蝶回避2: an IME's kanji, said
            line, column, shown = src.where(m.start(), m.end())
            self.notes.append(Problem(f"を「超回避 {m.group(1)}」と読みました。", line=line, column=column, text=shown))
        for m in _ONE_KANJI_TO.finditer(src.norm):  # 宙へ, 十へ: an IME's kanji of a band's reading
            band = _band_by_reading(m.group(1))
            if band is not None and not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), band + "へ"))
                line, column, shown = src.where(m.start(), m.end())
                self.notes.append(Problem(f"を「{band}へ」と読みました。", line=line, column=column, text=shown))
        for m in _PASSIVE_IS.finditer(src.norm):  # ｺﾝﾌｧｲﾝはﾌｧｲﾅﾙなら: a 受動 card, then the card it answers
            card, when = data.card_words.get(card_spelling(m.group(1))), data.card_words.get(card_spelling(m.group(2)))
            if card and when and self.phase.get(card) == "passive" and \
                    not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), f"受動: {data.card_name(when)}なら{data.card_name(card)}"))
        for m in _INSTEAD.finditer(src.norm):  # ストライクベントは使わずに、アドベント: the one used
            dropped, card = data.card_words.get(card_spelling(m.group(1))), data.card_words.get(card_spelling(m.group(2)))
            if card and dropped and card != dropped and not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), data.card_name(card)))
                line, column, shown = src.where(m.start(1), m.end(1))
                self.notes.append(Problem(f"は使わないカードとして読み、{data.card_name(card)}を使うと読みました。", line=line,
                                          column=column, text=shown))
        for m in _CARD_ANSWERED.finditer(src.norm):  # ファイナルベントにはリフレクトベントで返す: the 受動 card, after its condition
            when, card = data.card_words.get(card_spelling(m.group(1))), data.card_words.get(card_spelling(m.group(2) or m.group(3)))
            if card and when and card != when and self.phase.get(card) != "active" and \
                    not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), f"受動: {data.card_name(when)}なら{data.card_name(card)}"))
        for m in _THEIR_ATTACK.finditer(src.norm):
            card = data.card_words.get(card_spelling(m.group(1) or m.group(2)))
            if card and self.phase.get(card) != "active" and not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), f"受動: 攻撃なら{data.card_name(card)}"))
        for m in _MOVE_WITH_NAMES.finditer(src.norm) if roster else ():  # 離れる(北岡), 近寄る(北岡,城戸), 中へ（内と）
            whom = [self._fighter(w) for w in _NAME_SEP.split(m.group(2).strip())]
            if whom and all(whom) and len(set(whom)) == len(whom) and \
                    not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), f"{_MOVE_SAID[m.group(1)]}: {', '.join(whom)}"))
                self._declared_parts[(m.start(), m.end())] = _listed(f"{_MOVE_SAID[m.group(1)]}: ", m.start(1), m.end(1),
                                                                     m.group(2), m.start(2), whom)
                if m.group(1) == "近":  # 移:近(蓮,北岡): as 近(ゾルダ) below, the way to move against them
                    line, column = position(src.original, m.start(1))
                    self.notes.append(Problem("を「近寄る」（その相手に向かって）と読みました（近寄るも近へも近で止まります）。",
                                              line=line, column=column, text="近"))
        for m in _NAMES_IN_ORDER.finditer(src.norm) if roster else ():  # 蓮さん、北岡さんの順で近寄ります
            raws = [w.strip() for w in _NAME_SEP.split(m.group(1).strip())]
            whom = [self._fighter(w) for w in raws]
            if whom and all(whom) and len(set(whom)) == len(whom) and \
                    not any(s < m.end() and m.start() < e for s, e, _r in declared):
                move = _ORDER_MOVE[m.group(2)]
                declared.append((m.start(), m.end(), f"{move}: {', '.join(whom)}"))
                self._declared_parts[(m.start(), m.end())] = _listed(f"{move}: ", m.start(2), m.end(2), m.group(1), m.start(1), whom)
                at = m.start(1)
                for written, who in zip(raws, whom):  # 連、北丘: the names by their reading, said
                    at = src.norm.find(written, at)
                    if _without_courtesy(written) != who:
                        line, column, shown = src.where(at, at + len(written))
                        self.notes.append(Problem(f"を「{who}」と読みました。", line=line, column=column, text=shown))
        for m in _NAMES_IN_BRACKETS.finditer(src.norm) if roster else ():  # chikayoru (Ren, Kitaoka), ちかよる(れん、きたおか)
            raws = [w.strip() for w in _NAME_SEP.split(m.group(1).strip())]
            whom = [self._fighter(w) for w in raws]
            said = _MOVE_BEFORE.search(src.norm, 0, m.start())  # the move just before the bracket: to near, ちかよる
            start = said and next((k for k in (said.start(1), *(said.start(1) + g.end() for g in re.finditer(r"\S+\s+", said.group(1))))
                                   if self._move_word(src.norm[k:said.end(1)], lex)), None)
            if start is None or not (whom and all(whom) and len(set(whom)) == len(whom)) or \
                    any(s < m.end() and start < e for s, e, _r in declared):
                continue
            written = src.norm[start:said.end(1)]
            move = self._move_word(written, lex)
            declared.append((start, m.end(), f"{move.shown}: {', '.join(raws)}"))  # the names as written: check says how it read them
            self._declared_parts[(start, m.end())] = _listed(f"{move.shown}: ", start, said.end(1), m.group(1), m.start(1))
            if kana_fold(written) not in lex.exact:
                line, column, shown = src.where(start, said.end(1))
                self.notes.append(Problem(f"を「{move.shown}」と読みました。", line=line, column=column, text=shown))
        for m in _MOVE_ARROW.finditer(src.norm) if roster else ():  # chikayoru -> Kitaoka: the move, toward whom
            word = lex.exact.get(kana_fold(m.group(1)))
            whom = self._fighter(m.group(2))
            if word is not None and str(word.concept) in _MOVE_CONCEPTS and whom and \
                    not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), f"{word.shown}: {whom}"))
        for m in _PASSIVE_PAIRS.finditer(src.norm):  # 受：FV→GV、攻→SV: a list of 受動 cards, each after its condition
            pairs = [(self._condition(when), data.card_words.get(card_spelling(card)))
                     for when, card in _PASSIVE_PAIR.findall(m.group(1))]
            if pairs and all(when and card and self.phase.get(card) != "active" for when, card in pairs) and \
                    not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), " / ".join(f"受動: {when}なら{data.card_name(card)}" for when, card in pairs)))
        for m in _PASSIVE_BRACKET.finditer(src.norm):  # 受:GV(攻), 受:RV（FV時）: a 受動 card, its condition in brackets
            while m is not None:  # 受:RV(FV)、GV(攻): a list of them after the one label
                card = data.card_words.get(card_spelling(m.group(1)))
                when = self._condition(m.group(2))
                if not (card and when and self.phase.get(card) != "active" and
                        not any(s < m.end() and m.start() < e for s, e, _r in declared)):
                    break
                declared.append((m.start(), m.end(), f"受動: {when}なら{data.card_name(card)}"))
                m = _PASSIVE_BRACKET_NEXT.match(src.norm, m.end())
        for m in _PASSIVE_BRACKET_BARE.finditer(src.norm):  # ﾄﾘｯｸ\nｶﾞｰﾄﾞ(ｺｳｹﾞｷ): GV(攻) without its label, beside the card used
            card, when = data.card_words.get(card_spelling(m.group(1))), self._condition(m.group(2))
            used = {data.card_words.get(card_spelling(w.group())) for w in _CARD_WORD.finditer(src.norm)
                    if not m.start() <= w.start() < m.end()} - {None, card}
            if card and when and used and self.phase.get(card) != "active" and \
                    not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), f"受動: {when}なら{data.card_name(card)}"))
                line, column, shown = src.where(m.start(), m.end())
                self.notes.append(Problem(f"を「受動: {when}なら{data.card_name(card)}」と読みました（能動カードはほかに書かれています）。",
                                          line=line, column=column, text=shown))
        for m in _NUMPAD_MOVE.finditer(src.norm):  # 4（離）, 移動5: a fighting game's numpad, said as a move
            digit = m.group(1) or m.group(3)
            said = m.group(2)
            move = _NUMPAD_MOVES[digit]
            if said is not None and not any(said.startswith(w) for w in _NUMPAD_WORDS[digit]):
                continue  # 4（近）: the digit and the word disagree — left for the reader to name
            if not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), move))
                line, column, shown = src.where(m.start(), m.end())
                self.notes.append(Problem(f"をテンキーの{digit}（{move}）と読みました。", line=line, column=column, text=shown))
        for m in _AS_IT_IS.finditer(src.norm):  # このまま近距離で: where they are, no move
            if not any(s < m.end() and m.start() < e for s, e, _r in declared):
                declared.append((m.start(), m.end(), "留まる"))
                line, column, shown = src.where(m.start(), m.end())
                band = next(g for g in m.groups() if g)
                self.notes.append(Problem(f"を「留まる」（今の距離のまま）と読みました（{band}へ動くなら「{band}へ」と書きます）。",
                                          line=line, column=column, text=shown))
        spelled = _NameSpellings(roster, data) if roster else None
        scanned = resolve_unknowns(scan(src, lex, spelled, remarks="chatty", readings=True), src, lex, grammar=True)
        scanned = _verb_not_card(scanned, src)
        scanned = self._passive_by_what_follows(scanned, src, lex)
        scanned = self._kana_runs(scanned, src, lex)
        scanned = self._card_alone(scanned, src, lex)
        scanned = _negation_of_talk(scanned, src)
        scanned = [Token(t.start, t.end, "function") if src.norm[t.start:t.end] == "中" and t.word is not None and t.start > 0
                   and _DURING.match(src.norm[t.start - 1]) else t for t in scanned]  # トリック中は, 攻撃中: during, no band
        for m in _BARE_VENT.finditer(src.folded):  # べんと, へんと, vent alone: a vent, but which one — asked, with the cards
            at = m.start() + len(m.group()) - len(m.group().lstrip(" \t\u3000"))
            before = src.folded[:m.start()].rstrip()  # (ファイナル\nベント: the card's name, broken over two lines)
            heads = {kana_fold(str(spelled)).removesuffix("ベント").removesuffix(" vent") for card in data.cards.values()
                     for spelled in (card.get("name", ""), card.get("english", "")) if spelled}
            if not any(t.word is not None and t.word.kind == "order" and t.start <= at < t.end for t in scanned) and \
                    not any(head and before.endswith(head) for head in heads):
                line, column, shown = src.where(m.start(), m.end())
                self.problems.append(Problem("だけでは、どのベント（カード）か分かりません。", line=line, column=column, text=shown,
                                             hint="カードの名前を書いてください（例：ソードベント、ガードベント）。"))
        for m in _VENT_DESCRIBED.finditer(src.norm):  # 強い方のベントを使います: a vent described, not named — asked
            line, column, shown = src.where(m.start(), m.end())
            self.problems.append(Problem("は名前のないベントです。どのカードか決まりません。", line=line, column=column, text=shown,
                                         hint="カードの名前を書いてください（例：ソードベント、ガードベント）。"))
        for tok in scanned:  # そしし at the line's end: 阻止し… cut off — 阻止する or 阻止しない cannot be told
            if tok.word is not None and str(tok.word.concept) == "head:阻止する" and src.folded[tok.end - 1:tok.end] == "シ" \
                    and not src.folded[tok.end:tok.end + 1].strip(" \t\u3000") and \
                    src.norm[tok.start:tok.end] not in ("阻止", "そし"):
                line, column, shown = src.where(tok.start, tok.end)
                self.problems.append(Problem("は途中で切れていて、「阻止する」か「阻止しない」か決まりません。", line=line, column=column,
                                             text=shown, hint="「阻止する」か「阻止しない」と書いてください。"))
        for m in LEFT_TO_GM.finditer(src.norm):  # 移動はＧＭ様にお任せいたします: a choice left open — asked, never guessed
            line, column, shown = src.where(m.start(), m.end())
            self.problems.append(Problem("は決めずに任されていますが、pbf は代わりに決めません。", line=line, column=column, text=shown,
                                         hint="自分で書いてください（動かないなら「留まる」、攻撃しないなら「攻撃しない」）。"))
        for m in _KANA_MARKER.finditer(src.folded):  # こうどう むーぶべんと, ｺｳﾄﾞｳ, こうとう: 行動 in kana at a line's start, the marker
            scanned = [t for t in scanned if not (m.start(1) <= t.start < m.end(1))]  # read as the marker (and said): no word
            line, column, shown = src.where(m.start(1), m.end(1))
            self.notes.append(Problem("を行動の目印（【行動】）として読みました。", line=line, column=column, text=shown))
        for m in _BAND_NOW.finditer(src.norm):  # 近距離なので動かずに: where they are now, no move
            if not any(s < m.end() and m.start() < e for s, e, _r in declared):
                inside = [k for k, tok in enumerate(scanned) if m.start() <= tok.start and tok.end <= m.end()]
                if inside and all(scanned[k].kind in ("word", "function", "sep", "unknown") for k in inside) and \
                        scanned[inside[0]].start == m.start() and scanned[inside[-1]].end == m.end():
                    scanned[inside[0]:inside[-1] + 1] = [Token(m.start(), m.end(), "function")]  # said, as a particle is
                    line, column, shown = src.where(m.start(), m.end())
                    self.notes.append(Problem("は今の距離の説明として読みました（移動ではありません）。", line=line, column=column, text=shown))
        for k in range(1, len(scanned)):  # ｷﾄﾞﾆ: the particle after the name, in katakana as the name is
            tok, before = scanned[k], scanned[k - 1]
            if tok.kind == "unknown" and tok.word is None and before.kind == "symbol" and before.end == tok.start and \
                    src.norm[tok.start:tok.end] in _KATAKANA_PARTICLES and "ァ" <= src.norm[before.start] <= "ヺ":
                scanned[k] = Token(tok.start, tok.end, "function", Word("function", src.norm[tok.start:tok.end], kind="function"))
        for tok in scanned:
            if tok.kind == "symbol":  # ないと, ぞるだ, ren: a fighter's name by its reading
                tok.kind = "unknown"
                self._names.add(src.span(tok.start, tok.end)[0])
        scanned = [Token(t.start, t.end, "function") if (m := _DIALECT_ENDING.match(src.norm, t.start)) and t.end == m.end() else t
                   for t in scanned]
        # 1話, 6歳, 3年目: a number with a counter no order has is none of the order's (talk around it)
        counted = {t.end for t in scanned if t.kind == "number" and _NOT_ORDER_COUNTER.match(src.norm, t.end)}
        scanned = [Token(t.start, t.end, "function") if (t.kind == "number" and t.end in counted) or (
            t.kind == "unknown" and t.word is None and t.start in counted and _NOT_ORDER_COUNTER.fullmatch(src.norm[t.start:t.end]))
            else t for t in scanned]
        scanned = self._own_name_as_subject(scanned, src) if roster and player else scanned
        scanned = self._whom_in_brackets(scanned, src) if roster else scanned
        scanned = self._nearer_of_those(scanned, src) if roster and player else scanned
        scanned = self._their_by_name(self._same_one_in_brackets(scanned, src), src, lex)
        tokens, back = taken_back(self._remarks(scanned, src, declared), src, _parts)
        self.notes += back
        tokens = [Token(t.start, t.end, "unknown") if t.kind == "flavour" and roster and self._ends_in_name(src.norm[t.start:t.end])
                  else t for t in flavour(tokens, src)]  # 来た丘 (北岡 by its reading), その次に蓮: a name is no verb's
        if not any(t.word is not None and str(t.word.concept) in _MOVE_CONCEPTS for t in tokens):
            # （後ろへ跳んで間合いを外す）: a move told as a deed, in an order that says no move, is kept to be named
            final = _EVENT_MARKER.search(src.folded)  # イベントファイナル's free text tells what it likes (跳び蹴り)
            for t in tokens:
                if t.kind == "flavour" and _MOVE_TOLD.search(src.norm[t.start:t.end]) and not (final and t.start >= final.start()):
                    line, column, shown = src.where(t.start, t.end)
                    self.problems.append(Problem("は移動のようにも読めますが、行動の語ではないので決められません。", line=line, column=column,
                                                 text=shown, hint="動くなら「離れる」「近寄る」「中へ」のように移動を書いてください。動かないなら「留まる」。"))
        tokens = _event_final(tokens, src)
        for tok in tokens:  # 城戸から十へ: a declaration's words are order words, never a line of chat
            if tok.kind == "unknown" and any(s <= tok.start < e for s, e, _r in declared):
                tok.corrected = True
        tokens, chat = chat_lines(tokens, src, named=self._names_one)
        tokens, remarks = chat_sentences(tokens, src, named=self._names_one)
        self.notes += _outside(chat + remarks + passed_over(tokens, src, attached=True), declared, src)  # a rider's clause may go on in brackets
        if not any(t.kind not in ("sep", "function", "laugh", "comment", "anchor", "flavour", "drop") for t in tokens) and original.strip():
            # everything was chat: nothing is read as an order (a post of defaults says nothing)
            line, column, shown = src.where(0, len(src.norm))
            self.problems.append(Problem("行動として読める語がありません。", line=line, column=column,
                                         text=shown.strip() or None,
                                         hint="例：近寄る / ソードベント（何もしないなら「留まる」）"))
        for tok in tokens:  # S: the first letter of more than one card (Sword, Strike, Shoot, Survive) — asked, with them
            letter = src.norm[tok.start:tok.end].strip()
            if tok.kind == "unknown" and tok.word is None and not tok.candidates and len(letter) == 1 and letter.isascii() \
                    and letter.isalpha() and not self._is_name(letter):
                cards = {w.concept: w for form, w in lex.exact.items() if str(w.concept).startswith("card:")
                         and form.endswith(" vent") and form.startswith(letter.lower())}
                tok.candidates = tuple(cards.values()) if len(cards) >= 2 else ()
        self._pieces = pieces
        self._no_card: Problem | None = None  # カードは使いません was read (a card written too is a contradiction)
        self._emit(tokens, declared)
        if self._no_card is not None and set("".join(p for p, _s, _e in pieces).split(" / ")) & self.card_names:
            self.problems.append(self._no_card)
        for k in range(len(pieces) - 1, 1, -1):  # 相手のファイナルベントが怖いので、ファイナルベントが来たら: one condition
            if pieces[k][0] == "なら" and pieces[k - 1][0].strip() and pieces[k - 2][0].endswith(pieces[k - 1][0].strip() + "なら"):
                del pieces[k - 1:k + 1]
        text, where = [], []
        for piece, o_start, o_end in pieces:
            text.append(piece)
            if o_end - o_start == len(piece) and original[o_start:o_end] and src.norm.find(piece) >= 0 and len(piece) > 1:
                where.extend(range(o_start, o_end))  # written as it is (a name, イベントファイナル's text)
            else:
                where.extend([o_start] * len(piece))
        self.text = "".join(text)
        where.append(pieces[-1][2] if pieces else len(original))  # the end of what was read, not of the post
        self.where = where

    def _emit(self, tokens: list[Token], declared: list[tuple[int, int, str]]) -> None:
        src = self.src
        clauses: list[list[tuple[str, int, int]]] = [[]]
        state = {"open": False, "list": False}

        def span(tok: Token) -> tuple[int, int]:
            return src.span(tok.start, tok.end)

        def close() -> None:
            while clauses[-1] and clauses[-1][-1][0].strip() == ",":
                clauses[-1].pop()  # close in on Kitaoka, nasty vent: the list ended at the comma
            if clauses[-1]:
                clauses.append([])
            state["open"] = state["list"] = False

        def put(piece: str, tok: Token) -> None:
            if piece == "," and clauses[-1] and clauses[-1][-1][0] == ",":
                return  # 城戸さんを優先して、いなければ北岡さん: one break in the list
            clauses[-1].append((piece, *span(tok)))

        def raw(tok: Token) -> str:
            return src.norm[tok.start:tok.end]

        cards = {data_name for data_name in self.card_names}

        skip_until = -1
        before = ""  # the function word just before (to, from: move closer to Zolda)
        last_attack: Token | None = None  # the attack word (攻撃をしないで: what the negation negates)
        previous_significant: Token | None = None
        current_significant: Token | None = None
        named: list[tuple[str, int, int]] = []  # the names written, for him / her (nasty vent on him)
        named_at: list[tuple[tuple[str, int, int], int]] = []  # each with where it ends in src.norm
        thresholds: list[tuple[str, int, int]] = []  # 5以上なら: the threshold of the 超回避
        pending: list[tuple[str, Token]] = []
        pools: list[tuple[str, Token]] = []
        significant = [t for t in tokens if t.kind not in ("sep", "function", "laugh", "comment", "anchor", "flavour")]
        after = {id(a): b for a, b in zip(significant, significant[1:])}
        passed: set[int] = set()  # tokens an earlier word has read as part of itself
        for index, tok in enumerate(tokens):
            if tok.start < skip_until or id(tok) in passed:
                continue
            hit = next(((s, e, r) for s, e, r in declared if s <= tok.start < e), None)
            if hit is not None and hit[2] == _DICE_MARK:
                skip_until = hit[1]  # (3b6): the dice the player counted, passed over (noted)
                continue
            if hit is not None and hit[2].startswith(THRESHOLD_MARK):
                thresholds.append((hit[2][len(THRESHOLD_MARK):], *src.span(hit[0], hit[1])))
                skip_until = hit[1]
                continue
            if hit is not None:
                close()
                parts = self._declared_parts.get((hit[0], hit[1]))  # 近寄る(蓮,北岡): each name where it is written
                clauses[-1].extend([(text, *src.span(a, b)) for text, a, b in parts] if parts else [(hit[2], *src.span(hit[0], hit[1]))])
                if not ((hit[2].startswith("超回避") or hit[2] in _MOVES) and ":" not in hit[2] and src.norm[hit[1]:hit[1] + 1] == ":"):
                    close()  # HP1点消費：本体の攻撃だけ — the 超回避 declared stays open for its scope; 仲へ：蓮, the move for whom
                skip_until = hit[1]
                continue
            kind = tok.kind
            said_before, before = before, (raw(tok).strip() if kind == "function" else before if kind == "sep" else "")
            if kind not in ("sep", "function", "laugh", "comment", "anchor", "flavour"):
                previous_significant, current_significant = current_significant, tok
            if kind == "event_final":
                close()
                m = _EVENT_MARKER.match(src.folded, tok.start, tok.end)
                at = m.end() if m else tok.start
                o_start, _o_end = src.span(tok.start, at)
                clauses[-1].append(("イベントファイナル: ", o_start, o_start))
                if at < tok.end:  # the free text, as written
                    clauses[-1].append((src.norm[at:tok.end], *src.span(at, tok.end)))
                close()
                continue
            if kind == "sep":
                ch = src.norm[tok.start] if tok.end > tok.start else "\n"
                if state["list"] and ch in "、," and clauses[-1] and clauses[-1][-1][0].rstrip().endswith(":") and \
                        src.original[clauses[-1][-1][1]:clauses[-1][-1][2]].rstrip().endswith(("は", ":", "：")):
                    continue  # 狙いは、城戸さん: the comma after the label, before its first name (北岡さんを攻撃、: a list's)
                if state["list"] and (ch in "、・," or (ch in " \u3000" and clauses[-1] and clauses[-1][-1][1] in self._raw and
                                                       (nxt_name := next((t for t in tokens[index + 1:] if t.kind != "sep"), None)) is not None
                                                       and nxt_name.kind in ("unknown", "symbol")
                                                       and self._names_one(src.norm[nxt_name.start:nxt_name.end]))):
                    put(",", tok)  # 攻撃 城戸　蓮: names listed with spaces
                elif ch in "/;。!?！？\n" or (ch == "." and src.norm[tok.end:tok.end + 1] in (" ", "\u3000", "\n", "")):
                    close()  # the end of a sentence ends the clause, whatever it waited for (Sword Vent. If he…)
                    self._their = False  # and what 相手の said of (相手の移動は阻止しません。\nガードベント: the card is mine)
                elif (ch in ":" or ch in " \u3000") and (current := "".join(p for p, _s, _e in clauses[-1])).startswith("超回避") and \
                        any(c.isdigit() for c in current) and (
                            (_SCOPE_START.match(src.norm, tok.end) or _body_by_reading(src.norm[tok.end:].lstrip()[:2]))
                            if ch in ":" else _SCOPE_FOLLOWS.match(src.norm, tok.end)):
                    end = min([k for k in (src.norm.find(c, tok.end) for c in "/\n。、") if k >= 0] or [len(src.norm)])
                    put(": " + self._scope(src.norm[tok.end:end].strip(), tok.end), tok)  # 超回1:庇うときだけ — its scope
                    skip_until = end
                    close()
                elif ch in ":" and state["open"]:
                    continue
                elif ch in ":" and clauses[-1] and clauses[-1][-1][0] in ("近寄る", "離れる", "近へ", "中へ", "遠へ"):
                    put(": ", tok)  # 離れる：ゾルダ — the one to move against
                    state["open"] = state["list"] = True
                elif clauses[-1] and not state["open"]:
                    close()
                continue
            if kind == "function" and raw(tok) in ("か", "or", "または", "もしくは", "それか") and clauses[-1] and \
                    clauses[-1][-1][0] in self.card_names and nxt is not None and nxt.word is not None and \
                    str(nxt.word.concept).startswith("card:"):
                line, column, shown = src.where(tok.start, nxt.end)
                self.problems.append(Problem("どちらのカードか決まっていません（「か」で二つのカードが書かれています）。",
                                             line=line, column=column, text=shown, hint="使うカードを一つに決めて書いてください。"))
                continue
            if kind in ("function", "drop", "unknown") and state["list"] and raw(tok).strip().lower() in (
                    "then", "and", "or", "次に", "その次", "続いて", "いなければ", "だめなら", "無理なら", "届かなければ"):
                put(",", tok)  # target Zolda then Ryuki: the next in the priority list
                continue
            if kind in ("function", "laugh", "comment", "anchor", "drop", "label", "flavour"):
                if kind == "label":
                    close()
                continue
            if kind == "number":
                if "".join(p for p, _s, _e in clauses[-1]).startswith(("超回避", "隙狙い")) or state["open"]:
                    put(" " + raw(tok) + " ", tok)
                else:
                    pending.append((raw(tok), tok))  # HPを2点使って超回避: the number before its keyword
                continue
            if kind == "negation":
                last = clauses[-1][-1][0] if clauses[-1] else ""
                if previous_significant is not None and previous_significant.word is not None and \
                        str(previous_significant.word.concept) == "mention:" and \
                        raw(previous_significant).startswith(("カード", "card")) and raw(tok) in _NOT_USING:
                    line, column, shown = src.where(previous_significant.start, tok.end)
                    self.notes.append(Problem("を「能動カードなし」と読みました。", line=line, column=column, text=shown))
                    self._said_no_card(line, column, shown)
                    continue  # カードは今回は使いません: no card (as no card written)
                if last_attack is not None and last_attack is previous_significant:
                    close()
                    put("攻撃しない", last_attack)  # 攻撃をしないで: the attack word, then its negation
                    close()
                    continue
                if last.strip() in ("攻撃",):
                    clauses[-1][-1] = ("攻撃しない", *clauses[-1][-1][1:])
                elif last.strip() in ("阻止する",):
                    clauses[-1][-1] = ("阻止しない", *clauses[-1][-1][1:])
                else:
                    line, column, shown = src.where(tok.start, tok.end)
                    self.problems.append(Problem("打ち消しの語（しない・使わない）は読めません。使わないカードや、しない行動は書かないでください。",
                                                 line=line, column=column, text=shown,
                                                 hint="することだけを書きます（阻止しない・攻撃しない は書けます）。"))
                continue
            word = tok.word
            if word is None and raw(tok) in ("→", "->", "⇒", ">", "＞") and clauses[-1] and \
                    "".join(p for p, _s, _e in clauses[-1]).startswith(("受動", "passive")):
                put("なら", tok)  # 受動：攻撃→GV
                state["open"] = True
                continue
            if word is None and raw(tok) in ("→", "->", "⇒", ">", "＞", "then") and state["list"]:
                put(",", tok)  # 攻撃：蓮→城戸 / 北岡＞城戸: the next in the priority list
                continue
            if word is None and raw(tok) in ("→", "->", "⇒", ">", "＞") and clauses[-1] and clauses[-1][-1][1] in self._names \
                    and (nxt := after.get(id(tok))) is not None and nxt.start == tok.end and \
                    (nxt.kind == "symbol" or self._is_name(raw(nxt))):
                if clauses[-1][0][0].endswith(": "):
                    put(",", tok)  # 撃:ナイト→龍騎: the next in the list
                    state["list"] = True
                continue  # ぞるだ＞りゅうき: between two names read by their readings, the order of the list
            if word is None and raw(tok) in ("→", "->", "⇒", "+", "＋") and not state["open"]:
                close()  # 寄→FV, ADV→近寄: one clause, then the next
                continue
            if word is None and all(unicodedata.category(ch) == "So" or ch in "\ufe0f\u200d" for ch in raw(tok)):
                continue  # 🔥 👊 ⬅️: decoration
            if word is None and raw(tok).strip().lower() in ("ベント", "vent", "bento", "べんと") and previous_significant is not None \
                    and previous_significant.word is not None and str(previous_significant.word.concept).startswith("card:"):
                continue  # ストライク　ベント: the card's name written in two
            if word is None and raw(tok).strip().lower() in _SPOKEN_NUMBERS and \
                    (current := "".join(p for p, _s, _e in clauses[-1])).startswith(("超回避", "隙狙い")) and \
                    not any(ch.isdigit() for ch in current):
                said_number = raw(tok).strip().lower()
                put(f" {_SPOKEN_NUMBERS[said_number]} ", tok)  # sukinerai ichi, 超回避ふたつ
                if kana.has_kanji(said_number) and said_number not in ("一つ", "二つ", "三つ"):  # 位置: an IME's kanji, said
                    line, column, shown = src.where(tok.start, tok.end)
                    self.notes.append(Problem(f"を数の{_SPOKEN_NUMBERS[said_number]}と読みました。", line=line, column=column, text=shown))
                continue
            if word is None and len(self._roster) == 2 and _BY_WHOM.match(src.norm, tok.end) and self._is_name(raw(tok).strip()):
                line, column, shown = src.where(tok.start, tok.end)  # 刃さんに攻撃されたら: by whom — a duel's one opponent
                self.notes.append(Problem("は攻撃してくる相手として読みました（相手は一人です）。", line=line, column=column, text=shown))
                continue
            if word is None:  # a name, or a word lark will name in its problem
                written_name = raw(tok).strip().lower()
                if tok.candidates:
                    line, column, shown = src.where(tok.start, tok.end)
                    names = "」「".join(dict.fromkeys(w.shown for w in tok.candidates))
                    self.problems.append(Problem("読みの近い語が２つ以上あり、どれか決まりません。", line=line, column=column,
                                                 text=shown, hint=f"「{names}」のどれかを書いてください。"))
                    continue
                if written_name in ("him", "her", "them") and named:
                    put(("攻撃: " if not clauses[-1] else ""), tok)  # nasty vent on him: the one named before
                    clauses[-1].append(named[-1])
                    close()
                    continue
                if self._english_target(clauses, said_before, span(tok)[0]):
                    put(": ", tok)  # move closer to Zolda / get away from Ren: the one to move against
                    state["open"] = state["list"] = True
                elif clauses[-1] and not state["open"] and not clauses[-1][-1][0].endswith(" "):
                    close()
                written = raw(tok)
                if written.startswith(("←", "→", "⇒") if not state["list"] else ("←",)) and len(written) > 1 and \
                        self._is_name(written[1:]):
                    tok = Token(tok.start + 1, tok.end, tok.kind)  # 遠へ←城戸, ナスティ→北岡: the arrow points at whom
                    written = raw(tok)
                kana_after = tokens[index + 1] if index + 1 < len(tokens) else None
                if kana_after is not None and kana_after.kind == "function" and kana_after.start == tok.end and \
                        kana_after.end - kana_after.start == 1 and not self._is_name(written) and \
                        self._is_name(written + raw(kana_after)):
                    tok = Token(tok.start, kana_after.end, tok.kind)  # 内と: ないと, ナイト — one name, kana and all
                    written, skip_until = raw(tok), kana_after.end
                if state["list"] and _PRIORITY_ARROW.search(written):
                    written = _PRIORITY_ARROW.sub(",", written)  # 攻撃：蓮→城戸: a priority list
                put(written, tok)
                self._raw.add(span(tok)[0])
                if span(tok)[0] in self._names or self._is_name(written):
                    self._names.add(span(tok)[0])
                if written_name not in ("him", "her", "them"):
                    named.append(clauses[-1][-1])
                    named_at.append((clauses[-1][-1], tok.end))
                if clauses[-1] and clauses[-1][0][0].startswith("庇う") and len(clauses[-1]) >= 2:
                    close()  # kabau Ren, guard vent: 庇う takes one name
                continue
            if tok.corrected:
                line, column, shown = src.where(tok.start, tok.end)
                self.notes.append(Problem(f"を「{word.shown}」と読みました。", line=line, column=column, text=shown))
            role, value = word.value if isinstance(word.value, tuple) else ("head", word.value)
            following_kana = tokens[index + 1] if index + 1 < len(tokens) else None
            if raw(tok).endswith("し") and following_kana is not None and following_kana.kind == "function" and \
                    following_kana.start == tok.end and raw(following_kana) == "な" and \
                    not ("ぁ" <= src.norm[following_kana.end:following_kana.end + 1] <= "ゖ"):
                line, column, shown = src.where(tok.start, following_kana.end)  # 阻止しな: しない cut short
                stem = raw(tok)[:-1]
                self.problems.append(Problem("は打ち消し（しない）が途中で切れているように読めます。", line=line, column=column,
                                             text=shown, hint=f"「{stem}しない」か「{stem}する」と書いてください。"))
                passed.add(id(following_kana))
                continue
            if role == "head" and value == "" and any(k in raw(tok).lower() for k in ("カード", "能動", "card")):
                self._said_no_card(*src.where(tok.start, tok.end))  # カードは使いません, カードなし: no card
                continue
            nxt = after.get(id(tok))
            if role == "attack":
                last_attack = tok
                following = after.get(id(nxt)) if nxt is not None else None
                if nxt is not None and nxt.word is not None and nxt.word.value == ("head", "受け") and following is not None \
                        and following.word is not None and isinstance(following.word.value, tuple) and following.word.value[0] == "nara":
                    passed.add(id(nxt))  # 攻撃を受けたときは: being hit, the condition — not 受け, the parry
                    nxt = following
                self._their = False  # 相手の攻撃は…: the opponent's attack, which every evasion answers
                if clauses[-1] and (clauses[-1][-1][0].strip() in ("if", "なら") or
                                    "".join(p for p, _s, _e in clauses[-1]).strip() == "受動:"):
                    put("攻撃", tok)  # guard vent if attacked
                    continue
                if nxt is not None and nxt.word is not None and isinstance(nxt.word.value, tuple) and nxt.word.value[0] == "nara":
                    if "".join(p for p, _s, _e in clauses[-1]).strip() in ("受動:",):
                        put("攻撃", tok)  # 受動：攻撃なら…
                    else:
                        close()
                        put("受動: 攻撃", tok)
                    continue
                if _ATTACKED_IF.match(src.norm, tok.end) and _COVERS_AFTER.match(src.norm, tok.end):
                    # 蓮さんが北岡さんを狙ったら、北岡さんを庇います: an attack said as the condition of a cover — the
                    # attacker's, not the order's: its names are left for the cover to read (the one covered)
                    clauses[:] = [c for c in clauses if not (len(c) == 1 and c[0][1] in self._raw and self._is_name(c[0][0]))]
                    continue
                between_words = [t for t in tokens if tok.end <= t.start < (nxt.start if nxt is not None else tok.end)]
                if state["list"] and clauses[-1] and clauses[-1][0][0] == "攻撃: ":
                    close()  # 北岡さんを狙います: the verb ends the list it was said of
                    continue
                if nxt is not None and nxt.kind == "unknown" and nxt.word is None and not nxt.candidates and \
                        (not self._roster or self._is_name(raw(nxt))) and \
                        all(t.kind in ("sep", "function") and src.norm[t.start:t.end] not in "。\n!?！？" for t in between_words):
                    close()  # 攻撃ゾルダ, kōgeki: Kitaoka: the name after the attack word
                    put("攻撃: ", tok)
                    state["open"] = state["list"] = True
                    continue
                name = self._lone_name(clauses)
                if name is not None:
                    # 龍騎さん、ナイトさんの順で狙います: the names said one by one before the verb, a list
                    earlier: list[tuple[str, int, int]] = []
                    while len(clauses) >= 2 and len(clauses[-2]) == 1 and clauses[-2][0][1] in self._raw \
                            and clauses[-2][0][0].strip() and self._is_name(clauses[-2][0][0]):
                        earlier.insert(0, clauses.pop(-2)[0])
                    listed = [piece for first in earlier for piece in (first, (",", first[1], first[2]))]
                    clauses[-1] = [("攻撃: ", (earlier or [name])[0][1], (earlier or [name])[0][2]), *listed, name]
                    target = "".join(p for p, _s, _e in clauses[-1])
                    if any("".join(p for p, _s, _e in c) == target for c in clauses[:-1]):
                        clauses[-1] = []  # 北岡を狙う, said again: one target
                    close()
                elif self._moved_against is not None and not any(c and c[0][0] == "攻撃: " for c in clauses):
                    close()  # ナイトに近づいて…斬りかかる: the one approached
                    put("攻撃: ", tok)
                    clauses[-1].append(self._moved_against)
                    for also in self._moved_also:
                        clauses[-1].extend([(", ", also[1], also[1]), also])
                    close()
                    if len(self._roster) > 2:  # said, not guessed silently: the default would be the nearest
                        line, column, shown = src.where(tok.start, tok.end)
                        whom = "、".join(p[0].strip() for p in (self._moved_against, *self._moved_also))
                        self.notes.append(Problem(f"の相手が書かれていないので、移動の相手（{whom}）を攻撃すると読みました。", line=line,
                                                  column=column, text=shown, severity="warning",
                                                  hint="別の相手を攻撃するなら「攻撃: 名前」と書いてください。"))
                continue
            if role == "nara" and raw(tok).strip().lower() in ("vs", "vs.", "versus", "against") and nxt is not None and \
                    nxt.kind == "unknown" and (src.span(nxt.start, nxt.end)[0] in self._names or self._is_name(raw(nxt))):
                continue  # 遠(vsナイト): against whom the move is, no condition
            if role == "nara" or (role == "their" and raw(tok).lower().startswith(("if ", "when "))):
                if not clauses[-1] and len(clauses) > 1 and clauses[-2] and \
                        not re.search(r"[。!?！？\n]|\.\s", src.original[clauses[-2][-1][2]:span(tok)[0]]):
                    clauses.pop()  # guard vent if attacked: the condition belongs to the clause before (not
                    # across a sentence's end: Sword Vent. If he uses Final Vent -> Reflect Vent)
                current = "".join(p for p, _s, _e in clauses[-1])
                conditional = bool(current) and (current.split(" ")[0] in cards or current.startswith("攻撃"))
                if conditional and not current.startswith(("受動", "passive")):
                    clauses[-1].insert(0, ("受動: ", *span(tok)))
                if not current.endswith(("なら", " if ")):
                    put(" if " if value == "if" or role == "their" else "なら", tok)
                state["open"] = True
                self._their = role == "their"  # guard vent if they attack: the move or card after is theirs
                continue
            if role in ("mention", "monster"):
                continue  # カード: says nothing by itself, but a sentence that says it is no chat
            if role == "their":  # 相手が近づいてくるのは止めない: the move after it is the opponent's
                said_now = "".join(p for p, _s, _e in clauses[-1])
                if said_now in ("近寄るなら", "離れるなら"):
                    continue  # 近寄ってくる相手は: the opponent of the move just read as theirs
                self._their = True
                continue
            if role == "rule":  # 一番遠い人に近づく: the movement target, as a name would be
                if self._english_target(clauses, said_before, span(tok)[0]):
                    put(": " + value, tok)  # move closer to whoever is farthest
                    self._raw.add(span(tok)[0])
                    close()
                    continue
                elif clauses[-1] and not state["open"]:
                    close()
                put(value, tok)
                self._raw.add(span(tok)[0])
                continue
            if role == "refer":
                line, column, shown = src.where(tok.start, tok.end)
                self.problems.append(Problem("前のターンの行動を指す語は読めません（行動は毎ターン書きます）。", line=line,
                                             column=column, text=shown, hint="例：近寄る / ソードベント"))
                continue
            if role == "evade":  # 防御で避ける: the pool of the evasion; without one, how (passed over)
                if pools:
                    close()
                    put("回避: " + pools.pop()[0], tok)
                    close()
                continue
            if role == "pool":
                current = "".join(p for p, _s, _e in clauses[-1])
                if current.startswith("回避"):
                    put(value, tok)
                    close()
                else:
                    pools.append((value, tok))  # 防御力で回避: the pool before its keyword
                continue
            if role == "keyword":
                if value == "攻撃:" and "".join(p for p, _s, _e in clauses[-1]).strip() == "受動:":
                    put("攻撃", tok)  # 受:攻→GV — the attack is the 受動 card's condition
                    continue
                if value == "攻撃:" and raw(tok).strip().lower() == "on" and self._english_target(clauses, "on"):
                    put(": ", tok)  # close in on Kitaoka: the one to move against
                    state["open"] = state["list"] = True
                    continue
                if value == "回避:" and pools:
                    close()
                    put("回避: " + pools.pop()[0], tok)
                    close()
                    continue
                if value in ("超回避", "隙狙い") and pending:
                    close()
                    number, _at = pending.pop()
                    put(f"{value} {number}", tok)
                    state["open"] = True  # 超回避 2: 達成値5以上なら may follow
                    continue
                if value == "庇う":
                    name = self._lone_name(clauses)
                    if name is not None:
                        clauses[-1] = [("庇う ", *span(tok)), name]
                        close()
                        continue
                    following = after.get(id(tok))
                    names = list(dict.fromkeys(n[0] for n in named))
                    # 城戸さんが狙われたら庇う: the one said to be attacked, just before (any others named)
                    guarded = next((part for part, end in reversed(named_at)
                                    if end <= tok.start and _COVER_WHEN.fullmatch(src.norm[end:tok.start])), None)
                    if guarded is not None or (len(names) == 1 and (following is None or following.word is not None)):
                        # 城戸さんが狙われたら、ソードベントで庇ってあげたい: the one name of the post
                        where_named = guarded or next(n for n in named if n[0] == names[0])
                        kept_clauses = []
                        for c in clauses:
                            if guarded is not None and len(c) == 1 and c[0] != guarded and c[0][0].strip() == guarded[0].strip():
                                continue  # 北岡さんを守りたいので…北岡さんが狙われたら庇います: the one covered, said before
                            c = [p for p in c if p != where_named]
                            while c and c[0][0].strip() in ("なら", "if"):
                                c = c[1:]  # 城戸さんが狙われたら: the condition was the name's
                            said_c = "".join(p for p, _s, _e in c)
                            if said_c.startswith("受動: ") and said_c.endswith("なら"):
                                continue  # 蓮さんが攻撃された場合は…庇います: a condition with no card, the name's
                            if c:
                                kept_clauses.append(c)
                        clauses[:] = kept_clauses + [[("庇う ", *span(tok)), where_named]]
                        close()
                        continue
                if value == "受動:" and state["open"] and "".join(p for p, _s, _e in clauses[-1]).rstrip().endswith("なら"):
                    continue  # ファイナルベントを使ってきたら、受動カードでガードベント: the condition says it already
                if value == "受動:" and nxt is not None and src.norm[tok.end:nxt.start].strip().startswith(("で", "に")):
                    last = clauses[-1] or (clauses[-2] if len(clauses) > 1 else [])
                    between = src.original[last[0][2]:span(tok)[0]] if last else ""
                    if len(last) == 1 and last[0][0] in self.card_names and not re.search(r"[\n。.!！]", between) \
                            and re.search(r"[をは]", between):  # (SV\n受動カードでRVを用意: the card above is no 受動 card)
                        last[0] = ("受動: " + last[0][0], last[0][1], last[0][2])  # ガードベントを受動で使います
                        close()
                        continue
                close()
                put(value + (" " if not value.endswith(":") else " "), tok)
                state["open"] = True
                state["list"] = value == "攻撃:"
                continue
            # a head: a move, a card, 阻止, 攻撃しない, 受け
            if value in _MOVES and value:
                # 城戸\n離れるなら阻止しない: the name on the line above, or the move of a condition, is no one to move against
                said_of = src.norm[tok.end:tok.end + 2] == "なら" or src.norm[tok.end:tok.end + 1] == ":" or \
                    self._name_of_the_line_above(clauses, span(tok)[0])  # 離れるなら…, 離:城戸 (its own), 城戸\n離れる
                name = self._lone_name(clauses) if not said_of else None
                if name is not None and value in ("近寄る", "離れる"):
                    clauses[-1] = [(value + ": ", *span(tok)), name]
                    if value == "近寄る" and name[0].strip() not in _RULES:  # a rule (一番遠い人) is no one to attack
                        if self._moved_against is None:
                            self._moved_against = name
                        else:  # 蓮さんに近づきます。近寄れないときは北岡さんに: the next one, if the first cannot be
                            self._moved_also.append(name)
                    close()
                    continue
            if state["list"]:
                close()  # the names end where an order word starts
            after_it = tokens[index + 1] if index + 1 < len(tokens) else None
            if value in ("近寄る", "離れる") and after_it is not None and after_it.start == tok.end and after_it.word is not None \
                    and isinstance(after_it.word.value, tuple) and after_it.word.value[1] in ("阻止する", "阻止しない"):
                if raw(tok).endswith("る"):  # 離れる阻止しない: a list run together (the verb ends its clause)
                    line, column = position(src.original, span(tok)[0])
                    self.notes.append(Problem(f"と「{raw(after_it)}」を二つの項目と読みました。", line=line, column=column,
                                              text=src.original[span(tok)[0]:span(tok)[1]], severity="warning",
                                              hint=f"相手が{value}ときの阻止なら「{value}なら{after_it.word.value[1]}」と書いてください。"))
                else:
                    self._their = True  # 近寄り阻止なし: the blocking of an approach — the opponent's move
            if value in ("近寄る", "離れる") and not self._their:
                around = [t for t in tokens[index + 1:index + 7] if t.kind != "sep"]
                k = 0
                while k < len(around) and around[k].kind in ("function", "unknown") and raw(around[k]) in _MOVER:
                    k += 1
                if 0 < k < len(around) and any(raw(t) in _MOVER_PERSON for t in around[:k]) and around[k].word is not None \
                        and isinstance(around[k].word.value, tuple) and around[k].word.value[1] in ("阻止する", "阻止しない"):
                    self._their = True  # 離れていく方は阻止しません: the one who moves — the opponent's move
                    passed.update(id(t) for t in around[:k] if t.kind == "unknown")
                ahead = [t for t in tokens[index + 1:index + 4] if t.kind != "sep"]
                if len(ahead) >= 2 and ahead[0].kind == "function" and raw(ahead[0]) in ("くる", "てくる", "来る") and \
                        ahead[1].word is not None and isinstance(ahead[1].word.value, tuple) and ahead[1].word.value[0] == "their":
                    self._their = True  # 近寄ってくる相手は止めません: the opponent who moves
            if self._their and value in ("近寄る", "離れる"):
                self._their = False  # the opponent's move: the condition of the answer (阻止) that follows
                close()
                put(value + "なら", tok)
                state["open"] = True
                continue
            band = ("近へ", "中へ", "遠へ")
            if value in _MOVES and clauses[-1] and clauses[-1][-1][0] in _MOVES and not state["open"] and (
                    value in band) != (clauses[-1][-1][0] in band) and \
                    frozenset((value, clauses[-1][-1][0])) not in _DISAGREE:  # 近寄って遠へ: two moves
                said = self.src.original[clauses[-1][-1][1]:clauses[-1][-1][2]]
                if value in band:  # 遠距離まで離れる: the band says where, the verb only how
                    clauses[-1][-1] = (value, *clauses[-1][-1][1:])
                elif said.startswith(("遠く", "近く")) and not said.startswith(("遠くへ", "近くへ")):
                    # 遠くまで離れる: "far" is how, the verb says which way (遠くへ逃げる: to 遠, as 遠へ)
                    clauses[-1][-1] = (value, *span(tok))
                continue
            card_id = word.concept[5:] if word.concept.startswith("card:") else None
            conditioned = nxt is not None and nxt.word is not None and isinstance(nxt.word.value, tuple) and \
                nxt.word.value[0] in ("nara", "their")  # GV if they attack: a second card, with its condition
            said_last = clauses[-1] or (clauses[-2] if len(clauses) > 1 else [])
            in_brackets = src.norm[:tok.start].rstrip().endswith(("(", "（")) and \
                "".join(p for p, _s, _e in said_last).startswith("受動: ")  # 受動 RV（FVのみ）: its condition
            if card_id and re.match(r"\s*の\s*(?:受け|うけ)", src.norm[tok.end:]) and \
                    any(p == value for clause in clauses for p, _s, _e in clause[:1]):
                continue  # ソードベントの受けで: the card said of its 受け, the card already played
            if card_id and not state["open"] and not conditioned and not in_brackets and not self._their and \
                    any(p == value for clause in clauses for p, _s, _e in clause[:1]):  # (相手のアドベントには: its condition)
                line, column, shown = src.where(tok.start, tok.end)  # ソードベントで剣を出して: one card, said twice
                self.notes.append(Problem(f"は前の「{value}」と同じカードとして読みました（能動カードは１枚です）。", line=line,
                                          column=column, text=shown, severity="warning"))
                continue
            previous = clauses[-1] or (clauses[-2] if len(clauses) > 1 else [])
            if card_id and not state["open"] and previous and "".join(p for p, _s, _e in previous).startswith("受動: ") and \
                    "".join(p for p, _s, _e in previous)[len("受動: "):].split("なら")[-1].strip() in self.card_names and \
                    src.original[previous[-1][2]:span(tok)[0]].strip(" \u3000") in ("、", ",", "，"):
                close()  # 受:FVならRV、GV: the next card of the 受動 list, one more 受動 card
                put("受動: " + value, tok)
                close()
                continue
            if self._their and card_id and clauses[-1] and clauses[-1][-1][0] == " if ":
                self._their = False  # reflect vent if they final vent: the condition, after its " if "
                put(value, tok)
                state["open"] = False
                continue
            if self._their and card_id:
                self._their = False  # 相手のファイナルベントにはリフレクトベント: the opponent's card is the condition
                close()
                put(f"受動: {value}なら", tok)
                state["open"] = True
                continue
            if card_id and self.phase.get(card_id) == "passive" and not (
                    clauses[-1] and clauses[-1][0][0].startswith(("受動", "passive"))) and not state["open"]:
                close()  # a card that can only be 受動 (リフレクトベント), written alone: its 受動 rule
                line, column, shown = src.where(tok.start, tok.end)
                self.notes.append(Problem(f"は受動カードなので「受動: {value}」と読みました。", line=line, column=column,
                                          text=shown))
                put("受動: " + value, tok)
                close()
                continue
            if value == "阻止する" and not state["open"]:
                continue  # blocking is what a fighter does anyway (止めます after a card adds nothing)
            if state["open"]:
                current = "".join(p for p, _s, _e in clauses[-1])
                if card_id and current.startswith("受動: ") and current != "受動: " and "なら" not in current \
                        and " if " not in current:
                    put("なら", tok)  # 受:攻撃GV — the condition, then its card
                put(value, tok)  # what the keyword or the condition waited for
                state["open"] = False
                continue
            if clauses[-1]:
                close()
            if value:
                put(value, tok)
        for number, at in pending:  # a number no keyword took: what is it for?
            line, column, shown = src.where(at.start, at.end)
            self.problems.append(Problem("数だけでは何の数か分かりません。", line=line, column=column, text=shown,
                                         hint="例：超回避 2、隙狙い 1"))
        for pool, at in pools:
            line, column, shown = src.where(at.start, at.end)
            self.problems.append(Problem("能力値だけでは何に使うのか分かりません。", line=line, column=column, text=shown,
                                         hint=f"回避に使うなら「回避: {pool}」と書いてください。"))
        for number, t_start, t_end in thresholds:
            evading = [c for c in clauses if c and c[0][0].startswith("超回避")]
            if len(evading) == 1 and not any("以上" in p for p, _s, _e in evading[0]):
                clause = evading[0]
                while len(clause) > 1 and clause[-1][0].strip() in ("if", "なら", ""):
                    clause.pop()  # super evasion 3 if (they roll) 6 or more
                clause[0] = (clause[0][0].rstrip(), clause[0][1], clause[0][2])
                clause.append((f": 達成値{number}以上なら", t_start, t_end))
            else:
                line, column = position(src.original, t_start)
                self.problems.append(Problem("「以上」の条件が何に付くのか分かりません。", line=line, column=column,
                                             text=src.original[t_start:t_end],
                                             hint="超回避に付けるなら「超回避 2: 達成値5以上なら」と書いてください。"))
        if self._roster:
            clauses = self._fallback_lists(self._place_names(clauses))
        said_of = ["".join(p for p, _s, _e in c) for c in clauses]
        conditioned = {t.split("なら", 1)[1] for t in said_of if t.startswith("受動: ") and "なら" in t}
        # 受動カードでリフレクトベントとガードベントを用意します。…それ以外の攻撃にはガードベントです: a card named
        # before the condition that makes it a 受動 card (with 受動 or, after と, bare) is that 受動 card
        passive_named = {k for k, t in enumerate(said_of) if t.startswith("受動: ") and "なら" not in t and t[len("受動: "):] in conditioned}
        passive_named |= {k for k, t in enumerate(said_of) if t in conditioned and t in self.card_names and k - 1 in passive_named
                          and "と" in src.original[clauses[k - 1][-1][2]:clauses[k][0][1]]
                          and any(u.endswith("なら" + t) for u in said_of[k + 1:])}
        for k in sorted(passive_named):
            card = said_of[k].removeprefix("受動: ")
            line, column = position(src.original, clauses[k][-1][1])
            self.notes.append(Problem(f"「{card}」は、後で書かれた条件で使う受動カードとして読みました。", line=line, column=column))
        clauses = [c for k, c in enumerate(clauses) if k not in passive_named]
        clauses = _evasion_said_of_attack(clauses)
        clauses = self._one_move(clauses)
        # 隙狙いを宣言します。攻撃力を2点マイナスして隙狙い: the number said after, in the page's words
        numbered = {t.split()[0] for t in ("".join(p for p, _s, _e in c).strip() for c in clauses)
                    if t.startswith(("隙狙い ", "超回避 ")) and any(ch.isdigit() for ch in t)}
        clauses = [c for c in clauses if "".join(p for p, _s, _e in c).strip() not in numbered]
        # ガードベントを受動で使います。攻撃されそうなときにガードベントです: the second says when
        merged: list[list[tuple[str, int, int]]] = []
        seen_clauses: set[str] = set()
        for clause in clauses:
            text_of = "".join(p for p, _s, _e in clause)
            if (text_of.startswith(("攻撃: ", "庇う", "受け", "攻撃しない", "阻止しない", "隙狙い", "超回避")) or text_of in _MOVES) \
                    and " ".join(text_of.split()) in seen_clauses:
                continue  # 狙うのもナイトさんで, 蓮さんを庇いたいので…蓮さんを庇います: said again
            seen_clauses.add(" ".join(text_of.split()))
            said = "".join(p for p, _s, _e in clause)
            if len(clause) == 1 and said in _MOVES[:2] and merged and \
                    "".join(p for p, _s, _e in merged[-1]) == "阻止しない" and \
                    self.src.original[merged[-1][-1][2]:clause[0][1]].rstrip().endswith(("(", "（")):
                merged[-1] = [(said + "なら", clause[0][1], clause[0][2]), *merged[-1]]  # 阻止なし(寄りのみ)
                continue
            if len(clause) == 1 and said in self.card_names and merged and \
                    "".join(p for p, _s, _e in merged[-1]).startswith("受動: ") and \
                    "なら" not in "".join(p for p, _s, _e in merged[-1]) and \
                    self.src.original[merged[-1][-1][2]:clause[0][1]].rstrip().endswith(("(", "（")):
                clause = [("受動: ", clause[0][1], clause[0][1]), (said + "なら", clause[0][1], clause[0][2])]
                said = "受動: " + said + "なら"  # こんふぁいん(ふぁいなるに): the card in brackets is its condition
            said_before_it = " ".join("".join(p for p, _s, _e in merged[-1]).split()) if merged else ""
            squeezed = " ".join(said.split())
            if squeezed.startswith(("近寄るなら", "離れるなら")) and said_before_it in ("阻止しない if", "阻止する if") and \
                    clause[0][0].strip() in ("近寄るなら", "離れるなら", "近寄る", "離れる"):
                head = 1 if clause[0][0].strip().endswith("なら") else 2  # 近寄るなら, or 近寄る + なら
                merged[-1] = [(squeezed[:5], clause[0][1], clause[head - 1][2]), (said_before_it[:-3], *merged[-1][0][1:])]
                if clause[head:]:  # no block when he backs off, guard vent: what follows is a clause of its own
                    merged.append(clause[head:])
                continue  # don't block if he moves away
            if squeezed.startswith("受動: if ") and merged and said_before_it in self.card_names:
                merged[-1] = [("受動: ", *merged[-1][0][1:]), *merged[-1], *clause[1:]]  # sword vent (passive, when attacked)
                continue
            if squeezed in _MOVES[2:] and said_before_it in _RULES and \
                    re.match(r"\s*から", self.src.original[merged[-1][-1][2]:clause[0][1]]):
                merged[-1] = [(squeezed + ": ", clause[0][1], clause[0][2]), merged[-1][-1]]  # 一番近い人から遠へ
                continue
            if squeezed == "受動:" and said_before_it in self.card_names and \
                    re.match(r"\s*は\s*$", self.src.original[merged[-1][-1][2]:clause[0][1]]):
                merged[-1] = [("受動: ", merged[-1][0][1], merged[-1][0][1]), *merged[-1]]  # ガードベントは受動で
                continue
            if squeezed == "攻撃:" and merged and len(merged[-1]) == 1 and merged[-1][0][1] in self._raw and \
                    self._names_one(said_before_it) and not self.src.original[merged[-1][-1][2]:clause[0][1]].strip():
                merged[-1] = [("攻撃: ", merged[-1][0][1], merged[-1][0][1]), merged[-1][0]]  # ナイト狙い: whom to aim at
                continue
            if squeezed in self.card_names and said_before_it.startswith("受動: ") and \
                    ("なら" in said_before_it or " if " in said_before_it) and \
                    _OTHERWISE.search(self.src.original[merged[-1][-1][2]:clause[0][1]]):
                between = self.src.original[merged[-1][-1][2]:clause[0][1]]
                if re.search(r"(?:それ以外|その他|ほか|他)の(?:攻撃|こうげき)", between):
                    clause = [("受動: 攻撃なら", clause[0][1], clause[0][1]), *clause]  # それ以外の攻撃にはGV: of an attack
                    said = squeezed = "受動: 攻撃なら" + squeezed
                else:
                    clause = [("受動: ", clause[0][1], clause[0][1]), *clause]  # FVならRV、それ以外はGV: the 受動 card else
                    said = squeezed = "受動: " + squeezed
            if squeezed == "受動:" and said_before_it.startswith("受動: "):
                continue  # Guard Vent if attacked (passive): said again
            if squeezed in (">", "->", "→", "=>", "⇒") and said_before_it.startswith("if ") and said_before_it[3:] in self.card_names:
                continue  # If he uses Final Vent -> Reflect Vent: the arrow says what answers it
            if merged and said_before_it.startswith("if ") and said_before_it[3:] in self.card_names and \
                    (squeezed in self.card_names or (squeezed.startswith("受動: ") and squeezed[4:].strip() in self.card_names)):
                condition = merged.pop()
                card = squeezed[4:].strip() if squeezed.startswith("受動: ") else squeezed
                at = clause[-1]
                clause = [("受動: ", at[1], at[1]), (card, at[1], at[2]), (" if ", condition[0][1], condition[0][2]),
                          (said_before_it[3:], condition[-1][1], condition[-1][2])]
                said = "受動: " + card + " if " + said_before_it[3:]
            if said.startswith("受動: ") and said.endswith("なら") and merged and \
                    "".join(p for p, _s, _e in merged[-1]).startswith("受動: ") and \
                    "なら" not in "".join(p for p, _s, _e in merged[-1]):
                card = merged.pop()  # リフレクトベント（ファイナルベントが来たら）: the card, then its condition
                clause = clause + [(p[len("受動: "):] if p.startswith("受動: ") else p, s_, e_)
                                   for p, s_, e_ in card if p.strip() not in ("受動:",)]
            merged.append(clause)
        clauses = []
        for clause in merged:  # hold (no attack): the same standing word said twice is said once
            said = "".join(p for p, _s, _e in clause).strip()
            if said in ("攻撃しない", "受け", "阻止しない", "阻止する") and any("".join(p for p, _s, _e in c).strip() == said for c in clauses):
                line, column = position(src.original, clause[0][1])
                self.notes.append(Problem(f"は前の「{said}」と同じこととして読みました。", line=line, column=column,
                                          text=src.original[clause[0][1]:clause[-1][2]].strip() or said))
                continue
            clauses.append(clause)
        for clause in clauses:
            said = self.src.original[clause[0][1]:clause[0][2]].strip() if clause else ""
            if len(clause) > 1 and clause[0][0].rstrip(": ") in ("近へ", "遠へ") and said in ("近", "遠"):
                # 近(ゾルダ), 近:ゾルダ: boards write 近 for 近寄る (移:近, 近:最も遠い相手), and with a name it
                # is the way to move against that one; both end at 近 (近寄る goes as far as it can, and
                # 近 is the nearest band), so the reading is noted, not warned. 遠(蓮) is the band, as written.
                line, column = position(src.original, clause[0][1])
                if said == "近":
                    clause[0] = (clause[0][0].replace("近へ", "近寄る"), clause[0][1], clause[0][2])
                    self.notes.append(Problem("を「近寄る」（その相手に向かって）と読みました（近寄るも近へも近で止まります）。",
                                              line=line, column=column, text=said))
                else:
                    self.notes.append(Problem("を「遠へ」（その相手との距離帯へ）と読みました。", line=line, column=column, text=said))
        for clause in clauses:
            if not clause:
                continue
            if self._pieces:
                self._pieces.append((" / ", clause[0][1], clause[0][1]))
            self._pieces.extend(clause)

    def _one_move(self, clauses: list[list[tuple[str, int, int]]]) -> list[list[tuple[str, int, int]]]:
        """少し下がって、中距離で様子を見ます / 蓮さんから遠距離まで離れる形で: a way to move and a band
        said of one move — the band says where, the verb only how (and from whom): one move, noted."""
        def move(clause: list[tuple[str, int, int]]) -> str | None:
            head = clause[0][0].rstrip(": ") if clause else ""
            said = "".join(p for p, _s, _e in clause)
            if "なら" in said or " if " in said:
                return None  # 近寄るなら阻止しない: the opponent's move, a condition — no move of the player's
            return head if head in _MOVES else None

        moves = [k for k, c in enumerate(clauses) if move(c)]
        if len(moves) != 2:
            return clauses
        bands = [k for k in moves if move(clauses[k]) in ("近へ", "中へ", "遠へ")]
        if len(bands) != 1:
            return clauses
        band, verb = bands[0], next(k for k in moves if k != bands[0])
        if frozenset((move(clauses[verb]), move(clauses[band]))) in _DISAGREE:
            return clauses  # 近寄って遠へ: two moves that disagree, refused as two
        first, second = sorted((clauses[band][0][1], clauses[verb][0][1]))
        if any(ch in self.src.original[first:second] for ch in "/／\n"):
            return clauses  # 近寄る / 中へ: two moves written as two clauses
        kept = list(clauses[band])
        if len(kept) == 1 and len(clauses[verb]) > 1:  # 蓮さんから…遠距離まで: the one it is moved from
            kept = [(kept[0][0] + ": ", kept[0][1], kept[0][2]), *[p for p in clauses[verb][1:] if p[0].strip() != ":"]]
        line, column = position(self.src.original, clauses[verb][0][1])
        said, where_to = self.src.original[clauses[verb][0][1]:clauses[verb][0][2]], move(clauses[band])
        self.notes.append(Problem(f"と「{where_to}」を一つの移動「{where_to}」と読みました（距離帯が行き先、「{said}」はその向きです）。",
                                  line=line, column=column, text=said))
        out = []
        for k, c in enumerate(clauses):
            if k == band:
                out.append(kept)
            elif k != verb:
                out.append(c)
        return out

    def _remarks(self, tokens: list[Token], src: Text, declared: list[tuple[int, int, str]] = ()) -> list[Token]:
        """A remark in brackets after an order word of its line (（全力）, （逃げの一手）): what it
        holds is no part of the order when a word of it is unknown and it names no card, no
        fighter and no number — passed over with a note, as a GM reads past it. (（城戸から）,
        （寄りのみ）, （vsナイト） are read.)"""
        out: list[Token] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            opened = tok.kind == "sep" and src.norm[tok.start:tok.end] in "([（［" and \
                not any(s <= tok.start < e for s, e, _r in declared)  # 超回避1(本体のみ): a declaration, read
            if opened and any(t.kind == "word" for t in out if "\n" not in src.norm[t.end:tok.start]):
                close = next((k for k in range(i + 1, len(tokens)) if tokens[k].kind == "sep" and
                              src.norm[tokens[k].start:tokens[k].end] in ")]）］\n"), None)
                if close is not None and src.norm[tokens[close].start:tokens[close].end] != "\n":
                    inside = tokens[i + 1:close]
                    unknown = [t for t in inside if t.kind == "unknown" and t.word is None and not t.candidates
                               and src.span(t.start, t.end)[0] not in self._names
                               and not self._is_name(src.norm[t.start:t.end])]
                    named = any(t.kind in ("number", "symbol") or (t.word is not None and (
                        str(t.word.concept).startswith("card:") or t.word.kind == "negation")) for t in inside)
                    said = {str(t.word.concept) for t in out if t.word is not None and "\n" not in src.norm[t.end:tok.start]}
                    words = [t for t in inside if t.word is not None and t.kind in ("word", "unknown")]
                    glossed = bool(words) and all(str(t.word.concept) in said or t.word.kind != "order" for t in words) \
                        and not any(t.kind in ("number", "negation") or (t.kind == "unknown" and t.word is None) for t in inside)
                    if (unknown and not named) or glossed:  # 受け（ソードで受けます）: said again, in brackets
                        out.append(Token(tok.start, tokens[close].end, "comment"))
                        i = close + 1
                        continue
            if opened and self._aside(tokens, i, src):
                close = next(k for k in range(i + 1, len(tokens)) if tokens[k].kind == "sep" and
                             src.norm[tokens[k].start:tokens[k].end] in ")]）］")
                words = tuple(dict.fromkeys(src.norm[t.start:t.end] for t in tokens[i + 1:close] if t.word is not None and (
                    str(t.word.concept).startswith(("card:", "head:")) and t.kind in ("word", "unknown"))))
                out.append(Token(tok.start, tokens[close].end, "comment", named=words))
                i = close + 1
                continue
            out.append(tok)
            i += 1
        return out

    def _said_no_card(self, line: int, column: int, shown: str) -> None:
        """No 能動 card was said (カードは使いません): a card written too is a contradiction, named
        when the order is complete."""
        self._no_card = Problem("と書かれていますが、能動カードも書かれています。", line=line, column=column, text=shown,
                                hint="使うカードを書くか、「カードは使いません」を消してください。")

    def _scope(self, written: str, at: int) -> str:
        """超回避's scope after its number as the order language writes it: 本体のみ → 本体の攻撃だけ,
        except advent → アドベント以外, an IME's word of 本体's reading (本隊) as 本体 (noted); else as
        written (for the order language to read or to name)."""
        for run in dict.fromkeys(re.findall(r"[一-龯]{2}", written)):
            if run != "本体" and _body_by_reading(run):
                line, column = position(self.src.original, self.src.span(at + written.find(run))[0])
                self.notes.append(Problem("を「本体」と読みました。", line=line, column=column, text=run))
                written = written.replace(run, "本体")
        if "意外" in written:  # 超回避1：アドベント意外 — an IME's 以外
            line, column = position(self.src.original, self.src.span(at + written.find("意外"))[0])
            self.notes.append(Problem("を「以外」と読みました。", line=line, column=column, text="意外"))
        m = _SCOPE_WRITTEN.fullmatch(written)
        if m:
            who = m.group(1).lower()
            who = "本体" if re.fullmatch(_BODY, who) else "アドベント" if re.fullmatch(_ADVENT, who, re.I) else who
            return f"{_SCOPE_WORDS.get(who, '庇うとき')}{'以外' if m.group(2).lower() in ('以外', '意外', 'igai') else 'だけ'}"
        m = _SCOPE_ENGLISH.fullmatch(written)
        if m:
            said = m.group(2).lower()
            scope = "アドベント" if said.startswith(("advent", "monster")) else "庇うとき" if said.startswith("cover") else "本体の攻撃"
            return scope + ("以外" if m.group(1).lower() in ("except", "not") else "だけ")
        return written

    def _same_one_in_brackets(self, tokens: list[Token], src: Text) -> list[Token]:
        """A fighter's other name in brackets after their name (ゾルダさん（北岡さん）): one fighter,
        said twice; the brackets are passed over (with a note)."""
        fighters = {name: {"character": character} for name, character in self._roster}

        def who(tok: Token) -> str | None:
            if tok.kind not in ("unknown", "symbol"):
                return None
            bare = src.norm[tok.start:tok.end].strip()
            for courtesy in _COURTESY:
                bare = bare[:-len(courtesy)] if bare.endswith(courtesy) and len(bare) > len(courtesy) else bare
            found = find_fighter(bare, fighters, self._data) if bare else []
            return found[0] if len(found) == 1 else None

        out: list[Token] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            out.append(tok)
            first = who(tok) if self._roster else None
            j = _past_courtesy(tokens, i + 1, src) if first is not None else i + 1
            out.extend(tokens[i + 1:j])
            if first is not None and j + 2 < len(tokens) and tokens[j].kind == "sep" and src.norm[tokens[j].start] in "(（":
                k = _past_courtesy(tokens, j + 2, src)
                if k < len(tokens) and tokens[k].kind == "sep" and src.norm[tokens[k].start] in ")）" and \
                        who(tokens[j + 1]) == first:
                    line, column, shown = src.where(tokens[j].start, tokens[k].end)
                    self.notes.append(Problem("は前の名前と同じ相手として読みました。", line=line, column=column, text=shown))
                    i = k + 1
                    continue
            i = j
        return out

    def _whom_in_brackets(self, tokens: list[Token], src: Text) -> list[Token]:
        """中距離に行きます（相手は北岡さんです）: a remark in brackets after a move that says whom it is
        against is its target (it was passed over as a remark, and the move had no one)."""
        out: list[Token] = []
        for tok in tokens:
            m = _WHOM.fullmatch(src.norm[tok.start:tok.end]) if tok.kind == "comment" else None
            before = next((t for t in reversed(out) if t.kind not in ("sep", "function")), None)
            if m and before is not None and before.word is not None and str(before.word.concept) in _MOVE_CONCEPTS \
                    and self._is_name(m.group(1)):
                start = tok.start + m.start(1)
                out.append(Token(start, tok.start + m.end(1), "unknown"))
                self._names.add(src.span(start, start + 1)[0])
                continue
            out.append(tok)
        return out

    def _passive_by_what_follows(self, tokens: list[Token], src: Text, lex: Lexicon) -> list[Token]:
        """A run of kana as close to 受動 as to a card (しゅとう: じゅどう with its marks dropped, or シュート
        with its long vowel moved) followed by a condition and its card (ふぁいなるならこんふぁいん): only the
        label makes an order of it — read as 受動, warned with the other reading."""
        label = lex.exact.get(kana_fold("受動:"))
        out: list[Token] = []
        i = 0
        while i < len(tokens):
            found = None
            for j in range(min(i + 3, len(tokens) - 1), i - 1, -1):
                run = tokens[i:j + 1]
                if label is None or any(t.kind == "sep" or t.end == t.start for t in run) or \
                        not any(t.kind == "unknown" for t in run) or any(b.start != a.end for a, b in zip(run, run[1:])):
                    continue
                said = src.norm[run[0].start:run[-1].end]
                if not all("ぁ" <= ch <= "ゖ" or ch == "ー" for ch in said) or len(said) < 3:
                    continue
                word, near = lex.correction(said)
                rivals = {str(w.concept) for w in near}
                if word is None and "keyword:受動:" in rivals and len(rivals) == 2:
                    ahead = [t for t in tokens[j + 1:j + 5] if not (t.kind == "sep" and not src.norm[t.start:t.end].strip())]
                    concepts = [str(t.word.concept) if t.word is not None else "" for t in ahead[:3]]
                    if len(concepts) >= 2 and concepts[0].startswith(("card:", "attack:")) and concepts[1].startswith("nara:"):
                        found = j
                        break
            if found is None:
                out.append(tokens[i])
                i += 1
                continue
            start, end = tokens[i].start, tokens[found].end
            out.append(Token(start, end, "word", label))
            other = next(w for w in lex.correction(src.norm[start:end])[1] if str(w.concept) != "keyword:受動:")
            line, column, shown = src.where(start, end)
            self.notes.append(Problem(f"は「{other.shown}」とも読めますが、後に条件とカードがあるので「受動」と読みました。",
                                      line=line, column=column, text=shown, severity="warning"))
            i = found + 1
        return out

    def _card_alone(self, tokens: list[Token], src: Text, lex: Lexicon) -> list[Token]:
        """かーど alone on its line: カード says nothing there, ガード with its sound mark dropped (a phone's
        かーど for ガード) says the card — read as ガードベント, warned. カード in a sentence stays a mention."""
        guard = lex.exact.get(kana_fold("ガードベント"))
        out = list(tokens)
        for k, tok in enumerate(tokens):
            if guard is None or tok.word is None or str(tok.word.concept) != "mention:" or \
                    kana_fold(unicodedata.normalize("NFKC", src.norm[tok.start:tok.end])) != "カード":
                continue
            before = next((t for t in reversed(tokens[:k]) if t.end > t.start and src.norm[t.start:t.end].strip()), None)
            after = next((t for t in tokens[k + 1:] if t.end > t.start and src.norm[t.start:t.end].strip(" \u3000")), None)
            line_start = before is None or "\n" in src.norm[before.end:tok.start] or src.norm[before.start:before.end] in ("】", "/", "／")
            line_end = after is None or src.norm[after.start:after.end].startswith("\n") or src.norm[after.start:after.end] in ("/", "／")
            if line_start and line_end:
                out[k] = Token(tok.start, tok.end, "word", guard)
                line, column, shown = src.where(tok.start, tok.end)
                self.notes.append(Problem("は一語だけなので、カードではなく「ガード」（濁点なし）と読み、ガードベントとしました。",
                                          line=line, column=column, text=shown, severity="warning"))
        return out

    def _nearer_of_those(self, tokens: list[Token], src: Text) -> list[Token]:
        """Fighters named before 近い方・遠い方 (蓮さんと北岡さん、近いほうに近づきます: the nearer of the two):
        when they are every opponent, it is 最も近い相手 (or 最も遠い) — the names are said, not read;
        when they are some of them only (a battle of four), the order cannot say it: asked."""
        out: list[Token] = []
        i = 0
        while i < len(tokens):
            named, j = [], i
            while j < len(tokens) and tokens[j].kind == "unknown" and tokens[j].word is None and \
                    (who := self._fighter(src.norm[tokens[j].start:tokens[j].end])) is not None:
                named.append(who)
                j = _past_courtesy(tokens, j + 1, src)
                if j < len(tokens) and (tokens[j].kind == "function" and src.norm[tokens[j].start:tokens[j].end] in ("と", "か", "や")
                                        or tokens[j].kind == "sep" and src.norm[tokens[j].start:tokens[j].end] in ("、", ",", "・")):
                    j += 1
            k = j
            while k < len(tokens) and (tokens[k].kind == "sep" and src.norm[tokens[k].start:tokens[k].end] in ("、", ",", " ", "\u3000")
                                       or tokens[k].kind in ("function", "unknown") and src.norm[tokens[k].start:tokens[k].end] in ("の", "のうち", "うち", "で", "では")):
                k += 1
            rule = tokens[k] if k < len(tokens) else None
            if len(set(named)) >= 2 and rule is not None and rule.word is not None and \
                    str(rule.word.concept) in ("rule:最も近い相手", "rule:最も遠い相手"):
                others = {name for name, _character in self._roster if name != self._player}
                line, column, shown = src.where(tokens[i].start, tokens[k - 1].end)
                if set(named) == others:
                    self.notes.append(Problem(f"の{src.norm[rule.start:rule.end]}を「{str(rule.word.concept).split(':', 1)[1]}」と読みました（相手はこの{len(others)}人だけです）。",
                                              line=line, column=column, text=shown.strip("、, "), severity="warning"))
                    out.append(Token(tokens[i].start, tokens[k - 1].end, "function"))
                else:
                    self.problems.append(Problem("のうちの近い方・遠い方は書けません（書けるのは相手全員のうちの「最も近い相手」「最も遠い相手」か、名前の順番です）。",
                                                 line=line, column=column, text=shown.strip("、, "),
                                                 hint="例：近寄る: 蓮, 北岡（蓮に、できなければ北岡に）"))
                    out.append(Token(tokens[i].start, tokens[k - 1].end, "function"))
                i = k
                continue
            out.append(tokens[i])
            i += 1
        return out

    def _their_by_name(self, tokens: list[Token], src: Text, lex: Lexicon) -> list[Token]:
        """An opponent's name as the subject of a condition (城戸さんがファイナルベントを使ってきたら,
        城戸さんが近寄ってくるなら阻止しません) is 相手が: a 受動 card's or a 阻止's condition is of
        the opponent's act. In a battle of three or more, whose act it is cannot be a condition (the
        first opponent whose act matches is answered): read with a warning that says so."""
        their, theirs = lex.exact.get(kana_fold("相手が")), lex.exact.get(kana_fold("相手の"))
        out: list[Token] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            j = _past_courtesy(tokens, i + 1, src)
            if their is not None and tok.kind == "unknown" and j < len(tokens) and tokens[j].kind == "function" and \
                    src.norm[tokens[j].start:tokens[j].end] in ("が", "も") and self._is_name(src.norm[tok.start:tok.end]) and \
                    self._fighter(src.norm[tok.start:tok.end]) != self._player and \
                    self._conditioned(tokens, j + 1, src):  # 城戸さんもファイナルベントを使ってきたら: も as が
                out.append(Token(tok.start, tokens[j].end, "word", their))
                line, column, shown = src.where(tok.start, tokens[j].end)
                if len(self._roster) > 2:
                    self.notes.append(Problem("を「相手が」と読みました（受動カードや阻止の条件には相手を選べないので、"
                                              "どの相手のアクションにも応じます）。", line=line, column=column,
                                              text=shown, severity="warning"))
                else:
                    self.notes.append(Problem("を「相手が」と読みました。", line=line, column=column, text=shown))
                i = j + 1
                continue
            after = tokens[j + 1] if j + 1 < len(tokens) else None
            their_attack = after is not None and after.word is not None and str(after.word.concept) == "attack:攻撃"
            if theirs is not None and (len(self._roster) == 2 or their_attack) and tok.kind == "unknown" and after is not None and \
                    tokens[j].kind == "function" and src.norm[tokens[j].start:tokens[j].end] == "の" and \
                    self._is_name(src.norm[tok.start:tok.end]) and self._fighter(src.norm[tok.start:tok.end]) != self._player and (their_attack or
                        src.norm[after.start:after.end] in ("移動", "移動は") or (after.word is not None and (
                            str(after.word.concept).startswith("card:") or str(after.word.concept) in ("head:近寄る", "head:離れる")))):
                # 刃さんの移動は阻止しません (a duel: the one opponent); 刃様の攻撃は剣で受け止めます: their attack, no target
                out.append(Token(tok.start, tokens[j].end, "word", theirs))
                line, column, shown = src.where(tok.start, tokens[j].end)
                if len(self._roster) > 2:
                    self.notes.append(Problem("を「相手の」と読みました（受けや受動カードには相手を選べないので、"
                                              "どの相手の攻撃にも応じます）。", line=line, column=column, text=shown, severity="warning"))
                else:
                    self.notes.append(Problem("を「相手の」と読みました。", line=line, column=column, text=shown))
                i = j + 1
                continue
            out.append(tok)
            i += 1
        return out

    @staticmethod
    def _conditioned(tokens: list[Token], k: int, src: Text) -> bool:
        """What follows, to the end of its sentence, is a condition on a card or a move (…を使ってきたら,
        近寄ってくるなら), not a 庇う (北岡さんが狙われたら庇います: whom to cover)."""
        seen_act = False
        before = ""
        for tok in tokens[k:]:
            text = src.norm[tok.start:tok.end]
            if tok.kind == "sep" and text in "。\n!?！？":
                return False
            if seen_act and text == "も" and before.endswith(("て", "で")):
                return True  # 刃さんが離れても: even if (離れて+も)
            before = text
            concept = str(tok.word.concept) if tok.word is not None else ""
            if concept.startswith("keyword:庇う") or "庇" in text:
                return False
            if concept.startswith(("card:", "attack:")) or concept in ("head:近寄る", "head:離れる"):
                seen_act, acted_at = True, tok.start
            if concept.startswith("nara:") and seen_act:
                # 刃さんが攻撃してきたら: their act (使われたら, 来られても: in keigo too); 蓮さんが攻撃されたら、庇います:
                # done to them, whom to cover — no condition of theirs
                end = min((src.norm.find(ch, tok.end) for ch in "。\n" if src.norm.find(ch, tok.end) >= 0), default=len(src.norm))
                return not (re.search(r"され|られ|われ", src.norm[acted_at:tok.end]) and re.search(r"庇|かば", src.norm[tok.end:end]))
        return False

    def _aside(self, tokens: list[Token], i: int, src: Text) -> bool:
        """A line in brackets under the order ((ドラグレッダーの火炎弾なら中でも届くはず),
        （遠くからチクチクいきます）): an aside, when it holds words pbf does not know — passed over
        as a remark, its order words named in a warning. A line in brackets of order words alone
        ((受動: FVならRV)) is read."""
        start = tokens[i].start
        own_line = src.norm[:start].rstrip(" \u3000")[-1:] in ("\n",)
        if not any(t.kind == "word" for t in tokens[:i]):
            return False
        close = next((k for k in range(i + 1, len(tokens)) if tokens[k].kind == "sep" and
                      src.norm[tokens[k].start:tokens[k].end] in ")]）］\n"), None)
        if close is None or src.norm[tokens[close].start] == "\n" or \
                src.norm[tokens[close].end:].split("\n", 1)[0].strip():
            return False  # the bracket does not close the line
        unknown = [t for t in tokens[i + 1:close] if t.kind == "unknown" and t.word is None
                   and not t.corrected and sum(ch.isalpha() for ch in src.norm[t.start:t.end]) >= 2
                   and not self._names_one(src.norm[t.start:t.end])]
        # （受けってソードベント中だけだよね？）: a question or talk in brackets is no order, even of known words
        inside = src.norm[tokens[i].end:tokens[close].start].strip()
        if not own_line:  # 庇いたいです（…庇える、で合っていますか？）: a question in brackets at the line's end
            return len(inside) >= 8 and re.search(r"(?:か|でしょうか|ますか|ですか|よね)\s*[?？]$", inside) is not None
        return bool(unknown) or re.search(r"[?？]$|(?:よね|かな|だね|かも|っけ|[ｗw笑])[!！?？]*$", inside) is not None

    def _same_fighter(self, written: str, listed: list[tuple[str, int, int]]) -> bool:
        """``written`` names a fighter that one of ``listed`` (a clause's pieces) names too."""
        fighters = {name: {"character": character} for name, character in self._roster}

        def who(word: str) -> set[str]:
            bare = _without_courtesy(word.strip())
            return set(find_fighter(bare, fighters, self._data)) if bare else set()

        mine = who(written)
        return len(mine) == 1 and any(mine == who(p) for p, _s, _e in listed if p.strip() not in (",", ""))

    def _names_one(self, written: str) -> bool:
        """The word names a fighter of the battle, or each of the words it lists does (蓮>城戸)."""
        parts = [part for part in _PRIORITY_ARROW.split(written.lstrip("←")) if part.strip()]
        return bool(parts) and all(self._is_name(part) for part in parts)

    def _own_name_as_subject(self, tokens: list[Token], src: Text) -> list[Token]:
        """The player's own fighter named first in a sentence, as its subject (ぞるだ は いちばんとおいひとに
        ちかよる: 北岡's ゾルダ): who does the order, passed over with a note — the order is the player's."""
        out: list[Token] = []
        subject: set[int] = set()  # the は / が read with the name before it
        for k, tok in enumerate(tokens):
            if id(tok) in subject:
                continue
            if tok.kind == "unknown" and tok.word is None:
                after = next((t for t in tokens[k + 1:] if t.kind != "sep" or src.norm[t.start:t.end].strip()), None)
                before = next((t for t in reversed(out) if t.kind != "sep" or src.norm[t.start:t.end] == "\n"), None)
                starts = before is None or (before.kind == "sep" and src.norm[before.start:before.end] == "\n") or \
                    src.norm[before.start:before.end] in ("】", "行動", "。")
                if after is not None and after.kind == "function" and src.norm[after.start:after.end] in ("は", "が") \
                        and starts and self._fighter(src.norm[tok.start:tok.end]) == self._player:
                    out.append(Token(tok.start, after.end, "drop"))
                    subject.add(id(after))
                    line, column, shown = src.where(tok.start, after.end)
                    self.notes.append(Problem("は自分のライダー（行動する人）として読み、行動には入れませんでした。",
                                              line=line, column=column, text=shown))
                    continue
            out.append(tok)
        return out

    def _kana_runs(self, tokens: list[Token], src: Text, lex: Lexicon) -> list[Token]:
        """A phone's kana run together, sound marks dropped (きたおかをかはう, いちはんちかいひとからはなれる):
        cut into the battle's words by their readings (sound marks, small kana and long marks
        optional), particles and fighters' names, when exactly one cut of fewest pieces covers the
        run and holds an order word — noted with the pieces; else left as it was (and named)."""
        def kana_only(tok: Token) -> bool:
            return tok.end > tok.start and all("ぁ" <= ch <= "ゖ" or ch == "ー" for ch in src.norm[tok.start:tok.end])

        out: list[Token] = []
        i = 0
        while i < len(tokens):
            spaced = self._spaced_kana(tokens, i, src, lex, lambda t: t.kind != "sep" and t.end > t.start and all(
                "ぁ" <= ch <= "ゖ" or ch in "ー \u3000" for ch in src.norm[t.start:t.end]))  # (a run resolve_unknowns joined: そ ー ど)
            if spaced is not None:  # か ー と べ ん と, いちばん とおいやつ: one word typed apart, by its reading
                end, word = spaced
                out.append(Token(tokens[i].start, tokens[end].end, "unknown", word, corrected=True))
                i = end + 1
                continue
            j = i
            while j < len(tokens) and kana_only(tokens[j]) and (j == i or tokens[j].start == tokens[j - 1].end):
                j += 1
            run = tokens[i:j]
            bad = any(t.kind in ("unknown", "function") and t.word is None and not t.candidates for t in run)
            said = src.norm[run[0].start:run[-1].end] if run else ""
            cut = None
            if bad:
                # what the scan already read in the run (うつ: 撃つ, by its reading) is a piece the cut may take
                known = {kana.loose(src.norm[t.start:t.end]): t.word for t in run if t.word is not None and t.word.kind == "order"}
                # a name and its particle before an order word (きとから はなれる: 城戸・から): a cut of the name
                following = next((t for t in tokens[j:] if t.kind != "sep"), None)
                before_word = following is not None and following.word is not None and following.word.kind == "order"
                cut = self._cut(said, lex, known, named_ok=before_word) if len(said) >= (3 if before_word else 5) else None
                whole = lex.by_loose_reading().get(kana.loose(said)) if len(said) >= 3 else None
                if cut is None and whole is not None and whole.kind == "order" and len(run) > 1:
                    out.append(Token(run[0].start, run[-1].end, "unknown", whole, corrected=True))  # そーと: ソード, not そー・と
                    i = j
                    continue
            apart = (not out or out[-1].kind == "sep") and (j == len(tokens) or tokens[j].kind == "sep")
            if cut is None and bad and (self._in_a_list(out) or apart and len(said) <= 4) and self._name_by_sound(said):
                # (そーと きと: a word apart that is a name by its sound, not き+と — the grammar had taken it for 来+と)
                out.append(Token(run[0].start, run[-1].end, "unknown"))  # こうけき れん きと: 城戸, its marks dropped
                self._names.add(src.span(run[0].start, run[-1].end)[0])
                i = j
                continue
            if cut is None:
                out.extend(run or tokens[i:i + 1])
                i = max(j, i + 1)
                continue
            base = run[0].start
            for a, b, kind, value in cut:
                if kind == "name":
                    out.append(Token(base + a, base + b, "unknown"))
                    self._names.add(src.span(base + a, base + b)[0])
                else:
                    out.append(Token(base + a, base + b, kind, value, corrected=kind == "word"))
            line, column, shown = src.where(run[0].start, run[-1].end)
            pieces = "・".join(value if kind == "name" else value.shown if kind == "word" else said[a:b] for a, b, kind, value in cut)
            self.notes.append(Problem(f"を「{pieces}」と区切って読みました。", line=line, column=column, text=shown))
            i = j
        return out

    @staticmethod
    def _spaced_kana(tokens: list[Token], i: int, src: Text, lex: Lexicon, kana_only: Any) -> tuple[int, Word] | None:
        """Kana typed apart by single spaces (か ー と べ ん と, いちばん とおいやつに) that read, joined, as one order
        word of the lexicon: (the last token's index, the word); else None. The word crosses a space and
        starts at ``i``; a piece that is an order word of its own keeps the run apart (そし しない: two words)."""
        if not kana_only(tokens[i]) or (tokens[i].word is not None and tokens[i].word.kind == "order" and not tokens[i].corrected):
            return None
        run, k = [i], i  # the kana tokens, a single space between two allowed
        while k + 1 < len(tokens):
            nxt = tokens[k + 1]
            if kana_only(nxt) and nxt.start == tokens[k].end:
                k += 1
            elif nxt.kind == "sep" and src.norm[nxt.start:nxt.end] in (" ", "\u3000") and nxt.start == tokens[k].end and \
                    k + 2 < len(tokens) and tokens[k + 2].start == nxt.end and kana_only(tokens[k + 2]):
                k += 2
            else:
                break
            run.append(k)
        words = lex.by_loose_reading()
        for last in range(len(run) - 1, 0, -1):  # the longest that reads as one word
            said = src.norm[tokens[i].start:tokens[run[last]].end]
            if " " not in said and "\u3000" not in said:
                break
            word = words.get(kana.loose(said.replace(" ", "").replace("\u3000", "")))
            if word is not None and word.kind == "order":
                if any(tokens[p].word is not None and tokens[p].word.kind == "order" and not tokens[p].corrected for p in run[:last + 1]):
                    return None
                return run[last], word
        return None

    def _in_a_list(self, before: list[Token]) -> bool:
        """What was read before (on the same line) is a fighter's name, the attack or a move: a name may follow."""
        prev = next((t for t in reversed(before) if t.kind != "sep" or "\n" in self.src.norm[t.start:t.end] or t.end == t.start), None)
        return prev is not None and (prev.kind == "symbol" or prev.word is not None and (
            str(prev.word.concept) == "attack:攻撃" or str(prev.word.concept) in _MOVE_CONCEPTS))  # (とおへ きと: 遠へ: 城戸)

    def _spellings(self) -> list[tuple[str, str]]:
        """(fighter, spelling) for each way the battle writes each fighter: the player's name, the rider's, its aliases."""
        out = []
        for name, character in self._roster:
            try:
                sheet = self._data.character(character)[1]
            except KeyError:  # pragma: no cover
                continue
            out += [(name, str(s)) for s in (name, sheet.get("name", ""), *(sheet.get("aliases", []) or [])) if s]
        return out

    def _name_by_sound(self, said: str) -> bool:
        """A run of kana that is a fighter's name with its sound marks dropped (きと: 城戸, そるた: ゾルダ) — its
        small kana as written (きっと is no 城戸)."""
        return len(said) >= 2 and any(kana.bare(said) in {kana.bare(k) for k in kana.marked(spelling)}
                                      for _name, spelling in self._spellings())

    def _cut(self, said: str, lex: Lexicon, known: dict[str, Word] | None = None,
             named_ok: bool = False) -> list[tuple[int, int, str, Any]] | None:
        words, known = lex.by_loose_reading(), known or {}
        names: dict[str, str | None] = {}
        for name, spelling in self._spellings():
            for key in kana.looses(spelling):
                names[key] = name if names.get(key, name) == name else None
        n = len(said)
        best: list[list[tuple[int, tuple]] | None] = [None] * (n + 1)  # per end: (pieces, the cut) of fewest pieces
        best[0] = [(0, ())]
        for i in range(n):
            if not best[i]:
                continue
            count = best[i][0][0]
            if said[i] in _NO_WORD_STARTS:
                continue  # ーどべんと: no word starts with a long mark, ん or a small kana (a kana lost before it)
            for j in range(i + 1, n + 1):
                piece = said[i:j]
                key = kana.loose(piece)
                found = []
                if piece in _RUN_PARTICLES:
                    found.append(("function", Word("function", piece, kind="function")))
                word = known[key] if key in known else words.get(key)  # what the scan read first
                if j - i >= 2 and word is not None:
                    found.append(("word", word))
                if j - i >= 2 and names.get(key) is not None:
                    found.append(("name", names[key]))
                for kind, value in found:
                    cut = (*best[i][0][1], (i, j, kind, value))
                    if best[j] is None or count + 1 < best[j][0][0]:
                        best[j] = [(count + 1, cut)]
                    elif count + 1 == best[j][0][0]:
                        best[j].append((count + 1, cut))
        if not best[n]:
            return None
        meanings = {tuple((kind, value if kind == "name" else getattr(value, "concept", value)) for _i, _j, kind, value in cut)
                    for _count, cut in best[n]}
        cut = best[n][0][1]
        named = named_ok and len(cut) == 2 and [kind for _i, _j, kind, _v in cut] == ["name", "function"]
        if len(meanings) != 1 or len(cut) < 2 or not (named or any(kind == "word" for _i, _j, kind, _v in cut)):
            return None
        return list(cut)

    def _condition(self, written: str) -> str | None:
        """A 受動 card's condition as a label writes it: 攻 (攻撃), a card's name or abbreviation (FV)."""
        if written.lower() in ("攻", "攻撃", "こうげき", "コウゲキ", "atk", "attack"):
            return "攻撃"
        card = self._data.card_words.get(card_spelling(written))
        return self._data.card_name(card) if card else None

    @staticmethod
    def _move_word(written: str, lex: Lexicon) -> Word | None:
        """The move a word is, as written or by its very reading (chikayoru, ちかよる), or None."""
        word = lex.exact.get(kana_fold(written))
        if word is None:
            found = [w for d, _f, w in lex.near(kana_fold(written)) if d < 0]
            word = found[0] if len({w.concept for w in found}) == 1 else None
        return word if word is not None and str(word.concept) in _MOVE_CONCEPTS else None

    def _fighter(self, written: str) -> str | None:
        """The one fighter the word (a courtesy title dropped) names, by its name or loosely (its
        reading: 内と for ナイト), or None."""
        bare = _without_courtesy(written.strip())
        if not bare or not self._is_name(bare):
            return None
        return one_fighter(bare, {name: {"character": character} for name, character in self._roster}, self._data)

    def _ends_in_name(self, written: str) -> bool:
        """The phrase is a fighter's name or ends in one (その次に蓮さん): a name is never passed over."""
        return any(self._is_name(written[k:]) for k in range(len(written)) if not written[k].isspace())

    def _is_name(self, written: str) -> bool:
        """The word (a courtesy title dropped) names one fighter of the battle; each word is
        looked up once a post."""
        if not self._roster:
            return False
        word = written.strip()
        if word not in self._looked_up:
            bare = _without_courtesy(word)
            self._looked_up[word] = is_fighter(bare, self._roster, self._data) if bare else False
        return self._looked_up[word]

    def _place_names(self, clauses: list[list[tuple[str, int, int]]]) -> list[list[tuple[str, int, int]]]:
        """A fighter's name that stands alone where no clause waits for one: after a move, the one
        to move against (近寄る 蓮); else, when no attack target is written, the attack's target
        (シュート 隙1 れん, ファイナル 北岡>城戸 — with a note); a name after the first goes on its list."""
        out: list[list[tuple[str, int, int]]] = []
        placed: list[tuple[str, int, int]] | None = None  # the attack list made of lone names

        def said(clause: list[tuple[str, int, int]]) -> str:
            return "".join(p for p, _s, _e in clause)

        def names_of(piece: tuple[str, int, int]) -> list[tuple[str, int, int]] | None:
            text, start, _end = piece
            parts = [p for p in _PRIORITY_ARROW.split(text) if p]
            if not parts:
                return None  # an arrow alone (隙狙い>) names no one
            if len(parts) == 1:
                return [piece] if start in self._names else None
            if not all(self._is_name(p) for p in parts):
                return None
            found, at = [], start
            for part in parts:
                where = self.src.original.find(part, at)
                at = where if where >= 0 else at
                found.append((part, at, at + len(part)))
            return found

        for index, clause in enumerate(clauses):
            after = clauses[index + 1] if index + 1 < len(clauses) else []
            if len(clause) == 1 and after and (said(after).replace(" ", "").startswith("攻撃:,") or said(after).replace(" ", "") == "攻撃:") and \
                    (first := names_of(clause[0])) is not None:
                rest = after[1:]
                while rest and rest[0][0].strip() == ",":
                    rest = rest[1:]  # 北岡さんを攻撃、届かなかったら城戸さんで: the one named before 攻撃 is first
                listed_first = [after[0]]
                for k, name in enumerate(first):
                    listed_first += ([(", ", name[1], name[1])] if k else []) + [name]
                after[:] = listed_first + [(", ", rest[0][1], rest[0][1])] + rest if rest else listed_first
                continue
            if len(clause) >= 2 and names_of(clause[-1]) is not None and not said(clause[:-1]).endswith((": ", ", ", ",")) \
                    and not said(clause[:-1]).startswith(("攻撃: ", "庇う", "受動", "イベントファイナル")) \
                    and not any(said(clause[:-1]).startswith(m + ": ") for m in _MOVES):
                out.append(clause[:-1])  # 隙狙い 1 れん: the name is no part of the number's clause
                clause = [clause[-1]]
            if len(clause) == 1 and said(clause) in _RULES and out and said(out[-1]) in _MOVES and \
                    not self.src.original[out[-1][-1][2]:clause[0][1]].strip(" \u3000(（"):
                out[-1] = [(said(out[-1]) + ": ", out[-1][0][1], out[-1][0][2]), clause[0]]  # 遠へ(最寄り), 離れる 最寄り
                continue
            names = names_of(clause[0]) if len(clause) == 1 else None
            if names is None:
                out.append(clause)
                placed = None if said(clause) else placed
                continue
            if placed is not None and out and out[-1] is placed:
                for name in names:
                    placed.extend([(", ", name[1], name[1]), name])
                continue
            listed = next((c for c in out if said(c).startswith("攻撃: ")), None)
            if listed is not None and out and out[-1] is listed and len(names) == 1 and \
                    names[0][0].strip() in [p.strip() for p, _s, _e in listed[1:]]:
                placed = listed  # 蓮さんを狙います。蓮さんがいなければ城戸さんです: the list goes on after the one said again
                continue
            if out and out[-1] and out[-1][0][0][:-2] in _MOVES and out[-1][0][0].endswith(": ") and len(out[-1]) > 1 and \
                    _FALLBACK.search(self.src.original[out[-1][-1][2]:names[0][1]]) and \
                    not self.src.original[out[-1][-1][2]:names[0][1]].strip(" \u3000、,").startswith(("。", "\n")):
                for name in names:  # ぞるだにちかよる だめならりゅうき: the next one to move against
                    out[-1].extend([(", ", name[1], name[1]), name])
                continue
            if listed is not None and out and out[-1] is listed and \
                    _FALLBACK.search(self.src.original[listed[-1][2]:names[0][1]]):
                for name in names:  # 城戸さんを狙います。いなければ蓮さんです: the next in the list
                    listed.extend([(", ", name[1], name[1]), name])
                placed = listed
                continue
            gap = self.src.original[out[-1][-1][2]:names[0][1]] if out and out[-1] else ""
            if names[0][0].isascii() and "\n" not in gap:
                gap = re.sub(r"^\s*,\s*", "", gap)  # move: to near, Kitaoka — in English, the one to move against
            if len(names) == 1 and out and said(out[-1]) in _MOVES and \
                    not re.sub(r"^(?:\s*(?:行きます|いきます|移動します|します|ます))?[\s(（←]*(?:->|→|⇒|=>|>)?\s*(?:vs\.?|versus|against|(?:相手|対象)\s*(?:は|:))?\s*", "", gap, flags=re.I):
                out[-1] = [(said(out[-1]) + ": ", out[-1][0][1], out[-1][0][2]), names[0]]  # 近寄る 蓮, 遠へ(蓮)
                continue
            follows = self.src.original[names[-1][2]:].lstrip(" \u3000\t")  # not past its line: the next line's はなれる is no は
            for courtesy in _COURTESY:
                follows = follows[len(courtesy):] if follows.startswith(courtesy) else follows
            head = unicodedata.normalize("NFKC", follows[:3])  # ﾅｲﾄｶﾗ ﾄｵﾍ: a phone's particle in katakana, as its name is
            if head[:1] and "ァ" <= head[0] <= "ヶ" and "".join(chr(ord(c) - 0x60) for c in head[:2]).startswith(("から", "より", "に", "へ")):
                follows = "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in head) + follows[3:]
            particle = re.match(r"(kara|yori|ni)\b", follows, re.I)  # Ren kara tooku e: the particles in romaji
            if particle:
                follows = {"kara": "から", "yori": "より", "ni": "に"}[particle.group(1).lower()] + follows[particle.end():]
            if len(names) == 1 and follows.startswith(("から", "より", "に", "へ")):
                move = clauses[index + 1] if index + 1 < len(clauses) else None
                if move is not None and said(move) in _MOVES:  # 蓮さんから遠くへ逃げます: whom to move from
                    move[:] = [(said(move) + ": ", move[0][1], move[0][2]), names[0]]
                    continue
            if len(names) == 1 and out and said(out[-1]) in self.card_names and \
                    any(said(c).startswith("攻撃: ") and self._same_fighter(names[0][0], c[1:]) for c in clauses):
                continue  # ナスティベント→城戸さん / 攻撃: 城戸: the card's one to attack, said twice
            before = self.src.original[:names[0][1]].rstrip()
            used_on = re.match(r"に(?:向けて|対して)?\s*(?:使|つか|撃|う)", follows) is not None and out and \
                any(said(c) in self.card_names for c in out)  # ナスティベントを北岡さんに使います: the card's target
            used_on = used_on or re.match(r"(?:に|へ)\s*(?:隙狙い|隙ねらい|すきねらい|スキ狙い|スキねらい|隙)", follows) is not None  # 城戸に隙狙い1
            if any(said(c).startswith(("攻撃: ", "攻撃しない")) for c in clauses) or before.endswith((":", "：")) or \
                    (follows.startswith(("から", "より", "に", "へ", "と", "の", "が", "は", "も", "や", "か")) and not used_on):
                out.append(clause)  # 蓮さんから遠くへ, 北丘と連に: the name is said of something else
                continue
            placed = [("攻撃: ", names[0][1], names[0][1]), names[0]]
            for name in names[1:]:
                placed.extend([(", ", name[1], name[1]), name])
            line, column = position(self.src.original, names[0][1])
            shown = self.src.original[names[0][1]:names[-1][2]]
            self.notes.append(Problem("を攻撃の対象と読みました。", line=line, column=column, text=shown))
            out.append(placed)
        return out

    def _fallback_lists(self, clauses: list[list[tuple[str, int, int]]]) -> list[list[tuple[str, int, int]]]:
        """北岡さんを攻撃します。届かなければ城戸さんを攻撃します / 北岡さんに近寄ります。近寄れなければ城戸さんに
        近寄ります: a second clause of the same kind (攻撃, or the same move), after a fallback (届かなければ,
        いなければ, 近寄れなければ) said between the two, is the next in the first one's list."""
        out: list[list[tuple[str, int, int]]] = []
        for clause in clauses:
            head = clause[0][0] if clause else ""
            first = next((c for c in out if c and c[0][0] == head), None) if head.endswith(": ") and len(clause) > 1 else None
            between = self.src.original[max(e for _p, _s, e in first):min(s for _p, s, _e in clause)] if first is not None else ""
            again = first is not None and (clause[1][0].strip() == first[-1][0].strip() or  # 北岡さんを攻撃。北岡さんがいなければ城戸さん
                                           self._same_fighter(clause[1][0], [first[-1]]))  # ゾルダさん…狙うのは北岡さんで
            if first is not None and (_FALLBACK.search(between) or _MOVE_FALLBACK.search(between) or again) and \
                    (head == "攻撃: " or head[:-2] in _MOVES):
                for piece in clause[1:]:
                    if piece[0].strip() not in (",", "") and piece[0].strip() not in [p.strip() for p, _s, _e in first[1:]] \
                            and not self._same_fighter(piece[0], first[1:]):
                        first.extend([(", ", piece[1], piece[1]), piece])
                if out[-1] is not first and len(out[-1]) == 1 and out[-1][0][1] in self._raw and \
                        self._same_fighter(out[-1][0][0], first[1:]):
                    out.pop()  # 北岡さんに近づけなければ: the name the fallback is said of, already in the list
                continue
            out.append(clause)
        return out

    def _english_target(self, clauses: list[list[tuple[str, int, int]]], before: str, at: int | None = None) -> bool:
        """``move closer to`` / ``get away from`` just said, or a band's move and ``from`` (tooku e
        from Ren: 遠へ: 蓮): the name or the rule after is the one to move against."""
        moves = ("近寄る", "離れる", "近へ", "中へ", "遠へ") if before.lower() == "from" else ("近寄る", "離れる")
        if not clauses[-1] and len(clauses) > 1 and len(clauses[-2]) == 1 and clauses[-2][0][0] in moves:
            last = clauses[-2][0]
        elif len(clauses[-1]) == 1 and clauses[-1][0][0] in moves:
            last = clauses[-1][0]
        else:
            return False
        said = self.src.original[last[1]:last[2]]
        between = self.src.original[last[2]:at] if at is not None else ""
        english = said.isascii() and said.strip() and not any(ch in between for ch in ",、。/;.")
        if before.lower() not in ("to", "from", "toward", "towards", "on") and not (
                english and said.lower().rstrip().endswith((" to", " from", " on", "approach", "close in", "closer"))):
            return False
        if not clauses[-1]:
            clauses.pop()  # the space after the move closed its clause
        return True

    def _name_of_the_line_above(self, clauses: list[list[tuple[str, int, int]]], at: int) -> bool:
        """The last name written is on a line above ``at``, after other words of its line
        (ナスティベント 城戸\n離れるなら…): it is said of those words, not of what follows."""
        ends = [piece for c in clauses[-2:] for piece in c if piece[2] <= at]
        if not ends:
            return False
        _p, start, end = ends[-1]
        original = self.src.original
        line_start = original.rfind("\n", 0, start) + 1
        return "\n" in original[end:at] and bool(original[line_start:start].strip())

    def _lone_name(self, clauses: list[list[tuple[str, int, int]]]) -> tuple[str, int, int] | None:
        """The clause before is one word that is no order word (a name: ナイトに近づく) — not a verb's
        て-form that no name of the battle is (跳んで間合いを取る: a deed, not the one to move from)."""
        def named(piece: tuple[str, int, int]) -> bool:
            return piece[1] in self._raw and (piece[1] in self._names or not self.src.original[piece[2]:piece[2] + 1] in ("て", "で"))

        if len(clauses) >= 1 and len(clauses[-1]) == 1 and named(clauses[-1][0]):
            return clauses[-1][0]
        if len(clauses) >= 2 and not clauses[-1] and len(clauses[-2]) == 1 and named(clauses[-2][0]):
            clauses.pop()
            return clauses[-1][0]
        return None


_MOVES = ("近寄る", "離れる", "近へ", "中へ", "遠へ")
# 行動 in kana, the marker, alone at a line's start (before a colon, a space or the line's end), on the folded text
_KANA_MARKER = re.compile(r"(?m)^[ \t\u3000]*(コウドウ|コウトウ|コードー|コウドー)(?=[ \t\u3000:]|$)")
# a vent named by no card (べんと, へんと, vent), alone on its line (on the folded text; sword bento is a card)
# a vent described by what comes before it, no card's name (強い方のベント, いつものベント)
_VENT_DESCRIBED = re.compile(r"[^\s、。,/／・:：]{1,8}の\s*(?:ベント|べんと)(?![ァ-ヺー])")
_BARE_VENT = re.compile(r"(?m)^[ \t\u3000]*(?:ベント|ヘント|vent|bento)[ \t\u3000!！。]*$")
# a part of the order left to the GM (移動はＧＭ様にお任せ, 攻撃はおまかせで)
# (ドラグレッダーに攻撃を任せる is the monster's attack: the GM named, or お任せ, says it is the GM's to choose;
# あとは運に任せる！ is talk) — checks.py keeps such a line from being passed over as talk or an aside
LEFT_TO_GM = re.compile(r"(?:移動|動き|攻撃|カード|回避|阻止|対象|相手|行動)\s*(?:は|を|も)?\s*"
                         r"(?:(?:GM|ゲームマスター)\s*(?:様|さん|殿)?\s*(?:に|へ)?\s*(?:お任せ|おまかせ|任せ|まかせ)|お任せ|おまかせ)", re.I)
# a particle in katakana right after a fighter's name (ｷﾄﾞﾆ ﾁｶﾖﾙ: a phone's half-width kana, ﾆ for に)
_KATAKANA_PARTICLES = frozenset(("ニ", "ヲ", "カラ", "ト", "ヘ", "マデ", "ハ", "ガ", "ノ"))
# the character before a 中 that makes it "during" (トリック中, 攻撃中, ベント中), not the band: a katakana or a
# kanji of a word (a band's 中 follows a label, a separator, a particle or nothing: 移:中, 中へ, 距離は中)
_DURING = re.compile(r"[ァ-ヺー一-鿿](?<![移近遠能受攻避阻動離寄])")
# the one who attacks, said before a condition on being attacked (刃さんに攻撃されたら)
# an attack verb said as a condition (狙ったら, 攻撃してきた時), and a cover that follows in its sentence
_ATTACKED_IF = re.compile(r"\s*(?:ら|たら|てきたら|てくるなら|た時|たとき|る時|るとき|た場合|たなら)")
_COVERS_AFTER = re.compile(r"[^。\n!！]*?(?:庇|かば|カバ)")
_BY_WHOM = re.compile(r"\s*(?:さん|くん|君|ちゃん|様|氏)?\s*(?:に|から)\s*(?:攻撃され|こうげきされ|狙われ|ねらわれ|撃たれ|殴られ|斬られ|切られ)")
# what is said between the one attacked and 庇う (城戸さんが狙われたら庇う: 庇う 城戸)
_COVER_WHEN = re.compile(r"\s*(?:さん|くん|君|ちゃん|様|氏)?\s*(?:が|を)\s*(?:狙われ|ねらわれ|攻撃され|こうげきされ|撃たれ|うたれ|殴られ|襲われ|おそわれ|やられ)"
                         r"(?:たら|た時|たとき|る時|るとき|る場合|た場合|そうな時|そうなとき|そうなら|そうになったら)(?:は|に|には)?\s*[、,]?\s*"
                         r"(?:(?:私|わたし|僕|ぼく|俺|おれ|自分)\s*(?:が|は)\s*)?"
                         r"|\s*(?:さん|くん|君|ちゃん|様|氏)?\s*[をの]?\s*")  # きどかばう, 城戸さんを庇う, 北岡さんの盾になる: its object
_NO_WORD_STARTS = frozenset("ーんゃゅょっぁぃぅぇぉゎ")
_RULES = ("最も近い相手", "最も遠い相手")  # the rule words' values (data/lexicon.yaml, role rule)
# what says the card after is the answer when the condition before does not hold (それ以外はGV)
_OTHERWISE = re.compile(r"otherwise|else|それ以外|その他|ほかは|他は|そうでなければ|でなければ", re.I)
_NOT_USING = frozenset(("使いません", "使わない", "つかわない", "使わず", "使用しません", "使用しない", "ません", "ない"))
_AS_IT_IS = re.compile(r"(?:この|その)まま(?:の)?\s*(近|中|遠)(?:距離)?(?:で|を保って|を保ち|をキープ(?:して)?|にいます|にいる|に居ます|に留まります|に留まる)"
                       r"|(?:(?:今|いま|現在)の\s*)?(?:距離は\s*)?(?:(?:今|いま|現在)の\s*)?(近|中|遠)(?:距離)?(?:の|い)まま(?:にします|にする|で|に)?"
                       r"(?:\s*(?:動きません|動かないです|動かない|動かずに|動かず|うごかない|いきます|行きます|です|でいます|で大丈夫です|で大丈夫|大丈夫です|でいいです|でok)(?:[よねぞぜわ][ぇえー〜～]*|っす)?)?(?=[、,。!！\s]|留|とど|$|[ァ-ヺA-Za-z])"
                       r"|留(?:まる|まり|まります)?\s*[(（]\s*(近|中|遠)(?:距離)?\s*[)）]"  # 留(近): staying, at 近
                       # (近距離のまま動かないよー, 近距離のままソードベント: an ending after it, or a card next)
                       # 近距離に留まって, 中距離を維持, 近維持, 遠キープ: staying where they are, said with the band
                       r"|(?:(?:この|その)まま(?:の)?\s*)?(?<![一-龥])(近|中|遠)(?:距離)?\s*(?:に|で|を)?\s*(?:留まって|留まり|留まります|留まる|とどまって|とどまり|とどまります|とどまる"
                       r"|残って|残ります|残る|維持(?:して|します|する|で)?|キープ(?:して|します|する|で)?|保って|保ちます|保つ)")
# 近距離なので, 今は遠距離だから: the band they are at, said as the reason of the order — no move
_BAND_NOW = re.compile(r"(?:(?:今|いま|現在)\s*(?:は|も)?\s*)?(近|中|遠)距離\s*(?:なので|だから|ですので|ですから|なんで|なのに)")
# 離れていく方は, 近寄ってくる人は: the one who moves (the words between the move and its 阻止)
_MOVER_PERSON = frozenset(("方", "人", "相手", "の", "奴", "やつ", "者", "もの", "かた"))
_MOVER = _MOVER_PERSON | {"くる", "てくる", "来る", "いく", "ていく", "行く", "は", "のは", "方は", "人は", "ようとする", "うとする", "とする"}
# what says the next name is the one to attack when the one before cannot be (いなければ, 届かなかったら)
_FALLBACK = re.compile(r"い(?:なければ|ない場合|ない(?:時|とき)|なかったら)|届か(?:なければ|ない場合|ない(?:時|とき)|なかったら)|"
                       r"無理(?:なら|だったら)|(?:だめ|ダメ)(?:なら|だったら)|射程\s*(?:の)?\s*外(?:でしたら|なら|だったら|の場合は?|の(?:時|とき)は?)")
# the move could not be made: 近寄れなければ, 離れられなかったら (for the next one to move against)
_MOVE_FALLBACK = re.compile(r"(?:近寄|近づ|離)(?:れ|け|れられ)(?:なければ|ない場合|ない(?:時|とき)|なかったら)")
# a way to move and a band that cannot be one move (近寄って遠へ): two moves, refused as two
_DISAGREE = (frozenset(("近寄る", "遠へ")), frozenset(("離れる", "近へ")))
# a number said as a word, after 隙狙い or 超回避 (only there: ni is also a particle)
_SPOKEN_NUMBERS = {"ichi": 1, "one": 1, "ni": 2, "two": 2, "san": 3, "three": 3, "yon": 4, "four": 4, "go": 5, "five": 5,
                   "いち": 1, "に": 2, "さん": 3, "ひとつ": 1, "ふたつ": 2, "みっつ": 3, "一つ": 1, "二つ": 2, "三つ": 3,
                   "位置": 1, "壱": 1, "弐": 2}  # 隙狙い位置: an IME's kanji for いち
# between the names of a priority list: 攻撃：蓮→城戸, 北岡＞城戸
_PRIORITY_ARROW = re.compile(r"\s*(?:→|->|⇒|>|＞)\s*")


def _evasion_said_of_attack(clauses: list[list[tuple[str, int, int]]]) -> list[list[tuple[str, int, int]]]:
    """How to evade is said of being attacked already: 攻撃されたら受けで回避します is 受け,
    攻撃されたら、HPを2点使って超回避します is 超回避 2 — the condition is no 受動 card's, and
    回避 after 受け or 超回避 names no pool."""
    def said(clause: list[tuple[str, int, int]]) -> str:
        return "".join(p for p, _s, _e in clause).strip()

    out: list[list[tuple[str, int, int]]] = []
    for index, clause in enumerate(clauses):
        text = said(clause)
        following = said(clauses[index + 1]) if index + 1 < len(clauses) else ""
        if text in ("受動: 攻撃なら", "受動: 攻撃 if", "受動:攻撃なら") and following.startswith(("超回避", "受け", "回避:")):
            continue  # the condition of the evasion after it
        if text.startswith("受動: 攻撃なら") and text[len("受動: 攻撃なら"):].strip() in ("受け",):
            out.append([(text[len("受動: 攻撃なら"):].strip(), clause[-1][1], clause[-1][2])])
            continue
        if text == "回避:" and out and said(out[-1]).startswith(("受け", "超回避")):
            continue  # 受けで回避します: 受け is the evasion
        out.append(clause)
    return out

# what may follow a fighter's name written in kana (ないとに近寄る, ぞるだから離れる), folded
_AFTER_NAME = ("ニ", "カラ", "ヲ", "ヘ", "サン", "クン", "チャン", "ト", "ハ", "ガ", "ノ", "デ", "ヨリ", "マデ", "ヲ")


class _NameSpellings:
    """The battle's names by their readings, for :func:`pbf.reader.scan.scan`: at ``i`` of the
    folded text, where a run of kana (or of ASCII letters) that reads as a fighter's name ends —
    the whole run, or the run up to a particle (ないとにちかよる, ぞるだからはなれる, ren). A word
    of the lexicon as long wins (scan's rule for symbols)."""

    def __init__(self, roster: tuple[tuple[str, str], ...], data: RiderData):
        from ...reader import kana

        self._kana = kana
        self.keys: set[str] = set()
        for name, character in roster:
            try:
                _kind, sheet = data.character(character)
            except KeyError:
                sheet = {}
            for spelling in (name, sheet.get("name"), sheet.get("english"), *(sheet.get("aliases") or ())):
                if spelling:
                    self.keys |= {k for k in kana.marked(str(spelling)) if len(k) >= 2}

    def __call__(self, folded: str, i: int) -> int | None:
        ch = folded[i]
        ascii_letter = ch.isascii() and ch.isalpha()
        if not (ascii_letter or "ァ" <= ch <= "ヺ"):
            return None
        same = (lambda c: c.isascii() and c.isalpha()) if ascii_letter else (lambda c: "ァ" <= c <= "ヺ" or c == "ー")
        if i > 0 and same(folded[i - 1]) and ascii_letter:
            return None  # a name in English or romaji is a whole word
        j = i
        while j < len(folded) and j - i < 12 and same(folded[j]):
            j += 1
        for end in range(j, i + 1, -1):
            if end < j and (ascii_letter or not folded.startswith(_AFTER_NAME, end)):
                continue
            if self._kana.marked(folded[i:end]) & self.keys:
                return end
        return None


# イベントファイナル's marker, on the folded text (いべんとふぁいなる is イベントファイナル there), with
# the colon and the spaces after it: what follows is the free text
# (イベントファイナルの台詞はあとで, イベントファイナルをどうしよう: talk about it, unless a colon follows on the line)
_EVENT_MARKER = re.compile(r"(?:イベントファイナル(?!\s*(?:ノ|ヲ|ッテ|ドウ)(?![^\n]*[:：]))|イベファイ?(?=\s*[:：])|event\s*final|ef(?=\s*[:：]))"
                           r"\s*[:：]?\s*", re.I)


# what makes two kana a verb's stem rather than a card cut short (とり+ます: 取ります, not トリ(ックベント))
_VERB_ENDING = re.compile(r"ます|ました|ません|まして|たい|たく|って|った|ながら")


def _verb_not_card(tokens: list[Token], src: Text) -> list[Token]:
    """A card cut to two kana, written in hiragana, with a verb's ending written on (中距離をとります,
    さばきます): the stem of a verb — 取る, not トリックベント — left unknown for the reading to name or
    pass over. In katakana (トリで) or with a particle after it (すとで), it stays the card."""
    out = list(tokens)
    for k, tok in enumerate(tokens[:-1]):
        said = src.norm[tok.start:tok.end]
        after = tokens[k + 1]
        if tok.kind == "word" and tok.word is not None and str(tok.word.concept).startswith("card:") and len(said) == 2 \
                and all("ぁ" <= ch <= "ゖ" for ch in said) and after.start == tok.end \
                and _VERB_ENDING.match(src.norm, after.start):
            out[k] = Token(tok.start, tok.end, "unknown")
    return out


def _negation_of_talk(tokens: list[Token], src: Text) -> list[Token]:
    """ない after a verb no order has (衣装はまだ作ってない, リフレクトベントは持っていないので): it negates
    what the post says of itself, not a card or a move — a function word, left to the talk around it
    (使わない, 出さない, 攻撃しない stay the order's: their verb is the order's)."""
    out = list(tokens)
    for k, tok in enumerate(tokens):
        if tok.kind != "negation" or src.norm[tok.start:tok.end] not in ("ない", "ないので", "ないけど"):
            continue
        j = k - 1
        while j >= 0 and tokens[j].kind == "function" and tokens[j].end == tokens[j + 1].start and \
                src.norm[tokens[j].start:tokens[j].end] in ("て", "で", "い", "てい", "でい", "ては", "じゃ", "は", "し", "して", "してい"):
            j -= 1
        verb = tokens[j] if j >= 0 and j < k - 1 or (j >= 0 and tokens[j].end == tok.start) else None
        if verb is not None and verb.kind == "unknown" and verb.word is None and not verb.candidates and \
                verb.end == tokens[j + 1].start and kana.has_kanji(src.norm[verb.start:verb.end]):
            out[k] = Token(tok.start, tok.end, "function")
            # the sentence says so of the cards it names (リフレクトベントは持っていない): talk, said, never the order's
            a = max(src.norm.rfind(ch, 0, tok.start) for ch in "\n。!！?？") + 1
            ends = [e for e in (src.norm.find(ch, tok.end) for ch in "\n。!！?？") if e >= 0]
            b = min(ends, default=len(src.norm))
            inside = [m for m, t in enumerate(out) if a <= t.start < b]
            said = {str(t.word.concept).split(":")[0] for t in (out[m] for m in inside) if t.word is not None and t.kind == "word"}
            if inside and said <= {"card", "function", "mention"}:
                for m in inside:
                    if out[m].kind == "word":
                        out[m] = Token(out[m].start, out[m].end, "flavour")
    return out


def _event_final(tokens: list[Token], src: Text) -> list[Token]:
    """イベントファイナル: its free text runs to the end of the line, as written."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        m = _EVENT_MARKER.match(src.folded, tok.start)
        if m and (i == 0 or tokens[i - 1].end <= tok.start):
            end = src.folded.find("\n", tok.start)
            end = len(src.folded) if end < 0 else end
            out.append(Token(tok.start, end, "event_final"))
            while i < len(tokens) and tokens[i].start < end:
                i += 1
            continue
        out.append(tok)
        i += 1
    return out
