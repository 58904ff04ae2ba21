"""Monte Carlo evaluation of a decision's options within a time budget.

The helper every search bot needs: sample the hidden cards consistently with the view
(:func:`sdk.game.variants.from_view`), apply each legal option to a copy of the sampled
state, play the game out with a fast policy and keep each option's mean utility. The
options share every sampled deal (common random numbers), so their means are compared on
the same luck. Sampling stops before a time limit, leaving room for one more playout.

For games with a vectorised simulator, :func:`evaluate_batched` spends the same budget on
batches of playouts (one call plays many games of one option at once), and
:func:`evaluate_jointly` on batches that play every option on the same deals at once.

Use it from a bot's ``decide``::

    from sdk.montecarlo import evaluate, stop_time

    def decide(self, view, options, clock):
        return evaluate(view, options, stop_time(clock), self.rng).best

See docs/montecarlo.md.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

from sdk.game.core import GameState, Option, Policy, random_policy
from sdk.game.variants import from_view
from sdk.game.views import View
from sdk.match import DecisionClock

__all__ = [
    "DEFAULT_MARGIN_S",
    "DEFAULT_SHARE",
    "NO_LIMIT_BUDGET_S",
    "RACE_ROUNDS",
    "BatchSimulation",
    "Evaluation",
    "JointSimulation",
    "Utility",
    "evaluate",
    "evaluate_batched",
    "evaluate_jointly",
    "lead",
    "margin",
    "own_score",
    "paused_gc",
    "play_out",
    "play_round",
    "play_until",
    "stop_time",
]

Utility = Callable[[Sequence[int], int, bool], float]
"""(final scores, our seat, higher_is_better) -> how good the outcome is for us."""

DEFAULT_SHARE = 0.75  # of the decision's own deadline; the time bank is never planned on
DEFAULT_MARGIN_S = 0.03  # kept free before the deadline for the reply to travel back
NO_LIMIT_BUDGET_S = 1.0  # thinking time when the referee sets no deadline


def own_score(scores: Sequence[int], seat: int, higher_is_better: bool) -> float:
    """Our own score (negated where fewer is better): minimise our own heads."""
    return float(scores[seat] if higher_is_better else -scores[seat])


def margin(scores: Sequence[int], seat: int, higher_is_better: bool) -> float:
    """Our score against the others' mean: what rankings reward."""
    others = [s for i, s in enumerate(scores) if i != seat]
    lead = scores[seat] - (sum(others) / len(others) if others else 0.0)
    return lead if higher_is_better else -lead


def lead(scores: Sequence[int], seat: int, higher_is_better: bool) -> float:
    """Our score against the best of the others': what winning a game takes."""
    best = max((s for i, s in enumerate(scores) if i != seat), default=scores[seat])
    gap = scores[seat] - best if higher_is_better else best - scores[seat]
    return float(gap)


def stop_time(
    clock: DecisionClock,
    share: float = DEFAULT_SHARE,
    safety_s: float = DEFAULT_MARGIN_S,
    no_limit_s: float = NO_LIMIT_BUDGET_S,
) -> float:
    """The time (on ``clock.timer``) by which to stop thinking: `share` of the decision's
    deadline, and at least `safety_s` before it. Never draws on the time bank. Pass
    ``clock=clock.timer`` to the evaluate functions with it."""
    if clock.deadline_ms <= 0:
        return clock.received + no_limit_s
    limit = clock.deadline_ms / 1000.0
    return clock.received + max(0.0, min(limit * share, limit - safety_s))


@dataclass(frozen=True)
class Evaluation:
    """What the sampling found: per option (in the given order) its sample count and mean.

    `gains` and `gain_stderrs` (from :func:`evaluate` only) compare each option with the
    first on the deals both were played on: the mean of (its utility - the first's) and
    that mean's standard error (0 with fewer than 2 such deals). Paired on the same deals,
    they are much tighter than the difference of the means.

    `dropped` (from :func:`evaluate_batched` with ``race``) marks the options the search
    stopped sampling because they trailed the leader clearly; ``best`` never picks one."""

    options: tuple[Option, ...]
    samples: tuple[int, ...]
    means: tuple[float, ...]
    deals: int  # sampled deals (determinizations)
    gains: tuple[float, ...] = ()
    gain_stderrs: tuple[float, ...] = ()
    dropped: tuple[bool, ...] = ()

    @property
    def best(self) -> Option:
        """The option with the best mean among the sampled ones not dropped (the first if
        none was sampled)."""
        dropped = self.dropped or (False,) * len(self.options)
        scored = [i for i, n in enumerate(self.samples) if n > 0 and not dropped[i]]
        if not scored:
            return self.options[0]
        return self.options[max(scored, key=lambda i: self.means[i])]


