"""Stops its gRPC server mid-call but keeps running: the call is cut and later calls
cannot connect (UNAVAILABLE faults until the seat is forfeited)."""

import threading

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve


class CloseConnection(RawBot):
    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        if self.decisions >= 2 and self.server is not None:
            self.server.stop(0)
            context.abort(grpc.StatusCode.UNAVAILABLE, "closing")
        return super().choose(request, context)


if __name__ == "__main__":
    serve(CloseConnection())
    threading.Event().wait()  # stay alive with the server stopped
