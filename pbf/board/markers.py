"""The markers of the thread: the last line of a results post and of the opening post (which
pbf writes), and where an order starts in a post (the order marker, which players write).

:mod:`pbf.forum` reads them back (where the next turn's window starts) and gives the same names;
they live here so that writing a turn does not import the forum module (start-up, benchmarks/bench.py).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ..errors import Problem, excerpt
from ..reader.text import nfkc_origin
from ..record import record

OPENING_MARKER = "バトル開始"  # the opening post's footer: ［pbf］バトル開始 (turn 0)
RESULTS_PREFIX = "［pbf］"


def results_marker_line(turn: int) -> str:
    """The footer pbf puts on the last line of every results post: ``［pbf］第3ターン結果``.

    Give it as ``footer`` to :func:`pbf.boardfit.split_post` so that every part carries it
    (the detector also accepts a trailing ``（2/3）``). Every character survives CP932.
    """
    return f"{RESULTS_PREFIX}第{turn}ターン結果"


def opening_marker_line() -> str:
    """The footer of the opening post (``pbf new``): the window of turn 1 starts after it."""
    return f"{RESULTS_PREFIX}{OPENING_MARKER}"


# -- where an order starts in a post (docs/forum.md, section 3) ------------------------------------
#
# One reading for the thread (pbf.forum) and for ``pbf check`` on a pasted post (pbf.engine).
# Lines are compared after NFKC (［行動］ is [行動], ＞＞１２ is >>12); what is handed on is the
# post's own text, cut where the NFKC form says, so that a problem's column is the post's.

OPEN = "【[(〔〈《〖<"  # after NFKC: ［ is [, （ is (, ＜ is <; 「」 are quotes, not brackets
CLOSE = "】])〕〉》〗>"
# words that name the same marker: a marker 【行動】 is also written 【プロット】 (Alter EGO's
# players plot their cards; in the rider game it can mean nothing else either), and P, the boards'
# shorthand of プロット (P：66LH, 【P】6LL), capital only, in brackets or before a colon at a line's start
# and 結論 (an analysis board's players weigh options and odds, then write the order as 結論：ST;
# what comes before it is their reasoning)
SAME_WORDS = (("行動", "プロット", "P", "結論", "けつろん", "ケツロン"),)
# 結論 also with a space after it, at a line's start (けつろん すとらいく: a phone's, no colon typed)
_SPACED_WORDS = ("結論", "けつろん", "ケツロン")
# the same marker typed without an IME (koudou:, [action], Order:), at the start of a line only, in
# any case: a player at a work PC or abroad (their chat before it is then passed over as chat)
ROMAJI_WORDS = ("koudou", "kōdō", "kodo", "koudo", "action", "order", "orders", "plot", "ketsuron", "conclusion")
_ROMAJI_SHAPES = (rf"\[\s*(?i:{'|'.join(ROMAJI_WORDS)})\s*\]|(?i:{'|'.join(ROMAJI_WORDS)})\s*:")


def _romaji_marked(norm: str) -> bool:
    """A quick look for the marker typed without an IME (the patterns are matched after it)."""
    low = norm.lower()
    return any(w in low for w in ROMAJI_WORDS)


ANCHOR = r"(?:>>\d+(?:\s*[-,、]\s*\d+)*\s*)+"  # >>12, >>12-15, >>12,14 (＞＞１２ after NFKC)

# The marker as a word in a sentence — 【行動】は行の先頭に…, 「【行動】」って, 【行動】を書き忘れた,
# 【行動】してください — is chat, wherever it stands. Its sign is what follows it: a closing quote or
# punctuation, a particle that no order begins with (の を って), a one-kana particle not followed by
# more kana (は行頭 is a mention, はなれる an order; が ー ど, kana typed apart to the line's end, an order),
# or a word that continues a sentence.
_MENTION = (
    r"\s*(?:[のをっ、。,.?!」』”’\"')\]】〕〉》〗]"
    r"|[はがにでともへやだ](?![\u3041-\u3096\u30fc])(?![ \u3000][\u3041-\u3096\u30fc](?:[ \u3000][\u3041-\u3096\u30fc])*[ \u3000]*(?:\n|$))"
    r"|です|でした|でしょ|する|して|した|しよう|します|しません|から|まで|より|とか|など|なら|だけ)"
)  # compiled on first use: a turn imports this module for its footer alone (start-up)
_OPENING_QUOTES = "「『“‘\"'("

# What pbf says about a post (notes: something passed over or read in another shape; problems: the
# order cannot be read; unread: a marker that was seen and not taken). {marker} is the campaign's.
SAY = {
    "shape": "「{seen}」を{marker}として読みました（目印は{marker}です）。",
    "anchor": "「{anchor}」はアンカー（返信先）なので、行動から外して読みました。",
    "mid": "行の途中の{marker}から後ろを行動として読みました（{marker}は行の先頭に書いてください）。",
    "earlier": "「{text}」は、後にもう一つ{marker}があるので行動として読んでいません（最後の{marker}から後ろが行動です）。{more}",
    "earlier_more": "その前の{count}か所の{marker}の後ろも同じです。",
    "epilogue": "{marker}がないので、「{word}:」で始まるこの行を決着後の演出として読みました{chat}。",
    "epilogue_chat": "（前の行は雑談として読み飛ばしました）",
    "empty": "{marker}の後ろに行動がありません。 / nothing after the marker",
    "empty_hint": "行動を{marker}の後ろ（同じ行か次の行）に書いてください。",
    "mention": "{marker}は文の中の言葉として書かれているので、行動の目印として読んでいません。"
               "行動なら、行の先頭に{marker}を書き、その後ろに行動を書いてください。",
    "shared": "「{shared}」で始まる行は他の人の投稿の引用（リツイート）なので、その中の{marker}を行動の目印として読んでいません。"
              "自分の行動なら、行の先頭に{marker}を書き、その後ろに行動を書いてください。",
    "mid_empty": "行の途中の{marker}の後ろ（同じ行）に何もないので、行動として読んでいません。"
                 "行の先頭に{marker}を書き、その後ろに行動を書いてください。",
}


@record(frozen=True)
class Found:
    """The order in a post: its text (the post's own characters), where it starts (``line`` of
    the post, 1-based; ``column_offset`` characters before it on that line), the notes on what was
    passed over or read in another shape, and the problems that leave no order to read (an empty
    marker). Notes and problems carry the post's lines and columns, without player or source."""

    text: str
    line: int
    column_offset: int
    notes: tuple[Problem, ...] = ()
    problems: tuple[Problem, ...] = ()


