"""The game model: rules of every variant, views, legal options and fast simulation.

Pure Python, no I/O and no gRPC: the referee, the SDK runtime and every bot share it.
Every family (``FAMILIES``) is a :class:`Family` value exported by its engine module;
``new_game``, ``from_position`` and ``from_view`` start a game of any of them.
"""

from sdk.game.cards import HEADS, HORNOCHSEN_POINTS, hornochsen_points, nimmt_heads
from sdk.game.core import (
    DecisionKind,
    Event,
    EventKind,
    GameState,
    Option,
    OptionKind,
    Policy,
    RulesError,
    Side,
    Special,
    ViewHeader,
    forfeits_ranked_last,
    random_policy,
    ranks_from_scores,
)
from sdk.game.variants import (
    FAMILIES,
    PRESETS,
    Family,
    Position,
    Preset,
    VariantSpec,
    family_of,
    from_position,
    from_view,
    new_game,
    parse_variant,
)
from sdk.game.views import (
    ElevenNimmtView,
    HornochsenRow,
    HornochsenView,
    SixNimmtView,
    View,
    XNimmtView,
)

__all__ = [
    "FAMILIES",
    "HEADS",
    "HORNOCHSEN_POINTS",
    "PRESETS",
    "DecisionKind",
    "ElevenNimmtView",
    "Event",
    "EventKind",
    "Family",
    "GameState",
    "HornochsenRow",
    "HornochsenView",
    "Option",
    "OptionKind",
    "Policy",
    "Position",
    "Preset",
    "RulesError",
    "Side",
    "SixNimmtView",
    "Special",
    "VariantSpec",
    "View",
    "ViewHeader",
    "XNimmtView",
    "family_of",
    "forfeits_ranked_last",
    "from_position",
    "from_view",
    "hornochsen_points",
    "new_game",
    "nimmt_heads",
    "parse_variant",
    "random_policy",
    "ranks_from_scores",
]
