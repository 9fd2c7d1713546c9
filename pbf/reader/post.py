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
