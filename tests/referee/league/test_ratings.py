"""Ratings: TrueSkill computed directly, shared ranks for ties, completion order irrelevant;
the standings' counts."""

from __future__ import annotations

import random
from pathlib import Path

import trueskill

from referee.league.config import RatingConfig, parse_league
from referee.league.executors import MatchAttempt
from referee.league.ratings import RatedMatch, Ratings, replay_ratings
from referee.league.runner import LeagueRunner, RatingKeeper, record_outcome
from referee.league.store import LeagueStore
from referee.replay.result import MatchResult
from referee.spec import MatchSpec
from sdk.game import ranks_from_scores

CONFIG = RatingConfig(mu=30.0, sigma=9.0, beta=5.0, tau=0.1, draw_probability=0.2)


def direct(matches: list[tuple[tuple[str, ...], tuple[int, ...]]]) -> dict[str, trueskill.Rating]:
    env = trueskill.TrueSkill(mu=30.0, sigma=9.0, beta=5.0, tau=0.1, draw_probability=0.2)
    ratings: dict[str, trueskill.Rating] = {}
    for seats, ranks in matches:
        groups = [(ratings.get(b, env.create_rating()),) for b in seats]
        for bot, (new,) in zip(seats, env.rate(groups, ranks=list(ranks)), strict=True):
            ratings[bot] = new
    return ratings


def test_a_known_sequence_gives_trueskills_own_ratings() -> None:
    sequence = [
        (("a", "b", "c"), (1, 2, 3)),
        (("c", "a"), (1, 2)),
        (("b", "c", "d", "a"), (2, 1, 4, 3)),
        (("d", "a", "b"), (1, 1, 3)),
    ]
    ratings = Ratings(CONFIG)
    for seats, ranks in sequence:
        ratings.apply(seats, ranks)
    expected = direct([(s, tuple(r - 1 for r in ranks)) for s, ranks in sequence])
    assert set(ratings.current) == set(expected)
    for bot, rating in ratings.current.items():
        assert (rating.mu, rating.sigma) == (expected[bot].mu, expected[bot].sigma)
    assert ratings.get("a").conservative == expected["a"].mu - 3 * expected["a"].sigma


def test_ties_share_ranks() -> None:
    ratings = Ratings(CONFIG)
    after = ratings.apply(("a", "b", "c"), (1, 1, 3))
    expected = direct([(("a", "b", "c"), (0, 0, 2))])
    assert after["a"].mu == expected["a"].mu and after["b"].mu == expected["b"].mu
    untied = direct([(("a", "b", "c"), (0, 1, 2))])
    assert after["a"].mu != untied["a"].mu  # the tie is not treated as a win
    assert abs(after["a"].mu - after["b"].mu) < 0.05  # tied players move alike
    assert ranks_from_scores([5, 5, 9], higher_is_better=False) == [1, 1, 3]


LEAGUE = {
    "league": {"name": "order", "seed": 3, "seats": 3, "games": 4},
    "variants": [{"id": "6nimmt", "options": {"rounds": 1}}],
    "bots": [{"name": n, "endpoint": "127.0.0.1:9", "version": "1"} for n in "abcde"],
    "rating": CONFIG.to_json(),
}


def fill(store_path: Path, order_seed: int | None) -> list[tuple[int, str, str, float, float]]:
    """Schedule the league, record seeded results in a shuffled order; the rating rows."""
    config = parse_league(LEAGUE, None, lambda path: NotImplemented)
    store = LeagueRunner(config, store_path=store_path).prepare()
    with store:
        matches = store.matches()
        results_rng = random.Random(99)
        outcomes = []
        for match in matches:
            scores = tuple(results_rng.randrange(4) for _ in match.seats)
            ranks = tuple(ranks_from_scores(scores, higher_is_better=False))
            result = MatchResult(match.match_id, scores, ranks, (), (False,) * 3, 30, 0.1, None)
            spec = MatchSpec(match.match_id, "6nimmt", match.options, match.seed, ())
            outcomes.append((match, MatchAttempt(spec, result, None, 0.0, 1.0)))
        if order_seed is not None:
            random.Random(order_seed).shuffle(outcomes)
        keeper = RatingKeeper(store, config.variants[0], config)
        for match, outcome in outcomes:
            assert record_outcome(store, keeper, match, outcome)
            assert not record_outcome(store, keeper, match, outcome)  # never counted twice
        rows = store.db.execute(
            "SELECT seq, variant, bot, mu, sigma FROM ratings ORDER BY seq, bot"
        ).fetchall()
        rated = store.rated_matches("6nimmt:rounds=1")
        final, _ = replay_ratings(CONFIG, rated)
        standings = {s.bot: (s.mu, s.sigma) for s in store.standings("6nimmt:rounds=1")}
        assert standings == {bot: (r.mu, r.sigma) for bot, r in final.items()}
    return [tuple(row) for row in rows]


def test_completion_order_does_not_change_ratings(tmp_path: Path) -> None:
    in_order = fill(tmp_path / "a.sqlite", None)
    assert len(in_order) == 10 * 4 * 3  # C(5,3) sets x 4 games x 3 seats
    for seed in (1, 2):
        assert fill(tmp_path / f"s{seed}.sqlite", seed) == in_order


def test_replay_sorts_by_sequence() -> None:
    matches = [RatedMatch(2, ("a", "b"), (1, 2)), RatedMatch(1, ("b", "a"), (1, 2))]
    final, history = replay_ratings(CONFIG, matches)
    assert [seq for seq, _ in history] == [1, 2]
    expected = direct([(("b", "a"), (0, 1)), (("a", "b"), (0, 1))])
    assert final["a"].mu == expected["a"].mu


def test_standings_count_wins_shares_and_mean_scores(tmp_path: Path) -> None:
    fill(tmp_path / "a.sqlite", None)
    with LeagueStore.open_readonly(tmp_path / "a.sqlite") as store:
        rows = store.db.execute("SELECT match_id, bot, score, rank FROM results").fetchall()
        standings = {s.bot: s for s in store.standings("6nimmt:rounds=1")}
    firsts: dict[str, int] = {}
    for match_id, _, _, rank in rows:
        firsts[match_id] = firsts.get(match_id, 0) + (rank == 1)
    assert max(firsts.values()) > 1  # some first places are shared
    for bot, standing in standings.items():
        mine = [(m, score, rank) for m, b, score, rank in rows if b == bot]
        assert standing.matches == len(mine)
        assert standing.wins == sum(rank == 1 for _, _, rank in mine)
        share = sum(1 / firsts[m] for m, _, rank in mine if rank == 1)
        assert abs(standing.shared_wins - share) < 1e-9
        assert abs(standing.win_share - share / standing.matches) < 1e-9
        assert standing.shared_wins < standing.wins or not any(
            rank == 1 and firsts[m] > 1 for m, _, rank in mine
        )
        assert abs(standing.mean_score - sum(s for _, s, _ in mine) / len(mine)) < 1e-9
