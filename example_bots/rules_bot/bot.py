"""The rule-based bot: a fixed strategy per game family, no search, answers in about a
millisecond. Strong enough to punish careless play; see each family's module for its
rules."""

from __future__ import annotations

from collections.abc import Sequence

from example_bots.rules_bot.strategy import rules_choice
from sdk import Bot, DecisionClock, Option, View


class RulesBot(Bot):
    """Plays every variant by the rules in this folder."""

    name = "rules_bot"
    version = "1.0"
    author = "Bullring examples"

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> Option:
        return rules_choice(view, options)
