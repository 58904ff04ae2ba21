"""Each format schedules what it claims: counts, permutations, seat balance."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from referee.league.config import VariantConfig
from referee.league.formats import (
    plan_duplicate,
    plan_quality_batch,
    plan_random,
    plan_round_robin,
    set_key,
)

BOTS = [f"bot{i}@1" for i in range(6)]


def variant(seats: int, games: int, fmt: str) -> VariantConfig:
    return VariantConfig("6nimmt", "6nimmt", {}, seats, games, fmt)


@pytest.mark.parametrize(("bots", "seats", "games"), [(4, 2, 2), (5, 3, 3), (6, 4, 4), (6, 6, 1)])
def test_round_robin_plays_every_set_games_times(bots: int, seats: int, games: int) -> None:
    planned = plan_round_robin(variant(seats, games, "round-robin"), BOTS[:bots], 1)
    assert len(planned) == math.comb(bots, seats) * games
    per_set = Counter(set_key(m.seats) for m in planned)
    assert set(per_set) == {set_key(g) for g in itertools.combinations(BOTS[:bots], seats)}
    assert set(per_set.values()) == {games}
    assert len({m.slot for m in planned}) == len(planned)
    assert all(len(set(m.seats)) == seats for m in planned)


def test_round_robin_balances_seats_when_games_is_a_multiple_of_seats() -> None:
    planned = plan_round_robin(variant(3, 6, "round-robin"), BOTS[:5], 1)
    for group in itertools.combinations(BOTS[:5], 3):
        matches = [m for m in planned if set(m.seats) == set(group)]
        seat_counts = Counter((bot, m.seats.index(bot)) for m in matches for bot in group)
        assert set(seat_counts.values()) == {2}, seat_counts


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_duplicate_plays_every_permutation_of_each_deal(seats: int) -> None:
    planned = plan_duplicate(variant(seats, 2, "duplicate"), BOTS[:5], 3)
    deals: dict[str, list[tuple[str, ...]]] = {}
    for match in planned:
        assert match.deal is not None
        deals.setdefault(match.deal, []).append(match.seats)
    assert len(deals) == math.comb(5, seats) * 2
    for deal, seatings in deals.items():
        assert sorted(seatings) == sorted(itertools.permutations(seatings[0])), deal
        assert len({m.seed for m in planned if m.deal == deal}) == 1
    assert len({m.seed for m in planned}) == len(deals)


def test_duplicate_beyond_four_seats_rotates_each_bot_through_each_seat() -> None:
    planned = plan_duplicate(variant(5, 1, "duplicate"), BOTS[:6], 3)
    deals: dict[str | None, list[tuple[str, ...]]] = {}
    for match in planned:
        deals.setdefault(match.deal, []).append(match.seats)
    assert len(deals) == math.comb(6, 5)
    for seatings in deals.values():
        assert len(seatings) == 5
        for seat in range(5):
            assert sorted(s[seat] for s in seatings) == sorted(seatings[0])


def test_random_plays_games_matches_with_balanced_appearances() -> None:
    planned = plan_random(variant(4, 25, "random"), BOTS, 5)
    assert len(planned) == 25
    appearances = Counter(bot for m in planned for bot in m.seats)
    assert max(appearances.values()) - min(appearances.values()) <= 1
    assert sum(appearances.values()) == 100
    assert all(len(set(m.seats)) == 4 for m in planned)
    assert planned == plan_random(variant(4, 25, "random"), BOTS, 5)
    assert planned != plan_random(variant(4, 25, "random"), BOTS, 6)


def test_plans_need_enough_bots() -> None:
    with pytest.raises(ValueError, match="4 seats need at least 4 bots"):
        plan_round_robin(variant(4, 1, "round-robin"), BOTS[:3], 1)


def test_quality_batches_prefer_close_matches_and_spread_over_sets() -> None:
    strength = {bot: i for i, bot in enumerate(BOTS)}

    def quality(seats: Sequence[str]) -> float:
        values = [strength[b] for b in seats]
        return 1.0 / (1 + max(values) - min(values))

    v = variant(2, 12, "quality")
    first = plan_quality_batch(v, BOTS, 1, quality, {}, 0, 5)
    assert len(first) == 5
    # the five closest pairs (neighbours in strength) come first, each once
    assert sorted(set_key(m.seats) for m in first) == sorted(
        set_key((BOTS[i], BOTS[i + 1])) for i in range(5)
    )
    counts = Counter(set_key(m.seats) for m in first)
    second = plan_quality_batch(v, BOTS, 1, quality, counts, 5, 10)
    assert len(second) == 7  # only 12 games in all
    assert [m.slot for m in second] == [f"6nimmt|quality|{g}" for g in range(5, 12)]
    assert second == plan_quality_batch(v, BOTS, 1, quality, counts, 5, 10)


def test_seeds_do_not_depend_on_the_bot_list_order() -> None:
    shuffled = BOTS[:5]
    random.Random(2).shuffle(shuffled)
    one = {m.slot: m.seed for m in plan_round_robin(variant(2, 1, "round-robin"), BOTS[:5], 9)}
    two = {m.slot: m.seed for m in plan_round_robin(variant(2, 1, "round-robin"), shuffled, 9)}
    assert one == two
