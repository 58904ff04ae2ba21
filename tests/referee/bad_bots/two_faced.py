"""Two-faced: plays fair (the first option) whenever its match looks like a conformance
check, and cheats otherwise: it answers an option that was not offered (an ILLEGAL fault,
standing for whatever a bot would do once it believes nobody is checking).

It knows the league it is submitted to, as an author does, from its environment:
TWO_FACED_LEAGUE (the name), TWO_FACED_CLOCK (``decision_ms,time_bank_ms,setup_ms``),
TWO_FACED_SEATS and TWO_FACED_ROSTER (the league's bot names, comma-separated). A match
looks like a check when any tell fires:

* its id starts with ``check-`` (the old check's ids) or is not ``<league>-`` and six
  digits;
* its clock or its seat count is not the league's;
* an opponent is not on the league's roster (the old check played the example bots);
* Hello named another referee than the league's, or came more than once;
* its seed hint derives from a small match seed under the public local key (the deal
  would then be public: a league's key is secret).
"""

from __future__ import annotations

import os
import re
import threading

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.seeding import LOCAL_KEY, LOCAL_LEAGUE, seed_hint
from tests.referee.bad_bots.rawbot import RawBot, serve

SMALL_SEEDS = 1000
LEAGUE_REFEREE = "bullring-referee/1"  # the name a league's referee gives in Hello


def public_seed(match_id: str, seat: int, hint: int) -> bool:
    """Whether `hint` comes from a small match seed under the public local key."""
    leagues = (LOCAL_LEAGUE, match_id.rsplit("-", 1)[0])
    return any(
        seed_hint(LOCAL_KEY, league, seed, seat) == hint
        for league in leagues
        for seed in range(SMALL_SEEDS)
    )


class TwoFaced(RawBot):
    name = "two_faced"

    def __init__(self) -> None:
        super().__init__()
        env = os.environ
        self.league = env["TWO_FACED_LEAGUE"]
        self.clock = tuple(int(ms) for ms in env["TWO_FACED_CLOCK"].split(","))
        self.seats = int(env["TWO_FACED_SEATS"])
        self.roster = set(env["TWO_FACED_ROSTER"].split(","))
        self.hellos: list[str] = []
        self.fair: dict[tuple[str, int], bool] = {}
        self.lock = threading.Lock()

    def Hello(
        self, request: pb.HelloRequest, context: grpc.ServicerContext
    ) -> pb.HelloReply | bytes:
        with self.lock:
            self.hellos.append(request.referee)
        return super().Hello(request, context)

    def tells(self, request: pb.StartMatchRequest) -> list[str]:
        clock = request.clock
        opponents = [n for s, n in enumerate(request.player_names) if s != request.seat]
        found = {
            "check id": request.match_id.startswith("check-"),
            "id format": not re.fullmatch(rf"{re.escape(self.league)}-\d{{6}}", request.match_id),
            "clock": (clock.decision_ms, clock.time_bank_ms, clock.setup_ms) != self.clock,
            "seats": request.players != self.seats,
            "opponents": not set(opponents) <= self.roster,
            "hello": self.hellos != [LEAGUE_REFEREE],
            "public seed": public_seed(request.match_id, request.seat, request.seed_hint),
        }
        return [tell for tell, fired in found.items() if fired]

    def StartMatch(
        self, request: pb.StartMatchRequest, context: grpc.ServicerContext
    ) -> pb.StartMatchReply:
        with self.lock:
            self.fair[request.match_id, request.seat] = bool(self.tells(request))
        return pb.StartMatchReply()

    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> pb.DecideReply:
        if self.fair.get((request.match_id, request.seat), True):
            return pb.DecideReply(option_index=0)
        return pb.DecideReply(option_index=len(request.options))  # never offered


if __name__ == "__main__":
    serve(TwoFaced())
