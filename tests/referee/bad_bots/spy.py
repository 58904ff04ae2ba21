"""Plays at random (seeded) and records every request it receives, for the information
leak test: each request goes, length-prefixed, to SPY_DIR/<pid>-<random>.bin, one file
per process (an opened decision stream as an empty record of its own). Sandboxed, SPY_DIR
must be one of the sandbox's writable folders (tests.referee.helpers.spy_sandbox). With
SPY_DELTAS=1 it asks for history deltas (HelloReply.history_deltas); with SPY_FAIL_EVERY=K
its every K-th Decide (after being recorded) fails with an error status; with
BAD_BOT_STREAM=1 it offers DecideStream."""

import os
import struct
import threading
import uuid
from collections.abc import Iterator
from typing import BinaryIO

import grpc
from google.protobuf.message import Message

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import Reply, serve
from tests.referee.bad_bots.seeded_random import SeededRandom

KINDS = {"Hello": 1, "StartMatch": 2, "Decide": 3, "EndMatch": 4, "DecideStream": 5}


class Spy(SeededRandom):
    name = "spy"

    def __init__(self, out: BinaryIO) -> None:
        super().__init__()
        self.out = out
        self.lock = threading.Lock()
        self.fail_every = int(os.environ.get("SPY_FAIL_EVERY", "0"))

    def record(self, call: str, request: Message) -> None:
        data = request.SerializeToString()
        with self.lock:
            self.out.write(struct.pack("<BI", KINDS[call], len(data)) + data)
            self.out.flush()

    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloReply:
        self.record("Hello", request)
        reply = super().Hello(request, context)
        assert isinstance(reply, pb.HelloReply)
        reply.history_deltas = os.environ.get("SPY_DELTAS") == "1"
        return reply

    def StartMatch(
        self, request: pb.StartMatchRequest, context: grpc.ServicerContext
    ) -> pb.StartMatchReply:
        self.record("StartMatch", request)
        return super().StartMatch(request, context)

    def Decide(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        self.record("Decide", request)
        reply = super().Decide(request, context)
        if self.fail_every and self.decisions % self.fail_every == 0:
            context.abort(grpc.StatusCode.INTERNAL, "the spy fails on purpose")
        return reply

    def DecideStream(
        self, request_iterator: Iterator[pb.DecideRequest], context: grpc.ServicerContext
    ) -> Iterator[Reply]:
        self.record("DecideStream", pb.DecideRequest())  # a stream opened (no request)
        yield from super().DecideStream(request_iterator, context)

    def EndMatch(
        self, request: pb.EndMatchRequest, context: grpc.ServicerContext
    ) -> pb.EndMatchReply | bytes:
        self.record("EndMatch", request)
        return super().EndMatch(request, context)


if __name__ == "__main__":
    # Every sandboxed process has the same pid in its own namespace: add a random part.
    name = f"{os.getpid()}-{uuid.uuid4().hex}.bin"
    with open(os.path.join(os.environ["SPY_DIR"], name), "wb") as out:
        serve(Spy(out))
