"""Exact distributions of the rider game's dice (pbf/systems/rider/dice.py, docs/dice.md).

A die *explodes*: a 1 is rolled again and added, as often as 1 comes up, so a die is
``k + f`` with ``k`` ones first and a last face ``f`` in 2..6, probability ``6**-(k+1)``.
A check is N such dice, keeping the highest; the damage 1D6 is one such die.

Every distribution here is a ``Dist``: value -> probability, and ``lost``, the probability of the
values left out. The support is infinite (any number of 1s), so it is cut where the rest is
below ``EPSILON`` (1e-12 per distribution; every figure pbf prints is then exact to better than
1e-9). With ``exact=True`` the probabilities are ``Fraction`` (rational arithmetic: the tests
compare them with a brute-force enumeration); otherwise floats (the same sums, ~50 times faster).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

EPSILON = 1e-12


class Dist(dict):
    """value -> probability; ``lost``: the probability mass of values not kept (an upper bound)."""

    lost: float = 0.0

    def mean(self) -> Any:
        return sum(v * p for v, p in self.items())

    def at_least(self, value: int) -> Any:
        return sum(p for v, p in self.items() if v >= value)

    def median(self) -> int | None:
        """The smallest value whose cumulative probability reaches 1/2."""
        total = 0
        for v in sorted(self):
            total += self[v]
            if total * 2 >= 1:
                return v
        return None


def _one(exact: bool) -> Any:
    return Fraction(1) if exact else 1.0


def top(n: int) -> int:
    """The highest value kept for a pool of ``n`` dice: P(one die > V) <= 6**-(V-5), and a pool of
    n dice loses at most n times that."""
    return 5 + math.ceil(math.log(max(1, n) / EPSILON, 6))


def die_cdf(limit: int, exact: bool = False) -> list[Any]:
    """P(X <= v) for v = 0..limit, X one exploding die."""
    sixth = _one(exact) / 6
    pmf = [_one(exact) * 0] * (limit + 1)
    for v in range(2, limit + 1):
        # X = v: k ones then a last face f = v - k in 2..6
        pmf[v] = sum(sixth ** (k + 1) for k in range(max(0, v - 6), v - 1))
    out, total = [], _one(exact) * 0
    for v in range(limit + 1):
        total += pmf[v]
        out.append(total)
    return out


_CACHE: dict[tuple[int, int, bool], Dist] = {}


def pool(n: int, bonus: int = 0, exact: bool = False) -> Dist:
    """The achievement of a check: the highest of ``n`` exploding dice, plus ``bonus``."""
    n = max(1, n)
    key = (n, bonus, exact)
    kept = _CACHE.get(key)
    if kept is not None:
        return kept
    limit = top(n)
    cdf = die_cdf(limit, exact)
    out = Dist()
    prev = _one(exact) * 0
    for v in range(2, limit + 1):
        now = cdf[v] ** n
        out[v + bonus] = now - prev
        prev = now
    out.lost = float(1 - prev)
    if len(_CACHE) > 512:
        _CACHE.clear()
    _CACHE[key] = out
    return out


def damage_die(exact: bool = False) -> Dist:
    """The damage 1D6, exploding."""
    return pool(1, 0, exact)
