"""Answers 150 ms after each decision's own deadline: it drains its time bank, then times out."""

import time

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve


class Slow(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        time.sleep(request.deadline_ms / 1000.0 + 0.15)
        return super().choose(request, context)


if __name__ == "__main__":
    serve(Slow())
