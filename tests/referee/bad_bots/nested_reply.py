"""From its second decision on, replies with a valid option_index (and decision_index)
plus an unknown field nested 10,000 groups deep: 20 KB, under the referee's receive limit,
but deeper than any protobuf decoder accepts (PROTOCOL faults, never a crash)."""

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve
from tests.referee.bad_bots.wire import nested_groups, uint_field

DEPTH = 10_000
NESTED = nested_groups(15, DEPTH)


class NestedReply(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        if self.decisions >= 2:
            return uint_field(1, 0) + uint_field(2, request.decision_index) + NESTED
        return super().choose(request, context)


if __name__ == "__main__":
    serve(NestedReply())
