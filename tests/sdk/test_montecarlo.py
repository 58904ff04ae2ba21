"""sdk.montecarlo: evaluate_batched (batches per option, common seeds, the time limit),
evaluate_jointly (every option on the same deals, rounds sized to the time left) and the
paired comparison with the first option."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest

from sdk.game.core import Option, OptionKind
from sdk.game.hornochsen import HornochsenState
from sdk.montecarlo import (
    RACE_ROUNDS,
    Evaluation,
    evaluate,
    evaluate_batched,
    evaluate_jointly,
    lead,
    margin,
)

OPTIONS = [Option(OptionKind.CARD, card) for card in (3, 7, 11)]


def test_every_option_gets_the_same_batches_and_the_best_mean_wins() -> None:
    seeds: dict[int, list[int]] = {0: [], 1: [], 2: []}

    def simulate(index: int, games: int, seed: int) -> tuple[float, int]:
        seeds[index].append(seed)
        noise = random.Random(seed).random()  # shared by all options of a round
        return games * (float(OPTIONS[index].card % 5) + noise), games

    found = evaluate_batched(
        OPTIONS, simulate, time.monotonic() + 60, random.Random(1), batch=16, max_rounds=4
    )
    assert found.deals == 4
    assert found.samples == (52, 52, 52)  # a first round of 4 games to measure, then 16
    assert seeds[0] == seeds[1] == seeds[2] and len(set(seeds[0])) == 4
    assert found.best == OPTIONS[0]  # card 3: mean 3 + noise, the highest


class SimulatedClock:
    """A monotonic clock that moves only when a simulation says its work took time: the
    stopping rules are then checked exactly, whatever the machine's load. (The real clock
    is held by tests/example_bots/test_montecarlo_clock.py, on real bots.)"""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_it_stops_before_the_time_limit() -> None:
    clock = SimulatedClock()
    batches: list[int] = []

    def simulate(index: int, games: int, seed: int) -> tuple[float, int]:
        batches.append(games)
        # Games get slower as the search goes on: the rule must use the slowest seen.
        clock.now += games * (0.001 + 0.0001 * len(batches))
        return float(index), games

    stop_at = clock.now + 0.15
    found = evaluate_batched(OPTIONS, simulate, stop_at, random.Random(2), batch=8, clock=clock)
    assert clock.now <= stop_at  # never started a batch that could not finish in time
    slowest = max(0.001 + 0.0001 * n for n in range(1, len(batches) + 1))
    assert stop_at - clock.now < 8 * slowest  # and stopped only when the next one could not
    assert batches[:3] == [2, 2, 2] and set(batches[3:]) == {8}  # a quarter batch to measure
    assert min(found.samples) >= 8
    assert found.best == OPTIONS[2]


RACE_OPTIONS = [Option(OptionKind.CARD, card) for card in range(1, 6)]


def race_simulation(
    true_means: list[float], clock: SimulatedClock, played: dict[int, int]
) -> Callable[[int, int, int], tuple[float, int]]:
    """Option i scores true_means[i] plus a round's shared luck plus its own noise; each
    game costs 1 ms of the simulated clock."""

    def simulate(index: int, games: int, seed: int) -> tuple[float, int]:
        shared = random.Random(seed).gauss(0.0, 5.0)  # the deal's luck: common to all
        own = random.Random(seed * 31 + index).gauss(0.0, 0.3)
        clock.now += games * 0.001
        played[index] = played.get(index, 0) + games
        return games * (true_means[index] + shared + own), games

    return simulate


def test_a_race_drops_the_clearly_worse_options_and_gives_the_close_ones_the_time() -> None:
    true_means = [0.0, -3.0, 1.0, -4.0, 0.97]  # 3 and 5 too close to tell; 1, 2, 4 behind
    runs: dict[float, tuple[Evaluation, dict[int, int]]] = {}
    for race in (0.0, 3.0):
        clock, played = SimulatedClock(), dict[int, int]()
        stop_at = clock.now + 2.0
        simulate = race_simulation(true_means, clock, played)
        found = evaluate_batched(
            RACE_OPTIONS, simulate, stop_at, random.Random(4), batch=16, clock=clock, race=race
        )
        assert clock.now <= stop_at
        assert found.best in (RACE_OPTIONS[2], RACE_OPTIONS[4])
        runs[race] = (found, played)
    plain, (raced, played) = runs[0.0][0], runs[3.0]
    assert plain.dropped == ()
    assert raced.dropped == (True, True, False, True, False)
    # The dropped options stopped after the rounds needed to judge them ...
    assert all(played[i] <= 4 + 16 * (RACE_ROUNDS + 1) for i in (0, 1, 3))
    # ... and the two close ones got the time: many more games than without the race.
    assert min(played[2], played[4]) > 1.5 * max(plain.samples)
    assert sum(raced.samples) == sum(played.values())


def test_a_dropped_option_is_never_best_even_with_the_higher_mean() -> None:
    found = evaluate_batched(RACE_OPTIONS[:2], lambda i, g, s: (float(g), g), 0.0, random.Random(1))
    assert found.best == RACE_OPTIONS[0]  # no sample at all: the first
    evaluation = Evaluation(tuple(RACE_OPTIONS[:2]), (8, 8), (5.0, 1.0), 2, dropped=(True, False))
    assert evaluation.best == RACE_OPTIONS[1]


def test_a_race_with_one_option_left_is_over() -> None:
    clock, played = SimulatedClock(), dict[int, int]()
    simulate = race_simulation([1.0, -5.0], clock, played)
    found = evaluate_batched(
        RACE_OPTIONS[:2], simulate, clock.now + 60, random.Random(5), batch=16, clock=clock, race=3
    )
    assert found.dropped == (False, True) and found.best == RACE_OPTIONS[0]
    assert found.deals == RACE_ROUNDS  # judged after the 4th round; nothing left to compare
    assert found.samples == (4 + 16 * (RACE_ROUNDS - 1),) * 2


def test_a_single_option_needs_no_simulation() -> None:
    def simulate(index: int, games: int, seed: int) -> tuple[float, int]:
        raise AssertionError("not called")

    found = evaluate_batched(OPTIONS[:1], simulate, time.monotonic() + 1, random.Random(3))
    assert found.best == OPTIONS[0] and found.samples == (0,)


def test_evaluate_pairs_each_option_with_the_first_on_the_same_deals() -> None:
    state = HornochsenState.from_position(
        [[17, 62, 90], [1, 2, 3], [4, 5, 6]], [[12, 13, 14, 16], [61], [81]]
    )
    view = state.view(0)
    options = [o for o in state.legal_options(0) if o.kind == OptionKind.PLAY]
    found = evaluate(
        view, options, time.monotonic() + 60, random.Random(4), utility=margin, max_deals=12
    )
    assert found.samples == (12, 12, 12)
    for mean, gain in zip(found.means, found.gains, strict=True):
        assert abs(gain - (mean - found.means[0])) < 1e-9  # every option on every deal
    assert found.gains[0] == 0.0 and found.gain_stderrs[0] == 0.0
    assert all(s > 0 for s in found.gain_stderrs[1:])  # random playouts differ by deal


def test_lead_is_against_the_best_other_seat() -> None:
    assert lead([10, 14, 3], 0, True) == -4.0
    assert lead([10, 4, 3], 0, True) == 6.0
    assert lead([10, 4, 3], 0, False) == -6.0  # fewest wins: 4 is the best other


def test_evaluate_jointly_pairs_the_options_on_each_deal() -> None:
    sizes: list[int] = []

    def simulate(deals: int, seed: int, stop_at: float) -> list[list[float]]:
        sizes.append(deals)
        luck = random.Random(seed)
        base = [luck.random() * 10 for _ in range(deals)]  # shared by every option
        return [[b + OPTIONS[i].card % 5 for b in base] for i in range(len(OPTIONS))]

    found = evaluate_jointly(
        OPTIONS, simulate, time.monotonic() + 60, random.Random(4), batch=16, max_rounds=3
    )
    assert sizes == [1, 16, 16]  # a one-deal round to measure, then full batches
    assert found.deals == 33 and found.samples == (33, 33, 33)
    assert found.best == OPTIONS[0]  # card 3 adds 3 to each deal's luck, the most
    # Each deal's luck cancels in the differences: card 7 scores 2 - 3 = -1 on every deal.
    assert found.gains[1] == pytest.approx(-1.0) and found.gain_stderrs[1] == pytest.approx(0.0)
    assert found.gains[2] == pytest.approx(-2.0)


def test_evaluate_jointly_sizes_its_rounds_to_the_time_left() -> None:
    clock = SimulatedClock()
    sizes: list[int] = []

    def simulate(deals: int, seed: int, stop_at: float) -> list[list[float]]:
        sizes.append(deals)
        clock.now += 0.02 + 0.002 * deals  # a loop, then per deal
        return [[float(i)] * deals for i in range(len(OPTIONS))]

    stop_at = clock.now + 0.2
    found = evaluate_jointly(OPTIONS, simulate, stop_at, random.Random(5), batch=20, clock=clock)
    assert clock.now <= stop_at
    # One deal measures the loop (22 ms); 7 deals fit in what is left at 22 ms per deal;
    # then the batch's 20 while they fit, and the single deal that still does.
    assert sizes == [1, 7, 20, 20, 1]
    assert found.deals == 49 and found.best == OPTIONS[2]


def test_evaluate_jointly_keeps_the_first_option_when_no_round_finishes() -> None:
    stops: list[float] = []

    def simulate(deals: int, seed: int, stop_at: float) -> list[list[float]] | None:
        stops.append(stop_at)
        return None  # the simulation gave up at stop_at

    stop_at = time.monotonic() + 5
    found = evaluate_jointly(OPTIONS, simulate, stop_at, random.Random(6))
    assert stops == [stop_at]  # told when to give up, and not asked again
    assert found.deals == 0 and found.best == OPTIONS[0]