def evaluate(
    view: View,
    options: Sequence[Option],
    stop_at: float,
    rng: random.Random,
    *,
    policy: Policy | None = None,
    utility: Utility = own_score,
    max_deals: int | None = None,
    sample: Callable[[View, random.Random], GameState] = from_view,
    round_only: bool = False,
    horizon: Callable[[GameState, int], bool] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Evaluation:
    """Sample deals and play each option out until `stop_at` (a time on `clock`:
    time.monotonic, or the decision's ``DecisionClock.timer``).

    A playout is only started when the slowest one so far still fits before `stop_at`,
    so the call returns before it unless a single playout takes longer than all seen
    before. `policy` plays every seat in the playouts (the engine's fast random playout
    when None); `max_deals` caps the work (for reproducible tests). With `round_only`,
    a playout stops when the round changes (engines with a ``round``) and scores there:
    in games of several rounds, the later rounds add mostly noise. With `horizon`, a
    playout stops (and scores) at the first state after the option where
    ``horizon(state, seat)`` holds, e.g. at the seat's next turn.
    """
    seat = view.header.seat
    opts = tuple(options)
    count = [0] * len(opts)
    total = [0.0] * len(opts)
    deals = 0
    pairs = [_Paired() for _ in opts]
    if len(opts) <= 1:
        zeros = tuple(total)
        return Evaluation(opts, tuple(count), zeros, deals, zeros, zeros)
    choose = policy or random_policy
    done: Callable[[GameState], bool] | None = None
    slowest = 0.0
    with paused_gc():
        while max_deals is None or deals < max_deals:
            start = clock()
            if start + slowest >= stop_at:
                break
            deal = sample(view, rng)
            deals += 1
            slowest = max(slowest, clock() - start)
            first = 0.0
            for index, option in enumerate(opts):
                begin = clock()
                if begin + slowest >= stop_at:
                    break
                state = deal.clone()
                state.apply(seat, option)
                if horizon is not None:
                    done = partial(_at_horizon, horizon, seat)
                elif round_only:
                    done = partial(_round_changed, getattr(state, "round", None))
                scores = play_out(state, rng, choose, done, stop_at, clock)
                if scores is None:  # out of time: this playout is dropped, and we stop
                    break
                value = utility(scores, seat, state.higher_is_better)
                total[index] += value
                count[index] += 1
                first = value if index == 0 else first
                pairs[index].add(value - first)
                slowest = max(slowest, clock() - begin)
            else:
                continue
            break
    means = tuple(t / n if n else -math.inf for t, n in zip(total, count, strict=True))
    gains = tuple(p.mean() for p in pairs)
    stderrs = tuple(p.stderr() for p in pairs)
    return Evaluation(opts, tuple(count), means, deals, gains, stderrs)


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for a decision's search (restored after).

    A full collection walks every object of the process: tens of milliseconds in a small
    process, more in a large one (a test run), at an allocation that happens to cross a
    threshold, often inside a playout. That was why the Monte Carlo bot overran 100 ms in
    11 nimmt! on its own CPU. Playout states hold no reference cycles, so reference
    counting frees them all without the collector; and objects made and freed while it
    is paused are never promoted, so the pause adds no work for later.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def play_out(
    state: GameState,
    rng: random.Random,
    choose: Policy,
    done: Callable[[GameState], bool] | None = None,
    stop_at: float = math.inf,
    clock: Callable[[], float] = time.monotonic,
) -> list[int] | None:
    """Play `state` on with `choose` for every seat until the game ends or `done(state)`
    holds, and return the scores then; None if `stop_at` (a time on `clock`) came
    first (the clock is read before every step, so a long playout never runs past it by
    more than one step). Options are applied without re-checking them
    (``GameState.apply_trusted``): they come from ``legal_options``."""
    pending = state.pending
    legal_options = state.legal_options
    apply = state.apply_trusted
    while True:
        seats = pending()
        if not seats or (done is not None and done(state)):
            return state.scores()
        if clock() >= stop_at:
            return None
        for seat in seats:
            apply(seat, choose(state, seat, legal_options(seat), rng))


def _at_horizon(horizon: Callable[[GameState, int], bool], seat: int, state: GameState) -> bool:
    return horizon(state, seat)


def _round_changed(start: int | None, state: GameState) -> bool:
    return start is not None and getattr(state, "round", None) != start


class _Paired:
    """Running mean and standard error of one option's utility minus the first option's."""

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, difference: float) -> None:
        self.n += 1
        self.total += difference
        self.squares += difference * difference

    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    def stderr(self) -> float:
        if self.n < 2:
            return 0.0
        variance = (self.squares - self.total * self.total / self.n) / (self.n - 1)
        return math.sqrt(max(variance, 0.0) / self.n)


