"""Run a ladder: a league that never stops, choosing each match when a worker is free.

:class:`LadderRunner` is a :class:`~referee.league.runner.LeagueRunner` whose schedule is
not planned up front. Its executor pulls matches from :meth:`LadderRunner.feed` one at a
time; each is drawn then (referee/league/ladder.py, from the ratings as they stand and the
bots registered now, so a version registered by the arena's check joins at once) and
written to the store *before* it is handed out, with its seed from the league key like any
league match. Results are recorded as leagues record them: one transaction a match,
ratings advanced strictly in schedule order. So a ladder killed at any moment (even
``kill -9``) and started again plays first every match it had scheduled and not
finished, each exactly once, and its ratings equal a replay of its results.

Stopping: :meth:`LadderRunner.stop` (SIGTERM in ``python -m arena.ladder``) draws no more
matches and lets the ones in flight finish; KeyboardInterrupt (Ctrl-C) abandons them,
killing their workers: they stay scheduled and are played first on the next start
(:attr:`LadderRunner.abandoned` names them, from the store).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from referee.league.config import LeagueConfig
from referee.league.executors import Executor, MatchAttempt, RunnerFactory
from referee.league.ladder import LadderDraw, LadderPolicy, is_ladder_slot
from referee.league.runner import LeagueRunner, RatingKeeper, record_outcome
from referee.league.store import LeagueStore, MatchRow
from referee.limits import LOCK_TIMEOUT_S
from referee.spec import BotSpec, MatchSpec

RETRIES = 3  # times this run tries again a match the referee could not finish
RETRY_AFTER_S = 5.0


@dataclass
class LadderSummary:
    """What one run of the ladder did."""

    played: int = 0  # matches finished by this run
    errors: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0


def match_line(match: MatchRow, outcome: MatchAttempt) -> str:
    """A match's log line: ``match arena-000042 6nimmt 1.3 s: bot@1 12 (1), ...``."""
    seconds = outcome.finished_at - outcome.started_at
    if outcome.result is None:
        where = f"match {match.match_id} {match.variant}"
        return f"{where} failed after {seconds:.1f} s: {outcome.error}"
    seats = ", ".join(
        f"{bot} {score} ({rank})"
        for bot, score, rank in zip(
            match.seats, outcome.result.scores, outcome.result.ranks, strict=True
        )
    )
    faults = len(outcome.result.faults)
    tail = f"; {faults} fault{'s' * (faults != 1)}" if faults else ""
    return f"match {match.match_id} {match.variant} {seconds:.1f} s: {seats}{tail}"


def stderr_line(text: str) -> None:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print(f"{stamp} {text}", file=sys.stderr, flush=True)


