"""Statistics a bot author needs to read a benchmark: how sure is a win rate?"""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson"]

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: `successes` out of `n` trials.

    Fractional successes are allowed (a game won by k tied seats counts 1/k to each).
    With no trials the interval is the whole of [0, 1].

    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)
