"""Answers Hello, then never answers StartMatch: a TIMEOUT at setup, within the limit."""

import threading

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, serve


class StartHang(RawBot):
    def StartMatch(
        self, request: pb.StartMatchRequest, context: grpc.ServicerContext
    ) -> pb.StartMatchReply | bytes:
        threading.Event().wait()
        raise AssertionError("unreachable")


if __name__ == "__main__":
    serve(StartHang())
