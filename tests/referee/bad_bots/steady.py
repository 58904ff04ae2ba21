"""Plays the first option after a fixed pause (STEADY_DELAY_MS, default 100 ms): a
deterministic bot whose matches last long enough to be interrupted mid-match."""

import os
import time

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve


class Steady(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        time.sleep(int(os.environ.get("STEADY_DELAY_MS", "100")) / 1000.0)
        return super().choose(request, context)


if __name__ == "__main__":
    serve(Steady())
