"""Bullring SDK: the game model and the bot runtime.

Write a bot by subclassing :class:`Bot`, serve it with :func:`run`, debug it in-process
with :func:`play_local` (see docs/sdk.md).

``run`` and ``serve`` load the gRPC runtime on first use, so importing the game model
(``sdk.game``) never imports grpc.
"""

from typing import TYPE_CHECKING

from sdk.bot import Bot, BotFactory, InvalidChoice
from sdk.errors import BullringError
from sdk.game import (
    PRESETS,
    DecisionKind,
    ElevenNimmtView,
    Event,
    EventKind,
    GameState,
    HornochsenRow,
    HornochsenView,
    Option,
    OptionKind,
    RulesError,
    Side,
    SixNimmtView,
    Special,
    View,
    ViewHeader,
    XNimmtView,
    from_view,
    new_game,
)
from sdk.game.cards import hornochsen_points, nimmt_heads
from sdk.local import LocalDecision, LocalResult, play_local
from sdk.match import DecisionClock, MatchInfo, MatchOutcome
from sdk.search import seen_cards

if TYPE_CHECKING:
    from sdk.runtime import run, serve


def __getattr__(name: str) -> object:
    if name in ("run", "serve"):
        from sdk import runtime

        return getattr(runtime, name)
    raise AttributeError(f"module 'sdk' has no attribute {name!r}")


__all__ = [
    "PRESETS",
    "Bot",
    "BotFactory",
    "BullringError",
    "DecisionClock",
    "DecisionKind",
    "ElevenNimmtView",
    "Event",
    "EventKind",
    "GameState",
    "HornochsenRow",
    "HornochsenView",
    "InvalidChoice",
    "LocalDecision",
    "LocalResult",
    "MatchInfo",
    "MatchOutcome",
    "Option",
    "OptionKind",
    "RulesError",
    "Side",
    "SixNimmtView",
    "Special",
    "View",
    "ViewHeader",
    "XNimmtView",
    "from_view",
    "hornochsen_points",
    "new_game",
    "nimmt_heads",
    "play_local",
    "run",
    "seen_cards",
    "serve",
]
