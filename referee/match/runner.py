"""The match runner: the game loop and the clocks of one game between bots.

``await play_match(spec)`` (or ``run_match(spec)``) deals the game, sets up every seat
(lease a process, wait for SERVING, Hello, StartMatch, all within the setup limit), then
asks the engine's pending seats for their decisions (simultaneous picks concurrently),
holding each to its deadline and time bank, applies the choices in seat order, and ends
with EndMatch to every live seat. Talking to a bot (the calls, the decision stream, their
deadlines and the kind of a failure) is :mod:`referee.bots.client`; the replay is recorded
by :class:`referee.replay.files.ReplayBuilder`.

Faults never stop a match: the seat gets the fallback (the first legal option in
canonical order) and the fault is recorded; after ``ClockSpec.max_faults`` faults, at once
on CRASH, or on any setup fault, the seat is forfeited: it is auto-played with the
fallback to the end and never called again, and it ranks below every seat that was not
forfeited (whatever its score). See docs/referee.md.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from referee.bots.client import SETUP, BotClient, protocol_mismatch
from referee.bots.process import BotLease, BotPool, BotStartError
from referee.faults import Fault, FaultKind, LogTail
from referee.match.encoder import MatchEncoder
from referee.replay.record import ReplayBuilder
from referee.replay.result import MatchResult
from referee.spec import BotSpec, ClockSpec, MatchSpec
from sdk.game import GameState, Option, driver, new_game, parse_variant
from sdk.game.variants import check_players
from sdk.game.views import View
from sdk.match import MatchInfo, MatchOutcome
from sdk.wire import codec

FALLBACK_INDEX = 0  # the fallback option: the first legal option in canonical order
# Faults after which a pooled process is not reused (ILLEGAL is a bad choice, not a bad
# process).
DISCARD_KINDS = frozenset(
    {
        FaultKind.CRASH,
        FaultKind.TIMEOUT,
        FaultKind.PROTOCOL,
        FaultKind.UNAVAILABLE,
        FaultKind.RESOURCE,
    }
)


@dataclass(frozen=True)
class DecisionRecord:
    """One decision as the referee saw it (what observers and the replay get)."""

    n: int  # index over the whole match
    seat: int
    view: View
    options: tuple[Option, ...]
    choice: int
    ms: float  # wall time the seat took (0 when auto-played)
    fault: Fault | None
    auto: bool  # auto-played (seat forfeited): no call was made

    @property
    def option(self) -> Option:
        return self.options[self.choice]


class MatchObserver(Protocol):
    """Follows a match as it is played (the CLI's trace)."""

    def on_start(self, state: GameState, names: Sequence[str]) -> None: ...

    def on_step(self, state: GameState, records: Sequence[DecisionRecord]) -> None: ...

    def on_fault(self, fault: Fault) -> None: ...

    def on_end(self, result: MatchResult) -> None: ...


@dataclass
class Seat:
    """The referee's side of one seat: its client, clock, faults and history accounting."""

    index: int
    spec: BotSpec
    bank_ms: float
    lease: BotLease | None = None
    client: BotClient | None = None
    faults: list[Fault] = field(default_factory=list)
    forfeited: bool = False
    decisions: int = 0
    discard: bool = False
    history_deltas: bool = False  # the bot keeps its history: send only new events
    history_sent: int = 0  # history events the bot has acknowledged (answered a Decide)
    log_start: int | None = None  # its process's output count when the match began
    log: LogTail | None = None  # what its process printed during the match (its end)


class MatchRunner:
    """Runs one match; use :func:`play_match`."""

    def __init__(self, spec: MatchSpec, pool: BotPool, observer: MatchObserver | None) -> None:
        variant = parse_variant(spec.variant, spec.options)
        check_players(variant.preset, len(spec.bots))
        self.spec = spec
        self.variant = variant
        self.clock: ClockSpec = spec.clock
        self.pool = pool
        self.observer = observer
        self.state = new_game(variant.preset.name, len(spec.bots), spec.deal_seed, variant.options)
        bank = float(spec.clock.time_bank_ms)
        self.seats = [Seat(i, bot, bank) for i, bot in enumerate(spec.bots)]
        self.faults: list[Fault] = []
        self.decision_count = 0
        self.replay = ReplayBuilder.for_match(spec, variant, self.state)
        self.encoder = MatchEncoder()  # this match's Decide requests, its caches with it

    # --- the match ---------------------------------------------------------------------

    async def run(self) -> MatchResult:
        started = time.monotonic()
        try:
            if self.observer:
                self.observer.on_start(self.state, [b.name for b in self.spec.bots])
            await asyncio.gather(*(self.setup(seat) for seat in self.seats))
            while not self.state.is_terminal():
                await self.step()
            result = self.result(time.monotonic() - started)
            await asyncio.gather(*(self.end_match(seat, result) for seat in self.seats))
        finally:
            await asyncio.gather(*(self.close(seat) for seat in self.seats))
        logs = tuple(seat.log for seat in self.seats if seat.log is not None)
        if logs:
            result = replace(result, logs=logs)
        if self.observer:
            self.observer.on_end(result)
        return result

    async def step(self) -> None:
        """Ask every pending seat (concurrently), then apply the choices in seat order
        (sdk.game.driver), recording each decision and the table after each choice."""
        state = self.state
        step = driver.asks(state)
        asks = [self.decide(self.seats[a.seat], a.view, a.options) for a in step]
        # One pending seat (a turn-based game) needs no task of its own.
        records = [await asks[0]] if len(asks) == 1 else await asyncio.gather(*asks)
        for r in records:
            self.replay.decision(r.seat, r.view, r.options, r.choice, r.ms, r.fault, r.auto)
        choices = [r.choice for r in records]
        driver.apply_choices(state, step, choices, lambda *_: self.replay.snapshot(state))
        if self.observer:
            self.observer.on_step(state, records)

    async def decide(self, seat: Seat, view: View, options: tuple[Option, ...]) -> DecisionRecord:
        n = self.decision_count
        self.decision_count += 1
        choice, ms, fault, auto = FALLBACK_INDEX, 0.0, None, True
        if not seat.forfeited:
            auto = False
            choice, ms, fault = await self.ask(seat, view, options, n)
            if fault is not None:
                self.record_fault(seat, fault)
                choice = FALLBACK_INDEX
        seat.decisions += 1
        return DecisionRecord(n, seat.index, view, options, choice, ms, fault, auto)

    async def ask(
        self, seat: Seat, view: View, options: tuple[Option, ...], n: int
    ) -> tuple[int, float, Fault | None]:
        """One decision of a live seat, on its clock: (choice, ms taken, fault or None)."""
        clock = self.clock
        clocked = self.spec.clocked(seat.index)
        bank = int(seat.bank_ms)
        history_len = len(view.header.history)
        offset = min(seat.history_sent, history_len) if seat.history_deltas else 0
        request = self.encoder.decide_request(
            self.spec.match_id,
            seat.index,
            seat.decisions,
            view,
            options,
            clock.decision_ms if clocked else 0,
            bank if clocked else 0,
            offset,
        )
        timeout = (clock.decision_ms + bank) / 1000.0 if clocked else None
        assert seat.client is not None
        answer = await seat.client.decide(request, seat.decisions, n, timeout)
        ms, choice = answer.ms, answer.choice
        if clocked:
            seat.bank_ms = max(0.0, seat.bank_ms - max(0.0, ms - clock.decision_ms))
        if isinstance(choice, Fault):
            if choice.kind == FaultKind.TIMEOUT:
                seat.bank_ms = 0.0
            return FALLBACK_INDEX, ms, choice
        seat.history_sent = history_len  # the bot answered: it has these events
        if choice >= len(options):
            detail = f"option_index {choice} not offered ({len(options)} options)"
            return FALLBACK_INDEX, ms, Fault(seat.index, FaultKind.ILLEGAL, n, detail)
        return choice, ms, None

    def record_fault(self, seat: Seat, fault: Fault) -> None:
        seat.faults.append(fault)
        self.faults.append(fault)
        if fault.kind in DISCARD_KINDS:
            seat.discard = True
        if fault.decision < 0:
            self.replay.setup_fault(fault)
        if (
            fault.decision < 0
            or fault.kind in (FaultKind.CRASH, FaultKind.RESOURCE)
            or len(seat.faults) >= self.clock.max_faults
        ):
            seat.forfeited = True
        if self.observer:
            self.observer.on_fault(fault)

    # --- setup and teardown ------------------------------------------------------------

    async def setup(self, seat: Seat) -> None:
        """Lease, Hello and StartMatch within the setup limit; a failure forfeits the seat."""
        limit_s = self.clock.setup_ms / 1000.0
        end = time.monotonic() + limit_s
        try:
            seat.lease = await self.pool.lease(seat.spec, limit_s)
        except BotStartError as exc:
            self.record_fault(seat, Fault(seat.index, exc.kind, SETUP, exc.detail, exc.output))
            if exc.output:
                output = exc.output.encode("utf-8", "replace")
                seat.log = LogTail(seat.index, output, len(output))
            return
        process = seat.lease.process
        if process is not None:
            process.seat = seat.index  # (what its output echo is prefixed with)
            # A new process's start-up output belongs to this match; a pooled one's
            # output from its earlier matches does not.
            seat.log_start = 0 if seat.lease.fresh else await process.log_mark()
        seat.client = client = BotClient(seat.index, seat.lease)

        def left() -> float | None:
            return max(0.001, end - time.monotonic()) if self.clock.enabled else None

        hello = await client.hello(left())
        if isinstance(hello, Fault):
            self.record_fault(seat, hello)
            return
        mismatch = protocol_mismatch(hello)
        if mismatch is not None:
            self.record_fault(seat, Fault(seat.index, FaultKind.PROTOCOL, SETUP, mismatch))
            return
        seat.history_deltas = hello.history_deltas
        request = codec.match_info_to_proto(self.match_info(seat.index))
        fault = await client.start_match(request, left())
        if fault is not None:
            self.record_fault(seat, fault)

    def match_info(self, seat: int) -> MatchInfo:
        clock = self.clock
        clocked = self.spec.clocked(seat)
        return MatchInfo(
            match_id=self.spec.match_id,
            variant=self.variant.preset.name,
            options=dict(self.variant.options),
            seat=seat,
            players=len(self.seats),
            player_names=tuple(b.name for b in self.spec.bots),
            decision_ms=clock.decision_ms if clocked else 0,
            time_bank_ms=clock.time_bank_ms if clocked else 0,
            setup_ms=clock.setup_ms,
            seed_hint=self.spec.seed_hint(seat),
        )

    async def end_match(self, seat: Seat, result: MatchResult) -> None:
        """EndMatch to a live seat; its failures are not faults, but the process is dropped."""
        if seat.forfeited or seat.client is None:
            return
        outcome = MatchOutcome(
            scores=result.scores,
            ranks=result.ranks,
            faults=len(seat.faults),
            forfeited=seat.forfeited,
        )
        request = codec.outcome_to_proto(self.spec.match_id, seat.index, outcome)
        if not await seat.client.end_match(request):
            seat.discard = True

    async def close(self, seat: Seat) -> None:
        if seat.client is not None:
            client, seat.client = seat.client, None
            await client.close()
        if seat.lease is not None:
            lease, seat.lease = seat.lease, None
            if lease.process is not None and seat.log_start is not None:
                seat.log = await lease.process.log_since(seat.index, seat.log_start)
            discard = seat.discard or seat.forfeited or self.spec.single_use
            await self.pool.release(lease, discard=discard)

    def result(self, duration_s: float) -> MatchResult:
        forfeited = [s.forfeited for s in self.seats]
        return self.replay.match_result(
            self.state, self.faults, forfeited, self.decision_count, duration_s
        )


async def play_match(
    spec: MatchSpec, pool: BotPool | None = None, observer: MatchObserver | None = None
) -> MatchResult:
    """Play one match. Without a pool, the bots' processes are started for this match
    and are all gone when it returns (or raises). RulesError for a bad variant or player
    count, before any process starts."""
    runner = MatchRunner(spec, pool or BotPool(), observer)
    if pool is not None:
        return await runner.run()
    try:
        return await runner.run()
    finally:
        await runner.pool.close()


def run_match(
    spec: MatchSpec, pool: BotPool | None = None, observer: MatchObserver | None = None
) -> MatchResult:
    """:func:`play_match` from synchronous code. A pool holds no event-loop state, so the
    same pool can serve several ``run_match`` calls (each runs its own loop)."""
    return asyncio.run(play_match(spec, pool, observer))


def new_match_id() -> str:
    return uuid.uuid4().hex[:12]
