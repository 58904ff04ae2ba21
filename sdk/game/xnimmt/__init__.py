"""X nimmt! (docs/rules.md, "X nimmt!"): three rows of capacity 3, 4 and 5, X rows and X piles.

A turn: every seat picks a hand card face down (simultaneous), the cards are revealed and
resolved in ascending order. A card goes to the row whose last card is the highest one
below it; the card that would be a row's capacity-th card takes the cards already there;
a card below every row takes a row of its player's choice. Of the taken cards exactly one
goes to the taker's X row (their choice), the others to their hand. A card lower than
the X row's last card first moves the X row face down onto the X pile. The round ends
after the turn at whose end some hand is empty; score = hand heads + 2 x X pile heads.
Two rounds; fewest points wins.

This package's face is the family record (:data:`FAMILY`); every public name of the
family is importable from here. Inside, top first: :mod:`~sdk.game.xnimmt.constructors`
(a state from a Position or a view) > :mod:`~sdk.game.xnimmt.rules` (the state and its
rules) > :mod:`~sdk.game.xnimmt.view` (views, card places) > :mod:`~sdk.game.xnimmt.setup`
(the table's constants, where a card goes, the variant).
"""

from __future__ import annotations

from sdk.game.family import Family
from sdk.game.views import XNimmtView
from sdk.game.xnimmt.constructors import from_position, from_view
from sdk.game.xnimmt.rules import XNimmtState, new_game
from sdk.game.xnimmt.setup import (
    CAPACITIES,
    CARD_OPTIONS,
    CATALOG,
    DECK,
    HAND_SIZE,
    NAME,
    ROUNDS,
    ROW_OPTIONS,
    Phase,
    round_score,
    row_for,
)

__all__ = [
    "CAPACITIES",
    "CARD_OPTIONS",
    "DECK",
    "FAMILY",
    "HAND_SIZE",
    "NAME",
    "ROUNDS",
    "ROW_OPTIONS",
    "Phase",
    "XNimmtState",
    "from_position",
    "from_view",
    "new_game",
    "round_score",
    "row_for",
]

FAMILY = Family.of(
    CATALOG,
    view_type=XNimmtView,
    new_game=new_game,
    from_position=from_position,
    from_view=from_view,
)
"""The X nimmt! family: its presets and constructors (see sdk.game.variants)."""
