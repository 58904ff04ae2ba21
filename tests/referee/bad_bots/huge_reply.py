"""Replies with a valid option_index plus 4 MB of unknown-field bytes: the reply is well
formed protobuf, but beyond the referee's maximum receive size (a PROTOCOL fault)."""

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, serve
from tests.referee.bad_bots.wire import varint

PADDING = 4 << 20


# Field 15, wire type 2 (length-delimited): unknown to DecideReply, kept and re-sent.
HUGE = pb.DecideReply.FromString(
    pb.DecideReply(option_index=0).SerializeToString()
    + bytes([15 << 3 | 2])
    + varint(PADDING)
    + b"x" * PADDING
)


class HugeReply(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> pb.DecideReply:
        return HUGE


if __name__ == "__main__":
    serve(HugeReply())