def play_round(state: GameState, rng: random.Random, policy: Policy | None = None) -> list[int]:
    """Play `state` on (random policy by default) until its round changes or the game
    ends; the scores then. States without a ``round`` are played to the end."""
    start = getattr(state, "round", None)
    if start is None:
        return state.playout(rng, policy)
    return play_until(state, rng, partial(_round_changed, start), policy)


def play_until(
    state: GameState,
    rng: random.Random,
    done: Callable[[GameState], bool],
    policy: Policy | None = None,
) -> list[int]:
    """Play `state` on (random policy by default) until `done(state)` or the game ends;
    the scores then."""
    scores = play_out(state, rng, policy or random_policy, done)
    assert scores is not None  # no time limit
    return scores


BatchSimulation = Callable[[int, int, int], tuple[float, int]]
"""(option index, games, batch seed) -> (total utility, games played) of one batch of
playouts of that option. Calls with the same batch seed should sample the same deals."""


def evaluate_batched(
    options: Sequence[Option],
    simulate: BatchSimulation,
    stop_at: float,
    rng: random.Random,
    *,
    batch: int = 256,
    max_rounds: int | None = None,
    clock: Callable[[], float] = time.monotonic,
    race: float = 0.0,
) -> Evaluation:
    """Evaluate options by batches of playouts until `stop_at` (a time on `clock`).

    Each round plays one batch of `batch` games per option, all with the same batch seed
    (common random numbers: the options are compared on the same sampled deals); the
    first round plays batches of a quarter of that, to measure. A batch is only started
    when it fits before `stop_at` at the slowest time per game seen so far;
    `max_rounds` caps the rounds (for reproducible tests). ``deals`` counts the rounds.
    `clock` is what `stop_at` is read against: time.monotonic, the decision's
    ``DecisionClock.timer``, or a simulated clock in tests, which makes the stopping rule
    exact and independent of the machine's load.

    With `race` > 0 the options race: after each whole round from the `RACE_ROUNDS`-th
    on, an option is dropped (no more batches) when its mean per game trails the
    leader's by more than `race` standard errors of the two options' paired per-round
    differences (same seeds, so the deal's luck cancels out). The time saved goes to the
    options left: the close ones get the playouts. ``Evaluation.dropped`` marks them.
    """
    opts = tuple(options)
    count = [0] * len(opts)
    total = [0.0] * len(opts)
    per_round: list[list[float]] = [[] for _ in opts]  # each whole round's mean per game
    active = list(range(len(opts)))
    rounds = 0
    per_game = 0.0  # the slowest batch so far, in seconds per game
    with paused_gc():
        while len(active) > 1 and (max_rounds is None or rounds < max_rounds):
            seed = rng.getrandbits(63)
            # The first round measures with small batches: a whole batch may not fit at all.
            size = batch if rounds else max(1, batch // 4)
            rounds += 1
            for index in active:
                begin = clock()
                if begin + per_game * size >= stop_at:
                    break
                utility, games = simulate(index, size, seed)
                total[index] += utility
                count[index] += games
                per_round[index].append(utility / max(1, games))
                per_game = max(per_game, (clock() - begin) / max(1, games))
            else:
                if race > 0 and rounds >= RACE_ROUNDS:
                    active = _still_racing(active, total, count, per_round, race)
                continue
            break
    means = tuple(t / n if n else -math.inf for t, n in zip(total, count, strict=True))
    if race <= 0:
        return Evaluation(opts, tuple(count), means, rounds)
    left = set(active)
    dropped = tuple(index not in left for index in range(len(opts)))
    return Evaluation(opts, tuple(count), means, rounds, dropped=dropped)


RACE_ROUNDS = 4  # whole rounds before evaluate_batched(race=...) may drop an option


def _still_racing(
    active: list[int],
    total: list[float],
    count: list[int],
    per_round: list[list[float]],
    race: float,
) -> list[int]:
    """The options of `active` that do not trail the leader (the best mean) by more than
    `race` standard errors of their paired per-round differences. Every active option
    has played every round so far, on the same seeds."""
    leader = max(active, key=lambda i: total[i] / count[i])
    kept: list[int] = []
    for index in active:
        paired = _Paired()
        for mine, best in zip(per_round[index], per_round[leader], strict=True):
            paired.add(mine - best)
        if index == leader or paired.mean() + race * paired.stderr() >= 0.0:
            kept.append(index)
    return kept


JointSimulation = Callable[[int, int, float], Sequence[Sequence[float]] | None]
"""(deals, batch seed, stop_at) -> utility[option][deal]: every option played out on each
of `deals` sampled deals, all in one call; None when `stop_at` (a time on the clock
evaluate_jointly reads) came before the batch was done."""


def evaluate_jointly(
    options: Sequence[Option],
    simulate: JointSimulation,
    stop_at: float,
    rng: random.Random,
    *,
    batch: int = 64,
    max_rounds: int | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Evaluation:
    """Evaluate options by joint batches until `stop_at` (a time on `clock`).

    Each round samples deals and plays every option out on each of them in one call.
    A vectorised batch costs a fixed part (its loop) plus a part per deal, so the first
    round is a single deal, which bounds the fixed part; each later round is as large as
    fits before `stop_at` (at most `batch` deals), at the fixed part plus the slowest
    time per added deal seen so far. A round the simulation gives up at `stop_at` (it
    returns None; the first round may, at a short deadline) ends the sampling. With no
    round done, the means are -inf and ``.best`` is the first option. Every deal carries
    every option, so the result has the paired gains over the first option and their
    standard errors, as :func:`evaluate` has. `max_rounds` caps the rounds (for tests);
    `clock` is what `stop_at` is read against (time.monotonic, or a simulated clock).
    """
    opts = tuple(options)
    total = [0.0] * len(opts)
    pairs = [_Paired() for _ in opts]
    deals = rounds = 0
    fixed = per_deal = 0.0  # seconds: the first round's, and the most per added deal
    with paused_gc():
        while len(opts) > 1 and (max_rounds is None or rounds < max_rounds):
            begin = clock()
            size = 1
            if rounds:
                size = min(batch, int((stop_at - begin - fixed) / (per_deal or fixed)))
            if size < 1 or begin >= stop_at:
                break
            utilities = simulate(size, rng.getrandbits(63), stop_at)
            if utilities is None:
                break
            elapsed = clock() - begin
            if rounds:
                per_deal = max(per_deal, (elapsed - fixed) / size)
            else:
                fixed = elapsed
            rounds += 1
            deals += size
            first = utilities[0]
            for index, values in enumerate(utilities):
                total[index] += float(sum(values))
                for value, base in zip(values, first, strict=True):
                    pairs[index].add(value - base)
    count = tuple(deals for _ in opts)
    means = tuple(t / deals if deals else -math.inf for t in total)
    gains = tuple(p.mean() for p in pairs)
    stderrs = tuple(p.stderr() for p in pairs)
    return Evaluation(opts, count, means, deals, gains, stderrs)
