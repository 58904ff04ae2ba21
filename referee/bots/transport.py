"""How one seat's requests travel to its bot: a call each, a decision stream, or the
process's Play stream.

A :class:`Transport` sends StartMatch, Decide and EndMatch and brings back the reply,
decoded as the kind of reply the request asks for, or a string saying why it is not one
(garbage, nesting too deep, a Play reply of another kind). A failed exchange (an error
status, a deadline passed, a stream the bot ended) raises :class:`ExchangeFailure`. A
transport judges nothing: :class:`referee.bots.client.BotClient` picks it from the bot's
Hello, checks each reply and turns failures into faults.

The two stream transports share one rule: one request is outstanding at a time, and any
failure, or a reply the client refuses (:meth:`Transport.drop`), cancels the stream, so
nothing the bot sent for one request can meet a later one; the next request opens a new
stream.
"""

from __future__ import annotations

import abc
import asyncio
from collections.abc import Callable
from typing import Literal, TypeVar, overload

import grpc
import grpc.aio
from google.protobuf.message import Message

from referee.bots.process import BotProcess
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire import error_status
from sdk.wire.error_status import BotException
from sdk.wire.service import BOT_SERVICE

# How long the referee waits for the status of a stream that ended or failed.
STREAM_END_GRACE_S = 0.5
# A bot's own text (status details) kept in a fault, at most.
DETAIL_CHARS = 200

M = TypeVar("M", bound=Message)
Stream = grpc.aio.StreamStreamCall[bytes, bytes]
StartReply = pb.StartMatchReply | str
DecideReply = pb.DecideReply | str
EndReply = pb.EndMatchReply | str


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


class ExchangeFailure(Exception):
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
    def of(cls, error: grpc.aio.AioRpcError) -> ExchangeFailure:
        exception = error_status.read_exception(_metadata(error.trailing_metadata()))
        detail = f"{error.code().name}: {one_line(error.details() or '')}"
        return cls(error.code(), detail, exception)


def _metadata(metadata: object) -> list[tuple[str, str | bytes]]:
    """A call's trailing metadata as (key, value) pairs (none if it is not a sequence)."""
    if not isinstance(metadata, grpc.aio.Metadata | tuple | list):
        return []
    return [(str(k), v) for k, v in metadata if isinstance(v, str | bytes)]


def _method(name: str) -> str:
    return f"/{BOT_SERVICE}/{name}"


def _serialize(message: Message) -> bytes:
    return message.SerializeToString()


class Transport(abc.ABC):
    """One seat's way to its bot (see the module docstring)."""

    #: Whether decisions travel on a stream, where every reply must name its request.
    streams = False

    @abc.abstractmethod
    async def start_match(
        self, request: pb.StartMatchRequest, timeout_s: float | None
    ) -> StartReply:
        """StartMatch's reply; raises ExchangeFailure."""

    @abc.abstractmethod
    async def decide(self, request: bytes, timeout_s: float | None) -> bytes:
        """The bytes the bot answered an encoded DecideRequest with (read them with
        :meth:`decision`); raises ExchangeFailure. Kept apart from the decoding so that
        the clock charges the exchange alone."""

    def decision(self, data: bytes) -> DecideReply:
        """The DecideReply in what :meth:`decide` brought back, or why there is none."""
        return decode(pb.DecideReply, data)

    @abc.abstractmethod
    async def end_match(self, request: pb.EndMatchRequest, timeout_s: float) -> EndReply:
        """EndMatch's reply; raises ExchangeFailure."""

    @abc.abstractmethod
    def drop(self) -> None:
        """The client refused a reply: nothing else the bot sent may meet a later request."""

    @abc.abstractmethod
    def close(self) -> None:
        """The seat's match is over: release what is this seat's own."""


class Calls(Transport):
    """Every request a call of its own (an endpoint, or a bot offering no stream)."""

    def __init__(self, channel: grpc.aio.Channel) -> None:
        self._start: grpc.aio.UnaryUnaryMultiCallable[pb.StartMatchRequest, bytes] = (
            channel.unary_unary(_method("StartMatch"), _serialize, None)
        )
        self._decide: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(
            _method("Decide"), None, None
        )
        self._end: grpc.aio.UnaryUnaryMultiCallable[pb.EndMatchRequest, bytes] = (
            channel.unary_unary(_method("EndMatch"), _serialize, None)
        )

    async def start_match(
        self, request: pb.StartMatchRequest, timeout_s: float | None
    ) -> StartReply:
        try:
            return decode(pb.StartMatchReply, await self._start(request, timeout=timeout_s))
        except grpc.aio.AioRpcError as exc:
            raise ExchangeFailure.of(exc) from None

    async def decide(self, request: bytes, timeout_s: float | None) -> bytes:
        try:
            return await self._decide(request, timeout=timeout_s)
        except grpc.aio.AioRpcError as exc:
            raise ExchangeFailure.of(exc) from None

    async def end_match(self, request: pb.EndMatchRequest, timeout_s: float) -> EndReply:
        try:
            return decode(pb.EndMatchReply, await self._end(request, timeout=timeout_s))
        except grpc.aio.AioRpcError as exc:
            raise ExchangeFailure.of(exc) from None

    def drop(self) -> None:
        """Nothing to drop: a call's reply cannot meet another call."""

    def close(self) -> None:
        """Nothing of the seat's own: the channel is the client's."""


