"""The seeded dice stream (product.md, "Determinism and verifiable dice").

All randomness of a turn comes from one :class:`Dice`. It hands out raw 64-bit draws ``u``;
a die is ``1 + u % 6`` and a shuffle is Fisher–Yates from the last index down with
``j = u % (i + 1)``. Every draw is recorded in :attr:`Dice.draws` so that a turn's archive
can replay it without the seed.

Sources of draws:

* :meth:`Dice.seeded` — the verifiable stream: ``K = HMAC-SHA256(seed, f"{N}\\n" + sha256_hex(orders))``,
  draw k is the first 8 bytes (big-endian) of ``HMAC-SHA256(K, k as 8 bytes big-endian)``;
* :meth:`Dice.fixed` — faces given by the GM (``--dice``) or a test, used first, in the order
  the rules roll them; a fixed face ``f`` is the draw ``u = f - 1``;
* :meth:`Dice.replay` — the draws archived with a turn.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, MutableSequence
from typing import TypeVar

from .errors import PbfError

T = TypeVar("T")


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seed_commitment(seed: str) -> str:
    """What the GM posts before the first turn: ``sha256(seed)`` in hex."""
    return sha256_hex(seed)


def turn_key(seed: str, turn: int, orders_text: str) -> bytes:
    import hmac  # here: a command that rolls no dice (check, status, show) need not load it

    message = f"{turn}\n{sha256_hex(orders_text)}".encode("utf-8")
    return hmac.new(seed.encode("utf-8"), message, hashlib.sha256).digest()


def hmac_draws(key: bytes) -> Iterator[int]:
    import hmac

    k = 0
    while True:
        digest = hmac.digest(key, k.to_bytes(8, "big"), "sha256")  # HMAC-SHA256, one call
        yield int.from_bytes(digest[:8], "big")
        k += 1


class DiceExhausted(PbfError):
    pass


def _faces_as_draws(faces: Iterable[int]) -> Iterator[int]:
    for face in faces:
        if not 1 <= int(face) <= 6:
            raise PbfError(f"ダイスの目は1〜6です（{face}）。")
        yield int(face) - 1


class Dice:
    """A stream of draws. Pass one to a resolver; never use ``random``."""

    def __init__(self, source: Iterator[int], label: str = "dice"):
        self._source = source
        self._label = label
        self.draws: list[int] = []

    # -- constructors -----------------------------------------------------------------
    @classmethod
    def seeded(cls, seed: str, turn: int, orders_text: str) -> "Dice":
        return cls(hmac_draws(turn_key(seed, turn, orders_text)), "seeded")

    @classmethod
    def fixed(cls, faces: Iterable[int], then: "Dice | None" = None) -> "Dice":
        """Given faces first, then ``then``'s draws (or an error when they run out)."""
        faces = list(faces)
        for face in faces:
            if not isinstance(face, int) or not 1 <= face <= 6:
                raise PbfError(f"ダイスの目は1〜6の整数で指定してください（{face!r}）。")

        def source() -> Iterator[int]:
            yield from _faces_as_draws(faces)
            if then is not None:
                while True:
                    yield then.draw()

        return cls(source(), "fixed")

    @classmethod
    def replay(cls, draws: Iterable[int]) -> "Dice":
        return cls(iter(list(draws)), "replay")

    # -- drawing ----------------------------------------------------------------------
    def draw(self) -> int:
        try:
            u = next(self._source)
        except StopIteration:
            raise DiceExhausted(
                f"ダイスが足りません（{len(self.draws)}個使用済み）。 / ran out of dice"
            ) from None
        self.draws.append(u)
        return u

    def below(self, n: int) -> int:
        """A number in ``0 .. n-1``."""
        return self.draw() % n

    def d6(self) -> int:
        return 1 + self.below(6)

    def shuffle(self, items: MutableSequence[T]) -> MutableSequence[T]:
        """Fisher–Yates in place, from the last index down: ``j = u % (i + 1)``."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


MAX_FIXED = 10_000  # no turn rolls near this many dice


def parse_dice_list(text: str) -> list[int]:
    """``"4,1,1,5,4,4"`` → faces; a clear error for anything that is not 1–6."""
    from .reader.text import nfkc_origin

    faces: list[int] = []
    norm, origin = nfkc_origin(text)  # the column is the text's own: ｶﾞ or ㍿ before a face moves no column
    norm = norm.replace("、", ",")
    at = 0
    for raw in norm.replace(" ", ",").split(","):
        part = raw.strip()
        start = at + len(raw) - len(raw.lstrip())
        column = origin[start] + 1
        at += len(raw) + 1
        if part:
            if part not in ("1", "2", "3", "4", "5", "6"):  # not isdigit(): ፩ and 5,000 digits are digits
                written = text[origin[start]:max(origin[start + len(part)], origin[start] + 1)]  # as typed: ㍿, not 株式会社
                shown = written if len(written) <= 12 else written[:12] + "…"
                raise PbfError(
                    f"--dice の{column}文字目「{shown}」はダイスの目（1〜6）ではありません。 / "
                    "--dice takes faces 1-6 separated by commas"
                )
            faces.append(int(part))
    if not faces:
        raise PbfError("--dice にダイスの目がありません（例：--dice 4,1,1,5,4,4）。")
    if len(faces) > MAX_FIXED:
        raise PbfError(f"--dice の目が多すぎます（{len(faces):,}個、{MAX_FIXED:,}個まで）。 / too many faces")
    return faces
