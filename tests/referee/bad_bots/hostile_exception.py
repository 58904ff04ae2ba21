"""Fails every decision with status details that claim an exception, built to hurt: on
odd decisions a traceback of 200,000 characters full of terminal escapes, console markup,
carriage returns and right-to-left marks (over gRPC's metadata limit: the call fails
without them, a PROTOCOL fault); on even ones one of 170 lines with the same escapes (an
EXCEPTION fault whose traceback is bounded and printable line by line)."""

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire import error_status
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve

NASTY = "[/red][bold]\x1b[2J\x1b]0;pwned\x07\r\u202e\x00"


def details(traceback: str) -> bytes:
    exc = pb.BotException(type=NASTY * 5, message=NASTY * 20, traceback=traceback)
    detail = pb.ErrorDetail(type_url=error_status.EXCEPTION_TYPE_URL, value=exc.SerializeToString())
    return pb.ErrorStatus(code=13, message="x", details=[detail]).SerializeToString()


SMALL = details("\n".join(f"line {i} {NASTY}" for i in range(300))[:5000])
HUGE = details(NASTY * 10_000)


class HostileException(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        blob = SMALL if self.decisions % 2 == 0 else HUGE
        context.set_trailing_metadata(((error_status.DETAILS_KEY, blob),))
        context.abort(grpc.StatusCode.INTERNAL, "raised")
        raise AssertionError("unreachable")


if __name__ == "__main__":
    serve(HostileException())
