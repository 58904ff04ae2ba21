"""Rules for X nimmt!.

Picks: the 6 nimmt! row-danger estimate with rows of capacity 3, 4 and 5, minus a bonus
for getting a heavy card out of the hand (hand cards count at the end). Row choice: the
row whose cards cost the least once its heaviest card is parked in the X row. X row card:
the card that saves the most heads now without sending the X row to the X pile (x2).
"""

from __future__ import annotations

from collections.abc import Sequence

from example_bots.rules_bot.sixnimmt import pick_cost, row_heads
from sdk import DecisionKind, Option, XNimmtView
from sdk.game import HEADS

DECK = range(1, 101)
SHED_WEIGHT = 0.6  # a card played now is a card that cannot be stuck in the hand at the end


def unseen_cards(view: XNimmtView) -> list[int]:
    """Cards that may be in an opponent's hand: everything not visibly elsewhere."""
    seen = set(view.hand)
    for group in (*view.rows, *view.x_rows):
        seen.update(group)
    seen.update(view.own_x_pile)
    seen.update(card for _, card in view.revealed)
    return [c for c in DECK if c not in seen]


def x_row_cost(card: int, x_row: Sequence[int], taken: Sequence[int]) -> float:
    """Heads that parking `card` in the X row costs: the X pile if it breaks the ascent,
    the other taken cards in hand, and a little for a high X row that later cards break."""
    cost = float(row_heads(taken) - HEADS[card])
    if x_row and card < x_row[-1]:
        cost += 2 * row_heads(x_row)
        x_row = ()
    return cost + (card / 100) * 0.5 * (row_heads(x_row) + HEADS[card])


def choose(view: XNimmtView, options: Sequence[Option]) -> Option:
    """The rule-based choice for any X nimmt! decision."""
    kind = view.header.decision
    me = view.header.seat
    if kind == DecisionKind.PICK_CARD:
        pool = unseen_cards(view)
        hands = [pool for seat, size in enumerate(view.hand_sizes) if seat != me and size > 0]
        limits = [c - 1 for c in view.capacities]
        return min(
            options,
            key=lambda o: (
                pick_cost(o.card, view.rows, hands, False, limits) - SHED_WEIGHT * HEADS[o.card]
            ),
        )
    if kind == DecisionKind.TAKE_ROW:
        return min(
            options,
            key=lambda o: row_heads(view.rows[o.row]) - max(HEADS[c] for c in view.rows[o.row]),
        )
    if kind == DecisionKind.X_ROW_CARD:
        return min(options, key=lambda o: x_row_cost(o.card, view.x_rows[me], view.taken))
    return options[0]
