"""The Monte Carlo bot thinks on the decision clock's own timer (``DecisionClock.timer``):
wall time under a referee, CPU time in a load-independent benchmark
(``play_local(..., timer=time.thread_time)``), here a simulated timer that moves only
when read. Every search path is covered: the 6 nimmt! batches, Hornochsen!'s joint
batches and the generic clone-and-play-out search (X nimmt!, 11 nimmt!)."""

from __future__ import annotations

import random

import pytest

from example_bots.montecarlo_bot.bot import MonteCarloBot
from sdk.game.variants import new_game
from sdk.match import DecisionClock, MatchInfo

TICK = 0.5  # simulated seconds per read of the timer
DEADLINE_MS = 10_000  # 10 s: were the wall clock read instead, a decision would take 7.5 s


class TickingTimer:
    """A simulated clock: each read moves it on by `TICK` seconds."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.reads * TICK


@pytest.mark.parametrize("variant", ["6nimmt", "6nimmt-tactics", "hornochsen", "xnimmt", "11nimmt"])
def test_the_search_stops_on_the_decision_clocks_timer(variant: str) -> None:
    state = new_game(variant, 4, 7, {"rounds": "1"} if variant.startswith("6nimmt") else {})
    rng = random.Random(7)
    decided = 0
    while not state.is_terminal() and decided < 2:
        for seat in state.pending():
            options = state.legal_options(seat)
            if seat == 0 and len(options) > 1 and decided < 2:
                bot = MonteCarloBot()
                bot.start_match(MatchInfo("m", variant, {}, seat=0, players=4, seed_hint=1))
                timer = TickingTimer()
                clock = DecisionClock(DEADLINE_MS, 0, timer=timer)
                assert bot.decide(state.view(0), options, clock) in options
                # The search read the timer (more than the clock's one read at receipt)
                # and stopped by it: 75% of 10 s is 15 ticks, and a search stops at the
                # first read past its stop time.
                assert 3 <= timer.reads <= 0.75 * DEADLINE_MS / 1000 / TICK + 3
                decided += 1
            state.apply(seat, rng.choice(options))
    assert decided == 2