@record(frozen=True)
class Reading:
    """What :func:`read_post` found: the order, or why a marker that was seen was not taken."""

    found: Found | None = None
    unread: Problem | None = None  # only when ``found`` is None


@record(frozen=True)
class _Marker:
    """A marker found on a line: its place in the line's NFKC form."""

    index: int  # line of the post, 0-based
    start: int  # where the marker (after a leading anchor) starts
    end: int  # where the order may start (after the marker and a colon)
    exact: bool  # written as the campaign's marker (a colon after it is part of it)
    lead: int = 0  # where a leading anchor starts, or ``start`` without one
    mid: bool = False  # in the middle of a line
    word: str = ""  # the epilogue's word, for an epilogue line


@record(frozen=True)
class _Shapes:
    words: tuple[str, ...]  # what a quick look for the marker searches (its NFKC form, its words)
    start: re.Pattern[str]
    mid: re.Pattern[str]


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


@lru_cache(maxsize=16)
def _words(marker: str) -> tuple[str, tuple[str, ...]]:
    """The marker after NFKC and the words its other shapes may hold (行動 and プロット for
    【行動】; none for a marker without brackets)."""
    norm = _nfkc(marker).strip()
    core = norm[1:-1].strip() if len(norm) >= 3 and norm[0] in OPEN and norm[-1] in CLOSE else ""
    return norm, next((group for group in SAME_WORDS if core in group), (core,)) if core else ()


