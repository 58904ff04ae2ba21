"""Lies in Hello: says it is LIAR_NAME version LIAR_VERSION (default: someone else's bot,
``rules_bot`` 9.9) and claims LIAR_VARIANTS (comma-separated; default every variant);
plays the first option, except in LIAR_BAD_VARIANT (a preset id), where it answers an
option that was not offered although it claims to play it."""

from __future__ import annotations

import os

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, serve


class Liar(RawBot):
    def __init__(self) -> None:
        super().__init__()
        self.variants: dict[tuple[str, int], str] = {}

    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloReply:
        env = os.environ
        claimed = [v for v in env.get("LIAR_VARIANTS", "").split(",") if v]
        return pb.HelloReply(
            name=env.get("LIAR_NAME", "rules_bot"),
            version=env.get("LIAR_VERSION", "9.9"),
            protocol_version=1,
            variants=claimed,
        )

    def StartMatch(
        self, request: pb.StartMatchRequest, context: grpc.ServicerContext
    ) -> pb.StartMatchReply:
        self.variants[request.match_id, request.seat] = request.variant
        return pb.StartMatchReply()

    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> pb.DecideReply:
        variant = self.variants.get((request.match_id, request.seat))
        if variant == os.environ.get("LIAR_BAD_VARIANT"):
            return pb.DecideReply(option_index=len(request.options))
        return pb.DecideReply(option_index=0)


if __name__ == "__main__":
    serve(Liar())
