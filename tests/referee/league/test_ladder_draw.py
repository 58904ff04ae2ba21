"""The ladder's matchmaking (referee/league/ladder.py), on ratings made by hand and
seeded, simulated results: a new version is seated at once and gets most games until its
sigma falls below the threshold; nobody is starved; the same state draws the same match."""

from __future__ import annotations

import random
from collections import Counter

from referee.league.config import RatingConfig, VariantConfig
from referee.league.ladder import LadderDraw, LadderPolicy, is_ladder_slot, predicted_matches
from referee.league.ratings import Rating, Ratings

VARIANT = VariantConfig("6nimmt", "6nimmt", {}, 4, 10, "quality")
SETTLED = Rating(25.0, 1.5)


def settled(bots: list[str]) -> Ratings:
    return Ratings(RatingConfig(), {bot: SETTLED for bot in bots})


def play(draw: LadderDraw, roster: list[str], rng: random.Random) -> tuple[str, ...]:
    """Draw a match and rate it with a random result (as if played at once)."""
    planned = draw.next(roster)
    assert planned is not None
    ranks = list(range(1, len(planned.seats) + 1))
    rng.shuffle(ranks)
    draw.ratings.apply(planned.seats, ranks)
    return planned.seats


def test_too_few_bots_draw_nothing() -> None:
    draw = LadderDraw(VARIANT, 1, LadderPolicy(), settled(["a", "b", "c"]))
    assert draw.next(["a", "b", "c"]) is None
    assert draw.next(["a", "b", "c", "c"]) is None  # one bot cannot take two seats
    assert draw.drawn == 0


def test_a_new_version_plays_first_then_joins_the_ordinary_draw() -> None:
    old = ["a", "b", "c", "d", "e"]
    ratings = settled(old)
    policy = LadderPolicy(new_sigma=2.5, new_share=0.75)
    history = [tuple(random.Random(i).sample(old, 4)) for i in range(40)]
    draw = LadderDraw(VARIANT, 7, policy, ratings, history, drawn=40)
    rng = random.Random(3)
    roster = [*old, "new"]
    first = play(draw, roster, rng)
    assert "new" in first  # a version without a match is seated in the very next draw
    with_new = 1
    played = 1
    while ratings.get("new").sigma > policy.new_sigma:
        with_new += "new" in play(draw, roster, rng)
        played += 1
        assert played < 100
    assert with_new / played >= 0.6, (with_new, played)  # "most of the games"
    # Settled now: it plays about its fair share (4 seats of 6 bots), no longer most.
    later = Counter(bot for _ in range(300) for bot in play(draw, roster, rng))
    assert later["new"] / 300 < 0.85
    assert all(later[bot] / 300 > 0.4 for bot in roster), later


def test_nobody_is_starved_however_informative_the_other_games() -> None:
    # Four close bots and two far apart: match quality alone would keep seating the
    # close four; the minimum share seats the others too.
    ratings = Ratings(
        RatingConfig(),
        {
            **{b: Rating(25.0, 1.0) for b in "abcd"},
            "low": Rating(5.0, 1.0),
            "high": Rating(45.0, 1.0),
        },
    )
    policy = LadderPolicy(new_sigma=2.5, min_share=0.5)
    draw = LadderDraw(VARIANT, 11, policy, ratings)
    roster = ["a", "b", "c", "d", "low", "high"]
    seats = Counter(bot for _ in range(400) for bot in draw.next(roster).seats)  # type: ignore[union-attr]
    fair = 4 / 6 * 400
    for bot in ("low", "high"):
        assert seats[bot] >= 0.5 * fair * 0.9, seats  # the floor, less the first window
    assert seats["a"] > seats["low"]  # the informative games still come first
    without_floor = LadderDraw(VARIANT, 11, LadderPolicy(min_share=0.0), ratings)
    plain = Counter(bot for _ in range(400) for bot in without_floor.next(roster).seats)  # type: ignore[union-attr]
    assert plain["low"] < seats["low"]  # the floor is what seats it


def test_the_same_state_draws_the_same_matches() -> None:
    def draws(seed: int) -> list[tuple[str, ...]]:
        bots = ["a", "b", "c", "d", "e", "f"]
        draw = LadderDraw(VARIANT, seed, LadderPolicy(), settled(bots), drawn=5)
        return [draw.next(bots).seats for _ in range(30)]  # type: ignore[union-attr]

    assert draws(1) == draws(1)
    assert draws(1) != draws(2)


def test_slots_number_the_variants_draws_and_seeds_follow_the_slot() -> None:
    bots = ["a", "b", "c", "d"]
    draw = LadderDraw(VARIANT, 5, LadderPolicy(), settled(bots), drawn=12)
    first, second = draw.next(bots), draw.next(bots)
    assert first is not None and second is not None
    assert (first.slot, second.slot) == ("6nimmt|ladder|12", "6nimmt|ladder|13")
    assert is_ladder_slot(first.slot, "6nimmt") and not is_ladder_slot(first.slot, "6nimmt:x")
    assert first.seed != second.seed
    again = LadderDraw(VARIANT, 5, LadderPolicy(), settled(bots), drawn=12).next(bots)
    assert again == first


def test_the_prediction_matches_simulated_new_versions() -> None:
    """predicted_matches is what a new version facing settled bots takes, in the draw."""
    policy = LadderPolicy(new_sigma=2.5)
    predicted = predicted_matches(RatingConfig(), 4, policy.new_sigma)
    assert 3 <= predicted <= 12
    took = []
    for seed in range(20):
        old = ["a", "b", "c", "d", "e"]
        ratings = Ratings(RatingConfig(), {b: Rating(25.0, policy.new_sigma) for b in old})
        draw = LadderDraw(VARIANT, seed, policy, ratings)
        rng = random.Random(seed)
        matches = 0
        while ratings.get("new").sigma > policy.new_sigma:
            matches += "new" in play(draw, [*old, "new"], rng)
        took.append(matches)
    took.sort()
    assert abs(took[len(took) // 2] - predicted) <= 2, (took, predicted)