@lru_cache(maxsize=16)
def _shapes(marker: str) -> _Shapes:
    """The marker's patterns, compiled when a post first holds one of its words (a plain order
    given to ``pbf check`` never pays for them)."""
    norm, words = _words(marker)
    exact = re.escape(norm)
    opening, closing = "".join(map(re.escape, OPEN)), "".join(map(re.escape, CLOSE))
    if words:
        word = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        bracketed = rf"[{opening}]\s*(?:{word})\s*[{closing}]"
        spaced = "|".join(w for w in _SPACED_WORDS if w in words)
        start_shapes = rf"{bracketed}|(?:{word})\s*:|{_ROMAJI_SHAPES}"  # 行動： at the start of a line, without brackets
        start_shapes += rf"|(?:{spaced})(?=[ \t\u3000])" if spaced else ""
    else:  # a marker without brackets: only as written
        bracketed = start_shapes = r"(?!)"
    return _Shapes(
        tuple(dict.fromkeys((norm, *words))),
        re.compile(rf"(?P<lead>\s*(?:{ANCHOR})?(?:\*\*|__)?)(?:(?P<exact>{exact})|(?P<shape>{start_shapes}))(?P<colon>\s*:)?"),
        re.compile(rf"(?:(?P<exact>{exact})|(?P<shape>{bracketed}))(?P<colon>\s*:)?"),
    )


def _cut(line: str, norm_at: int) -> int:
    """Where in ``line`` its NFKC form reaches ``norm_at`` characters: the start of the character
    that gave the ``norm_at``-th normalised one, or, inside what one character expands to (``㍿``),
    the end of that character. Through the kept mapping (:func:`pbf.reader.text.nfkc_origin`),
    never through lengths."""
    if norm_at <= 0:
        return 0
    origin = _origin(line)
    if norm_at >= len(origin) - 1:
        return len(line)
    at = origin[norm_at]
    if at != origin[norm_at - 1]:
        return at
    return next((o for o in origin[norm_at:] if o != at), len(line))


@lru_cache(maxsize=64)
def _origin(line: str) -> tuple[int, ...]:
    return tuple(nfkc_origin(line)[1])


def _anchor_at(lead: str) -> int:
    """Where a leading anchor starts in the lead before a marker (its length without one)."""
    if lead.strip().strip("*_") == "":
        return len(lead)  # **【行動】**: markdown's bold before the marker (a bridge from Discord), no anchor
    return len(lead) - len(lead.lstrip())


# a post passed on from X (Twitter) by a bridge: RT @name: (a retweet) or QT @name (a quote), at a line's start
_SHARED = re.compile(r"\s*(?:RT|QT)\s*@[A-Za-z0-9_]{1,15}\s*:?")


def _is_quote(norm: str) -> bool:
    stripped = norm.lstrip()
    return stripped.startswith(">") and re.match(ANCHOR, stripped) is None


@lru_cache(maxsize=1)
def _mention_re() -> re.Pattern[str]:
    return re.compile(_MENTION)


def _mention(norm: str, start: int, end: int, colon: bool) -> bool:
    """Whether the marker at ``norm[start:end]`` is a word in a sentence rather than an order's head."""
    if colon:
        return False
    if start > 0 and norm[start - 1] in _OPENING_QUOTES:
        return True
    return _mention_re().match(norm, end) is not None


_KATAKANA = {c: c + 0x60 for c in range(0x3041, 0x3097)}  # ぁ..ゖ → ァ..ヶ, for str.translate


@lru_cache(maxsize=8)
def _epilogue_re(words: tuple[str, ...]) -> re.Pattern[str]:
    spelled = sorted((_nfkc(w).strip().translate(_KATAKANA) for w in words), key=len, reverse=True)
    alternatives = "|".join(r"\s*".join(map(re.escape, w.split())) for w in spelled if w)
    # the word and a colon, as the order is written (イベントファイナル: 演出): 「イベントファイナルどうしよう」 is chat
    return re.compile(rf"(?P<lead>\s*(?:{ANCHOR})?)(?P<word>{alternatives})(?=\s*:)", re.IGNORECASE)


