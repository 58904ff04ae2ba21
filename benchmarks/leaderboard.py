"""Leaderboard build time for a league of 10,000 matches (figures printed, not asserted).

The store is made once and kept in the temp folder (its name holds --matches and
--distinct): `--distinct` matches are really played by stand-in bots
(benchmarks/synthetic_league.py: the real engine, real replays with table snapshots),
then recorded again and again under new match ids, each replay re-compressed with its own
id, through the store's own write API and TrueSkill ratings, up to `--matches`. Then it
times a cold build (a fresh folder of its own), a rebuild into the same folder, and
prints the site's size and the replay data per match (held in each match page). Each
match's digest is stored as a league's worker stores it; `--without-digests` makes a
store from before digests, whose pages are cut from the replays (the older, slower path).

    .venv/bin/python -m benchmarks.leaderboard [--matches 10000] [--distinct 200]
        [--without-digests]

(Run it as a module: as a script, its own name would hide the leaderboard package.)
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import resource
import shutil
import tempfile
import time
import zlib
from collections.abc import Mapping
from pathlib import Path

from benchmarks.synthetic_league import play_synthetic, synthetic_config
from leaderboard.build import build_site
from referee.league.config import LeagueConfig
from referee.league.formats import PlannedMatch
from referee.league.ratings import Ratings
from referee.league.store import LeagueStore
from referee.replay.digest import digest as replay_digest
from referee.replay.digest import digest_text
from referee.spec import MatchSpec

VARIANTS = (("6nimmt", "rounds=1", 4), ("xnimmt", "", 3))
DATA_LINE = re.compile(r'<script type="application/octet-stream" id="replay-data">([^<]*)</script>')
PLACEHOLDER = "@match-id@"  # stands for each row's own match id in the template's replay


def make_store(path: Path, matches: int, distinct: int, digests: bool = True) -> None:
    """A store of `matches` finished matches made of `distinct` really played ones; with
    `digests`, each match's digest is stored as a league's worker stores it (without: a
    store from before digests, published from its replays)."""
    config = synthetic_config(path, name="bench", variants=VARIANTS, games=matches // 2)
    bots = [b.key for b in config.bots]
    templates = []
    for i in range(distinct):
        variant = config.variants[i % len(config.variants)]
        seats = tuple(bots[(i + k) % len(bots)] for k in range(variant.seats))
        seed = 1000 + i
        spec = dataclasses.replace(
            _spec(config, variant.preset, variant.options, seed, seats), match_id=f"t{i}"
        )
        result = play_synthetic(spec)
        assert result.replay is not None
        replay = {**result.replay.to_json(), "match_id": PLACEHOLDER}
        text = json.dumps(replay, separators=(",", ":"))
        digest = digest_text(replay_digest(replay)) if digests else None
        templates.append((variant, seats, seed, result, text, digest))
    with LeagueStore.open(path) as store:
        store.init_league(config.name, config.digest(), config.schedule_json(), config.variants)
        store.register_bots(config.bots)
        planned = [
            PlannedMatch(f"slot{n}", t[0].id, t[2], t[1])
            for n, t in ((n, templates[n % distinct]) for n in range(matches))
        ]
        store.schedule(config.name, planned, {v.id: dict(v.options) for v in config.variants})
        ratings = {v.id: Ratings(config.rating) for v in config.variants}
        rows = store.matches(status="scheduled")
        now = time.time()
        with store.transaction():
            for n, row in enumerate(rows):
                _, _, _, result, text, digest = templates[n % distinct]
                replay_zlib = zlib.compress(text.replace(PLACEHOLDER, row.match_id).encode(), 6)
                digest_zlib = None
                if digest is not None:
                    own = digest.replace(PLACEHOLDER, row.match_id)
                    digest_zlib = zlib.compress(own.encode(), 6)
                result = dataclasses.replace(result, match_id=row.match_id, replay=None)
                store.write_result(row, result, now + n, now + n + 1, replay_zlib, digest_zlib)
                after = ratings[row.variant].apply(row.seats, result.ranks)
                store.write_ratings(row.variant, row.seq, row.match_id, after)


def _spec(
    config: LeagueConfig, preset: str, options: Mapping[str, str], seed: int, seats: tuple[str, ...]
) -> MatchSpec:
    by_key = {b.key: b for b in config.bots}
    return MatchSpec("t", preset, dict(options), seed, tuple(by_key[k] for k in seats))


def cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes (the build's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def replay_data_size(page: Path) -> int:
    """Bytes of replay data (deflated, base64) a match page holds (0 for other pages)."""
    found = DATA_LINE.search(page.read_text(encoding="utf-8"))
    return len(found.group(1)) if found else 0


def folder_size(path: Path) -> tuple[int, int]:
    files = [p for p in path.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, default=200)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument(
        "--without-digests",
        action="store_true",
        help="a store from before match digests: the build cuts the data from each replay",
    )
    args = parser.parse_args()
    work = Path(tempfile.gettempdir()) / "bullring-bench"
    work.mkdir(exist_ok=True)
    kind = "replays" if args.without_digests else "digests"
    store = work / f"leaderboard-{args.matches}-{args.distinct}-{kind}.sqlite"
    if not store.exists():
        started = time.perf_counter()
        make_store(store, args.matches, args.distinct, digests=not args.without_digests)
        print(f"store: {args.matches} matches made in {time.perf_counter() - started:.1f} s")
    site = Path(tempfile.mkdtemp(prefix="site-", dir=work))  # its own: others may run this too
    cpu = cpu_seconds()
    cold = build_site(store, site, workers=args.workers)
    cold_cpu = cpu_seconds() - cpu
    print(f"cold build:  {cold.summary()}")
    warm = build_site(store, site, workers=args.workers)
    print(f"rebuild:     {warm.summary()}")
    files, size = folder_size(site)
    print(
        f"site: {files} files, {size / 1e6:.1f} MB, "
        f"{size / max(1, args.matches) / 1e3:.1f} kB per match"
    )
    data = [replay_data_size(p) for p in (site / "matches").glob("*.html")]
    data = [size for size in data if size]
    print(
        f"replay data: {sum(data) / max(1, len(data)) / 1e3:.2f} kB per match "
        f"(largest {max(data, default=0) / 1e3:.2f} kB; target at most 10 kB), in "
        f"{len(data)} match pages (workers={args.workers or min(4, os.cpu_count() or 1)})"
    )
    print(
        f"cold build of {cold.matches} matches: {cold.seconds:.1f} s wall, "
        f"{cold_cpu:.1f} s CPU (target: at most 10 s wall; CPU of this process and its workers; "
        f"load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    shutil.rmtree(site, ignore_errors=True)


if __name__ == "__main__":
    main()
