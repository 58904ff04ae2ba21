"""Replies without an option_index: PROTOCOL faults."""

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, serve


class EmptyReply(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> pb.DecideReply:
        return pb.DecideReply()


if __name__ == "__main__":
    serve(EmptyReply())
