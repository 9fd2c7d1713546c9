"""The natural-order corpus figures (issue 19): per game, how many of the clear orders read as
meant the first time, how many were misread, and how many unclear ones were refused or warned.

    python benchmarks/corpus.py            # the three figures per game
    python benchmarks/corpus.py --list     # and every order that was not read as meant
    python benchmarks/corpus.py FILE.yaml  # a corpus kept elsewhere (its name starts with the game)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from corpus.runner import figures, run  # noqa: E402


def main(argv: list[str]) -> int:
    show = "--list" in argv
    files = [a for a in argv if a.endswith(".yaml")]
    for game in files or ("alterego", "rider", "alterego-2", "rider-2", "alterego-3", "rider-3", "alterego-4", "rider-4",
                                "alterego-5", "rider-5", "alterego-6", "rider-6", "alterego-8", "rider-8",
                                "alterego-9", "rider-9", "alterego-10", "rider-10",
                                "alterego-11", "rider-11", "alterego-12", "rider-12",
                                "alterego-13", "rider-13", "alterego-14", "rider-14", "alterego-15",
                                "alterego-16", "rider-16", "alterego-17", "rider-17", "alterego-18", "rider-18",
                                "alterego-19", "rider-19", "alterego-20", "rider-20", "alterego-21", "rider-21",
                                "alterego-22", "rider-22", "alterego-23", "rider-23",
                                "alterego-24", "rider-24", "alterego-25", "rider-25",
                                "alterego-26", "rider-26", "alterego-27", "rider-27"):
        outcomes = run(game)
        f = figures(outcomes)
        print(f"{game}: read as meant {f['meant']}/{f['clear']} ({100 * f['meant'] / max(f['clear'], 1):.1f}%), "
              f"misread {f['misread']}, unclear handled {f['handled']}/{f['unclear']} "
              f"({100 * f['handled'] / max(f['unclear'], 1):.1f}%)")
        if show:
            for o in outcomes:
                if o.status not in ("meant", "handled"):
                    print(f"  [{o.status}] {o.entry.get('persona')}: {o.entry['text']!r} -> {o.read!r}"
                          f" (meant {o.entry.get('means', o.entry.get('unclear'))!r})")
                    for m in o.messages[:2]:
                        print("      " + m.replace("\n", "\n      "))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
