"""Replies gzip-compressed: a valid option_index plus 4 MiB of zeros in an unknown field,
about 4 KB on the wire (far under the referee's 64 KiB receive limit) but 64 times it once
decompressed. gRPC must refuse it without inflating it all: PROTOCOL faults."""

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve
from tests.referee.bad_bots.wire import bytes_field, uint_field

ZEROS = 4 << 20


class CompressedBomb(RawBot):
    def __init__(self) -> None:
        super().__init__()
        self.padding = bytes_field(15, bytes(ZEROS))

    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        context.set_compression(grpc.Compression.Gzip)
        return uint_field(1, 0) + uint_field(2, request.decision_index) + self.padding


if __name__ == "__main__":
    serve(CompressedBomb())