class LadderRunner(LeagueRunner):
    """Plays a league's variants continuously (see the module docstring)."""

    def __init__(
        self,
        config: LeagueConfig,
        policy: LadderPolicy | None = None,
        executor: Executor | None = None,
        store_path: Path | None = None,
        factory: RunnerFactory | None = None,
        lock_timeout: float = LOCK_TIMEOUT_S,
        log: Callable[[str], None] = stderr_line,
        on_match: Callable[[MatchRow, MatchAttempt], None] | None = None,
    ) -> None:
        super().__init__(config, executor, store_path, None, factory, lock_timeout)
        self.policy = policy or LadderPolicy()
        self.log = log
        self.on_match = on_match
        self._stop = threading.Event()
        self.in_flight: dict[str, MatchRow] = {}  # handed to a worker, not recorded yet
        self._retry: list[tuple[float, MatchRow]] = []
        self._tries: dict[str, int] = {}
        self._turn = 0  # the variant the next draw starts from
        self.abandoned: list[str] = []  # after a Ctrl-C: see _still_scheduled

    def stop(self) -> None:
        """Draw no more matches; the run ends once the ones in flight are recorded."""
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def run(self, limit: int | None = None) -> LadderSummary:  # type: ignore[override]
        """Play until stopped (or until `limit` matches were handed out by this run)."""
        start = time.monotonic()
        summary = LadderSummary()
        with ExitStack() as hold, self.open_to_play(hold) as store:
            keepers = {v.id: RatingKeeper(store, v, self.config) for v in self.config.variants}
            draws = self._draws(store, keepers)
            try:
                with self.executor:
                    feed = self.feed(store, keepers, draws, limit)
                    for outcome in self.executor.run(feed):
                        self._record(store, keepers, outcome, summary)
            except KeyboardInterrupt:
                self.abandoned = self._still_scheduled(store)
                raise
            finally:
                summary.elapsed_s = time.monotonic() - start
        return summary

    def _still_scheduled(self, store: LeagueStore) -> list[str]:
        """The matches this run handed out that the store still holds as scheduled: those
        in flight at a Ctrl-C, one whose result the Ctrl-C stopped from being recorded,
        and failed ones waiting to be tried again. The store says, not :attr:`in_flight`:
        a Ctrl-C can land between a match leaving the workers and its record's commit."""
        scheduled = {match.match_id for match in store.matches(status="scheduled")}
        return sorted(match_id for match_id in self._tries if match_id in scheduled)

    def _draws(self, store: LeagueStore, keepers: dict[str, RatingKeeper]) -> dict[str, LadderDraw]:
        """Each variant's matchmaking, caught up with the store's schedule."""
        draws = {}
        for variant in self.config.variants:
            scheduled = store.matches(variant=variant.id)
            draws[variant.id] = LadderDraw(
                variant,
                self.config.seed,
                self.policy,
                keepers[variant.id].ratings,
                history=(m.seats for m in scheduled),
                drawn=sum(is_ladder_slot(m.slot, variant.id) for m in scheduled),
            )
        return draws

    def feed(
        self,
        store: LeagueStore,
        keepers: dict[str, RatingKeeper],
        draws: dict[str, LadderDraw],
        limit: int | None,
    ) -> Iterator[MatchSpec | None]:
        """The matches to play, each decided when a worker asks for it: first the ones a
        stopped run left scheduled, then new draws. None: nothing to play just now."""
        handed = 0
        bots = store.bot_specs()
        leftovers = store.matches(status="scheduled")
        if leftovers:
            self.log(f"ladder: {len(leftovers)} matches left scheduled by the last run go first")
        for left in leftovers:
            if self.stopping or (limit is not None and handed >= limit):
                return
            handed += 1
            yield self._hand_out(left, bots)
        while not self.stopping and (limit is None or handed < limit):
            match = self._due_retry() or self._draw(store, keepers, draws)
            if match is None:
                yield None
                continue
            if any(key not in bots for key in match.seats):
                bots = store.bot_specs()  # registered since (the arena's check)
            handed += 1
            yield self._hand_out(match, bots)

    def _hand_out(self, match: MatchRow, bots: dict[str, BotSpec]) -> MatchSpec:
        self.in_flight[match.match_id] = match
        self._tries[match.match_id] = self._tries.get(match.match_id, 0) + 1
        return self.match_spec(match, bots)

    def _due_retry(self) -> MatchRow | None:
        now = time.monotonic()
        for index, (when, match) in enumerate(self._retry):
            if when <= now:
                del self._retry[index]
                return match
        return None

    def _draw(
        self,
        store: LeagueStore,
        keepers: dict[str, RatingKeeper],
        draws: dict[str, LadderDraw],
    ) -> MatchRow | None:
        """Draw the next match (variants take turns) and schedule it; None if no variant
        has enough bots."""
        roster = [bot.key for bot in store.active_bots()]
        variants = self.config.variants
        for step in range(len(variants)):
            variant = variants[(self._turn + step) % len(variants)]
            planned = draws[variant.id].next(roster)
            if planned is None:
                continue
            self._turn = (self._turn + step + 1) % len(variants)
            store.schedule(self.config.name, [planned], self._options())
            match = store.match_of_slot(planned.slot)
            assert match is not None, "just scheduled"
            keepers[variant.id].order.insert(0, match)  # pop() takes the oldest first
            return match
        return None

    def _record(
        self,
        store: LeagueStore,
        keepers: dict[str, RatingKeeper],
        outcome: MatchAttempt,
        summary: LadderSummary,
    ) -> None:
        match = self.in_flight.pop(outcome.spec.match_id)
        if outcome.result is None:
            self.log(match_line(match, outcome))
            summary.errors.append(f"{match.match_id}: {outcome.error}")
            if self._tries[match.match_id] < RETRIES and not self.stopping:
                self._retry.append((time.monotonic() + RETRY_AFTER_S, match))
            else:
                self.log(f"ladder: {match.match_id} stays scheduled, for the next start")
            return
        recorded = record_outcome(store, keepers[match.variant], match, outcome)
        self.log(match_line(match, outcome))  # after the record: a Ctrl-C logs no unkept result
        if recorded:
            summary.played += 1
            if self.on_match is not None:
                self.on_match(match, outcome)
