"""Playout policies of the Monte Carlo bot for the families played by the generic path.

They read the engine state directly (building a view per step would be 25-50x slower) and
reuse the rule-based bot's valuations where those are pure functions. (Hornochsen! has
its own vectorised playouts: :mod:`example_bots.montecarlo_bot.hornochsen`.) Each adds a little
uniform noise to its values so that the playouts of one option differ.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from example_bots.rules_bot.sixnimmt import row_heads
from example_bots.rules_bot.xnimmt import SHED_WEIGHT, x_row_cost
from sdk import GameState, Option, OptionKind
from sdk.game import HEADS, xnimmt

NOISE = 0.5  # a uniform draw in [0, NOISE) is added to each option's value (or cost)
NOWHERE_EXTRA = 1.0  # X nimmt!: a card below every row also costs the choice of its turn
GAP_RISK = 0.05  # X nimmt!: heads per card of gap, times the row's fullness and heads


def play_first(
    state: GameState, seat: int, options: Sequence[Option], rng: random.Random
) -> Option:
    """11 nimmt!: a random card play when there is one (taking a pile only when no card
    fits), and keep playing while the turn allows; random playouts take piles at any time
    and make rounds that real players never play."""
    plays = [o for o in options if o.kind == OptionKind.PLAY]
    return rng.choice(plays) if plays else options[rng.randrange(len(options))]


def _take_cost(row: Sequence[int]) -> float:
    """X nimmt!: heads a taken row costs once its heaviest card is parked in the X row."""
    return float(row_heads(row) - max(HEADS[c] for c in row))


def xnimmt_greedy(
    state: GameState, seat: int, options: Sequence[Option], rng: random.Random
) -> Option:
    """X nimmt!: avoid taking rows (a row's last place, or a card below every row, which
    takes the cheapest row), prefer small gaps to short rows, shed heavy cards; take the
    cheapest row; park the card that costs least (the rule-based bot's X row rule)."""
    assert isinstance(state, xnimmt.XNimmtState)
    rows = state.rows
    phase = state.phase
    if phase is xnimmt.Phase.TAKE_ROW:
        return min(options, key=lambda o: _take_cost(rows[o.row]) + rng.random() * NOISE)
    if phase is xnimmt.Phase.X_ROW_CARD:
        x_row, taken = state.x_rows[seat], state.taken
        return min(options, key=lambda o: x_row_cost(o.card, x_row, taken))
    nowhere = min(_take_cost(r) for r in rows) + NOWHERE_EXTRA

    def cost(card: int) -> float:
        row = xnimmt.row_for(card, rows)
        if row < 0:
            value = nowhere
        else:
            cards, capacity = rows[row], xnimmt.CAPACITIES[row]
            if len(cards) + 1 == capacity:
                value = _take_cost(cards)
            else:
                fullness = (len(cards) + 1) / capacity
                value = GAP_RISK * fullness * row_heads(cards) * (card - cards[-1])
        return value - SHED_WEIGHT * HEADS[card] + rng.random() * NOISE

    return min(options, key=lambda o: cost(o.card))
