"""Publishing a league's site as it grows: the first publish, then publishes after 50 more
matches (figures printed, not asserted; the target: the incremental publish of a league
of 100,000 matches costs about what it costs at 10,000, not ten times more).

For each size the store is made once and kept in the temp folder (benchmarks/leaderboard.py's
`make_store`: a few hundred matches really played by stand-in bots, recorded again under
new ids through the store's write API, with TrueSkill ratings); each run copies it, so a
run starts from the same store. Then: the first publish into a fresh root (every match
page), and three times: 50 more matches played and recorded (:func:`grow`), a publish;
the median of the three.

    .venv/bin/python -m benchmarks.site_publish --matches 10000 100000

:func:`grow` and :func:`schedule`/:func:`finish` are also what tests/leaderboard/test_publish.py
adds matches to a store with (finishing them in any order, as a league's workers do).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import shutil
import statistics
import tempfile
import time
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path

from benchmarks.leaderboard import VARIANTS, make_store
from benchmarks.synthetic_league import play_synthetic, synthetic_config
from leaderboard.publish import publish
from referee.league.config import LeagueConfig
from referee.league.formats import PlannedMatch
from referee.league.ratings import Ratings
from referee.league.store import LeagueStore, MatchRow
from referee.replay.digest import digest as replay_digest
from referee.replay.digest import digest_text
from referee.replay.result import MatchResult
from referee.spec import BotSpec, MatchSpec

DISTINCT = 200
ADDED = 50


def config(store: Path) -> LeagueConfig:
    """The synthetic league of benchmarks/leaderboard.py (its bots, variants, ratings)."""
    return synthetic_config(store, name="bench", variants=VARIANTS, games=1)


def new_store(path: Path) -> None:
    """An empty synthetic league (its variants and bots registered)."""
    league = config(path)
    with LeagueStore.open(path) as store:
        store.init_league(league.name, league.digest(), league.schedule_json(), league.variants)
        store.register_bots(league.bots)


def schedule(path: Path, count: int, seed: int, bots: Sequence[BotSpec] = ()) -> list[int]:
    """Schedule `count` more matches (seeded variants, seats and deals) of the league's
    bots and `bots` (registered first: new versions, say); their seqs."""
    league = config(path)
    rng = random.Random(seed)
    keys = [b.key for b in (*league.bots, *bots)]
    with LeagueStore.open(path) as store:
        store.register_bots(bots)
        first = store.counts()[1]
        planned = []
        for n in range(first, first + count):
            variant = league.variants[rng.randrange(len(league.variants))]
            seats = tuple(rng.sample(keys, variant.seats))
            planned.append(PlannedMatch(f"grow{n}", variant.id, rng.randrange(2**31), seats))
        options = {v.id: dict(v.options) for v in league.variants}
        store.schedule(league.name, planned, options)
        rows = store.matches(status="scheduled")
    return [row.seq for row in rows][-count:]


def finish(path: Path, seqs: Sequence[int], at: float | None = None) -> None:
    """Play the scheduled matches `seqs` with the stand-in bots and record them, one
    transaction each, in that order (finished_at `at`, `at` + 1, ... when given); then
    rate each variant's finished prefix in schedule order, as the league's runner does."""
    league = config(path)
    clock = time.time() if at is None else at
    with LeagueStore.open(path) as store:
        by_key = store.bot_specs()
        rows = {row.seq: row for row in store.matches(status="scheduled")}
        for n, seq in enumerate(seqs):
            row = rows[seq]
            result, replay, digest = _play(league, row, by_key)
            with store.transaction():
                store.write_result(row, result, clock + n, clock + n + 0.5, replay, digest)
                _rate_prefix(store, league, row.variant)


def grow(path: Path, count: int, seed: int) -> None:
    """`count` more matches, scheduled and finished."""
    finish(path, schedule(path, count, seed))


def _play(
    league: LeagueConfig, row: MatchRow, by_key: Mapping[str, BotSpec]
) -> tuple[MatchResult, bytes, bytes]:
    """Play a scheduled match; (its result, its replay and digest as the store keeps them)."""
    variant = next(v for v in league.variants if v.id == row.variant)
    bots = tuple(by_key[key] for key in row.seats)
    spec = MatchSpec(row.match_id, variant.preset, dict(variant.options), row.seed, bots)
    result = play_synthetic(spec)
    assert result.replay is not None
    replay = result.replay.to_json()
    blob = zlib.compress(json.dumps(replay, separators=(",", ":")).encode(), 6)
    digest = zlib.compress(digest_text(replay_digest(replay)).encode(), 6)
    return dataclasses.replace(result, replay=None), blob, digest


def _rate_prefix(store: LeagueStore, league: LeagueConfig, variant: str) -> None:
    last, current = store.rating_state(variant)
    waiting = store.db.execute(
        "SELECT MIN(seq) FROM matches WHERE variant = ? AND status = 'scheduled'", (variant,)
    ).fetchone()[0]
    ratings = Ratings(league.rating, current)
    for match in store.rated_matches(variant, last):
        if waiting is not None and match.seq > waiting:
            break
        match_id = store.db.execute(
            "SELECT match_id FROM matches WHERE seq = ?", (match.seq,)
        ).fetchone()[0]
        store.write_ratings(variant, match.seq, match_id, ratings.apply(match.seats, match.ranks))


def cached_store(matches: int) -> Path:
    """The synthetic store of `matches` matches, made once and kept in the temp folder."""
    work = Path(tempfile.gettempdir()) / "bullring-bench"
    work.mkdir(exist_ok=True)
    store = work / f"site-publish-{matches}-{DISTINCT}.sqlite"
    if not store.exists():
        started = time.perf_counter()
        partial = store.with_suffix(".making")
        partial.unlink(missing_ok=True)
        make_store(partial, matches, min(DISTINCT, matches))
        partial.rename(store)
        print(f"store: {matches:,} matches made in {time.perf_counter() - started:.0f} s")
    return store


def measure(matches: int, workers: int, rounds: int) -> None:
    """Print one size's figures (see the module's docstring)."""
    base = cached_store(matches)
    work = Path(tempfile.mkdtemp(prefix="site-publish-", dir=base.parent))
    try:
        store = work / "league.sqlite"
        shutil.copyfile(base, store)
        root = work / "root"
        first = publish(store, root, workers=workers)
        print(
            f"{matches:>7,} matches: first publish {first.seconds:7.1f} s, "
            f"{first.files:,} files written"
        )
        times, written = [], []
        for round_number in range(rounds):
            grow(store, ADDED, seed=round_number)
            report = publish(store, root, workers=workers)
            assert report.new_matches == ADDED, report
            times.append(report.seconds)
            written.append(report.files)
        print(
            f"{matches:>7,} matches: +{ADDED} matches, publish {statistics.median(times):.2f} s "
            f"(median of {rounds}: {', '.join(f'{t:.2f}' for t in times)}), "
            f"{statistics.median(written):,.0f} files written; load average "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for matches in args.matches:
        measure(matches, args.workers, args.rounds)


if __name__ == "__main__":
    main()
