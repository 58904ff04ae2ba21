"""Fast playout policies: cheap rules that make playouts look like real play.

A playout policy is called for every seat at every decision of every playout, so it must
cost microseconds. Where a family has none here, playouts are random (the engine's own
fast loop).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sdk.game.cards import HEADS
from sdk.game.core import GameState, Option, OptionKind, Policy
from sdk.game.sixnimmt import SixNimmtState

EXPLORE = 0.1  # chance of a random choice, so playouts still cover surprises
SAFE_ROW_LENGTH = 4  # a card that makes a row 5 long invites the next one to take it


def sixnimmt_greedy(
    state: GameState, seat: int, options: Sequence[Option], rng: random.Random
) -> Option:
    """Greedy 6 nimmt!: the card with the smallest safe gap; a forced take as cheap as can
    be; the cheapest row to take."""
    if len(options) == 1 or rng.random() < EXPLORE or not isinstance(state, SixNimmtState):
        return options[rng.randrange(len(options))]
    rows = state.rows
    first = options[0]
    if first.kind == OptionKind.ROW:
        return min(options, key=lambda o: sum(HEADS[c] for c in rows[o.row]))
    if first.kind != OptionKind.CARD:
        return options[rng.randrange(len(options))]
    lasts = [row[-1] for row in rows]
    cheapest_row = min(sum(HEADS[c] for c in row) for row in rows)
    best = first
    best_cost = float("inf")
    for option in options:
        card = option.card
        target, target_last = -1, 0
        for index, last in enumerate(lasts):
            if target_last < last < card:
                target, target_last = index, last
        if target < 0:
            cost = 2.0 + cheapest_row
        else:
            length = len(rows[target])
            if length >= 5:
                cost = 2.0 + sum(HEADS[c] for c in rows[target])
            else:
                cost = (card - target_last) * 0.01 + (0.5 if length >= SAFE_ROW_LENGTH else 0.0)
        if cost < best_cost:
            best, best_cost = option, cost
    return best


PLAYOUT_POLICIES: dict[str, Policy] = {"6nimmt": sixnimmt_greedy}
"""Playout policy by game family; families not listed play out at random."""
