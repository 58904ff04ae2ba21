"""Answers Hello with bytes that are no HelloReply: a PROTOCOL fault at setup."""

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.garbage_reply import GARBAGE
from tests.referee.bad_bots.rawbot import RawBot, serve


class GarbageHello(RawBot):
    def Hello(
        self, request: pb.HelloRequest, context: grpc.ServicerContext
    ) -> pb.HelloReply | bytes:
        return GARBAGE


if __name__ == "__main__":
    serve(GarbageHello())
