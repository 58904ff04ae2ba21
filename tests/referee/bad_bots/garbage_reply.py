"""From its second decision on, replies with bytes that are no protobuf message at all
(an invalid wire type): PROTOCOL faults, on a call and on a decision stream."""

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve

GARBAGE = b"\xff\xff\xff\xff\x0f garbage"


class GarbageReply(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        if self.decisions >= 2:
            return GARBAGE
        return super().choose(request, context)


if __name__ == "__main__":
    serve(GarbageReply())
