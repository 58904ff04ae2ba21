"""Run a league: schedule, play what is unfinished, record, rate. Resumable at any point.

The schedule is a pure function of the league file and its registered bots (see
:mod:`referee.league.formats`); it is written to the store before any match runs.
Matches then run on an executor in any order; each outcome is recorded in one
transaction together with the rating rows it unlocks: ratings advance strictly in
schedule order, so a match that finishes early waits for the ones before it.
Killed and started again, a league plays only the matches without a result.

Each match is dealt from seeds derived from the league's secret key (kept beside the
store, :mod:`referee.league.keyfile`); workers get those seeds, never the key.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from referee.league.archive import ArchiveError
from referee.league.config import LeagueConfig, VariantConfig
from referee.league.executors import (
    Executor,
    MatchAttempt,
    RefereeRunner,
    RunnerFactory,
    make_executor,
)
from referee.league.formats import (
    STATIC_FORMATS,
    PlannedMatch,
    plan_quality_batch,
    planned_size,
)
from referee.league.keyfile import LeagueKeyError, load_key, record_key_id, recorded_key_id
from referee.league.ratings import RatedMatch, Ratings
from referee.league.run_lock import run_lock
from referee.league.store import LeagueStore, MatchRow, StoreError, StoreLocked
from referee.limits import LOCK_TIMEOUT_S, LimitError, check_schedule_size
from referee.spec import BotSpec, MatchSpec
from sdk.errors import BullringError
from sdk.seeding import match_seeds


class LeagueError(BullringError, RuntimeError):
    """The league cannot run as described (too few bots, a store of another league...)."""


@dataclass
class Progress:
    """What a progress display needs; passed to the callback once the league is ready
    (before this run plays a match) and after every match."""

    done: int
    total: int
    played_now: int  # matches played by this run (not earlier runs)
    errors: int
    elapsed_s: float


@dataclass
class LeagueSummary:
    store: Path
    played: int
    finished: int
    scheduled: int
    errors: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    store_s: float = 0.0  # CPU time recording results (ratings included)
    rating_s: float = 0.0  # CPU time computing ratings
    worker_deaths: list[str] = field(default_factory=list)  # workers killed mid-match


class RatingKeeper:
    """A variant's ratings, advanced in schedule order as results come in."""

    def __init__(self, store: LeagueStore, variant: VariantConfig, league: LeagueConfig) -> None:
        self.variant = variant.id
        self.store = store
        last, current = store.rating_state(variant.id)
        self.ratings = Ratings(league.rating, current)
        self.waiting = {m.seq: m for m in store.rated_matches(variant.id, after_seq=last)}
        self.order: list[MatchRow] = []
        self.refresh()
        self.spent_s = 0.0

    def refresh(self) -> None:
        """Reload the variant's unrated part of the schedule (after scheduling more)."""
        last, _ = self.store.rating_state(self.variant)
        self.order = [m for m in self.store.matches(variant=self.variant) if m.seq > last]
        self.order.reverse()  # pop() gives the next in schedule order

    def add(self, match: MatchRow, ranks: Sequence[int]) -> None:
        self.waiting[match.seq] = RatedMatch(match.seq, match.seats, tuple(ranks))

    def advance(self) -> None:
        """Rate every waiting match whose predecessors are all rated (caller's transaction)."""
        while self.order and self.order[-1].seq in self.waiting:
            match = self.order.pop()
            rated = self.waiting.pop(match.seq)
            start = time.thread_time()
            after = self.ratings.apply(rated.seats, rated.ranks)
            self.spent_s += time.thread_time() - start
            self.store.write_ratings(self.variant, match.seq, match.match_id, after)


def record_outcome(
    store: LeagueStore, keeper: RatingKeeper, match: MatchRow, outcome: MatchAttempt
) -> bool:
    """Record a finished match and the ratings it unlocks in one transaction.

    False when the match already had its result (nothing is written twice).
    """
    assert outcome.result is not None
    with store.transaction():
        if not store.write_result(
            match,
            outcome.result,
            outcome.started_at,
            outcome.finished_at,
            outcome.replay_zlib,
            outcome.digest_zlib,
        ):
            return False
        keeper.add(match, outcome.result.ranks)
        keeper.advance()
    return True


def active_roster(config: LeagueConfig, store_path: Path) -> list[BotSpec]:
    """The bots the league schedules: registered ones then the file's new ones, newest
    version per name, less a name whose newest version is retired, without writing
    anything."""
    known: list[BotSpec] = []
    retired: dict[str, float] = {}
    if store_path.is_file():
        with LeagueStore.open_readonly(store_path) as store:
            known = [b.spec for b in store.bots()]
            retired = store.retired_bots()
    keys = {b.key for b in known}
    latest: dict[str, BotSpec] = {}
    for bot in [*known, *(b for b in config.bots if b.key not in keys)]:
        latest[bot.name] = bot
    # A name whose newest version is retired is scheduled no more (store.active_bots).
    return [bot for bot in latest.values() if bot.key not in retired]


