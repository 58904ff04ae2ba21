"""The other players a self-play table can seat beside the network (``train.py --others``).

A network that only ever plays against itself learns to beat players like itself; run 2
of the README got much stronger against one kind of player and weaker against another.
With ``--others`` some seats of each self-play game are played by a fixed player instead,
so the network's positions, and its value targets, come from tables like the ones it will
meet. Those seats are not searched and give no samples.

- ``rules_bot``: the rule-based example bot.
- ``mc``: a flat Monte Carlo search in the style of the published ``mc:64``: every option
  played out on the same :data:`MC_DEALS` determinized deals with every seat greedy
  (:func:`example_bots.montecarlo_bot.sixnimmt.simulation`), the best mean margin over
  the table wins.
- ``start``: the raw policy of the run's starting weights (``--start-from``), an earlier
  self that the network must keep beating.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from example_bots.champion_bot.features import encode
from example_bots.champion_bot.net import Net, load
from example_bots.montecarlo_bot.sixnimmt import simulation
from example_bots.rules_bot.strategy import rules_choice
from sdk import Option, SixNimmtView

OTHERS = ("rules_bot", "mc", "start")
MC_DEALS = 64  # the mc player's deals per option

Player = Callable[[SixNimmtView, Sequence[Option], random.Random], int]
"""(view, options, the game's generator) -> the index of the option played."""


def rules_player(view: SixNimmtView, options: Sequence[Option], rng: random.Random) -> int:
    return list(options).index(rules_choice(view, options))


def mc_player(view: SixNimmtView, options: Sequence[Option], rng: random.Random) -> int:
    simulate = simulation(view, options, rng, "margin", "greedy")
    seed = rng.getrandbits(63)  # the same deals for every option
    totals = [simulate(index, MC_DEALS, seed)[0] for index in range(len(options))]
    return int(np.argmax(totals))  # the first of equal totals


@lru_cache(maxsize=4)
def _weights(path: str) -> Net:
    return load(Path(path))


def start_player(start_from: str) -> Player:
    """The raw policy (its most likely option) of the weights at `start_from`."""
    net = _weights(start_from)

    def play(view: SixNimmtView, options: Sequence[Option], rng: random.Random) -> int:
        return int(np.argmax(net.policy(*encode(view, options))))

    return play


def other_problem(name: str, start_from: str) -> str | None:
    """Why `name` cannot play a seat of a run that starts from `start_from` ("" for none):
    not one of :data:`OTHERS`, or ``start`` without weights. None when it can."""
    if name not in OTHERS:
        return f"no other player {name!r}; one of {', '.join(OTHERS)}"
    if name == "start" and not start_from:
        return "the 'start' player needs --start-from weights"
    return None


def other_player(name: str, start_from: str) -> Player:
    """The player called `name`; a ValueError where :func:`other_problem` says why not."""
    problem = other_problem(name, start_from)
    if problem is not None:
        raise ValueError(problem)
    if name == "rules_bot":
        return rules_player
    if name == "mc":
        return mc_player
    return start_player(start_from)


def seat_players(players: int, others: Sequence[str], share: float, rng: random.Random
                 ) -> list[str]:  # fmt: skip
    """Who plays each seat of a self-play game: "" for the network, else an other's name.

    One seat, drawn at random, is always the network's; each other seat is an other player
    (drawn from `others`) with probability `share`.
    """
    learner = rng.randrange(players)
    return [
        "" if seat == learner or not others or rng.random() >= share else rng.choice(others)
        for seat in range(players)
    ]
