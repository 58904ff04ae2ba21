"""Never answers Hello: a TIMEOUT at setup, within the setup limit."""

import threading

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, serve


class HelloHang(RawBot):
    def Hello(
        self, request: pb.HelloRequest, context: grpc.ServicerContext
    ) -> pb.HelloReply | bytes:
        threading.Event().wait()
        raise AssertionError("unreachable")


if __name__ == "__main__":
    serve(HelloHang())
