"""The game model: rules of every variant, views, legal options and fast simulation.

Pure Python, no I/O and no gRPC: the referee, the SDK runtime and every bot share it.
"""

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
    random_policy,
    ranks_from_scores,
)
from sdk.game.variants import (
    PRESETS,
    Preset,
    VariantSpec,
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
    "PRESETS",
    "DecisionKind",
    "ElevenNimmtView",
    "Event",
    "EventKind",
    "GameState",
    "HornochsenRow",
    "HornochsenView",
    "Option",
    "OptionKind",
    "Policy",
    "Preset",
    "RulesError",
    "Side",
    "SixNimmtView",
    "Special",
    "VariantSpec",
    "View",
    "ViewHeader",
    "XNimmtView",
    "from_view",
    "new_game",
    "parse_variant",
    "random_policy",
    "ranks_from_scores",
]
