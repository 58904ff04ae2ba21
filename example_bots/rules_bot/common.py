"""Helpers the rule-based strategies share: how likely the other players are to put cards
on a row before ours lands, and the cheapest option. (The cards seen so far come from the
SDK: :func:`sdk.seen_cards`.)"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sdk import Option


def count_distribution(probabilities: Iterable[float]) -> list[float]:
    """dist[k] = P(exactly k of independent events happen), each with its own probability."""
    dist = [1.0]
    for p in probabilities:
        nxt = [0.0] * (len(dist) + 1)
        for k, mass in enumerate(dist):
            nxt[k] += mass * (1.0 - p)
            nxt[k + 1] += mass * p
        dist = nxt
    return dist


def cheapest(options: Sequence[Option], cost: dict[Option, float]) -> Option:
    """The option with the lowest cost; the earliest in canonical order on ties."""
    return min(options, key=lambda o: cost[o])
