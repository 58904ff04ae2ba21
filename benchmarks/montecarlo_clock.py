"""The Monte Carlo example bot against its clock: the worst decision's CPU time per variant.

Plays each variant in-process (sdk.local.play_local) with two Monte Carlo bots and random
bots at a short deadline, until the Monte Carlo bots have made `--decisions` decisions with
more than one option, and prints per variant: decisions, the worst decision's CPU time
(the thread's, so time the process was not running does not count), the worst wall time,
the worst CPU time as a share of the deadline, and how many decisions took more CPU time
than the deadline. A bot that never overruns by its own work keeps that share below 100%
on a quiet machine; on a loaded one, the rare stalls a shared machine bills to a thread
(see tests/example_bots/test_montecarlo_clock.py) can pass it.

    .venv/bin/python -m benchmarks.montecarlo_clock [--decisions 200] [--deadline-ms 100]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from example_bots.montecarlo_bot.bot import MonteCarloBot
from example_bots.random_bot.bot import RandomBot
from sdk.bot import Bot
from sdk.game.core import Option
from sdk.game.views import View
from sdk.local import play_local
from sdk.match import DecisionClock

GAMES: tuple[tuple[str, dict[str, str], int], ...] = (  # (variant, options, players)
    ("6nimmt", {"rounds": "1"}, 3),
    ("6nimmt-pro", {"rounds": "1"}, 3),
    ("6nimmt-logic", {"rounds": "1"}, 3),
    ("6nimmt-tactics", {"rounds": "1"}, 3),
    ("xnimmt", {}, 3),
    ("11nimmt", {}, 3),
    ("hornochsen", {}, 3),
    # 6 players: about 40 options a step, whose first joint batch alone takes longer
    # than the 70 ms the bot thinks at a 100 ms deadline; it gives up in time.
    ("hornochsen", {}, 6),
)


class TimedMonteCarlo(MonteCarloBot):
    """The Monte Carlo bot, with each decision's (wall, cpu) seconds recorded."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[tuple[float, float]] = []

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> Option:
        cpu = time.thread_time()
        choice = super().decide(view, options, clock)
        if len(options) > 1:
            self.times.append((time.monotonic() - clock.received, time.thread_time() - cpu))
        return choice


def decision_times(
    variant: str, options: dict[str, str], players: int, decisions: int, deadline_ms: int
) -> list[tuple[float, float]]:
    """(wall, cpu) seconds of at least `decisions` Monte Carlo decisions."""
    times: list[tuple[float, float]] = []
    seed = 0
    while len(times) < decisions:
        timed = [TimedMonteCarlo(), TimedMonteCarlo()]
        bots: list[Bot] = [timed[0], RandomBot(), timed[1]]
        bots += [RandomBot() for _ in range(players - len(bots))]
        play_local(variant, bots, seed=seed, options=options, decision_ms=deadline_ms)
        times += timed[0].times + timed[1].times
        seed += 1
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200, help="per variant, at least")
    parser.add_argument("--deadline-ms", type=int, default=100)
    parser.add_argument("--variant", action="append", help="only these variants")
    args = parser.parse_args()
    print(
        f"{'variant':<16} {'players':>7} {'decisions':>9} {'worst cpu ms':>12} "
        f"{'worst wall ms':>13} {'cpu/deadline':>12} {'over':>5}"
    )
    for variant, options, players in GAMES:
        if args.variant and variant not in args.variant:
            continue
        times = decision_times(variant, options, players, args.decisions, args.deadline_ms)
        cpu = max(c for _, c in times) * 1000
        wall = max(w for w, _ in times) * 1000
        over = sum(c * 1000 >= args.deadline_ms for _, c in times)
        print(
            f"{variant:<16} {players:>7} {len(times):>9} {cpu:12.1f} {wall:13.1f} "
            f"{cpu / args.deadline_ms:12.0%} {over:5}",
            flush=True,
        )


if __name__ == "__main__":
    main()
