"""TrueSkill ratings per variant, applied in schedule order.

A match is a free-for-all: each seat is a one-player team, ranked by the match's ranks
(equal ranks are a tie and share it). Matches are applied strictly in schedule order
(their sequence number), never in completion order, so the same results always give the
same ratings, bit for bit; :func:`replay_ratings` recomputes them from results alone.
A rating is reported as ``mu - 3 * sigma`` (the conservative estimate) with mu and sigma.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import trueskill

from referee.league.config import RatingConfig


def conservative_rating(mu: float, sigma: float) -> float:
    """mu - 3 sigma: the rating shown in standings and charts."""
    return mu - 3 * sigma


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the rating shown in standings."""
        return conservative_rating(self.mu, self.sigma)


@dataclass(frozen=True)
class RatedMatch:
    """What a match contributes to ratings: the bot at each seat and its rank."""

    seq: int
    seats: tuple[str, ...]
    ranks: tuple[int, ...]


class Ratings:
    """The ratings of one variant's bots, advanced one match at a time."""

    def __init__(self, config: RatingConfig, current: Mapping[str, Rating] | None = None) -> None:
        self.env = trueskill.TrueSkill(
            mu=config.mu,
            sigma=config.sigma,
            beta=config.beta,
            tau=config.tau,
            draw_probability=config.draw_probability,
        )
        self.current: dict[str, Rating] = dict(current or {})

    def get(self, bot: str) -> Rating:
        return self.current.get(bot) or Rating(self.env.mu, self.env.sigma)

    def _ts(self, bot: str) -> trueskill.Rating:
        rating = self.get(bot)
        return self.env.create_rating(rating.mu, rating.sigma)

    def apply(self, seats: Sequence[str], ranks: Sequence[int]) -> dict[str, Rating]:
        """Update with one match's result; return the new rating of each bot in it."""
        if len(set(seats)) != len(seats):
            raise ValueError(f"a bot cannot be rated against itself: {list(seats)}")
        groups = [(self._ts(bot),) for bot in seats]
        rated = self.env.rate(groups, ranks=[rank - 1 for rank in ranks])
        after = {
            bot: Rating(group[0].mu, group[0].sigma)
            for bot, group in zip(seats, rated, strict=True)
        }
        self.current.update(after)
        return after

    def quality(self, seats: Sequence[str]) -> float:
        """TrueSkill's match quality (draw probability) of a match between `seats`."""
        return float(self.env.quality([(self._ts(bot),) for bot in seats]))


def replay_ratings(
    config: RatingConfig, matches: Iterable[RatedMatch]
) -> tuple[dict[str, Rating], list[tuple[int, dict[str, Rating]]]]:
    """Ratings from results alone: (final ratings, history of (seq, ratings after)).

    Matches are sorted by sequence number first, so completion order never matters.
    """
    ratings = Ratings(config)
    history = [
        (match.seq, ratings.apply(match.seats, match.ranks))
        for match in sorted(matches, key=lambda m: m.seq)
    ]
    return ratings.current, history