def read_post(body: str, marker: str, epilogue: tuple[str, ...] = ()) -> Reading:
    """Where the order starts in a post (docs/forum.md, section 3): after the last marker that
    begins a line (【行動】, 【行動】：, 【 行動 】, ［行動］, 行動：, 【プロット】, after a leading
    anchor); without one, after the last marker in mid-line that heads what follows it on the
    line; without either, at the last line beginning with one of ``epilogue``'s words (the rider
    game's イベントファイナル after the battle's end), that word included. Quotes (``>``) never
    carry a marker; a marker used as a word in a sentence (【行動】は…) is chat."""
    norm_marker, words = _words(marker)
    norm_body = _nfkc(body)
    if not epilogue and norm_marker not in norm_body and not any(w in norm_body for w in words) and \
            not (words and _romaji_marked(norm_body)):
        return Reading()
    shapes = _shapes(marker)
    lines = body.split("\n")
    norms = [_nfkc(line) for line in lines]
    starts: list[_Marker] = []
    mids: list[_Marker] = []
    unread: Problem | None = None
    for index, norm in enumerate(norms):
        if not any(w in norm for w in shapes.words) and not (words and _romaji_marked(norm)):
            continue
        m = shapes.start.match(norm)
        if m:
            at = m.start("exact") if m.group("exact") else m.start("shape")
            if not _mention(norm, at, m.end(), bool(m.group("colon"))):
                starts.append(_Marker(index, at, m.end(), bool(m.group("exact")), _anchor_at(m.group("lead"))))
            elif unread is None:
                unread = _say("mention", marker, index, lines[index], at)
            continue
        if _is_quote(norm):
            continue
        shared = _SHARED.match(norm)  # RT @kaede: 【行動】→→弱強: another's post passed on, not this player's order
        if shared is not None and shapes.mid.search(norm, shared.end()):
            unread = unread or _say("shared", marker, index, lines[index], 0, shared=shared.group().strip())
            continue
        last = None
        filled = len(norm.rstrip())  # where the line's text ends: nothing after a marker past it
        for mm in shapes.mid.finditer(norm):
            if _mention(norm, mm.start(), mm.end(), bool(mm.group("colon"))):
                unread = unread or _say("mention", marker, index, lines[index], mm.start())
            elif mm.end() >= filled and not (mm.group("exact") and _closes_sentence(norm[:mm.start()]) and
                                             any(n.strip() for n in norms[index + 1:])):
                unread = unread or _say("mid_empty", marker, index, lines[index], mm.start())
            else:
                last = (mm.start(), mm.end(), bool(mm.group("exact")))
        if last is not None:
            mids.append(_Marker(index, last[0], last[1], last[2], last[0], mid=True))
    epilogues: list[_Marker] = []
    if not starts and not mids and epilogue:
        pattern = _epilogue_re(tuple(epilogue))
        for index, norm in enumerate(norms):
            m = pattern.match(norm.translate(_KATAKANA))
            if m:
                epilogues.append(_Marker(index, m.end("lead"), m.end("lead"), True, _anchor_at(m.group("lead")),
                                         word=m.group("word")))
    chosen = starts or mids or epilogues
    if not chosen:
        return Reading(unread=unread)
    last = chosen[-1]
    # every marker before the one read, in mid-line ones too: what follows each is said as not read
    before = sorted((m for m in starts + mids + epilogues if (m.index, m.start) < (last.index, last.start)),
                    key=lambda m: (m.index, m.start))
    return Reading(found=_found(lines, norms, [*before, last], marker))


def _closes_sentence(before: str) -> bool:
    """The text before a marker at the end of its line ends a sentence (…初めてです。【行動】, then
    the order on the lines under it): the marker heads those lines."""
    return before.rstrip()[-1:] in tuple("。.!?！？ｗw笑)）") or before[-1:].isspace()


def order_text(body: str, marker: str, epilogue: tuple[str, ...] = ()) -> Found | None:
    """The order in a post (:func:`read_post`), or None when the post has none."""
    return read_post(body, marker, epilogue).found


_QUOTED = ("shape", "anchor", "earlier")  # their message quotes what it is about: no line beside it


_USERS = ("seen", "anchor", "text", "word", "shared")  # words taken from the post: quoted as messages quote a user's text