def plan_static(config: LeagueConfig, roster: Sequence[BotSpec]) -> list[PlannedMatch]:
    """Every match of the variants whose format does not depend on results."""
    keys = [bot.key for bot in roster]
    try:
        check_schedule_size(sum(planned_size(v, len(keys)) for v in config.variants))
    except LimitError as error:
        raise LeagueError(f"{config.path or config.name}: {error}") from None
    planned: list[PlannedMatch] = []
    for variant in config.variants:
        if variant.format in STATIC_FORMATS:
            try:
                planned += STATIC_FORMATS[variant.format](variant, keys, config.seed)
            except ValueError as error:
                raise LeagueError(str(error)) from None
        elif len(keys) < variant.seats:
            raise LeagueError(
                f"variant {variant.id}: {variant.seats} seats need at least {variant.seats} "
                f"bots, the league has {len(keys)}"
            )
    return planned


def schedule_changed(meta: Mapping[str, str], config: LeagueConfig) -> bool:
    """Whether a store's `meta` records another schedule than `config` makes (its seed,
    variants, games, seats, format, clock or rating changed); a store not scheduled yet
    records none."""
    digest = config.digest()
    return meta.get("digest", digest) != digest


def check_store(config: LeagueConfig, store_path: Path) -> None:
    """LeagueError if `store_path` holds another league, StoreError if it is not a store
    (nothing is written)."""
    if not store_path.exists():
        return
    with LeagueStore.open_readonly(store_path) as existing:
        meta = existing.meta()
    if schedule_changed(meta, config):
        raise LeagueError(
            f"{store_path} holds league {meta.get('name')!r} scheduled from a different "
            "league file (seed, variants, games, seats, format, clock or rating changed); "
            "use another store path"
        )


def bot_labels(config: LeagueConfig) -> dict[str, str]:
    """Where each bot of the league file is named: ``l.toml: [[bots]] entry 2``."""
    where = config.path or config.name
    return {bot.key: f"{where}: [[bots]] entry {i}" for i, bot in enumerate(config.bots, 1)}


def open_league_store(
    config: LeagueConfig, store_path: Path, lock_timeout: float = LOCK_TIMEOUT_S
) -> LeagueStore:
    """Open the league's store for writing: record the league, register the file's bots
    (StoreLocked if another process keeps the write lock for `lock_timeout` seconds)."""
    check_store(config, store_path)
    store = LeagueStore.open(store_path, lock_timeout)
    try:
        store.init_league(config.name, config.digest(), config.schedule_json(), config.variants)
        store.archive.sweep_staging()
        store.archive_legacy()
        store.register_bots(config.bots, bot_labels(config))
    except StoreLocked:
        store.close()
        raise
    except (StoreError, ArchiveError) as error:
        store.close()
        raise LeagueError(str(error)) from None
    except BaseException:
        store.close()
        raise
    return store


def register_submission(
    config: LeagueConfig, bot: BotSpec, store_path: Path, lock_timeout: float = LOCK_TIMEOUT_S
) -> str:
    """Register a submitted bot in the league's store; say what happened.

    A new version of a known name is a new bot key: the old version keeps its results and
    ratings, and only the newest version of each name is scheduled from then on.
    """
    with open_league_store(config, store_path, lock_timeout) as store:
        known = store.bots()
        try:
            new = store.register_bots([bot])
        except StoreLocked:
            raise
        except StoreError as error:
            raise LeagueError(str(error)) from None
    if not new:
        return f"{bot.key} is already registered in {store_path}"
    older = [b.spec.key for b in known if b.spec.name == bot.name]
    if older:
        return (
            f"registered {bot.key} in {store_path} as a new version of {bot.name} "
            f"({', '.join(older)} keep their history and stop being scheduled)"
        )
    return f"registered {bot.key} in {store_path}; `bullring league run` schedules its matches"


