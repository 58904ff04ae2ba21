"""Plays the fallback, then never answers EndMatch. Not a fault (the match is over), but
the referee stops waiting after its EndMatch limit and does not reuse the process."""

import threading

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, serve


class EndHang(RawBot):
    def EndMatch(
        self, request: pb.EndMatchRequest, context: grpc.ServicerContext
    ) -> pb.EndMatchReply | bytes:
        threading.Event().wait()
        raise AssertionError("unreachable")


if __name__ == "__main__":
    serve(EndHang())
