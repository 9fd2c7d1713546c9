"""The readings of single kanji (on and kun, katakana), for the kanji janome does not read alone
(耐, 授, 働) or reads one way only (若: ワカ, not ジャク) — what an IME slip keeps when it converts
a word's reading to another kanji (若攻撃 for 弱攻撃, 耐空 for 対空, 授動 for 受動).

The table, ``kanji.tsv`` beside this module, is derived from janome's own dictionary (IPADIC, which
pbf already depends on) by ``python -m pbf.reader.kanji``: each kanji's readings as a word of its
own, then, over two rounds, the reading a kanji has in two-kanji words whose other kanji's reading
is known (耐久 タイキュウ with 久 キュウ: 耐 is タイ), kept when at least two words agree and
two kana or longer. Loading janome's whole dictionary takes seconds, so the table is made once
and shipped; ``tests/core/test_kanji_readings.py`` checks it is what the script makes.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path

TABLE = Path(__file__).with_name("kanji.tsv")
_AGREE = 2  # words that must agree on a reading found through its neighbour
_PER_KANJI = 6  # readings kept per kanji, the most used first


def _is_kanji(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"


def _katakana(said: str) -> bool:
    return bool(said) and all("ァ" <= ch <= "ヺ" or ch == "ー" for ch in said)


def build() -> dict[str, tuple[str, ...]]:
    """Kanji -> its readings, the most used first (deterministic: ties by the reading)."""
    import janome.sysdic

    alone: dict[str, Counter[str]] = defaultdict(Counter)
    pairs: list[tuple[str, str]] = []
    for entry in janome.sysdic.entries().values():
        surface, said = entry[0], entry[8]
        if not _katakana(said):
            continue
        if len(surface) == 1 and _is_kanji(surface):
            alone[surface][said] += 1
        elif len(surface) == 2 and _is_kanji(surface[0]) and _is_kanji(surface[1]):
            pairs.append((surface, said))
    counts: dict[str, Counter[str]] = defaultdict(Counter, {k: Counter(v) for k, v in alone.items()})
    known = {k: set(v) for k, v in alone.items()}
    for _round in range(2):
        found: dict[str, Counter[str]] = defaultdict(Counter)
        for (first, second), said in pairs:
            for head in known.get(first, ()):
                if said.startswith(head) and 2 <= len(said) - len(head) <= 4:
                    found[second][said[len(head):]] += 1
            for tail in known.get(second, ()):
                if said.endswith(tail) and 2 <= len(said) - len(tail) <= 4:
                    found[first][said[: -len(tail)]] += 1
        for kanji, seen in found.items():
            agreed = {said: n for said, n in seen.items() if n >= _AGREE}
            known.setdefault(kanji, set()).update(agreed)
            if _round == 1:
                counts[kanji].update(agreed)
    return {k: tuple(sorted(c, key=lambda said: (-c[said], said))[:_PER_KANJI]) for k, c in sorted(counts.items()) if c}


def write(path: Path = TABLE) -> None:
    lines = [f"{kanji}\t{' '.join(said)}\n" for kanji, said in build().items()]
    path.write_text("".join(lines), encoding="utf-8")


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[str, ...]]:
    out = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        kanji, _tab, said = line.partition("\t")
        out[kanji] = tuple(said.split())
    return out


def readings(kanji: str) -> tuple[str, ...]:
    """The readings of one kanji, the most used first (() for one the table lacks)."""
    return _table().get(kanji, ())


if __name__ == "__main__":  # pragma: no cover - python -m pbf.reader.kanji
    write()
    print(f"{TABLE}: {len(_table())} kanji", file=sys.stderr)
