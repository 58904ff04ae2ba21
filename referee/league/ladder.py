"""The ladder's matchmaking: which match a never-ending league plays next.

A ladder (``bullring arena serve``) does not plan a schedule up front: each time a worker
is free it asks :meth:`LadderDraw.next` for one match of a variant, chosen from the
ratings as they stand then, and schedules it in the store before it is played. The
choice, in order:

1. **A new version plays first.** A bot whose rating's sigma in the variant is still
   above ``new_sigma`` (a version just registered starts at TrueSkill's prior, 8.33) is
   *new*: a new bot that has no match yet is always seated, and otherwise a new bot is
   seated in ``new_share`` of the draws (the new bot with fewest matches so far).
2. **Nobody is starved.** Over the variant's last ``window`` matches each active bot
   should have had at least ``min_share`` of its fair share (``seats / bots``); the bot
   furthest below it is seated.
3. **The most informative game.** The other seats (or all of them) go to the set of bots
   with the best TrueSkill match quality (the ``quality`` league format's measure),
   divided by one plus that set's matches in the window, so one close pair cannot take
   every game.

Seats are shuffled. Every draw is seeded from the league seed, the variant and the draw's
number, so with the same ratings the same match comes out; a match's seed comes from its
slot (``VARIANT|ladder|N``) as every format's does. What the ladder plays is therefore
fixed by the store's schedule, whatever timing made it.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.league.config import RatingConfig, VariantConfig
from referee.league.formats import MAX_QUALITY_CANDIDATES, PlannedMatch, derive_seed, set_key
from referee.league.ratings import Rating, Ratings

LADDER = "ladder"  # the format word in a ladder match's slot


@dataclass(frozen=True)
class LadderPolicy:
    """How the ladder draws its matches (the arena file's ``[arena]`` table)."""

    new_sigma: float = 2.5  # a bot is new while its sigma is above this
    new_share: float = 0.75  # of the draws, while a new bot is active
    min_share: float = 0.5  # of a bot's fair share of the window's matches, at least
    window: int = 0  # matches looked back on for shares (0: 20 per table of the roster)


def ladder_slot(variant: str, number: int) -> str:
    return f"{variant}|{LADDER}|{number}"


def is_ladder_slot(slot: str, variant: str) -> bool:
    return slot.startswith(f"{variant}|{LADDER}|")


class LadderDraw:
    """The matchmaking of one variant: see the module docstring.

    `history` is the variant's schedule so far, oldest first (each match's seats), and
    `drawn` how many ladder matches the variant has had (it numbers the next slot).
    """

    def __init__(
        self,
        variant: VariantConfig,
        seed: int,
        policy: LadderPolicy,
        ratings: Ratings,
        history: Iterable[Sequence[str]] = (),
        drawn: int = 0,
    ) -> None:
        self.variant = variant
        self.seed = seed
        self.policy = policy
        self.ratings = ratings
        self.drawn = drawn
        self.played: Counter[str] = Counter()  # matches scheduled for each bot, ever
        self.recent: deque[tuple[str, ...]] = deque()
        for seats in history:
            self.note(tuple(seats))

    def note(self, seats: tuple[str, ...]) -> None:
        """Count a scheduled match (drawn here, or found in the store at start)."""
        self.played.update(seats)
        self.recent.append(seats)
        while len(self.recent) > 10_000:  # the widest window kept
            self.recent.popleft()

    def window_size(self, roster: Sequence[str]) -> int:
        """The matches looked back on for shares: the policy's, or 20 per table."""
        return self.policy.window or 20 * math.ceil(len(roster) / self.variant.seats)

    def window(self, roster: Sequence[str]) -> list[tuple[str, ...]]:
        return list(itertools.islice(reversed(self.recent), self.window_size(roster)))

    def is_new(self, bot: str) -> bool:
        return self.ratings.get(bot).sigma > self.policy.new_sigma

    def next(self, roster: Sequence[str]) -> PlannedMatch | None:
        """The next match among `roster` (bot keys, in registration order); None when
        the roster is too small for a table."""
        seats = self.variant.seats
        if len(set(roster)) < seats:
            return None
        roster = list(dict.fromkeys(roster))
        rng = random.Random(derive_seed(self.seed, self.variant.id, LADDER, self.drawn))
        window = self.window(roster)
        anchor = self._new_anchor(roster, rng) or self._starved_anchor(roster, window)
        group = self._best_group(roster, anchor, window, rng)
        chosen = list(group)
        rng.shuffle(chosen)
        slot = ladder_slot(self.variant.id, self.drawn)
        self.drawn += 1
        planned = PlannedMatch(slot, self.variant.id, derive_seed(self.seed, slot), tuple(chosen))
        self.note(planned.seats)
        return planned

    def _new_anchor(self, roster: list[str], rng: random.Random) -> str | None:
        new = [bot for bot in roster if self.is_new(bot)]
        if not new:
            return None
        fresh = [bot for bot in new if self.played[bot] == 0]
        if not fresh and rng.random() >= self.policy.new_share:
            return None
        return min(fresh or new, key=lambda bot: (self.played[bot], roster.index(bot)))

    def _starved_anchor(self, roster: list[str], window: list[tuple[str, ...]]) -> str | None:
        if len(window) < self.window_size(roster):
            return None  # too little history to judge shares yet
        counts = Counter(bot for seats in window for bot in seats)
        floor = self.policy.min_share * self.variant.seats / len(roster) * len(window)
        starved = [bot for bot in roster if counts[bot] < floor]
        if not starved:
            return None
        return min(starved, key=lambda bot: (counts[bot], roster.index(bot)))

    def _best_group(
        self,
        roster: list[str],
        anchor: str | None,
        window: list[tuple[str, ...]],
        rng: random.Random,
    ) -> tuple[str, ...]:
        others = [bot for bot in roster if bot != anchor]
        need = self.variant.seats - (anchor is not None)
        head = (anchor,) if anchor is not None else ()
        if math.comb(len(others), need) <= MAX_QUALITY_CANDIDATES:
            candidates = [head + group for group in itertools.combinations(others, need)]
        else:
            candidates = [
                head + tuple(rng.sample(others, need)) for _ in range(MAX_QUALITY_CANDIDATES)
            ]
        rng.shuffle(candidates)  # ties go to a seeded pick, not to roster order
        met = Counter(set_key(seats) for seats in window)
        return max(
            candidates,
            key=lambda group: self.ratings.quality(group) / (1 + met[set_key(group)]),
        )


def predicted_matches(
    rating: RatingConfig, seats: int, new_sigma: float, trials: int = 200, seed: int = 0
) -> int:
    """About how many matches a new version plays before its sigma falls below
    `new_sigma`: the median over `trials` seeded simulations of a prior-rated bot at
    tables of settled bots (their sigma at `new_sigma`), each match's ranks drawn at
    random. The ladder prints it at start; the benchmark compares it with the real thing.
    0 if sigma never gets there (tau keeps it above: see TrueSkill's dynamics factor)."""
    rng = random.Random(seed)
    counts = []
    limit = 1000
    for _ in range(trials):
        ratings = Ratings(rating)
        others = [f"settled{i}" for i in range(seats - 1)]
        played = 0
        while ratings.get("new").sigma > new_sigma and played < limit:
            for other in others:
                ratings.current[other] = Rating(rating.mu, new_sigma)
            ranks = list(range(1, seats + 1))
            rng.shuffle(ranks)
            ratings.apply(["new", *others], ranks)
            played += 1
        counts.append(played)
    median = int(statistics.median(counts))
    return 0 if median >= limit else median
