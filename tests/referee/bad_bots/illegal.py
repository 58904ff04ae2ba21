"""Chooses an option index that was not offered: ILLEGAL faults."""

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, serve


class Illegal(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> pb.DecideReply:
        return pb.DecideReply(option_index=len(request.options))


if __name__ == "__main__":
    serve(Illegal())
