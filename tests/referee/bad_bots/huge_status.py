"""Fails every decision with an error status whose details are hostile: 6,000 characters
of newlines, terminal escapes and console markup on odd decisions, 1 MiB on even ones
(over gRPC's metadata limit). PROTOCOL faults whose detail is one short printable line."""

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve

NASTY = ("[/red][bold]\x1b[2J\x1b]0;pwned\x07\n\r\u202e" * 200)[:6000]
HUGE = "d" * (1 << 20)


class HugeStatus(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        context.abort(grpc.StatusCode.INTERNAL, NASTY if self.decisions % 2 else HUGE)
        raise AssertionError("unreachable")


if __name__ == "__main__":
    serve(HugeStatus())
