"""A bare gRPC bot without the SDK: the base of the misbehaving test bots.

It answers Hello and StartMatch correctly and plays the first legal option (the
referee's documented fallback), so a match against it gives the same results as a
forfeited seat. Subclasses override one call to misbehave. Run as a script, it listens
where BULLRING_LISTEN says. With BAD_BOT_STREAM=1 in its environment its Hello offers
DecideStream, which answers each request of the stream as Decide does (misbehaving the
same way), so that the referee's stream path meets every fault too.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.protocol.bullring.v1 import bot_pb2_grpc as pb_grpc


class RawBot(pb_grpc.BotServicer):
    name = "first_option"

    def __init__(self) -> None:
        self.decisions = 0
        self.server: grpc.Server | None = None

    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloReply:
        streams = os.environ.get("BAD_BOT_STREAM") == "1"
        return pb.HelloReply(name=self.name, version="1", protocol_version=1, decide_stream=streams)

    def StartMatch(
        self, request: pb.StartMatchRequest, context: grpc.ServicerContext
    ) -> pb.StartMatchReply:
        return pb.StartMatchReply()

    def Decide(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> pb.DecideReply:
        self.decisions += 1
        return self.choose(request, context)

    def DecideStream(
        self, request_iterator: Iterator[pb.DecideRequest], context: grpc.ServicerContext
    ) -> Iterator[pb.DecideReply]:
        for request in request_iterator:
            yield self.Decide(request, context)

    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> pb.DecideReply:
        return pb.DecideReply(option_index=0)

    def EndMatch(
        self, request: pb.EndMatchRequest, context: grpc.ServicerContext
    ) -> pb.EndMatchReply:
        return pb.EndMatchReply()


def serve(bot: RawBot) -> None:
    """Serve `bot` and health (SERVING) at BULLRING_LISTEN until killed."""
    address = os.environ["BULLRING_LISTEN"]
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    bot.server = server
    pb_grpc.add_BotServicer_to_server(bot, server)
    health_servicer = health.HealthServicer()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    server.add_insecure_port(address)
    server.start()
    server.wait_for_termination()


if __name__ == "__main__":
    serve(RawBot())
