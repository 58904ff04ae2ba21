"""11 nimmt! (docs/rules.md, "11 nimmt!"): play onto piles within 10 above the top, or take a pile.

Scores are penalty points counted as positive numbers (the rulebook's "negative points"
with the sign dropped), so fewest points wins and ``higher_is_better`` is False.

A turn is a sequence of decisions of the seat to move: PLAY(card, pile) options, ROW(pile)
to take a pile (only before the first card of the turn), END_TURN once a card was played
and more plays are possible. With no bull card the turn ends after one card; it ends by
itself whenever no further play is legal.

This package's face is the family record (:data:`FAMILY`); every public name of the
family is importable from here. Inside, top first: :mod:`~sdk.game.elevennimmt.constructors`
(a state from a Position or a view) > :mod:`~sdk.game.elevennimmt.rules` (the state and
its rules) > :mod:`~sdk.game.elevennimmt.turnoptions` (a turn's plays, kept up to date)
and :mod:`~sdk.game.elevennimmt.view` (views, card places) >
:mod:`~sdk.game.elevennimmt.table` (pile arithmetic) > :mod:`~sdk.game.elevennimmt.setup`
(the variant).
"""

from __future__ import annotations

from sdk.game.elevennimmt.constructors import from_position, from_view, public_piles
from sdk.game.elevennimmt.rules import ElevenNimmtState, new_game
from sdk.game.elevennimmt.setup import CATALOG, NAME
from sdk.game.elevennimmt.table import (
    BITS,
    BULL_CARDS,
    BULL_PILE,
    DECK,
    END_TURN,
    HAND_SIZE,
    MAX_PILES,
    PILE_BITS,
    PILE_MASK,
    PLAY_OPTIONS,
    REACH,
    ROW_OPTIONS,
    STEAL_OPTIONS,
    WINDOW,
    WINDOW_MASKS,
    Phase,
    PlayOptions,
    distance,
    next_starter,
    piles_of,
    playable,
    round_points,
    stack,
    steal_targets,
)
from sdk.game.family import Family
from sdk.game.views import ElevenNimmtView

__all__ = [
    "BITS",
    "BULL_CARDS",
    "BULL_PILE",
    "DECK",
    "END_TURN",
    "FAMILY",
    "HAND_SIZE",
    "MAX_PILES",
    "NAME",
    "PILE_BITS",
    "PILE_MASK",
    "PLAY_OPTIONS",
    "REACH",
    "ROW_OPTIONS",
    "STEAL_OPTIONS",
    "WINDOW",
    "WINDOW_MASKS",
    "ElevenNimmtState",
    "Phase",
    "PlayOptions",
    "distance",
    "from_position",
    "from_view",
    "new_game",
    "next_starter",
    "piles_of",
    "playable",
    "public_piles",
    "round_points",
    "stack",
    "steal_targets",
]

FAMILY = Family.of(
    CATALOG,
    view_type=ElevenNimmtView,
    new_game=new_game,
    from_position=from_position,
    from_view=from_view,
)
"""The 11 nimmt! family: its presets and constructors (see sdk.game.variants)."""
