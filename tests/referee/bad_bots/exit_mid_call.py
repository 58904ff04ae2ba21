"""Exits abruptly (os._exit) while a Decide call is in flight: a CRASH."""

import os

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve


class ExitMidCall(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        if self.decisions >= 2:
            os._exit(0)
        return super().choose(request, context)


if __name__ == "__main__":
    serve(ExitMidCall())
