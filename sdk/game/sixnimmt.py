"""6 nimmt! and its Tactics, Logic and Professional variants (docs/rules.md, "6 nimmt!").

One engine for the family; the variant options (deck, deal, placement, end, rounds) switch
the rules. Decisions, events and the determinization are described in docs/game-model.md
("6 nimmt! family"). This module is the family (its options, presets and constructors);
the table and the deal are in :mod:`sdk.game.sixnimmt_setup`, the rules in
:mod:`sdk.game.sixnimmt_rules`, views in :mod:`sdk.game.sixnimmt_view`, explicit positions
and determinization in :mod:`sdk.game.sixnimmt_position`. Every name is importable from here.
"""

from __future__ import annotations

from sdk.game.family import Family, OptionSpec, Preset
from sdk.game.sixnimmt_position import from_position, from_view
from sdk.game.sixnimmt_rules import SixNimmtState, new_game
from sdk.game.sixnimmt_setup import (
    CARD_OPTIONS,
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

FAMILY = Family(
    name="6nimmt",
    title="6 nimmt!",
    options=(
        OptionSpec("deck", ("full", "tactics"), "full", help="1..104, or 1..10n+4"),
        OptionSpec("deal", ("random", "draft"), "random", help="dealt, or Logic's open draft"),
        OptionSpec("placement", ("ends", "both"), "ends", help="Professional: both ends"),
        OptionSpec("end", ("over66", "reach66"), "over66", help="when the game ends"),
        OptionSpec(
            "rounds", None, "", maximum=MAX_ROUNDS, help="play exactly N rounds (overrides end)"
        ),
    ),
    presets=(
        Preset("6nimmt", "6nimmt", {}, 2, 10, "6 nimmt!"),
        Preset("6nimmt-tactics", "6nimmt", {"deck": "tactics"}, 2, 6, "6 nimmt! Tactics"),
        Preset(
            "6nimmt-logic", "6nimmt", {"deck": "tactics", "deal": "draft"}, 2, 6, "6 nimmt! Logic"
        ),
        Preset("6nimmt-pro", "6nimmt", {"placement": "both"}, 2, 10, "6 nimmt! Professional"),
    ),
    view_type=SixNimmtView,
    new_game=new_game,
    from_position=from_position,
    from_view=from_view,
)
"""The 6 nimmt! family: its options, presets and constructors (see sdk.game.variants)."""