class _StreamExchanges(Transport):
    """A request and its reply at a time on a stream that the subclass keeps."""

    streams = True

    @abc.abstractmethod
    def _stream(self) -> Stream:
        """The stream to write on, opened if there is none."""

    async def _exchange(self, request: bytes, timeout_s: float | None) -> bytes:
        """One request and its reply. Any failure (a timeout too, or the match being
        cancelled meanwhile) drops the stream: the next request opens a new one."""
        stream = self._stream()
        failure: ExchangeFailure
        try:
            # The write counts too. (A timeout scope, not wait_for: no task per decision.)
            async with asyncio.timeout(timeout_s):
                await stream.write(request)
                reply = await stream.read()
        except TimeoutError:
            failure = ExchangeFailure(grpc.StatusCode.DEADLINE_EXCEEDED, "no reply in time")
        except grpc.aio.AioRpcError as exc:
            failure = ExchangeFailure.of(exc)
        except asyncio.InvalidStateError:  # the bot had already ended the stream
            failure = await _stream_end(stream)
        except BaseException:  # cancelled while a request was outstanding
            self.drop()
            raise
        else:
            if isinstance(reply, bytes):
                return reply
            failure = await _stream_end(stream)  # the bot ended the stream (EOF)
        self.drop()
        raise failure


class DecisionStream(Calls, _StreamExchanges):
    """Decisions on a stream of this seat's own (``DecideStream``), the rest by calls."""

    def __init__(self, channel: grpc.aio.Channel) -> None:
        super().__init__(channel)
        self._open: Callable[[None], Stream] = channel.stream_stream(
            _method("DecideStream"), None, None
        )
        self._current: Stream | None = None

    def _stream(self) -> Stream:
        if self._current is None:
            self._current = self._open(None)
        return self._current

    async def decide(self, request: bytes, timeout_s: float | None) -> bytes:
        return await self._exchange(request, timeout_s)

    def drop(self) -> None:
        if self._current is not None:
            self._current.cancel()
            self._current = None

    def close(self) -> None:
        self.drop()


class PlayStream(_StreamExchanges):
    """Everything on the process's ``Play`` stream, which outlives the seat's match: it is
    kept by the process across its leases (``BotProcess.play_stream``)."""

    def __init__(self, channel: grpc.aio.Channel, process: BotProcess) -> None:
        self._open: Callable[[None], Stream] = channel.stream_stream(_method("Play"), None, None)
        self._process = process

    def _stream(self) -> Stream:
        if self._process.play_stream is None:
            self._process.play_stream = self._open(None)
        return self._process.play_stream

    async def start_match(
        self, request: pb.StartMatchRequest, timeout_s: float | None
    ) -> StartReply:
        play = pb.PlayRequest(start_match=request).SerializeToString()
        return _play_reply(await self._exchange(play, timeout_s), "start_match")

    async def decide(self, request: bytes, timeout_s: float | None) -> bytes:
        return await self._exchange(play_decide(request), timeout_s)

    def decision(self, data: bytes) -> DecideReply:
        return _play_reply(data, "decide")

    async def end_match(self, request: pb.EndMatchRequest, timeout_s: float) -> EndReply:
        play = pb.PlayRequest(end_match=request).SerializeToString()
        return _play_reply(await self._exchange(play, timeout_s), "end_match")

    def drop(self) -> None:
        self._process.drop_play_stream()

    def close(self) -> None:
        """Nothing: the Play stream stays with the process for its next lease."""


# PlayRequest.decide's tag: field 2, length-delimited (protobuf's wire format).
_PLAY_DECIDE_TAG = bytes([2 << 3 | 2])
PlayReplyKind = Literal["start_match", "decide", "end_match"]


def play_decide(request: bytes) -> bytes:
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
def _play_reply(data: bytes, kind: Literal["decide"]) -> DecideReply: ...
@overload
def _play_reply(data: bytes, kind: Literal["start_match"]) -> StartReply: ...
@overload
def _play_reply(data: bytes, kind: Literal["end_match"]) -> EndReply: ...
def _play_reply(data: bytes, kind: PlayReplyKind) -> DecideReply | StartReply | EndReply:
    """The reply of `kind` a Play stream's reply carries, or why it is not one."""
    reply = decode(pb.PlayReply, data)
    if isinstance(reply, str):
        return reply
    sent = reply.WhichOneof("reply")
    if sent != kind:
        return f"a Play reply of kind {sent or 'none'} to a {kind} request"
    message: pb.DecideReply | pb.StartMatchReply | pb.EndMatchReply = getattr(reply, kind)
    return message


async def _stream_end(stream: Stream) -> ExchangeFailure:
    """The failure of a stream the bot ended: its status, or UNKNOWN if it ended the
    stream without an error (a bot must answer every request). Waiting for the status is
    bounded by STREAM_END_GRACE_S."""
    try:
        code = await asyncio.wait_for(stream.code(), STREAM_END_GRACE_S)
        details = await asyncio.wait_for(stream.details(), STREAM_END_GRACE_S)
        trailing = await asyncio.wait_for(stream.trailing_metadata(), STREAM_END_GRACE_S)
    except TimeoutError:
        return ExchangeFailure(
            grpc.StatusCode.UNKNOWN, "the decision stream ended without a status"
        )
    if code == grpc.StatusCode.OK:
        return ExchangeFailure(grpc.StatusCode.UNKNOWN, "the bot ended its decision stream")
    exception = error_status.read_exception(_metadata(trailing))
    return ExchangeFailure(code, f"{code.name}: {one_line(details or '')}", exception)
