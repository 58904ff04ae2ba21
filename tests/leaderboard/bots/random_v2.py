"""The random example bot under a newer version number: its 1.0 becomes a retired version
in the site tests' league. It plays as example_bots/random_bot does (a uniformly random
legal option, seeded from the match), written out here: a sandboxed bot sees its own
folder (tests/, this package's), not example_bots/."""

import random
from collections.abc import Sequence

from sdk.bot import Bot
from sdk.game.core import Option
from sdk.game.views import View
from sdk.match import DecisionClock, MatchInfo
from sdk.runtime import run


class RandomBotV2(Bot):
    name = "random_bot"
    version = "1.1"
    author = "Bullring examples"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def start_match(self, info: MatchInfo) -> None:
        self.rng = random.Random(info.seed_hint)

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        return self.rng.randrange(len(options))


if __name__ == "__main__":
    run(RandomBotV2)
