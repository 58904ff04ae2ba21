"""The champion's search: Monte Carlo over determinized worlds, guided by the policy.

One decision: every option is a root child. A *visit* plays one batch of `games`
playouts of that option on the numpy batch simulator
(:func:`example_bots.montecarlo_bot.sixnimmt.simulation`; every seat playing the
network's choice, :mod:`.playouts`, or the Monte Carlo bot's greedy or rule-based
policy), each game with its own sample of the hidden hands, scored by the seat's margin
over the table (the others' mean heads minus its own). Visits are given out as in PUCT
(AlphaZero): every option gets one first (in the order of the prior, highest first),
then the one with the highest ``Q + c * prior * sqrt(N) / (1 + n)`` (in the goal's
units: heads for the margin, :data:`C_PUCT_OF_GOAL`). The k-th visit of every option
plays the same seed (common random numbers), so options are compared on the same deals.

The search stops after `visits` visits in all (training: the same work every time, so a
run is reproducible) or at a time on a timer (the bot, under its clock), whichever comes
first; on a timer no visit starts unless the longest one so far would still end in time.
The answer is the most visited option (the higher mean breaking ties), and the visit
counts are the policy target the network learns from.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from example_bots.champion_bot.features import Array
from example_bots.montecarlo_bot.sixnimmt import Dealer, Picker, pick_simulation, simulation
from sdk import Option, SixNimmtView
from sdk.game.sixnimmt.batch import IntArray

C_PUCT = 4.0  # heads: how far the prior lets an option's mean fall behind and still be tried
# The same in each goal's units (montecarlo_bot.sixnimmt.value): a game's margin spreads
# over about 9 heads (standard deviation, 4 seats), its win share over about 0.43, so a
# win-share search explores as a margin one does with a constant 20 times smaller.
C_PUCT_OF_GOAL = {"margin": C_PUCT, "own": C_PUCT, "lead": C_PUCT, "win": C_PUCT / 20}
RACE_Z = 2.0  # race: an option is dropped when it trails the leader by this many standard errors
RACE_MIN_DEALS = 32  # race: deals every option plays before any is dropped


@dataclass(frozen=True)
class SearchResult:
    """Per option (in the given order) its visits and mean margin (heads); the choice."""

    visits: Array
    q: Array
    best: int

    def policy(self) -> Array:
        """The visit counts as a distribution (the prior's argmax if nothing was visited)."""
        total = self.visits.sum()
        if total <= 0:
            out = np.zeros(len(self.visits))
            out[self.best] = 1.0
            return out
        return np.asarray(self.visits / total)


def search(
    view: SixNimmtView,
    options: Sequence[Option],
    prior: Array,
    rng: random.Random,
    *,
    games: int = 32,
    visits: int = 30,
    stop: float = math.inf,
    timer: Callable[[], float] | None = None,
    c_puct: float | None = None,
    goal: str = "margin",
    policy: str | Callable[[IntArray], Picker] = "greedy",
    deal: Dealer | None = None,
) -> SearchResult:
    """Search the decision; see the module's docstring. `policy` is the playouts' policy
    of every seat ("greedy", "rules" or a maker of a stateful one, as
    :func:`example_bots.montecarlo_bot.sixnimmt.simulation` takes; the network's is
    :func:`example_bots.champion_bot.playouts.net_playouts`). `c_puct` is the
    exploration constant in the goal's units (:data:`C_PUCT_OF_GOAL` by default); `deal`
    deals the playouts' hidden hands (a :class:`~example_bots.champion_bot.belief.Belief`;
    default: uniformly)."""
    if goal not in C_PUCT_OF_GOAL:
        raise ValueError(f"no goal {goal!r}; one of {', '.join(C_PUCT_OF_GOAL)}")
    n = len(options)
    c = C_PUCT_OF_GOAL[goal] if c_puct is None else c_puct
    simulate = simulation(view, options, rng, goal, policy, deal)
    seeds: list[int] = []
    count = np.zeros(n)
    total = np.zeros(n)
    order = [int(i) for i in np.argsort(-prior, kind="stable")]
    slowest = 0.0  # the longest visit so far (on the timer): none starts that would end late
    began = 0.0
    for step in range(visits):
        if timer is not None:
            began = timer()
            if began + slowest >= stop:
                break
        if step < n:
            index = order[step]
        else:
            q = total / np.maximum(count, 1)
            score = q + c * prior * math.sqrt(count.sum()) / (1 + count)
            index = int(np.argmax(score))
        depth = int(count[index])
        while len(seeds) <= depth:
            seeds.append(rng.getrandbits(63))
        value, played = simulate(index, games, seeds[depth])
        if timer is not None:
            slowest = max(slowest, timer() - began)
        total[index] += value / played
        count[index] += 1
    q = total / np.maximum(count, 1)
    if count.max() <= 0:
        return SearchResult(count, q, int(order[0]))
    best = max(range(n), key=lambda i: (count[i], q[i] if count[i] else -math.inf))
    return SearchResult(count, q, best)


def race(
    view: SixNimmtView,
    options: Sequence[Option],
    prior: Array,
    rng: random.Random,
    *,
    deals: int = 16,
    rounds: int = 1_000_000,
    stop: float = math.inf,
    timer: Callable[[], float] | None = None,
    z: float = RACE_Z,
    goal: str = "margin",
    policy: str | Callable[[IntArray], Picker] = "greedy",
    deal: Dealer | None = None,
) -> SearchResult:
    """Search a card pick by a race: each round plays every option still in it on the same
    fresh deals in one batch (:func:`~example_bots.montecarlo_bot.sixnimmt.pick_simulation`);
    from :data:`RACE_MIN_DEALS` deals on, an option whose paired per-deal difference to the
    leader (the best mean) is below zero by more than `z` standard errors leaves the race.
    A round holds about as many games as the first (`deals` per option of all), so fewer
    options play more deals each. The search stops after `rounds` rounds, when one option
    is left, or at `stop` on the `timer` (no round starts that the longest so far says
    would end late). The answer is the best mean among the options left; ``visits`` are the
    deals each option played. `prior` only orders the options; `deal` as in :func:`search`."""
    n = len(options)
    order = [int(i) for i in np.argsort(-prior, kind="stable")]
    simulate = pick_simulation(view, options, rng, goal, policy, deal)
    played: list[list[Array]] = [[] for _ in range(n)]
    alive = list(order)
    budget = deals * n  # games a round
    slowest = 0.0
    for _ in range(rounds):
        if len(alive) < 2:
            break
        began = 0.0
        if timer is not None:
            began = timer()
            if began + slowest >= stop:
                break
        size = max(deals, budget // len(alive))
        values = simulate(alive, size, rng.getrandbits(63))
        if timer is not None:
            slowest = max(slowest, timer() - began)
        for index, row in zip(alive, values, strict=True):
            played[index].append(row)
        if sum(len(row) for row in played[alive[0]]) >= RACE_MIN_DEALS:
            alive = _ahead(alive, played, z)
    count = np.array([float(sum(len(row) for row in rows)) for rows in played])
    q = np.array([float(np.concatenate(rows).mean()) if rows else 0.0 for rows in played])
    if count.max() <= 0:
        return SearchResult(count, q, order[0])
    best = max(alive, key=lambda i: (q[i], count[i]))
    return SearchResult(count, q, best)


def _ahead(alive: list[int], played: list[list[Array]], z: float) -> list[int]:
    """The options of `alive` (all played on the same deals) not clearly behind the
    leader: the mean of their per-deal difference to it plus `z` standard errors is not
    below zero."""
    results = {index: np.concatenate(played[index]) for index in alive}
    leader = max(alive, key=lambda index: float(results[index].mean()))
    kept = []
    for index in alive:
        difference = results[index] - results[leader]
        spread = float(difference.std(ddof=1)) / math.sqrt(len(difference))
        if index == leader or float(difference.mean()) + z * spread >= 0.0:
            kept.append(index)
    return kept
