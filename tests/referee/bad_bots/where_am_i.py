"""An SDK bot that says where it runs from: at the start of each match it prints the path
of its own module file (so a test can tell which copy of the bot's folder a node ran), and
it plays the first option, as tests/referee/bad_bots/rawbot.py does."""

from __future__ import annotations

from collections.abc import Sequence

from sdk.bot import Bot
from sdk.game.core import Option
from sdk.game.views import View
from sdk.match import DecisionClock, MatchInfo
from sdk.runtime import run

PREFIX = "running from "


class WhereAmI(Bot):
    name = "where_am_i"
    version = "1"

    def start_match(self, match: MatchInfo) -> None:
        print(f"{PREFIX}{__file__}", flush=True)

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        return 0


if __name__ == "__main__":
    run(WhereAmI)
