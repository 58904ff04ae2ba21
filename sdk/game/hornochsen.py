"""Hornochsen! (docs/rules.md, "Hornochsen!"): collect rows of 5 bull cards; green heads score.

A turn is up to 3 steps of the seat to move: PLAY(card) puts a bull card on the row whose
end is the highest below it (no such row: the row with the highest end), SPECIAL(kind, row)
puts an x2 or +5 on a row without one, END_TURN (after the first step) stops early. The
5th bull card of a row collects it, specials included. Seats that cannot play are skipped;
the game ends the moment the last bull card in any hand is played.

Score = (green - red heads + 5 per +5 card) x 2^(x2 cards) - 10 per special left in hand;
the hand penalty counts once the game is over. Highest score wins.

This module is the family (its presets and constructors); the rules are in
:mod:`sdk.game.hornochsen_rules`, explicit positions and determinization in
:mod:`sdk.game.hornochsen_position`, views and card places in
:mod:`sdk.game.hornochsen_view`. Every name is importable from here.
"""

from __future__ import annotations

from sdk.game.family import Family, Preset
from sdk.game.hornochsen_position import from_position, from_view, public_table
from sdk.game.hornochsen_rules import (
    DEAL,
    DECK,
    END_TURN,
    MAX_STEPS,
    NAME,
    PLAY_OPTIONS,
    ROW_FULL,
    SPECIAL_OPTIONS,
    SPECIALS_PER_KIND,
    HornochsenState,
    new_game,
    row_for,
    score,
)
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

FAMILY = Family(
    name=NAME,
    title="Hornochsen!",
    options=(),
    presets=(Preset("hornochsen", NAME, {}, 2, 6, "Hornochsen!"),),
    view_type=HornochsenView,
    new_game=new_game,
    from_position=from_position,
    from_view=from_view,
)
"""The Hornochsen! family: its presets and constructors (see sdk.game.variants)."""
