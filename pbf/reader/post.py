"""What a post holds below its order that is no part of it: the poster's signature and the mail
field's sage (both games' readers cut them off before reading, each with a note)."""

from __future__ import annotations

import re

from ..errors import Problem

# a rule line (―――, ─────, －－－, ----, ====, -- as mail writes it): what is under it is the poster's
# signature, when something is above it; the mail field's sage (age) alone on a line is no order either
_RULE_LINE = re.compile(r"[ \u3000]*[-‐‑–—―─━ー－=＝_＿~～〜・*＊]{2,}[ \u3000]*")
# a signature's first line begun by a rule (-- M. Okochi, ――森, ――北岡こと源蔵): the line and what follows
_SIGNED_LINE = re.compile(r"[ \u3000]*(?:--|[‐‑–—―─━－]{2,})[ \u3000]*[^-‐‑–—―─━－>\s\u3000].*")
# a letter's closing on a line of its own (Regards, Makoto / Keigu. / Best regards): what follows is the signature
# (敬具\n追伸　…: a postscript after the closing is no order either)
_CLOSING_LINE = re.compile(r"[ \u3000]*(?:(?:best |kind |warm )?regards|sincerely(?: yours)?|yours(?: truly| sincerely)?|cheers|"
                           r"keigu|kashiko|sousou|敬具|草々|かしこ)[ \u3000]*[.,、。]?(?:[ \u3000]*(?:[A-Za-z. ]{1,30}|[^\s]{1,12}))?[ \u3000]*", re.I)
_SAGE_LINE = re.compile(r"[ \u3000]*(?:sage|age|ｓａｇｅ|ａｇｅ|SAGE|ＳＡＧＥ)[ \u3000]*")


def signature(text: str) -> tuple[str, list[Problem]]:
    """The order without the signature a rule line or a letter's closing begins (and what follows
    it), and without a line of sage: the lines above keep their places; a note says what was passed
    over."""
    lines = text.split("\n")
    notes: list[Problem] = []
    for index, line in enumerate(lines):
        if not index or not any(l.strip() for l in lines[:index]):
            continue
        if _RULE_LINE.fullmatch(line) or _SIGNED_LINE.fullmatch(line):
            notes.append(Problem("（区切り線）から後ろは署名として読みませんでした。", line=index + 1, column=1,
                                 text=line.strip()[:20]))
        elif _CLOSING_LINE.fullmatch(line):
            notes.append(Problem("（手紙の結び）から後ろは署名として読みませんでした。", line=index + 1, column=1,
                                 text=line.strip()[:20]))
        else:
            continue
        lines = lines[:index]
        break
    for index, line in enumerate(lines):
        if _SAGE_LINE.fullmatch(line) and any(l.strip() for k, l in enumerate(lines) if k != index):
            notes.append(Problem("は書き込みの sage（メール欄の言葉）として読みませんでした。", line=index + 1, column=1,
                                 text=line.strip()))
            lines[index] = ""
    if not notes:
        return text, notes
    return "\n".join(lines).rstrip(), notes


# the marks a memo app puts before each line of a list (▶前進\n▶前進\n▶投げ) that a reader could take for a card (▶ is →)
_BULLETS = "▶▷►▸"
_WORD_AFTER = re.compile(r"[ \u3000]*[ぁ-んァ-ヶー一-龯]{2,}")


def bullets(text: str) -> tuple[str, list[Problem]]:
    """A list of two lines or more, each begun by the same mark of ``_BULLETS`` and then a word (▶前進, ▶投げ —
    not ▶弱, which may be → and 弱): the mark is a bullet, not a card — blanked (a space, so every position
    stays), with a note. Any other use of the mark is left as it is."""
    lines = text.split("\n")
    starts = {k: line.lstrip(" \u3000")[:1] for k, line in enumerate(lines)}
    marks = {m for m in starts.values() if m and m in _BULLETS}
    if len(marks) != 1:
        return text, []
    mark = marks.pop()
    listed = [k for k, m in starts.items() if m == mark]
    if len(listed) < 2 or not all(_WORD_AFTER.match(lines[k], lines[k].index(mark) + 1) for k in listed) or \
            any(mark in line[line.index(mark) + 1 if k in listed else 0:] for k, line in enumerate(lines)):
        return text, []
    for k in listed:
        at = lines[k].index(mark)
        lines[k] = lines[k][:at] + " " + lines[k][at + 1:]
    first = listed[0]
    return "\n".join(lines), [Problem("は行頭の箇条書きの印として読みました（カードではありません）。", line=first + 1,
                                       column=text.split("\n")[first].index(mark) + 1, text=mark)]
