"""Hornochsen! (docs/rules.md, "Hornochsen!"): collect rows of 5 bull cards; green heads score.

A turn is up to 3 steps of the seat to move: PLAY(card) puts a bull card on the row whose
end is the highest below it (no such row: the row with the highest end), SPECIAL(kind, row)
puts an x2 or +5 on a row without one, END_TURN (after the first step) stops early. The
5th bull card of a row collects it, specials included. Seats that cannot play are skipped;
the game ends the moment the last bull card in any hand is played.

Score = (green - red heads + 5 per +5 card) x 2^(x2 cards) - 10 per special left in hand;
the hand penalty counts once the game is over. Highest score wins.

This package's face is the family record (:data:`FAMILY`); every public name of the
family is importable from here. Inside, top first: :mod:`~sdk.game.hornochsen.constructors`
(a state from a Position or a view) > :mod:`~sdk.game.hornochsen.rules` (the state and its
rules) > :mod:`~sdk.game.hornochsen.position` and :mod:`~sdk.game.hornochsen.view` (what
the state's methods hand on) > :mod:`~sdk.game.hornochsen.setup` (the table and the
variant).
"""

from __future__ import annotations

from sdk.game.family import Family
from sdk.game.hornochsen.constructors import from_position, from_view, public_table
from sdk.game.hornochsen.rules import (
    END_TURN,
    PLAY_OPTIONS,
    SPECIAL_OPTIONS,
    HornochsenState,
    new_game,
    row_for,
    score,
)
from sdk.game.hornochsen.setup import CATALOG, DEAL, DECK, MAX_STEPS, NAME, ROW_FULL
from sdk.game.hornochsen.view import SPECIALS_PER_KIND
from sdk.game.views import HornochsenView

__all__ = [
    "DEAL",
    "DECK",
    "END_TURN",
    "FAMILY",
    "MAX_STEPS",
    "NAME",
    "PLAY_OPTIONS",
    "ROW_FULL",
    "SPECIALS_PER_KIND",
    "SPECIAL_OPTIONS",
    "HornochsenState",
    "from_position",
    "from_view",
    "new_game",
    "public_table",
    "row_for",
    "score",
]

FAMILY = Family.of(
    CATALOG,
    view_type=HornochsenView,
    new_game=new_game,
    from_position=from_position,
    from_view=from_view,
)
"""The Hornochsen! family: its presets and constructors (see sdk.game.variants)."""
