"""The referee's side of the conversation with one bot: Hello, StartMatch, Decide (by call
or on a decision stream) and EndMatch.

A :class:`BotClient` speaks for one seat of one match, over the channel of the process
(or endpoint) leased to it. Each method returns what the bot answered, or a typed
:class:`Fault`; it never raises for anything a bot sends, and it records nothing: the
match runner keeps the clocks, counts the faults and writes the replay.

What a bot cannot do to the referee through it:

- **Stall it.** Every call and every read of a decision stream has a deadline (the one the
  caller gives; EndMatch its own), and waiting for the status of a stream that failed is
  bounded by :data:`STREAM_END_GRACE_S`. Telling a crashed process from a cut connection
  waits at most :data:`CRASH_WAIT_S`.
- **Crash it with a reply.** Replies arrive as bytes and are decoded here: an undecodable
  reply (garbage, or protobuf nested deeper than the decoder's limit) is a PROTOCOL fault;
  a reply over the channel's receive limit (``referee.process.MAX_REPLY_BYTES``, also
  after decompression) fails in gRPC before it is buffered, and is a PROTOCOL fault too.
- **Make a reply count twice.** On a stream, every reply must carry the ``decision_index``
  of the request it answers (one request is outstanding at a time): a reply to another
  request (a second reply to an earlier one, say) is a PROTOCOL fault, and any failure
  cancels the stream, so nothing a bot sent for one decision can meet a later one.
- **Inject text.** The status details a bot sends are cut to :data:`DETAIL_CHARS` and made
  one printable line before they go into a fault.

Classification of a failed call: the deadline passed (TIMEOUT); the process died
(``BotProcess.exit_fault()``: CRASH, or RESOURCE for a sandbox limit); the connection was
refused or cut while the process lives (UNAVAILABLE); an error status whose details
carry the bot's exception (:mod:`sdk.error_status`, read as untrusted: bounded and
cleaned) is EXCEPTION, with the bot's traceback; anything else, an oversized reply and
any other error status included, is PROTOCOL.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar, overload

import grpc
import grpc.aio
from google.protobuf.message import Message

from referee.process import BotLease, BotProcess, channel_options
from referee.spec import Fault, FaultKind
from sdk import codec, error_status
from sdk.error_status import BotException
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.runtime import BOT_SERVICE

REFEREE_NAME = "bullring-referee/1"
END_MATCH_TIMEOUT_S = 2.0
# How long the referee waits for the status of a decision stream that ended or failed.
STREAM_END_GRACE_S = 0.5
# How long a failed call waits for the bot's process to exit, to tell a crash from a cut
# connection (a dying process fails its calls before it is reaped).
CRASH_WAIT_S = 0.25
# A bot's own text (status details) kept in a fault, at most.
DETAIL_CHARS = 200
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

M = TypeVar("M", bound=Message)
Bytes = grpc.aio.UnaryUnaryMultiCallable[bytes, bytes]
Stream = grpc.aio.StreamStreamCall[bytes, bytes]


def _method(name: str) -> str:
    return f"/{BOT_SERVICE}/{name}"


def _serialize(message: Message) -> bytes:
    return message.SerializeToString()


def one_line(text: str, limit: int = DETAIL_CHARS) -> str:
    """A bot's text as one printable line of at most `limit` characters (control and
    other unprintable characters escaped, the rest cut and counted)."""
    head = text[: limit * 2]
    clean = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in head)
    if len(clean) <= limit and len(head) == len(text):
        return clean
    return f"{clean[:limit]}... (cut, {len(text)} characters in all)"


def decode(kind: type[M], data: bytes) -> M | str:
    """A reply's bytes as a `kind` message, or why they are not one. The decoder refuses
    nesting deeper than its recursion limit (100), unknown fields included."""
    try:
        return kind.FromString(data)
    except Exception as exc:  # a bot's bytes: any failure of the decoder is a bad reply
        return f"undecodable {kind.DESCRIPTOR.name} ({len(data)} bytes): {one_line(str(exc))}"


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


class _Failure(Exception):
    """A failed exchange: the status code it counts as, a one-line detail and the bot's
    exception if its status details carry one."""

    def __init__(
        self, code: grpc.StatusCode, detail: str, exception: BotException | None = None
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.exception = exception

    @classmethod
    def of(cls, error: grpc.aio.AioRpcError) -> _Failure:
        exception = error_status.read_exception(_metadata(error.trailing_metadata()))
        detail = f"{error.code().name}: {one_line(error.details() or '')}"
        return cls(error.code(), detail, exception)


def _metadata(metadata: object) -> list[tuple[str, str | bytes]]:
    """A call's trailing metadata as (key, value) pairs (none if it is not a sequence)."""
    if not isinstance(metadata, grpc.aio.Metadata | tuple | list):
        return []
    return [(str(k), v) for k, v in metadata if isinstance(v, str | bytes)]


