"""Helpers the rule-based strategies share: which cards are still unseen, and how likely
the other players are to put cards on a row before ours lands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sdk.game.core import Event, EventKind, Option


def revealed_cards(history: Sequence[Event], round_number: int) -> set[int]:
    """Number cards seen face up this round: row starters, reveals, placements, takes."""
    seen: set[int] = set()
    for event in history:
        if event.round != round_number:
            continue
        if event.kind == EventKind.ROUND_START:
            seen.update(event.cards)
        elif event.kind in (EventKind.REVEAL, EventKind.PLACE, EventKind.NEW_PILE):
            seen.add(event.card)
        elif event.kind == EventKind.TAKE:
            seen.update(event.cards)
    return seen


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
