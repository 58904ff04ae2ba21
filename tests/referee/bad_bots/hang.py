"""Hangs forever in its second decision and later ones: TIMEOUT faults."""

import threading

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve


class Hang(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        if self.decisions >= 2:
            threading.Event().wait()
        return super().choose(request, context)


if __name__ == "__main__":
    serve(Hang())
