"""The champion's belief over the hidden hands: how often its deals hold the real cards,
and what it costs.

Seeded 4-seat games of 6nimmt:rounds=1 in which every seat plays the shipped network's
most likely card (example_bots/champion_bot). At the start of the chosen turns, seat 0's
:class:`~example_bots.champion_bot.belief.Belief` (its defaults: 256 worlds, temperature
2) deals `--deals` worlds, and so does the uniform deal the search uses without it. Prints,
per turn, the share of the other seats' real cards that their dealt hands hold (the mean
over seats, deals and games), for both, and the CPU time (the thread's) of making the
belief.

    .venv/bin/python -m benchmarks.champion_belief [--games 8] [--turns 3 5 7] [--deals 2000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

import numpy as np

from example_bots.champion_bot.belief import Belief
from example_bots.champion_bot.bot import shipped_net
from example_bots.champion_bot.features import encode
from example_bots.champion_bot.net import Net
from sdk import SixNimmtView
from sdk.game.sixnimmt import Phase, SixNimmtState, from_view, new_game
from sdk.game.sixnimmt.batch import IntArray, determinized_hands


def at_turn(net: Net, seed: int, turn: int) -> SixNimmtState:
    """Game `seed` at the start of its `turn`-th turn (1-based), every seat the network."""
    state = new_game("6nimmt", {"rounds": "1"}, 4, seed)
    started = 0
    while state.phase != Phase.OVER:
        if state.phase == Phase.PICK and len(state.to_pick) == state.players:
            started += 1
            if started == turn:
                return state
        for seat in state.pending():
            options = state.legal_options(seat)
            view = state.view(seat)
            assert isinstance(view, SixNimmtView)
            features, rows = encode(view, options)
            state.apply(seat, options[int(np.argmax(net.logits(features, rows)))])
    raise ValueError(f"game {seed} has no turn {turn}")


def real_share(dealt: IntArray, state: SixNimmtState) -> float:
    """The share of seats 1..3's real cards that their hands in `dealt` hold."""
    shares = [
        float(np.isin(dealt[:, seat], state.hands[seat]).sum(axis=1).mean())
        / len(state.hands[seat])
        for seat in range(1, state.players)
    ]
    return statistics.fmean(shares)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="seeded games per turn")
    parser.add_argument("--turns", type=int, nargs="+", default=[3, 5, 7])
    parser.add_argument("--deals", type=int, default=2000, help="worlds dealt per position")
    args = parser.parse_args(argv)
    net = shipped_net()
    if net is None:
        raise SystemExit("no shipped weights (example_bots/champion_bot/weights.npz)")
    print(f"4 seats, 6nimmt:rounds=1, {args.games} games a turn, {args.deals} deals each")
    print("turn  real cards held: belief  uniform   belief's CPU time (median)")
    for turn in args.turns:
        believed, uniform, seconds = [], [], []
        for game in range(args.games):
            state = at_turn(net, 1000 + game, turn)
            view = state.view(0)
            assert isinstance(view, SixNimmtView)
            began = time.thread_time()
            belief = Belief(net, view, random.Random(game))
            seconds.append(time.thread_time() - began)
            generator = np.random.default_rng(game)
            believed.append(real_share(belief(args.deals, generator), state))
            base = from_view(view, random.Random(game))
            uniform.append(real_share(determinized_hands(base, 0, args.deals, generator), state))
        print(
            f"{turn:>4}  {statistics.fmean(believed):22.1%}  {statistics.fmean(uniform):7.1%}"
            f"   {statistics.median(seconds) * 1000:6.1f} ms"
        )


if __name__ == "__main__":
    main()
