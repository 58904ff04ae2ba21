"""Plays the fallback twice, then dies of SIGSEGV in its third decision: a CRASH."""

import os
import signal

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve


class CrashMidMatch(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        if self.decisions >= 3:
            os.kill(os.getpid(), signal.SIGSEGV)
        return super().choose(request, context)


if __name__ == "__main__":
    serve(CrashMidMatch())
