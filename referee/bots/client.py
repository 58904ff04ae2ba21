"""The referee's side of the conversation with one bot: Hello, StartMatch, Decide and
EndMatch, whichever way they travel (a call each, a decision stream or the process's Play
stream: :mod:`referee.bots.transport`).

A :class:`BotClient` speaks for one seat of one match, over the channel of the process
(or endpoint) leased to it. Each method returns what the bot answered, or a typed
:class:`Fault`; it never raises for anything a bot sends, and it records nothing: the
match runner keeps the clocks, counts the faults and writes the replay.

What a bot cannot do to the referee through it:

- **Stall it.** Every call and every read of a stream has a deadline (the one the caller
  gives; EndMatch its own), and waiting for the status of a stream that failed is bounded
  by :data:`~referee.bots.transport.STREAM_END_GRACE_S`. Telling a crashed process from a
  cut connection waits at most :data:`CRASH_WAIT_S`.
- **Crash it with a reply.** Replies arrive as bytes and are decoded here: an undecodable
  reply (garbage, or protobuf nested deeper than the decoder's limit) is a PROTOCOL fault;
  a reply over the channel's receive limit (``referee.bots.process.MAX_REPLY_BYTES``, also
  after decompression) fails in gRPC before it is buffered, and is a PROTOCOL fault too.
- **Make a reply count twice.** On a stream, every reply must carry the ``decision_index``
  of the request it answers (one request is outstanding at a time): a reply to another
  request (a second reply to an earlier one, say) is a PROTOCOL fault, and any failure
  cancels the stream, so nothing a bot sent for one decision can meet a later one.
- **Inject text.** The status details a bot sends are cut to
  :data:`~referee.bots.transport.DETAIL_CHARS` and made one printable line before they go
  into a fault.

Classification of a failed call: the deadline passed (TIMEOUT); the process died
(``BotProcess.exit_fault()``: CRASH, or RESOURCE for a sandbox limit); the connection was
refused or cut while the process lives (UNAVAILABLE); an error status whose details
carry the bot's exception (:mod:`sdk.wire.error_status`, read as untrusted: bounded and
cleaned) is EXCEPTION, with the bot's traceback; anything else, an oversized reply and
any other error status included, is PROTOCOL.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import grpc
import grpc.aio

from referee.bots.process import BotLease, BotProcess, channel_options
from referee.bots.transport import (
    Calls,
    DecisionStream,
    ExchangeFailure,
    PlayStream,
    Transport,
    decode,
    one_line,
)
from referee.faults import Fault, FaultKind
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire import codec
from sdk.wire.service import BOT_SERVICE

REFEREE_NAME = "bullring-referee/1"
END_MATCH_TIMEOUT_S = 2.0
# How long a failed call waits for the bot's process to exit, to tell a crash from a cut
# connection (a dying process fails its calls before it is reaped).
CRASH_WAIT_S = 0.25
SETUP = -1  # the decision index of a setup fault

# Codes a call (or a decision stream) fails with when the bot's connection is lost: the
# client then waits briefly to tell a crashed process from a cut connection. INTERNAL is
# one: a stream whose process dies may fail with "Internal error from Core".
LOST_CONNECTION_CODES = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.INTERNAL,
    }
)


def protocol_mismatch(hello: pb.HelloReply) -> str | None:
    """Why a Hello reply's protocol version is not the referee's, or None."""
    if hello.protocol_version == codec.PROTOCOL_VERSION:
        return None
    return f"protocol version {hello.protocol_version}, referee speaks {codec.PROTOCOL_VERSION}"


@dataclass(frozen=True, slots=True)
class Answer:
    """What one Decide came to: the option index the bot sent (not yet checked against
    the options offered) or the fault, and the time the exchange took in milliseconds
    (measured around the transport alone, what the clock charges)."""

    choice: int | Fault
    ms: float


class BotClient:
    """Talks to the bot leased to one seat (see the module docstring).

    A pooled process keeps its channel and its Hello across matches (``process.hello``);
    an endpoint gets a channel of this client's own (closed by :meth:`close`) and a Hello
    every match. The Hello picks the transport: when it offers ``Play`` and the bot is a
    process the referee started, StartMatch, the decisions and EndMatch all travel on the
    process's Play stream (kept across its leases, ``process.play_stream``); else, when it
    offers ``DecideStream``, the decisions travel on one stream per match; otherwise, and
    until the Hello, each request is a call of its own.
    """

    def __init__(self, seat: int, lease: BotLease) -> None:
        self.seat = seat
        self.process: BotProcess | None = lease.process
        if self.process is not None:
            self.channel = self.process.channel()
        else:
            self.channel = grpc.aio.insecure_channel(lease.address, options=channel_options())
        self._own_channel = self.process is None
        self._hello: grpc.aio.UnaryUnaryMultiCallable[pb.HelloRequest, bytes] = (
            self.channel.unary_unary(f"/{BOT_SERVICE}/Hello", _serialize_hello, None)
        )
        self.transport: Transport = Calls(self.channel)

    # --- setup ---------------------------------------------------------------------------

    async def hello(
        self, timeout_s: float | None, referee: str = REFEREE_NAME
    ) -> pb.HelloReply | Fault:
        """The bot's Hello (a pooled process's kept one, if it has answered before)."""
        process = self.process
        reply = process.hello if process is not None else None
        if reply is None:
            request = pb.HelloRequest(protocol_version=codec.PROTOCOL_VERSION, referee=referee)
            try:
                data = await self._hello(request, timeout=timeout_s)
            except grpc.aio.AioRpcError as exc:
                failure = ExchangeFailure.of(exc)
                return await self._fault(failure, SETUP, timeout_s, "setup: Hello: ")
            decoded = decode(pb.HelloReply, data)
            if isinstance(decoded, str):
                return Fault(self.seat, FaultKind.PROTOCOL, SETUP, f"setup: Hello: {decoded}")
            reply = decoded
            if process is not None:
                process.hello = reply
        if process is not None and reply.play_stream:  # (an endpoint gets calls)
            self.transport = PlayStream(self.channel, process)
        elif process is not None and reply.decide_stream:
            self.transport = DecisionStream(self.channel)
        return reply

    async def start_match(
        self, request: pb.StartMatchRequest, timeout_s: float | None
    ) -> Fault | None:
        """StartMatch; None when the bot accepted it."""
        try:
            decoded = await self.transport.start_match(request, timeout_s)
        except ExchangeFailure as failure:
            return await self._fault(failure, SETUP, timeout_s, "setup: StartMatch: ")
        if isinstance(decoded, str):
            self.transport.drop()
            return Fault(self.seat, FaultKind.PROTOCOL, SETUP, f"setup: StartMatch: {decoded}")
        return None

    # --- decisions -----------------------------------------------------------------------

    async def decide(
        self, request: bytes, decision_index: int, n: int, timeout_s: float | None
    ) -> Answer:
        """One decision: `request` is the encoded DecideRequest whose ``decision_index``
        is `decision_index`; `n` numbers the decision in the match (for the fault)."""
        transport = self.transport
        t0 = time.perf_counter()
        try:
            data = await transport.decide(request, timeout_s)
        except ExchangeFailure as failure:
            ms = (time.perf_counter() - t0) * 1000.0
            return Answer(await self._fault(failure, n, timeout_s), ms)
        ms = (time.perf_counter() - t0) * 1000.0
        reply = transport.decision(data)
        problem: str | None
        if isinstance(reply, str):
            problem = reply
        elif not reply.HasField("option_index"):
            problem = "no option_index"
        elif reply.HasField("decision_index") and reply.decision_index != decision_index:
            problem = (
                f"a reply to decision {reply.decision_index} while decision {decision_index} "
                "was asked (a reply with no outstanding request)"
            )
        elif transport.streams and not reply.HasField("decision_index"):
            problem = "no decision_index in a decision stream's reply"
        else:
            return Answer(reply.option_index, ms)
        transport.drop()  # what else the bot sent on a stream must not meet a later decision
        return Answer(Fault(self.seat, FaultKind.PROTOCOL, n, problem), ms)

    # --- the end -------------------------------------------------------------------------

    async def end_match(
        self, request: pb.EndMatchRequest, timeout_s: float = END_MATCH_TIMEOUT_S
    ) -> bool:
        """EndMatch; whether the bot acknowledged it (its failures are not faults)."""
        try:
            reply = await self.transport.end_match(request, timeout_s)
        except ExchangeFailure:
            return False
        if isinstance(reply, str):
            self.transport.drop()
            return False
        return True

    async def close(self) -> None:
        """Release the seat's own decision stream (a Play stream stays with its process);
        close the channel if it is this client's own."""
        self.transport.close()
        if self._own_channel:
            await self.channel.close(None)

    # --- classification ------------------------------------------------------------------

    async def _fault(
        self, failure: ExchangeFailure, n: int, timeout_s: float | None, prefix: str = ""
    ) -> Fault:
        kind, detail = await self._classify(failure, timeout_s)
        exception = failure.exception
        if kind == FaultKind.EXCEPTION and exception is not None:
            return Fault(self.seat, kind, n, prefix + detail, exception.traceback)
        return Fault(self.seat, kind, n, prefix + detail)

    async def _classify(
        self, failure: ExchangeFailure, timeout_s: float | None
    ) -> tuple[FaultKind, str]:
        """The fault kind of a failed exchange, and a one-line detail."""
        code, detail = failure.code, failure.detail
        if code == grpc.StatusCode.DEADLINE_EXCEEDED:
            waited = f"{timeout_s * 1000.0:.0f} ms" if timeout_s is not None else "the deadline"
            return FaultKind.TIMEOUT, f"no answer within {waited}"
        if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
            return FaultKind.PROTOCOL, f"oversized reply ({detail})"
        if failure.exception is not None:  # the bot answered: its process is alive
            return FaultKind.EXCEPTION, one_line(failure.exception.headline())
        if code in LOST_CONNECTION_CODES:
            process = self.process
            if process is not None and await process.wait_exit(CRASH_WAIT_S):
                kind, why = process.exit_fault()
                return kind, f"{why} ({detail})"
            if code == grpc.StatusCode.UNAVAILABLE:
                return FaultKind.UNAVAILABLE, detail
        return FaultKind.PROTOCOL, f"error status {detail}"


def _serialize_hello(message: pb.HelloRequest) -> bytes:
    return message.SerializeToString()
