"""The match runner: one game between bot processes over gRPC, with clocks and faults.

``await play_match(spec)`` (or ``run_match(spec)``) deals the game, sets up every seat
(lease a process, wait for SERVING, Hello, StartMatch, all within the setup limit), then
asks the engine's pending seats for their decisions (simultaneous picks concurrently),
holding each to its deadline and time bank, and ends with EndMatch to every live seat.

Faults never stop a match: the seat gets the fallback (the first legal option in
canonical order) and the fault is recorded; after ``ClockSpec.max_faults`` faults, at once
on CRASH, or on any setup fault, the seat is forfeited: it is auto-played with the
fallback to the end and never called again. See docs/referee.md.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import grpc
import grpc.aio

from referee.process import BotLease, BotPool, BotStartError, channel_options
from referee.replay import ReplayBuilder
from referee.spec import BotSpec, ClockSpec, Fault, FaultKind, MatchResult, MatchSpec
from sdk import codec
from sdk.game import GameState, Option, new_game, parse_variant
from sdk.game.variants import check_players
from sdk.game.views import View
from sdk.match import MatchInfo, MatchOutcome
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.protocol.bullring.v1 import bot_pb2_grpc as pb_grpc
from sdk.runtime import BOT_SERVICE

REFEREE_NAME = "bullring-referee/1"
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
END_MATCH_TIMEOUT_S = 2.0
DECIDE_METHOD = f"/{BOT_SERVICE}/Decide"
DECIDE_STREAM_METHOD = f"/{BOT_SERVICE}/DecideStream"
# Codes a call (or a decision stream) fails with when the bot's connection is lost: the
# referee then waits briefly to tell a crashed process from a cut connection. INTERNAL is
# one: a stream whose process dies may fail with "Internal error from Core".
LOST_CONNECTION_CODES = (
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.INTERNAL,
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
    """The referee's side of one seat: its connection, clock and faults."""

    index: int
    spec: BotSpec
    bank_ms: float
    lease: BotLease | None = None
    channel: grpc.aio.Channel | None = None
    stub: pb_grpc.BotAsyncStub | None = None
    # Decide taking the request already encoded (codec.decide_request_bytes).
    decide_call: grpc.aio.UnaryUnaryMultiCallable[bytes, pb.DecideReply] | None = None
    # DecideStream, for a process of the pool whose Hello offers it; the open stream.
    decide_stream_call: grpc.aio.StreamStreamMultiCallable[bytes, pb.DecideReply] | None = None
    stream: grpc.aio.StreamStreamCall[bytes, pb.DecideReply] | None = None
    faults: list[Fault] = field(default_factory=list)
    forfeited: bool = False
    decisions: int = 0
    discard: bool = False
    history_deltas: bool = False  # the bot keeps its history: send only new events
    history_sent: int = 0  # history events the bot has acknowledged (answered a Decide)


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
        if self.observer:
            self.observer.on_end(result)
        return result

    async def step(self) -> None:
        """Ask every pending seat (concurrently), then apply the choices in seat order."""
        state = self.state
        asks = []
        for seat_no in state.pending():
            view: View = state.view(seat_no)  # type: ignore[assignment]
            options = tuple(state.legal_options(seat_no))
            asks.append(self.decide(self.seats[seat_no], view, options))
        # One pending seat (a turn-based game) needs no task of its own.
        records = [await asks[0]] if len(asks) == 1 else await asyncio.gather(*asks)
        for r in records:
            self.replay.play(state, r.seat, r.view, r.options, r.choice, r.ms, r.fault, r.auto)
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
        """One Decide call: (choice, ms taken, fault or None)."""
        clock = self.clock
        bank = int(seat.bank_ms)
        history_len = len(view.header.history)
        offset = min(seat.history_sent, history_len) if seat.history_deltas else 0
        request = codec.decide_request_bytes(
            self.spec.match_id,
            seat.index,
            seat.decisions,
            view,
            options,
            clock.decision_ms if clock.enabled else 0,
            bank if clock.enabled else 0,
            offset,
        )
        timeout = (clock.decision_ms + bank) / 1000.0 if clock.enabled else None
        assert seat.decide_call is not None
        t0 = time.perf_counter()
        if seat.decide_stream_call is not None:
            reply, error = await self.exchange(seat, request, timeout)
        else:
            try:
                reply, error = await seat.decide_call(request, timeout=timeout), None
            except grpc.aio.AioRpcError as exc:
                reply, error = None, exc
        ms = (time.perf_counter() - t0) * 1000.0
        if clock.enabled:
            seat.bank_ms = max(0.0, seat.bank_ms - max(0.0, ms - clock.decision_ms))
        if error is not None:
            kind, detail = await self.classify(seat, error)
            if kind == FaultKind.TIMEOUT:
                seat.bank_ms = 0.0
            return FALLBACK_INDEX, ms, Fault(seat.index, kind, n, detail)
        assert reply is not None
        seat.history_sent = history_len
        if not reply.HasField("option_index"):
            return FALLBACK_INDEX, ms, Fault(seat.index, FaultKind.PROTOCOL, n, "no option_index")
        index = reply.option_index
        if index >= len(options):
            detail = f"option_index {index} not offered ({len(options)} options)"
            return FALLBACK_INDEX, ms, Fault(seat.index, FaultKind.ILLEGAL, n, detail)
        return index, ms, None

    async def exchange(
        self, seat: Seat, request: bytes, timeout: float | None
    ) -> tuple[pb.DecideReply | None, grpc.aio.AioRpcError | None]:
        """One decision on the seat's stream, opened on first use. Any failure (a timeout
        too) cancels the stream, so a late or broken reply never meets a later decision:
        the next decision opens a new one."""
        if seat.stream is None:
            assert seat.decide_stream_call is not None
            seat.stream = seat.decide_stream_call(None)
        stream = seat.stream

        async def round_trip() -> object:
            await stream.write(request)
            return await stream.read()

        error: grpc.aio.AioRpcError
        try:
            reply = await asyncio.wait_for(round_trip(), timeout)  # the write counts too
        except TimeoutError:
            error = _status_error(grpc.StatusCode.DEADLINE_EXCEEDED, "no reply in time")
        except grpc.aio.AioRpcError as exc:
            error = exc
        except asyncio.InvalidStateError:  # the bot had already ended the stream
            error = await _stream_end(stream)
        else:
            if isinstance(reply, pb.DecideReply):
                return reply, None
            error = await _stream_end(stream)  # read the end of the stream (EOF)
        stream.cancel()
        seat.stream = None
        return None, error

    async def classify(self, seat: Seat, error: grpc.aio.AioRpcError) -> tuple[FaultKind, str]:
        """The fault kind of a failed call, and a one-line detail."""
        code = error.code()
        detail = f"{code.name}: {error.details()}"
        process = seat.lease.process if seat.lease else None
        if code == grpc.StatusCode.DEADLINE_EXCEEDED:
            return FaultKind.TIMEOUT, f"no answer within {self.clock.decision_ms} ms + time bank"
        if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
            return FaultKind.PROTOCOL, f"oversized reply ({detail})"
        if code in LOST_CONNECTION_CODES:
            # A dying process fails the call before it is reaped: give it a moment.
            if process is not None and await process.wait_exit(0.25):
                kind, why = process.exit_fault()
                return kind, f"{why} ({detail})"
            if code == grpc.StatusCode.UNAVAILABLE:
                return FaultKind.UNAVAILABLE, detail
        return FaultKind.PROTOCOL, f"error status {detail}"

    def record_fault(self, seat: Seat, fault: Fault) -> None:
        seat.faults.append(fault)
        self.faults.append(fault)
        if fault.kind in DISCARD_KINDS:
            seat.discard = True
        if fault.decision < 0:
            self.replay.setup_fault(fault.to_json())
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
            self.record_fault(seat, Fault(seat.index, exc.kind, -1, exc.detail))
            return
        process = seat.lease.process
        if process is not None:  # a pooled process: its channel and Hello are kept
            seat.channel = process.channel()
        else:  # an endpoint: a channel of this match's own, and a Hello every match
            seat.channel = grpc.aio.insecure_channel(seat.lease.address, options=channel_options())
        seat.stub = pb_grpc.BotStub(seat.channel)
        seat.decide_call = seat.channel.unary_unary(
            DECIDE_METHOD, request_serializer=None, response_deserializer=pb.DecideReply.FromString
        )

        def left() -> float | None:
            return max(0.001, end - time.monotonic()) if self.clock.enabled else None

        try:
            hello = process.hello if process is not None else None
            if hello is None:
                hello = await seat.stub.Hello(
                    pb.HelloRequest(protocol_version=codec.PROTOCOL_VERSION, referee=REFEREE_NAME),
                    timeout=left(),
                )
                if process is not None:
                    process.hello = hello
            if hello.protocol_version != codec.PROTOCOL_VERSION:
                fault = Fault(
                    seat.index,
                    FaultKind.PROTOCOL,
                    -1,
                    f"protocol version {hello.protocol_version}, "
                    f"referee speaks {codec.PROTOCOL_VERSION}",
                )
                self.record_fault(seat, fault)
                return
            seat.history_deltas = hello.history_deltas
            if hello.decide_stream and process is not None:  # (an endpoint gets calls)
                seat.decide_stream_call = seat.channel.stream_stream(
                    DECIDE_STREAM_METHOD,
                    request_serializer=None,
                    response_deserializer=pb.DecideReply.FromString,
                )
            await seat.stub.StartMatch(
                codec.match_info_to_proto(self.match_info(seat.index)), timeout=left()
            )
        except grpc.aio.AioRpcError as exc:
            kind, detail = await self.classify(seat, exc)
            self.record_fault(seat, Fault(seat.index, kind, -1, f"setup: {detail}"))

    def match_info(self, seat: int) -> MatchInfo:
        clock = self.clock
        return MatchInfo(
            match_id=self.spec.match_id,
            variant=self.variant.preset.name,
            options=dict(self.variant.options),
            seat=seat,
            players=len(self.seats),
            player_names=tuple(b.name for b in self.spec.bots),
            decision_ms=clock.decision_ms if clock.enabled else 0,
            time_bank_ms=clock.time_bank_ms if clock.enabled else 0,
            setup_ms=clock.setup_ms,
            seed_hint=self.spec.seed_hint(seat),
        )

    async def end_match(self, seat: Seat, result: MatchResult) -> None:
        """EndMatch to a live seat; its failures are not faults, but the process is dropped."""
        if seat.forfeited or seat.stub is None:
            return
        outcome = MatchOutcome(
            scores=result.scores,
            ranks=result.ranks,
            faults=len(seat.faults),
            forfeited=seat.forfeited,
        )
        try:
            await seat.stub.EndMatch(
                codec.outcome_to_proto(self.spec.match_id, seat.index, outcome),
                timeout=END_MATCH_TIMEOUT_S,
            )
        except grpc.aio.AioRpcError:
            seat.discard = True

    async def close(self, seat: Seat) -> None:
        if seat.stream is not None:
            seat.stream.cancel()
            seat.stream = None
        if seat.channel is not None:
            if seat.lease is not None and seat.lease.process is None:  # an endpoint's own
                await seat.channel.close(None)
            seat.channel = None
        if seat.lease is not None:
            lease, seat.lease = seat.lease, None
            await self.pool.release(lease, discard=seat.discard or seat.forfeited)

    def result(self, duration_s: float) -> MatchResult:
        forfeited = [s.forfeited for s in self.seats]
        return self.replay.match_result(
            self.state, self.faults, forfeited, self.decision_count, duration_s
        )


def _status_error(code: grpc.StatusCode, details: str) -> grpc.aio.AioRpcError:
    """A failed call's error, for a decision stream's failures that raise none."""
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details, None)


async def _stream_end(
    stream: grpc.aio.StreamStreamCall[bytes, pb.DecideReply],
) -> grpc.aio.AioRpcError:
    """The error of a decision stream the bot ended: its status, or UNKNOWN if it ended
    the stream without an error (a bot must answer every request)."""
    code = await stream.code()
    if code == grpc.StatusCode.OK:
        return _status_error(grpc.StatusCode.UNKNOWN, "the bot ended its decision stream")
    return _status_error(code, await stream.details())


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
