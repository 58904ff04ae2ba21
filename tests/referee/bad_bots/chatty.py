"""An SDK bot that prints: a line to stdout and one to stderr at each decision, and a
terminal escape (which the live echo must show as text). It plays the first option."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from sdk.bot import Bot
from sdk.game.core import Option
from sdk.game.views import View
from sdk.match import DecisionClock
from sdk.runtime import run


class Chatty(Bot):
    name = "chatty"
    version = "1"

    def __init__(self) -> None:
        self.decisions = 0

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        self.decisions += 1
        print(f"chatty stdout: decision {self.decisions}", flush=True)
        print(f"chatty stderr: {len(options)} options \x1b[2J", file=sys.stderr, flush=True)
        return 0


if __name__ == "__main__":
    run(Chatty)