def _say(kind: str, marker: str, index: int, line: str, norm_at: int | None, **words: str) -> Problem:
    words = {key: excerpt(value, 20) if key in _USERS else value for key, value in words.items()}
    column = _cut(line, norm_at) + 1 if norm_at is not None else None
    text = None if kind in _QUOTED else line.strip() or None
    # an earlier order in the same post not read: the later one is read, and the other reading named
    severity = "warning" if kind == "earlier" else None
    return Problem(SAY[kind].format(marker=marker, **words), line=index + 1, column=column, text=text, severity=severity)


def _found(lines: list[str], norms: list[str], chosen: list[_Marker], marker: str) -> Found:
    last = chosen[-1]
    notes: list[Problem] = []
    # an earlier marker with something after it: a correction within the post, said once (for the
    # one just before the marker read, with how many more there were)
    passed: list[tuple[_Marker, str]] = []
    for earlier, later in zip(chosen, chosen[1:]):
        if earlier.index == later.index:
            between = norms[earlier.index][earlier.end:later.lead]
        else:
            between = "\n".join([norms[earlier.index][earlier.end:], *norms[earlier.index + 1 : later.index],
                                 norms[later.index][: later.lead]])
        if between.strip():
            passed.append((earlier, between))
    if passed:
        earlier, between = passed[-1]
        more = SAY["earlier_more"].format(marker=marker, count=len(passed) - 1) if len(passed) > 1 else ""
        notes.append(_say("earlier", marker, earlier.index, lines[earlier.index], earlier.start,
                          text=" ".join(between.split()), more=more))
    line = lines[last.index]
    norm = norms[last.index]
    # a reply: anchor lines (>>12 alone) before the marker, and an anchor at the start of its line
    replies = [i for i in range(chosen[0].index) if re.fullmatch(ANCHOR, norms[i].strip())]
    if replies and not last.word:
        first = lines[replies[0]]
        notes.append(_say("anchor", marker, replies[0], first, len(norms[replies[0]]) - len(norms[replies[0]].lstrip()),
                          anchor=" ".join(norms[i].strip() for i in replies)))
    if last.lead < last.start and norm[last.lead : last.start].strip():  # >>12 【行動】…
        notes.append(_say("anchor", marker, last.index, line, last.lead, anchor=norm[last.lead : last.start].strip()))
    if last.word:  # always said: there is no marker
        chat = SAY["epilogue_chat"] if any(part.strip() for part in lines[: last.index]) else ""
        notes.append(_say("epilogue", marker, last.index, line, last.start, word=last.word, chat=chat))
    elif not last.exact:
        seen = line[_cut(line, last.start) : _cut(line, last.end)].strip()
        notes.append(_say("shape", marker, last.index, line, last.start, seen=seen))
    if last.mid:
        notes.append(_say("mid", marker, last.index, line, last.start))
    cut = _cut(line, last.end)
    text_lines = [line[cut:]] + lines[last.index + 1 :]
    line_no, column = last.index + 1, cut
    while True:  # blank lines, then an anchor at the start of the order (【行動】>>12 弱→強): passed over
        while len(text_lines) > 1 and not text_lines[0].strip():
            text_lines.pop(0)
            line_no, column = line_no + 1, 0
        first = text_lines[0]
        lead = len(first) - len(first.lstrip())
        norm_first = _nfkc(first[lead:])
        m = re.match(ANCHOR, norm_first)
        if not m:
            break
        skip = lead + _cut(first[lead:], m.end())
        notes.append(Problem(SAY["anchor"].format(marker=marker, anchor=excerpt(m.group().strip(), 20)), line=line_no,
                             column=column + lead + 1))
        text_lines[0] = first[skip:]
        column += skip
    first = text_lines[0]
    lead = len(first) - len(first.lstrip())
    text_lines[0] = first[lead:]
    column += lead
    text = "\n".join(part.rstrip() for part in text_lines).strip()
    problems: tuple[Problem, ...] = ()
    if not text:
        problems = (Problem(SAY["empty"].format(marker=marker), line=last.index + 1, text=line.strip() or None,
                            hint=SAY["empty_hint"].format(marker=marker)),)
    return Found(text, line_no, column, tuple(notes), problems)
