"""Seats on no clock (``MatchSpec.unclocked_seats``, a person's seat in ``bullring play``):
no deadline and no bank for them, told as 0 = no limit; every other seat keeps the clock.
Real gRPC: both seats are sessions of one bot server on loopback."""

from __future__ import annotations

import time
from collections.abc import Sequence

from referee.faults import FaultKind
from referee.match.runner import run_match
from referee.spec import BotSpec, ClockSpec, MatchSpec
from sdk.bot import Bot
from sdk.game import Option, View
from sdk.match import DecisionClock, MatchInfo
from sdk.runtime import BotServer

THINK_S = 0.3  # six times the deadline below: a TIMEOUT wherever the clock runs
SEEN: dict[int, list[int]] = {}


class SlowBot(Bot):
    name = "slow"

    def start_match(self, match: MatchInfo) -> None:
        self.seat = match.seat
        SEEN.setdefault(match.seat, []).append(match.decision_ms)

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        SEEN[self.seat].append(clock.deadline_ms)
        time.sleep(THINK_S)
        return len(options) - 1


def test_an_unclocked_seat_has_no_deadline_and_the_others_keep_theirs() -> None:
    SEEN.clear()
    server = BotServer(SlowBot, "127.0.0.1:0")
    server.start()
    try:
        bots = tuple(BotSpec(f"slow{s}", endpoint=server.address) for s in range(2))
        clock = ClockSpec(decision_ms=50, time_bank_ms=0, setup_ms=60_000, max_faults=1000)
        spec = MatchSpec(
            "unclocked", "6nimmt", {"rounds": "1"}, 3, bots, clock, unclocked_seats=frozenset({0})
        )
        result = run_match(spec)
    finally:
        server.stop(0)
    assert not [f for f in result.faults if f.seat == 0]
    assert {f.kind for f in result.faults if f.seat == 1} == {FaultKind.TIMEOUT}
    assert set(SEEN[0]) == {0}  # MatchInfo and every Decide: no limit
    assert set(SEEN[1][1:]) == {50}
    assert MatchSpec.from_json(spec.to_json()) == spec
