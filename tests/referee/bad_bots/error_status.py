"""Raises in Decide, so gRPC answers with an error status: PROTOCOL faults."""

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, serve


class ErrorStatus(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> pb.DecideReply:
        context.abort(grpc.StatusCode.INTERNAL, "bot bug")
        raise AssertionError("unreachable")


if __name__ == "__main__":
    serve(ErrorStatus())