class LeagueRunner:
    """Runs one league into its store (see the module docstring)."""

    def __init__(
        self,
        config: LeagueConfig,
        executor: Executor | None = None,
        store_path: Path | None = None,
        progress: Callable[[Progress], None] | None = None,
        factory: RunnerFactory | None = None,
        lock_timeout: float = LOCK_TIMEOUT_S,
        new_key: bool = False,
    ) -> None:
        self.config = config
        self.new_key = new_key  # replace a lost key (see referee/league/keyfile.py)
        self.key: bytes | None = None  # read by prepare()
        self.store_path = store_path or config.store
        self.lock_timeout = lock_timeout
        # By default the referee runs the bots in the league file's sandbox.
        factory = factory or functools.partial(RefereeRunner, config.sandbox)
        self.executor = executor or make_executor(
            config.executor, config.workers, factory, config.ray_address
        )
        self.progress = progress
        self.variants = {v.id: v for v in config.variants}

    def prepare(self, hold: ExitStack | None = None) -> LeagueStore:
        """Validate against the store, then register bots and schedule (nothing is written
        if the league cannot run). With `hold`, the store's run lock is taken into it
        first (LeagueRunning if another run holds it: referee/league/run_lock.py)."""
        roster = active_roster(self.config, self.store_path)
        planned = plan_static(self.config, roster)
        store = self.open_to_play(hold)
        try:
            store.schedule(self.config.name, planned, self._options())
        except BaseException:
            store.close()
            raise
        return store

    def open_to_play(self, hold: ExitStack | None = None) -> LeagueStore:
        """The store, checked, open for writing, with the file's bots registered, their
        archive verified and the key read; the run lock taken into `hold` first."""
        check_store(self.config, self.store_path)
        if hold is not None:
            hold.enter_context(run_lock(self.store_path))
        try:
            key = load_key(self.store_path, recorded_key_id(self.store_path), self.new_key)
        except LeagueKeyError as error:
            raise LeagueError(str(error)) from None
        store = open_league_store(self.config, self.store_path, self.lock_timeout)
        try:
            try:
                store.verify_archive()  # the league runs the archived copies, as registered
            except ArchiveError as error:
                raise LeagueError(str(error)) from None
            record_key_id(store, key)
            self.key = key
        except BaseException:
            store.close()
            raise
        return store

    def _options(self) -> dict[str, dict[str, str]]:
        return {v.id: dict(v.options) for v in self.config.variants}

    def run(self, limit: int | None = None) -> LeagueSummary:
        """Play every unfinished match (at most `limit` in this run), recording each."""
        start = time.monotonic()
        with ExitStack() as hold, self.prepare(hold) as store:
            keepers = {v.id: RatingKeeper(store, v, self.config) for v in self.config.variants}
            summary = LeagueSummary(self.store_path, 0, 0, 0)
            if self.progress is not None:  # where the league stands before this run plays
                self.progress(Progress(*store.counts(), 0, 0, time.monotonic() - start))
            with self.executor:
                while limit is None or summary.played < limit:
                    pending = store.matches(status="scheduled")
                    if not pending and not self._schedule_quality_batch(store, keepers):
                        break
                    pending = pending or store.matches(status="scheduled")
                    if limit is not None:
                        pending = pending[: limit - summary.played]
                    if not self._play(store, keepers, pending, summary, start):
                        break
            summary.worker_deaths = list(self.executor.deaths)
            summary.finished, summary.scheduled = store.counts()
            summary.rating_s = sum(k.spent_s for k in keepers.values())
            summary.elapsed_s = time.monotonic() - start
            return summary

    def _play(
        self,
        store: LeagueStore,
        keepers: dict[str, RatingKeeper],
        pending: list[MatchRow],
        summary: LeagueSummary,
        start: float,
    ) -> bool:
        """Run `pending`; False when no match of it could finish (stop, do not spin)."""
        by_id = {m.match_id: m for m in pending}
        bots = store.bot_specs()
        specs = [self.match_spec(m, bots) for m in pending]
        finished_any = False
        # Counted once, then kept up to date: counting the store's matches after every
        # match would cost a scan of the whole schedule each time.
        done, total = store.counts()
        for outcome in self.executor.run(specs):
            match = by_id[outcome.spec.match_id]
            if outcome.result is None:
                summary.errors.append(f"{match.match_id}: {outcome.error}")
            else:
                t0 = time.thread_time()
                done += record_outcome(store, keepers[match.variant], match, outcome)
                summary.store_s += time.thread_time() - t0
                summary.played += 1
                finished_any = True
            if self.progress is not None:
                self.progress(
                    Progress(
                        done, total, summary.played, len(summary.errors), time.monotonic() - start
                    )
                )
        return finished_any and not summary.errors

    def match_spec(self, match: MatchRow, bots: dict[str, BotSpec]) -> MatchSpec:
        """What the referee plays for the scheduled `match` (its seeds from the key)."""
        variant = self.variants[match.variant]
        assert self.key is not None, "prepare() reads the league's key"
        return MatchSpec(
            match_id=match.match_id,
            variant=variant.preset,
            options=dict(match.options),
            seed=match.seed,
            bots=tuple(bots[key] for key in match.seats),
            clock=self.config.clock,
            seeds=match_seeds(self.key, self.config.name, match.seed, len(match.seats)),
            single_use=match.deal is not None,  # a duplicate deal: see MatchSpec
        )

    def _schedule_quality_batch(self, store: LeagueStore, keepers: dict[str, RatingKeeper]) -> bool:
        """Schedule the next batch of every quality-format variant; False if none is due."""
        roster = [bot.key for bot in store.active_bots()]
        planned: list[PlannedMatch] = []
        for variant in self.config.variants:
            if variant.format != "quality":
                continue
            counts = store.set_counts(variant.id)
            ratings = keepers[variant.id].ratings
            planned += plan_quality_batch(
                variant,
                roster,
                self.config.seed,
                ratings.quality,
                counts,
                sum(counts.values()),
                self.config.batch,
            )
        if not planned:
            return False
        store.schedule(self.config.name, planned, self._options())
        for keeper in keepers.values():
            keeper.refresh()
        return True
