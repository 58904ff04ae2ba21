"""The champion's search settings, by their regret against a long search.

Win shares at a table need thousands of games to tell two search settings apart. This
benchmark asks a narrower question, with far less noise: on the same positions, how much
does each setting's choice lose against the best option by a long, even search?

- **Positions:** seat 0's card picks (turns 1 to 9) in `--games` seeded 6 nimmt!
  ``rounds=1`` games at `--players` seats, every seat playing the network's raw policy.
- **The long search:** every option played out on the same `--oracle-deals` determinized
  deals, every seat of the playouts playing the network
  (:func:`example_bots.champion_bot.search.race` with no option ever dropped). Its mean
  margin per option is the yardstick ``Q``.
- **A setting's regret** on a position: ``max Q - Q[its choice]``, in heads, with the
  CPU time (the thread's) the bot has at a `--decision-ms` clock (75% of it), from
  `--repeats` seeds. Printed per setting: the mean regret with its standard error, how
  often it chose the long search's best option, and the raw policy's figures (no search).

The yardstick plays the same network in the playouts, so this measures how well a setting
spends its time on that model, not how good the model is; table strength stays
:mod:`benchmarks.strength`'s question.

    .venv/bin/python -m benchmarks.champion_search [--games 6] [--players 4] \\
        [--oracle-deals 1024] [--decision-ms 1000] [--repeats 2] [--settings puct race]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from example_bots.champion_bot.bot import MAX_VISITS, SEARCH_GAMES, SHARE, shipped_net
from example_bots.champion_bot.features import Array, encode
from example_bots.champion_bot.net import Net, initial, softmax
from example_bots.champion_bot.playouts import net_playouts
from example_bots.champion_bot.search import RACE_Z, race, search
from sdk import DecisionKind, Option, SixNimmtView
from sdk.game.sixnimmt import Phase, new_game

Setting = Callable[[SixNimmtView, Sequence[Option], Array, random.Random, float, Net], int]


@dataclass(frozen=True)
class Position:
    """A card pick and the long search's mean margin (heads) of each of its options."""

    view: SixNimmtView
    options: tuple[Option, ...]
    prior: Array
    q: Array


def _puct(view: SixNimmtView, options: Sequence[Option], prior: Array, rng: random.Random,
          seconds: float, net: Net) -> int:  # fmt: skip
    timer = time.thread_time
    return search(view, options, prior, rng, games=SEARCH_GAMES, visits=MAX_VISITS,
                  stop=timer() + seconds, timer=timer,
                  policy=net_playouts(net, view)).best  # fmt: skip


def _racer(deals: int, z: float = RACE_Z) -> Setting:
    def run(view: SixNimmtView, options: Sequence[Option], prior: Array, rng: random.Random,
            seconds: float, net: Net) -> int:  # fmt: skip
        timer = time.thread_time
        return race(view, options, prior, rng, deals=deals, stop=timer() + seconds,
                    timer=timer, z=z, policy=net_playouts(net, view)).best  # fmt: skip

    return run


SETTINGS: dict[str, Setting] = {
    "puct": _puct,
    "race": _racer(16),
    "race8": _racer(8),
    "race32": _racer(32),
    "race-z1.5": _racer(16, 1.5),
    "race-z3": _racer(16, 3.0),
}


def positions(net: Net, games: int, players: int, oracle_deals: int) -> list[Position]:
    """Seat 0's card picks with two options or more in `games` raw-policy games, each
    with the long search's Q."""
    found: list[Position] = []
    for game in range(games):
        state = new_game("6nimmt", {"rounds": "1"}, players, 5000 + game)
        while state.phase != Phase.OVER:
            for seat in state.pending():
                view = state.view(seat)
                options = state.legal_options(seat)
                assert isinstance(view, SixNimmtView)
                if view.header.decision == DecisionKind.TAKE_ROW:
                    state.apply(seat, options[0])
                    continue
                logits = net.logits(*encode(view, options))
                if seat == 0 and len(options) > 1:
                    prior = softmax(logits)
                    long = race(view, options, prior, random.Random(game), deals=64,
                                rounds=max(1, oracle_deals // 64), z=math.inf,
                                policy=net_playouts(net, view))  # fmt: skip
                    found.append(Position(view, tuple(options), prior, long.q))
                state.apply(seat, options[int(np.argmax(logits))])
    return found


def regret(position: Position, choice: int) -> float:
    return float(position.q.max() - position.q[choice])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games the positions come from")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--oracle-deals", type=int, default=1024, help="the long search's deals")
    parser.add_argument("--decision-ms", type=int, default=1000, help="the bot's clock")
    parser.add_argument("--repeats", type=int, default=2, help="seeds per setting and position")
    parser.add_argument("--settings", nargs="+", default=["puct", "race"], choices=list(SETTINGS))
    args = parser.parse_args(argv)
    net = shipped_net() or initial(1)
    began = time.thread_time()
    found = positions(net, args.games, args.players, args.oracle_deals)
    print(f"{len(found)} positions from {args.games} games at {args.players} seats; the long"
          f" search took {time.thread_time() - began:.0f} s of CPU")  # fmt: skip
    seconds = args.decision_ms / 1000 * SHARE
    raw = [regret(p, int(np.argmax(p.prior))) for p in found]
    print(f"{'setting':<10} {'regret (heads)':>15} {'± s.e.':>7} {'best chosen':>12}")
    print(f"{'raw policy':<10} {np.mean(raw):>15.3f} {np.std(raw) / math.sqrt(len(raw)):>7.3f}"
          f" {np.mean([r == 0 for r in raw]):>11.0%}")  # fmt: skip
    for name in args.settings:
        regrets = [
            regret(p, SETTINGS[name](p.view, p.options, p.prior, random.Random(seed), seconds, net))
            for seed in range(args.repeats)
            for p in found
        ]
        spread = np.std(regrets) / math.sqrt(len(regrets))
        print(f"{name:<10} {np.mean(regrets):>15.3f} {spread:>7.3f}"
              f" {np.mean([r == 0 for r in regrets]):>11.0%}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
