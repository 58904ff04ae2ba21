"""League formats: which matches to play, as pure functions of the league and its bots.

Every planned match carries a *slot*: a stable key naming its place in the format
(variant, format, the set of bots, game number, seating). The store schedules each slot
once, so planning again (after a restart, or after a bot was submitted) only adds the
slots that are new. A match's seed is derived from the league seed and its slot, so it
does not depend on when it was scheduled.

Formats (``format`` in the league file):

* ``round-robin``: every set of ``seats`` bots plays ``games`` matches; seatings rotate,
  so with ``games`` a multiple of ``seats`` every bot of a set sits in every seat equally.
* ``random``: ``games`` matches; each takes the bots that have played least so far
  (ties broken by a seeded draw) in a random seating. A new bot set (after a submission)
  plans a new round of ``games`` matches.
* ``duplicate``: every set of ``seats`` bots plays ``games`` deals; each deal (one seed)
  is replayed with the seats permuted: every permutation up to 4 seats, the ``seats``
  rotations beyond (each bot in each seat once), to cancel the luck of the cards.
* ``quality``: ``games`` matches chosen in batches by TrueSkill match quality (the games
  that tell most); see :func:`plan_quality_batch`.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from referee.league.config import VariantConfig

SEED_BITS = 52  # seeds stay exact in JSON and JavaScript numbers
MAX_QUALITY_CANDIDATES = 2000


@dataclass(frozen=True)
class PlannedMatch:
    """A match a format wants played: seats hold bot keys (``name@version``)."""

    slot: str
    variant: str
    seed: int
    seats: tuple[str, ...]
    deal: str | None = None  # duplicate: matches of one deal share it


def league_match_id(league: str, seq: int) -> str:
    """The id of the league's `seq`-th scheduled match: ``demo-000042``. The conformance
    check of a submission numbers its matches the same way (referee/check.py)."""
    return f"{league}-{seq:06d}"


def derive_seed(*parts: object) -> int:
    """A seed from any parts, stable across runs, machines and Python versions."""
    text = "\x1f".join(str(p) for p in parts)
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def rotate(items: Sequence[str], by: int) -> tuple[str, ...]:
    by %= len(items)
    return tuple(items[by:]) + tuple(items[:by])


def duplicate_seatings(bots: Sequence[str]) -> list[tuple[str, ...]]:
    """Every permutation of up to 4 seats; the rotations (a Latin square) beyond."""
    if len(bots) <= 4:
        return list(itertools.permutations(bots))
    return [rotate(bots, shift) for shift in range(len(bots))]


def _check_enough(variant: VariantConfig, bots: Sequence[str]) -> None:
    if len(bots) < variant.seats:
        raise ValueError(
            f"variant {variant.id}: {variant.seats} seats need at least {variant.seats} bots, "
            f"the league has {len(bots)}"
        )


def _set_key(bots: Sequence[str]) -> str:
    return ",".join(sorted(bots))


def plan_round_robin(variant: VariantConfig, bots: Sequence[str], seed: int) -> list[PlannedMatch]:
    _check_enough(variant, bots)
    planned = []
    for index, group in enumerate(itertools.combinations(bots, variant.seats)):
        for game in range(variant.games):
            seats = rotate(group, game + index)
            slot = f"{variant.id}|round-robin|{_set_key(group)}|{game}"
            planned.append(PlannedMatch(slot, variant.id, derive_seed(seed, slot), seats))
    return planned


def plan_random(variant: VariantConfig, bots: Sequence[str], seed: int) -> list[PlannedMatch]:
    _check_enough(variant, bots)
    roster = _set_key(bots)
    rng = random.Random(derive_seed(seed, variant.id, "random", roster))
    played: Counter[str] = Counter()
    planned = []
    for game in range(variant.games):
        order = sorted(bots, key=lambda bot: (played[bot], rng.random()))
        chosen = order[: variant.seats]
        rng.shuffle(chosen)
        played.update(chosen)
        slot = f"{variant.id}|random|{roster}|{game}"
        planned.append(PlannedMatch(slot, variant.id, derive_seed(seed, slot), tuple(chosen)))
    return planned


def plan_duplicate(variant: VariantConfig, bots: Sequence[str], seed: int) -> list[PlannedMatch]:
    _check_enough(variant, bots)
    planned = []
    for group in itertools.combinations(bots, variant.seats):
        for game in range(variant.games):
            deal = f"{variant.id}|duplicate|{_set_key(group)}|{game}"
            deal_seed = derive_seed(seed, deal)
            for seating in duplicate_seatings(group):
                slot = f"{deal}|{','.join(seating)}"
                planned.append(PlannedMatch(slot, variant.id, deal_seed, seating, deal))
    return planned


def planned_size(variant: VariantConfig, bots: int) -> int:
    """How many matches the variant's format plans for `bots` bots (without planning
    them): what the schedule-size cap is checked against before anything is planned."""
    sets = math.comb(bots, variant.seats) if bots >= variant.seats else 0
    if variant.format == "round-robin":
        return sets * variant.games
    if variant.format == "duplicate":
        seatings = math.factorial(variant.seats) if variant.seats <= 4 else variant.seats
        return sets * variant.games * seatings
    return variant.games  # random, quality: `games` matches in all


StaticPlanner = Callable[[VariantConfig, Sequence[str], int], list[PlannedMatch]]

STATIC_FORMATS: dict[str, StaticPlanner] = {
    "round-robin": plan_round_robin,
    "random": plan_random,
    "duplicate": plan_duplicate,
}

Quality = Callable[[Sequence[str]], float]
"""TrueSkill match quality of a seating (see referee/league/ratings.py)."""


def plan_quality_batch(
    variant: VariantConfig,
    bots: Sequence[str],
    seed: int,
    quality: Quality,
    scheduled: Mapping[str, int],
    first_game: int,
    size: int,
) -> list[PlannedMatch]:
    """The next batch of the ``quality`` format: the sets with the best match quality.

    ``quality`` rates a set of bots with the ratings after every earlier match (applied
    in schedule order), ``scheduled`` counts the matches each set (by :func:`_set_key`)
    already has, and ``first_game`` numbers the batch's first match within the variant.
    A set's score is its quality divided by one plus its matches so far, so sets that
    have played least are preferred among equals and one set cannot take a whole batch.
    Candidates are every set of ``seats`` bots, or a seeded sample of
    ``MAX_QUALITY_CANDIDATES`` of them when there are more. Ties keep candidate order,
    so the batch is a pure function of its inputs.
    """
    _check_enough(variant, bots)
    size = min(size, variant.games - first_game)
    if size <= 0:
        return []
    if math.comb(len(bots), variant.seats) <= MAX_QUALITY_CANDIDATES:
        candidates = [tuple(g) for g in itertools.combinations(bots, variant.seats)]
    else:
        rng = random.Random(derive_seed(seed, variant.id, "quality", first_game))
        picked = {
            tuple(sorted(rng.sample(list(bots), variant.seats)))
            for _ in range(MAX_QUALITY_CANDIDATES)
        }
        candidates = sorted(picked)
    base = {group: quality(group) for group in candidates}
    counts = Counter({group: scheduled.get(_set_key(group), 0) for group in candidates})
    planned = []
    for game in range(first_game, first_game + size):
        group = max(candidates, key=lambda g: base[g] / (1 + counts[g]))
        seats = rotate(group, counts[group])
        counts[group] += 1
        slot = f"{variant.id}|quality|{game}"
        planned.append(PlannedMatch(slot, variant.id, derive_seed(seed, slot), seats))
    return planned


def set_key(bots: Sequence[str]) -> str:
    """The key of a set of bots (order-free), as used in slots and quality counts."""
    return _set_key(bots)
