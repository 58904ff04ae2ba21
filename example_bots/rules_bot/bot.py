"""The rule-based bot: a fixed strategy per game family, no search, answers in
well under a millisecond. Strong enough to punish careless play; see each family's module
for its rules."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from example_bots.rules_bot import elevennimmt, hornochsen, sixnimmt, xnimmt
from sdk.bot import Bot
from sdk.game.core import Option
from sdk.game.views import (
    ElevenNimmtView,
    HornochsenView,
    SixNimmtView,
    View,
    XNimmtView,
)
from sdk.match import DecisionClock


def rules_choice(view: View, options: Sequence[Option]) -> Option:
    """The rule-based choice for any decision of any family."""
    if len(options) == 1:
        return options[0]
    strategy: Callable[[Any, Sequence[Option]], Option]
    if isinstance(view, SixNimmtView):
        strategy = sixnimmt.choose
    elif isinstance(view, XNimmtView):
        strategy = xnimmt.choose
    elif isinstance(view, ElevenNimmtView):
        strategy = elevennimmt.choose
    elif isinstance(view, HornochsenView):
        strategy = hornochsen.choose
    else:
        return options[0]
    return strategy(view, options)


class RulesBot(Bot):
    """Plays every variant by the rules in this folder."""

    name = "rules_bot"
    version = "1.0"
    author = "Bullring examples"

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> Option:
        return rules_choice(view, options)
