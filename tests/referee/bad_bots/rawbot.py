"""A bare gRPC bot without the SDK: the base of the misbehaving test bots.

It answers Hello and StartMatch correctly and plays the first legal option (the
referee's documented fallback), so a match against it gives the same results as a
forfeited seat. Subclasses override one call to misbehave. Any method may return raw
bytes instead of a message: they are sent as they are, so a bot can send what no
protobuf library would. Run as a script, it listens where BULLRING_LISTEN says. With
BAD_BOT_STREAM=1 in its environment its Hello offers DecideStream, which answers each
request of the stream as Decide does (misbehaving the same way; a message reply gets the
request's decision_index, as the protocol asks), so that the referee's stream path meets
every fault too; with BAD_BOT_STREAM=play it offers Play, which answers each request as
its call does (a decision as DecideStream does), each reply wrapped in a PlayReply (raw
bytes sent as they are).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent import futures
from typing import Any

import grpc
from google.protobuf.message import Message
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire.service import BOT_SERVICE

Reply = pb.DecideReply | bytes


class RawBot:
    name = "first_option"

    def __init__(self) -> None:
        self.decisions = 0
        self.server: grpc.Server | None = None

    def Hello(
        self, request: pb.HelloRequest, context: grpc.ServicerContext
    ) -> pb.HelloReply | bytes:
        transport = os.environ.get("BAD_BOT_STREAM")
        return pb.HelloReply(
            name=self.name,
            version="1",
            protocol_version=1,
            decide_stream=transport == "1",
            play_stream=transport == "play",
        )

    def StartMatch(
        self, request: pb.StartMatchRequest, context: grpc.ServicerContext
    ) -> pb.StartMatchReply | bytes:
        return pb.StartMatchReply()

    def Decide(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        self.decisions += 1
        return self.choose(request, context)

    def DecideStream(
        self, request_iterator: Iterator[pb.DecideRequest], context: grpc.ServicerContext
    ) -> Iterator[Reply]:
        for request in request_iterator:
            yield echo(self.Decide(request, context), request)

    def Play(
        self, request_iterator: Iterator[pb.PlayRequest], context: grpc.ServicerContext
    ) -> Iterator[pb.PlayReply | bytes]:
        for request in request_iterator:
            kind = request.WhichOneof("request")
            if kind == "start_match":
                yield play_reply("start_match", self.StartMatch(request.start_match, context))
            elif kind == "decide":
                for reply in self.DecideStream(iter([request.decide]), context):
                    yield play_reply("decide", reply)
            elif kind == "end_match":
                yield play_reply("end_match", self.EndMatch(request.end_match, context))

    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        return pb.DecideReply(option_index=0)

    def EndMatch(
        self, request: pb.EndMatchRequest, context: grpc.ServicerContext
    ) -> pb.EndMatchReply | bytes:
        return pb.EndMatchReply()


def echo(reply: Reply, request: pb.DecideRequest) -> Reply:
    """A stream reply naming the request it answers (unless it already names one, or is
    raw bytes)."""
    if isinstance(reply, bytes) or reply.HasField("decision_index"):
        return reply
    named = pb.DecideReply()
    named.CopyFrom(reply)
    named.decision_index = request.decision_index
    return named


def play_reply(kind: str, reply: Message | bytes) -> pb.PlayReply | bytes:
    """`reply` as the `kind` of a PlayReply (raw bytes stay as they are)."""
    if isinstance(reply, bytes):
        return reply
    wrapped = pb.PlayReply()
    getattr(wrapped, kind).CopyFrom(reply)
    return wrapped


def _bytes(message: Message | bytes) -> bytes:
    return message if isinstance(message, bytes) else message.SerializeToString()


def handlers(bot: RawBot) -> grpc.GenericRpcHandler[Any, Any]:
    """The Bot service of `bot`, whose replies may be messages or raw bytes."""
    unary = grpc.unary_unary_rpc_method_handler
    return grpc.method_handlers_generic_handler(
        BOT_SERVICE,
        {
            "Hello": unary(bot.Hello, pb.HelloRequest.FromString, _bytes),
            "StartMatch": unary(bot.StartMatch, pb.StartMatchRequest.FromString, _bytes),
            "Decide": unary(bot.Decide, pb.DecideRequest.FromString, _bytes),
            "DecideStream": grpc.stream_stream_rpc_method_handler(
                bot.DecideStream, pb.DecideRequest.FromString, _bytes
            ),
            "EndMatch": unary(bot.EndMatch, pb.EndMatchRequest.FromString, _bytes),
            "Play": grpc.stream_stream_rpc_method_handler(
                bot.Play, pb.PlayRequest.FromString, _bytes
            ),
        },
    )


def serve(bot: RawBot) -> None:
    """Serve `bot` and health (SERVING) at BULLRING_LISTEN until killed."""
    address = os.environ["BULLRING_LISTEN"]
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    bot.server = server
    server.add_generic_rpc_handlers([handlers(bot)])
    health_servicer = health.HealthServicer()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    server.add_insecure_port(address)
    server.start()
    server.wait_for_termination()


if __name__ == "__main__":
    serve(RawBot())
