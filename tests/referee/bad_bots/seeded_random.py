"""A well-behaved bot without the SDK: a random legal option, seeded per session from
StartMatch's seed_hint, so the same match always gets the same choices."""

import random

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, serve


class SeededRandom(RawBot):
    name = "seeded_random"

    def __init__(self) -> None:
        super().__init__()
        self.rngs: dict[tuple[str, int], random.Random] = {}

    def StartMatch(
        self, request: pb.StartMatchRequest, context: grpc.ServicerContext
    ) -> pb.StartMatchReply:
        self.rngs[request.match_id, request.seat] = random.Random(request.seed_hint)
        return pb.StartMatchReply()

    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> pb.DecideReply:
        rng = self.rngs[request.match_id, request.seat]
        return pb.DecideReply(option_index=rng.randrange(len(request.options)))


if __name__ == "__main__":
    serve(SeededRandom())
