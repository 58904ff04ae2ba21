"""The leaderboard's data model: plain dataclasses, filled from the store by from_store.py.

The site renderer (build.py) reads only these, so it never touches SQLite or the store's
schema. Bots are told apart by ``key`` (``name@version``, as :attr:`BotSpec.key`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.league.ratings import conservative_rating


@dataclass(frozen=True)
class LeagueInfo:
    """What the index page says about the league."""

    name: str
    variants: tuple[str, ...]  # variant ids, in the order the site lists them
    matches_played: int
    bots: int
    built_at: str  # ISO 8601, UTC
    titles: tuple[tuple[str, str], ...] = ()  # (variant id, readable title)
    newest_finished: str = ""  # ISO 8601: when the newest finished match finished
    has_submit: bool = False  # the site has a "how to submit" page (published by an arena)
    public_logs: bool = True  # bot log tails and fault details are published

    def title_of(self, variant: str) -> str:
        """The readable title of a variant id (the id itself if unknown)."""
        return dict(self.titles).get(variant, variant)


@dataclass(frozen=True)
class StandingRow:
    """One bot's line in a variant's standings."""

    rank: int  # 1-based, by conservative rating (mu - 3 sigma), best first
    bot: str  # key, name@version
    name: str
    version: str
    conservative: float  # mu - 3 sigma
    mu: float
    sigma: float
    matches: int
    wins: int  # matches finished at rank 1 (a shared first place counts)
    win_share: float  # wins per match, a first place shared by k bots counting 1/k
    mean_score: float  # in the variant's own units (heads, or Hornochsen! points)
    fault_rate: float  # faults per match played (a match can hold several)
    mean_rank: float = 0.0  # mean finishing rank (1 = first)
    change: float = 0.0  # mu - 3 sigma now minus RECENT_CHANGE matches ago (or at its first)
    change_over: int = 0  # how many of its matches `change` covers
    retired: bool = False  # a newer version of the same bot is registered
    author: str = ""
    description: str = ""


@dataclass(frozen=True)
class RatingPoint:
    """A bot's rating right after its `match_number`-th rated match in the variant."""

    match_number: int  # 1-based, counting only this bot's matches in the variant
    league_match: int  # 1-based position of that match in the variant's rating order
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return conservative_rating(self.mu, self.sigma)


@dataclass(frozen=True)
class RatingSeries:
    """One bot's rating history in one variant, oldest first."""

    bot: str
    variant: str
    points: tuple[RatingPoint, ...]


@dataclass(frozen=True)
class VariantStandings:
    """A variant's standings table and every bot's rating series."""

    variant: str
    title: str
    matches: int
    rows: tuple[StandingRow, ...]
    series: tuple[RatingSeries, ...]
    family: str = ""
    head_to_head: tuple[PairRecord, ...] = ()  # every ordered pair of bots that met


@dataclass(frozen=True)
class PairRecord:
    """How `bot` fared against `opponent` in the matches of a variant they both played
    (pairwise by rank: a better rank is a win)."""

    bot: str
    opponent: str
    matches: int
    wins: int
    losses: int
    ties: int

    @property
    def share(self) -> float:
        """Win share: (wins + ties / 2) / matches."""
        return (self.wins + 0.5 * self.ties) / self.matches if self.matches else 0.0


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished match."""

    seat: int
    bot: str  # key
    score: int
    rank: int
    faults: int
    forfeited: bool


@dataclass(frozen=True)
class MatchSummary:
    """A finished match as the lists and bot pages show it."""

    match_id: str
    variant: str
    seed: int
    finished_at: str  # ISO 8601 or "" when the store does not say
    decisions: int
    seats: tuple[SeatResult, ...]

    def seat_of(self, bot: str) -> SeatResult | None:
        """The first seat `bot` played in this match, if any."""
        return next((s for s in self.seats if s.bot == bot), None)


@dataclass(frozen=True)
class HeadToHead:
    """How a bot fared against one opponent in one variant (pairwise, by rank)."""

    opponent: str
    variant: str
    matches: int  # matches in which both played
    wins: int  # better rank than the opponent
    losses: int
    ties: int


@dataclass(frozen=True)
class FaultRecord:
    """One fault of a bot."""

    match_id: str
    variant: str
    seat: int
    decision: int  # -1: during setup
    kind: str  # FaultKind value
    detail: str
    has_log: bool = False  # the league kept the seat's log tail for that match


@dataclass(frozen=True)
class VersionRow:
    """One registered version of a bot name, as every version's page lists it."""

    bot: str  # key, name@version
    version: str
    registered_at: str  # ISO 8601, UTC
    ratings: tuple[tuple[str, float, int], ...]  # (variant, mu - 3 sigma, matches rated)
    retired: bool  # a newer version of the same name is registered


@dataclass(frozen=True)
class BotPage:
    """Everything a bot's page shows."""

    bot: str
    name: str
    version: str
    series: tuple[RatingSeries, ...]  # one per variant it played
    head_to_head: tuple[HeadToHead, ...]
    recent_matches: tuple[MatchSummary, ...]  # newest first
    faults: tuple[FaultRecord, ...]  # newest first (capped by the builder)
    fault_kinds: Mapping[str, int]  # every fault of the bot, counted by kind
    author: str = ""
    description: str = ""
    retired_by: str = ""  # the newest version's key when this version is retired
    versions: tuple[VersionRow, ...] = ()  # every registered version of its name, oldest first
    version_series: tuple[RatingSeries, ...] = ()  # those versions' series (points thinned)


ReplayLoader = Callable[[str], bytes | None]
"""Returns the stored replay of a match id as JSON text (see referee/replay/files.py), or None."""


@dataclass
class Site:
    """What the site's bounded pages show: everything but the match pages and the full
    pages of the match list, which are written once per match (leaderboard/build.py)."""

    league: LeagueInfo
    standings: tuple[VariantStandings, ...]
    bots: tuple[BotPage, ...]
    recent_matches: tuple[MatchSummary, ...] = ()  # for the index, newest first
    latest_matches: tuple[MatchSummary, ...] = ()  # the match list's newest page, newest first
    latest_page: int = 1  # that page's number
    last_hour: tuple[MatchSummary, ...] = ()  # newest first, at most LAST_HOUR_SHOWN
    last_hour_total: int = 0  # matches that finished in the hour before the newest one
    about: Mapping[str, Any] | None = field(default=None)  # the arena's facts (submit page)
