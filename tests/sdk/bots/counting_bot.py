"""A bot for the runtime tests; its answers show which instance served a call.

Each instance answers its own call count modulo the number of options (0, 1, 2, ...), so
two sessions sharing an instance would be visible. Match ids steer misbehaviour:
"raise..." makes decide() raise, "invalid..." returns an index that was not offered,
"barrier..." waits until two such decisions are in progress at once (concurrency),
"history..." answers the length of the history it sees, once it has checked that event i
holds card i + 1 (history deltas put together).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from sdk import Bot, DecisionClock, MatchInfo, MatchOutcome, Option, View, run

BARRIER = threading.Barrier(2, timeout=20)


class CountingBot(Bot):
    name = "counting"
    version = "1.2"
    author = "tests"
    variants = ("6nimmt", "xnimmt")

    def __init__(self) -> None:
        self.calls = 0
        self.match: MatchInfo | None = None

    def start_match(self, match: MatchInfo) -> None:
        self.match = match

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int | Option:
        assert self.match is not None, "decide() before start_match()"
        if view.header.seat != self.match.seat:
            raise AssertionError(f"seat {self.match.seat} was sent seat {view.header.seat}'s view")
        if self.match.match_id.startswith("raise"):
            raise RuntimeError("this bot always fails")
        if self.match.match_id.startswith("invalid"):
            return len(options)
        if self.match.match_id.startswith("history"):
            cards = [event.card for event in view.header.history]
            if cards != list(range(1, len(cards) + 1)):
                raise AssertionError(f"history cards {cards}")
            return len(cards)
        if self.match.match_id.startswith("barrier"):
            BARRIER.wait()
        answer = self.calls % len(options)
        self.calls += 1
        return options[answer] if answer % 2 else answer

    def end_match(self, outcome: MatchOutcome) -> None:
        if len(outcome.scores) != len(outcome.ranks):
            raise ValueError("scores and ranks differ in length")


if __name__ == "__main__":
    run(CountingBot)