class BotClient:
    """Talks to the bot leased to one seat (see the module docstring).

    A pooled process keeps its channel and its Hello across matches (``process.hello``);
    an endpoint gets a channel of this client's own (closed by :meth:`close`) and a Hello
    every match. When the Hello offers ``Play`` and the bot is a process the referee
    started, StartMatch, the decisions and EndMatch all travel on the process's Play stream
    (kept across its leases, ``process.play_stream``); else, when it offers
    ``DecideStream``, the decisions travel on one stream per match; otherwise each request
    is a call of its own.
    """

    def __init__(self, seat: int, lease: BotLease) -> None:
        self.seat = seat
        self.process: BotProcess | None = lease.process
        if self.process is not None:
            self.channel = self.process.channel()
        else:
            self.channel = grpc.aio.insecure_channel(lease.address, options=channel_options())
        self._own_channel = self.process is None
        channel = self.channel
        self._hello: grpc.aio.UnaryUnaryMultiCallable[pb.HelloRequest, bytes] = channel.unary_unary(
            _method("Hello"), _serialize, None
        )
        self._start: grpc.aio.UnaryUnaryMultiCallable[pb.StartMatchRequest, bytes] = (
            channel.unary_unary(_method("StartMatch"), _serialize, None)
        )
        self._decide: Bytes = channel.unary_unary(_method("Decide"), None, None)
        self._end: grpc.aio.UnaryUnaryMultiCallable[pb.EndMatchRequest, bytes] = (
            channel.unary_unary(_method("EndMatch"), _serialize, None)
        )
        self._open_stream: Callable[[None], Stream] | None = None
        self._stream: Stream | None = None
        self._play = False  # everything on the process's Play stream (after hello())

    @property
    def streams(self) -> bool:
        """Whether decisions travel on a stream (known after :meth:`hello`)."""
        return self._open_stream is not None

    @property
    def plays(self) -> bool:
        """Whether every request travels on the process's Play stream (after :meth:`hello`)."""
        return self._play

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
                return await self._fault(_Failure.of(exc), SETUP, timeout_s, "setup: Hello: ")
            decoded = decode(pb.HelloReply, data)
            if isinstance(decoded, str):
                return Fault(self.seat, FaultKind.PROTOCOL, SETUP, f"setup: Hello: {decoded}")
            reply = decoded
            if process is not None:
                process.hello = reply
        if process is not None and reply.play_stream:  # (an endpoint gets calls)
            self._open_stream = self.channel.stream_stream(_method("Play"), None, None)
            self._play = True
        elif process is not None and reply.decide_stream:
            self._open_stream = self.channel.stream_stream(_method("DecideStream"), None, None)
        return reply

    async def start_match(
        self, request: pb.StartMatchRequest, timeout_s: float | None
    ) -> Fault | None:
        """StartMatch; None when the bot accepted it."""
        decoded: pb.StartMatchReply | str
        try:
            if self._play:
                play = pb.PlayRequest(start_match=request).SerializeToString()
                decoded = _play_reply(await self._exchange(play, timeout_s), "start_match")
            else:
                try:
                    data = await self._start(request, timeout=timeout_s)
                except grpc.aio.AioRpcError as exc:
                    raise _Failure.of(exc) from None
                decoded = decode(pb.StartMatchReply, data)
        except _Failure as failure:
            return await self._fault(failure, SETUP, timeout_s, "setup: StartMatch: ")
        if isinstance(decoded, str):
            self._drop_stream()
            return Fault(self.seat, FaultKind.PROTOCOL, SETUP, f"setup: StartMatch: {decoded}")
        return None

    # --- decisions -----------------------------------------------------------------------

    async def decide(
        self, request: bytes, decision_index: int, n: int, timeout_s: float | None
    ) -> Answer:
        """One decision: `request` is the encoded DecideRequest whose ``decision_index``
        is `decision_index`; `n` numbers the decision in the match (for the fault)."""
        stream = self._open_stream is not None
        t0 = time.perf_counter()
        try:
            if self._play:
                data = await self._exchange(_play_decide(request), timeout_s)
            elif stream:
                data = await self._exchange(request, timeout_s)
            else:
                try:
                    data = await self._decide(request, timeout=timeout_s)
                except grpc.aio.AioRpcError as exc:
                    raise _Failure.of(exc) from None
        except _Failure as failure:
            ms = (time.perf_counter() - t0) * 1000.0
            return Answer(await self._fault(failure, n, timeout_s), ms)
        ms = (time.perf_counter() - t0) * 1000.0
        reply = _play_reply(data, "decide") if self._play else decode(pb.DecideReply, data)
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
        elif stream and not reply.HasField("decision_index"):
            problem = "no decision_index in a decision stream's reply"
        else:
            return Answer(reply.option_index, ms)
        if stream:  # what else the bot sent on this stream must not meet a later decision
            self._drop_stream()
        return Answer(Fault(self.seat, FaultKind.PROTOCOL, n, problem), ms)

    def _current_stream(self) -> Stream:
        """The stream requests travel on: the process's Play stream, or this seat's decision
        stream; opened on first use."""
        process = self.process
        if self._play and process is not None:
            if process.play_stream is None:
                assert self._open_stream is not None
                process.play_stream = self._open_stream(None)
            return process.play_stream
        if self._stream is None:
            assert self._open_stream is not None
            self._stream = self._open_stream(None)
        return self._stream

    async def _exchange(self, request: bytes, timeout_s: float | None) -> bytes:
        """One request and its reply on the stream (see :meth:`_current_stream`). Any
        failure (a timeout too, or the match being cancelled meanwhile) cancels the stream:
        the next request opens a new one, and nothing sent for this one can meet it."""
        stream = self._current_stream()
        failure: _Failure
        try:
            # The write counts too. (A timeout scope, not wait_for: no task per decision.)
            async with asyncio.timeout(timeout_s):
                await stream.write(request)
                reply = await stream.read()
        except TimeoutError:
            failure = _Failure(grpc.StatusCode.DEADLINE_EXCEEDED, "no reply in time")
        except grpc.aio.AioRpcError as exc:
            failure = _Failure.of(exc)
        except asyncio.InvalidStateError:  # the bot had already ended the stream
            failure = await _stream_end(stream)
        except BaseException:  # cancelled while a request was outstanding
            self._drop_stream()
            raise
        else:
            if isinstance(reply, bytes):
                return reply
            failure = await _stream_end(stream)  # the bot ended the stream (EOF)
        self._drop_stream()
        raise failure

    def _drop_stream(self) -> None:
        if self._play and self.process is not None:
            self.process.drop_play_stream()
        elif self._stream is not None:
            self._stream.cancel()
            self._stream = None

    # --- the end -------------------------------------------------------------------------

    async def end_match(
        self, request: pb.EndMatchRequest, timeout_s: float = END_MATCH_TIMEOUT_S
    ) -> bool:
        """EndMatch; whether the bot acknowledged it (its failures are not faults)."""
        if self._play:
            play = pb.PlayRequest(end_match=request).SerializeToString()
            try:
                data = await self._exchange(play, timeout_s)
            except _Failure:
                return False
            if isinstance(_play_reply(data, "end_match"), str):
                self._drop_stream()
                return False
            return True
        try:
            data = await self._end(request, timeout=timeout_s)
        except grpc.aio.AioRpcError:
            return False
        return not isinstance(decode(pb.EndMatchReply, data), str)

    async def close(self) -> None:
        """Cancel the seat's decision stream (a Play stream stays with its process);
        close the channel if it is this client's own."""
        if not self._play:
            self._drop_stream()
        if self._own_channel:
            await self.channel.close(None)

    # --- classification ------------------------------------------------------------------

    async def _fault(
        self, failure: _Failure, n: int, timeout_s: float | None, prefix: str = ""
    ) -> Fault:
        kind, detail = await self._classify(failure, timeout_s)
        exception = failure.exception
        if kind == FaultKind.EXCEPTION and exception is not None:
            return Fault(self.seat, kind, n, prefix + detail, exception.traceback)
        return Fault(self.seat, kind, n, prefix + detail)

    async def _classify(self, failure: _Failure, timeout_s: float | None) -> tuple[FaultKind, str]:
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


