"""Says it speaks protocol version 99 in Hello: a PROTOCOL fault at setup."""

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, serve


class WrongVersion(RawBot):
    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloReply:
        return pb.HelloReply(name="wrong_version", version="1", protocol_version=99)


if __name__ == "__main__":
    serve(WrongVersion())
