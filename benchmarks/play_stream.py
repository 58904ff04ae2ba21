"""What a bot's Play stream costs beyond gRPC: SDK bots against bare stream echo servers.

The league's bot processes spend most of a match's CPU time (docs/referee.md, "League
throughput and CPU per match"). This benchmark splits a bot's cost per Play message into
gRPC's own and the SDK's: the same ``grpc.aio`` client stack as the referee sends a real
match's Play requests (StartMatch, the seat's Decide requests with history deltas,
EndMatch: 4-seat 6 nimmt! ``rounds=1``, a deal of its own for each of ``--games`` games,
encoded by the referee's encoder) to

- **sdk**: random SDK bots (``example_bots/random_bot``, unsandboxed), on ``Play``;
- **echo**: benchmarks/referee.py's one-line echo servers (a sync ``grpc.server`` too),
  on a bidirectional stream, answered with the request itself;

one server process per seat, ``--matches`` matches at once (4 seats each), each match
asking its 4 seats at once, step after step, as the referee asks a simultaneous pick. The
two kinds run interleaved round after round; each round prints the CPU time per message
of the client and of the servers (from /proc), and the medians are printed at the end.

    .venv/bin/python -m benchmarks.play_stream [--matches 2] [--games 40] [--rounds 4]

(As a module: it loads the referee package first, which tunes gRPC before it loads.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Sequence

# isort: off
# The referee package first: it tunes gRPC's I/O engine before grpc loads, and the
# servers started from here inherit the setting (referee/bots/grpc_tuning.py).
from referee.bots.transport import play_decide
import grpc
import grpc.aio

# isort: on
from benchmarks.league import PROJECTED as LEAGUE_MATCHES
from benchmarks.league import TARGET_S as LEAGUE_TARGET_S
from benchmarks.referee import ECHO_STREAM_METHOD, EchoServers, ServerProcesses, cpu_of
from referee.match.encoder import MatchEncoder
from sdk.game import driver, new_game
from sdk.match import MatchInfo, MatchOutcome
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire import codec
from sdk.wire.service import BOT_SERVICE

SEATS = 4
PLAY_METHOD = f"/{BOT_SERVICE}/Play"
CORES = os.cpu_count() or 1  # as benchmarks/league.py projects
Stream = grpc.aio.StreamStreamCall[bytes, bytes]
Deals = Sequence[Sequence[Sequence[bytes]]]  # by game, then seat: the Play requests


def play_requests(match_id: str, seat: int, seed: int = 7) -> list[bytes]:
    """One seat's Play requests of a 4-seat 6 nimmt! rounds=1 game (every seat plays its
    first option), encoded as the referee sends them."""
    options = {"rounds": "1"}
    state = new_game("6nimmt", SEATS, seed, options)
    encoder = MatchEncoder()
    info = MatchInfo(
        match_id=match_id,
        variant="6nimmt",
        options=options,
        seat=seat,
        players=SEATS,
        player_names=tuple(f"bot{i}" for i in range(SEATS)),
        decision_ms=1000,
        time_bank_ms=5000,
        setup_ms=5000,
        seed_hint=seed,
    )
    requests = [pb.PlayRequest(start_match=codec.match_info_to_proto(info)).SerializeToString()]
    sent = decisions = 0
    while not state.is_terminal():
        step = driver.asks(state)
        for ask in step:
            if ask.seat == seat:
                request = encoder.decide_request(
                    match_id, seat, decisions, ask.view, ask.options, 1000, 5000, sent
                )
                requests.append(play_decide(request))
                sent, decisions = len(ask.view.header.history), decisions + 1
        driver.apply_choices(state, step, [0] * len(step))
    outcome = MatchOutcome(scores=(0,) * SEATS, ranks=(1,) * SEATS, faults=0, forfeited=False)
    end = codec.outcome_to_proto(match_id, seat, outcome)
    requests.append(pb.PlayRequest(end_match=end).SerializeToString())
    return requests


async def play(streams: Sequence[Stream], games: Deals) -> None:
    """Every game of `games` on each group of 4 streams (groups at once): each seat's
    requests of a game, the 4 seats of a group at once, request by request."""

    async def seat(stream: Stream, messages: Sequence[bytes]) -> None:
        for message in messages:
            await stream.write(message)
            reply = await stream.read()
            if not isinstance(reply, bytes):
                raise RuntimeError("the stream ended")

    async def group(seats: Sequence[Stream]) -> None:
        for requests in games:
            await asyncio.gather(*(seat(s, requests[i]) for i, s in enumerate(seats)))

    groups = [streams[i : i + SEATS] for i in range(0, len(streams), SEATS)]
    await asyncio.gather(*(group(g) for g in groups))


async def measure(args: argparse.Namespace) -> None:
    # a deal of its own for every game (seed), the same games in every round
    games = [[play_requests(f"g{g}", seat, g) for seat in range(SEATS)] for g in range(args.games)]
    messages = args.matches * sum(len(requests) for game in games for requests in game)
    random_bot = [sys.executable, "-m", "example_bots.random_bot", "--listen"]
    bots = ServerProcesses(random_bot, args.matches * SEATS, "bot", quiet=True)
    echoes = EchoServers(args.matches * SEATS)
    figures: dict[str, list[tuple[float, float]]] = {"sdk": [], "echo": []}
    try:
        await bots.connect()
        await echoes.connect()
        kinds: dict[str, tuple[list[Stream], list[int]]] = {
            "sdk": (
                [c.stream_stream(PLAY_METHOD, None, None)(None) for c in bots.channels],
                [p.pid for p in bots.processes],
            ),
            "echo": (
                [c.stream_stream(ECHO_STREAM_METHOD, None, None)(None) for c in echoes.channels],
                [p.pid for p in echoes.processes],
            ),
        }
        for streams, _ in kinds.values():
            await play(streams, games[:1])  # warm up
        for number in range(1, args.rounds + 1):
            line = []
            for kind in ("sdk", "echo") if number % 2 else ("echo", "sdk"):
                streams, pids = kinds[kind]
                client, served = time.process_time(), cpu_of(pids)
                await play(streams, games)
                client_ms = 1000 * (time.process_time() - client) / messages
                servers_ms = 1000 * (cpu_of(pids) - served) / messages
                figures[kind].append((client_ms, servers_ms))
                line.append(f"{kind} client {client_ms:.3f} + servers {servers_ms:.3f}")
            print(f"  round {number}: {'; '.join(line)} ms per message", flush=True)
        for streams, _ in kinds.values():
            for stream in streams:
                await stream.done_writing()
    finally:
        await bots.close()
        await echoes.close()
    per_match = messages / (args.matches * args.games)
    for kind, rows in figures.items():
        client_ms = statistics.median(r[0] for r in rows)
        servers_ms = statistics.median(r[1] for r in rows)
        print(
            f"  {kind:4s} CPU ms per message (median): client {client_ms:.3f}, "
            f"servers {servers_ms:.3f}"
        )
    print_league_floor(figures["echo"], per_match)


def print_league_floor(echo: Sequence[tuple[float, float]], per_match: float) -> None:
    """What the echo's figures mean for benchmarks/league.py's target: a league match sends
    at least these messages, so their cost on bare echo servers is a floor for its CPU."""
    echo_ms = statistics.median(client + servers for client, servers in echo)
    floor_ms = echo_ms * per_match
    budget_ms = LEAGUE_TARGET_S * CORES * 1000 / LEAGUE_MATCHES
    floor_s = floor_ms * LEAGUE_MATCHES / CORES / 1000
    print(
        f"  a match's {per_match:.0f} messages on bare echo servers: {floor_ms:.1f} ms of CPU; "
        f"{LEAGUE_MATCHES:,} matches on {CORES} idle cores: at least {floor_s:.0f} s for the "
        f"messages alone (target <= {LEAGUE_TARGET_S:.0f} s: {budget_ms:.1f} ms of CPU a match, "
        f"{budget_ms - floor_ms:.1f} ms left for the referee, the engine, the SDK and the bots)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=2, help="matches at once (4 seats)")
    parser.add_argument("--games", type=int, default=40, help="games per match per part")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    if min(args.matches, args.games, args.rounds) < 1:
        parser.error("--matches, --games and --rounds must be at least 1")
    print(
        f"play stream: {args.matches} matches x {SEATS} seats, {args.games} games (deals) a "
        "part, about 12 messages per seat and game"
    )
    asyncio.run(measure(args))


if __name__ == "__main__":
    main()