# PlayRequest.decide's tag: field 2, length-delimited (protobuf's wire format).
_PLAY_DECIDE_TAG = bytes([2 << 3 | 2])
PlayReplyKind = Literal["start_match", "decide", "end_match"]


def _play_decide(request: bytes) -> bytes:
    """An encoded DecideRequest as an encoded ``PlayRequest(decide=...)``, without
    decoding it: the field's tag, its length (a varint), then its bytes."""
    size = len(request)
    length = bytearray()
    while size > 0x7F:
        length.append(size & 0x7F | 0x80)
        size >>= 7
    length.append(size)
    return _PLAY_DECIDE_TAG + bytes(length) + request


@overload
def _play_reply(data: bytes, kind: Literal["decide"]) -> pb.DecideReply | str: ...
@overload
def _play_reply(data: bytes, kind: Literal["start_match"]) -> pb.StartMatchReply | str: ...
@overload
def _play_reply(data: bytes, kind: Literal["end_match"]) -> pb.EndMatchReply | str: ...
def _play_reply(
    data: bytes, kind: PlayReplyKind
) -> pb.DecideReply | pb.StartMatchReply | pb.EndMatchReply | str:
    """The reply of `kind` a Play stream's reply carries, or why it is not one."""
    reply = decode(pb.PlayReply, data)
    if isinstance(reply, str):
        return reply
    sent = reply.WhichOneof("reply")
    if sent != kind:
        return f"a Play reply of kind {sent or 'none'} to a {kind} request"
    message: pb.DecideReply | pb.StartMatchReply | pb.EndMatchReply = getattr(reply, kind)
    return message


async def _stream_end(stream: Stream) -> _Failure:
    """The failure of a decision stream the bot ended: its status, or UNKNOWN if it ended
    the stream without an error (a bot must answer every request). Waiting for the status
    is bounded by STREAM_END_GRACE_S."""
    try:
        code = await asyncio.wait_for(stream.code(), STREAM_END_GRACE_S)
        details = await asyncio.wait_for(stream.details(), STREAM_END_GRACE_S)
        trailing = await asyncio.wait_for(stream.trailing_metadata(), STREAM_END_GRACE_S)
    except TimeoutError:
        return _Failure(grpc.StatusCode.UNKNOWN, "the decision stream ended without a status")
    if code == grpc.StatusCode.OK:
        return _Failure(grpc.StatusCode.UNKNOWN, "the bot ended its decision stream")
    exception = error_status.read_exception(_metadata(trailing))
    return _Failure(code, f"{code.name}: {one_line(details or '')}", exception)
