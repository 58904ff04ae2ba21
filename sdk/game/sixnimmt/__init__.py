"""6 nimmt! and its Tactics, Logic and Professional variants (docs/rules.md, "6 nimmt!").

One engine for the family; the variant options (deck, deal, placement, end, rounds) switch
the rules. Decisions, events and the determinization are described in docs/game-model.md
("6 nimmt! family"). This package's face is the family record (:data:`FAMILY`); every
public name of the family is importable from here. Inside, top first:
:mod:`~sdk.game.sixnimmt.batch` (vectorised playouts, numpy) >
:mod:`~sdk.game.sixnimmt.constructors` (a state from a Position or a view) >
:mod:`~sdk.game.sixnimmt.rules` (the state and its rules) >
:mod:`~sdk.game.sixnimmt.position` and :mod:`~sdk.game.sixnimmt.view` (what the state's
methods hand on) > :mod:`~sdk.game.sixnimmt.setup` (the table, the deal, the variants).
"""

from __future__ import annotations

from sdk.game.family import Family
from sdk.game.sixnimmt.constructors import from_position, from_view
from sdk.game.sixnimmt.rules import SixNimmtState, new_game
from sdk.game.sixnimmt.setup import (
    CARD_OPTIONS,
    CATALOG,
    FULL_DECK,
    HAND_SIZE,
    MAX_ROUNDS,
    PLACE_OPTIONS,
    ROW_CAPACITY,
    ROW_OPTIONS,
    ROWS,
    Phase,
    Rules,
    deal_order,
    heads_of,
    nearest_places,
)
from sdk.game.views import SixNimmtView

__all__ = [
    "CARD_OPTIONS",
    "FAMILY",
    "FULL_DECK",
    "HAND_SIZE",
    "MAX_ROUNDS",
    "PLACE_OPTIONS",
    "ROWS",
    "ROW_CAPACITY",
    "ROW_OPTIONS",
    "Phase",
    "Rules",
    "SixNimmtState",
    "deal_order",
    "from_position",
    "from_view",
    "heads_of",
    "nearest_places",
    "new_game",
]

FAMILY = Family.of(
    CATALOG,
    view_type=SixNimmtView,
    new_game=new_game,
    from_position=from_position,
    from_view=from_view,
)
"""The 6 nimmt! family: its options, presets and constructors (see sdk.game.variants)."""
