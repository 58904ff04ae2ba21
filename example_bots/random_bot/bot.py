"""The random bot: chooses a uniformly random legal option.

Its generator is seeded from ``MatchInfo.seed_hint`` at the start of each match, so the
same match (variant, seed, seat) always gets the same choices: matches between random
bots are reproducible, which the referee's tests rely on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sdk import Bot, DecisionClock, MatchInfo, Option, View


class RandomBot(Bot):
    """Plays every variant at random."""

    name = "random_bot"
    version = "1.0"
    author = "Bullring examples"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def start_match(self, info: MatchInfo) -> None:
        self.rng = random.Random(info.seed_hint)

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        return self.rng.randrange(len(options))
