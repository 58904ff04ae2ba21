"""Plays the fallback once, then ends in its second decision as ``DIE_HOW`` says: a signal
name (``SIGKILL``, ``SIGSEGV``...) it sends itself, or an exit code. The referee must
report exactly that, through the launcher's watchdog and bubblewrap's init."""

from __future__ import annotations

import os
import signal

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve


class Dies(RawBot):
    name = "dies"

    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        if self.decisions >= 2:
            how = os.environ.get("DIE_HOW", "SIGKILL")
            if how.startswith("SIG"):
                os.kill(os.getpid(), signal.Signals[how])
            os._exit(int(how))
        return super().choose(request, context)


if __name__ == "__main__":
    serve(Dies())
