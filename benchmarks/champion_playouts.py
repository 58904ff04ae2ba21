"""The champion's playouts: the CPU time of one search visit, greedy, network and mixed.

A visit plays `--games` playouts of one option to the end of the round, every seat
played by the greedy heuristic, by the shipped network (example_bots/champion_bot,
:mod:`example_bots.champion_bot.playouts`), or mixed (the bot's: each other seat greedy
by a coin, :data:`~example_bots.champion_bot.playouts.MIXED_GREEDY_SHARE`). Prints, per
player count, the CPU time (the thread's) of a visit with each policy, the network's
ratio to greedy, and how many visits fit in the 0.75 s the bot searches at a 1 s clock.

    .venv/bin/python -m benchmarks.champion_playouts [--games 32] [--seconds 1] \\
        [--players 2 4 10]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from example_bots.champion_bot.bot import SHARE, shipped_net
from example_bots.champion_bot.net import initial
from example_bots.champion_bot.playouts import playout_policy
from example_bots.montecarlo_bot.sixnimmt import simulation
from sdk.game.sixnimmt import SixNimmtState, new_game


def visit_seconds(state: SixNimmtState, policy: str, games: int, seconds: float) -> float:
    """The mean CPU seconds of a visit from seat 0's first decision of `state`."""
    view = state.view(0)
    options = state.legal_options(0)
    net = shipped_net() or initial(1)
    chosen = playout_policy(policy, net, view)
    simulate = simulation(view, options, random.Random(1), "margin", chosen)
    simulate(0, games, 0)  # warm up: imports, the float32 copy of the network
    began = time.thread_time()
    visits = 0
    while visits < 2 or time.thread_time() - began < seconds:
        simulate(visits % len(options), games, visits)
        visits += 1
    return (time.thread_time() - began) / visits


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=32, help="playouts a visit")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU time per figure")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 10])
    args = parser.parse_args(argv)
    print(f"one visit of {args.games} playouts of 6nimmt:rounds=1, CPU time")
    for players in args.players:
        state = new_game("6nimmt", {"rounds": "1"}, players, 7)
        greedy = visit_seconds(state, "greedy", args.games, args.seconds)
        network = visit_seconds(state, "net", args.games, args.seconds)
        mixed = visit_seconds(state, "mixed", args.games, args.seconds)
        print(
            f"{players:>2} players: greedy {greedy * 1000:6.1f} ms  network"
            f" {network * 1000:6.1f} ms  ({network / greedy:4.1f} x)  mixed"
            f" {mixed * 1000:6.1f} ms  visits in {SHARE:.2f} s: greedy {SHARE / greedy:5.0f},"
            f" network {SHARE / network:4.0f}, mixed {SHARE / mixed:4.0f}"
        )


if __name__ == "__main__":
    main()
