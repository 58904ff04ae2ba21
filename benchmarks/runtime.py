"""Bot runtime overhead: Decide round trips to an SDK bot vs a bare gRPC echo server.

Run: ``.venv/bin/python benchmarks/runtime.py``. Both servers run in their own process on
a Unix socket and get the same requests: one seat's Decide requests of real seeded 6 nimmt!
games (4 players), in game order, as a referee sends them: first with history deltas (what
the referee sends an SDK bot), then with the whole history in every request. The echo
server answers every call with a constant reply without parsing it; the SDK bot parses,
decodes the view (one ViewDecoder per session), calls decide() (answers 0) and encodes the
reply.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent import futures
from pathlib import Path

import grpc

from sdk.bot import Bot
from sdk.game import Option, View, driver, new_game
from sdk.match import DecisionClock, MatchInfo
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.protocol.bullring.v1 import bot_pb2_grpc as pb_grpc
from sdk.runtime import SERVER_OPTIONS, run
from sdk.wire import codec

ROOT = Path(__file__).resolve().parents[1]
GAMES = 4
PASSES = 5


class FirstOption(Bot):
    name = "first"

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        return 0


def serve_echo(listen: str) -> None:
    replies = {
        "StartMatch": pb.StartMatchReply().SerializeToString(),
        "Decide": pb.DecideReply(option_index=0).SerializeToString(),
        "EndMatch": pb.EndMatchReply().SerializeToString(),
    }
    handler = grpc.method_handlers_generic_handler(
        "bullring.v1.Bot",
        {
            name: grpc.unary_unary_rpc_method_handler(lambda request, context, r=reply: r)
            for name, reply in replies.items()
        },
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16), options=SERVER_OPTIONS)
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(listen)
    server.start()
    print(f"LISTENING {listen}", flush=True)
    server.wait_for_termination()


def requests(deltas: bool) -> list[tuple[str, pb.DecideRequest]]:
    """Seat 0's Decide requests of a few seeded games, each game its own match id; with
    `deltas`, each carries only the history events the previous one did not (as the
    referee sends them to a bot whose HelloReply sets history_deltas)."""
    return [call for seed in range(GAMES) for call in game_requests(seed, deltas)]


def game_requests(seed: int, deltas: bool) -> list[tuple[str, pb.DecideRequest]]:
    """Seat 0's Decide requests of one random game (match id ``m<seed>``)."""
    match_id = f"m{seed}"
    rng = random.Random(seed)
    made: list[tuple[str, pb.DecideRequest]] = []
    sent = 0

    def choose(ask: driver.Ask) -> int:
        nonlocal sent
        if ask.seat == 0:
            view, options = ask.view, list(ask.options)
            offset = sent if deltas else 0
            request = codec.decide_request(
                match_id, 0, len(made), view, options, 1000, 5000, offset
            )
            made.append((match_id, request))
            sent = len(view.header.history)
        return rng.randrange(len(ask.options))

    driver.play(new_game("6nimmt", 4, seed), choose)
    return made


def start_server(kind: str, folder: Path) -> tuple[subprocess.Popen[str], pb_grpc.BotStub]:
    listen = f"unix:{folder / kind}.sock"
    process = subprocess.Popen(
        [sys.executable, __file__, "--serve", kind, "--listen", listen],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("LISTENING"), line
    return process, pb_grpc.BotStub(grpc.insecure_channel(listen))


def one_pass(stub: pb_grpc.BotStub, calls: list[tuple[str, pb.DecideRequest]]) -> float:
    """Microseconds per Decide over one pass of every game (each a fresh match)."""
    match_ids = sorted({m for m, _ in calls})
    for match_id in match_ids:
        stub.StartMatch(codec.match_info_to_proto(MatchInfo(match_id, "6nimmt", {}, 0, 4)))
    start = time.perf_counter()
    for _, request in calls:
        stub.Decide(request)
    elapsed = time.perf_counter() - start
    for match_id in match_ids:
        stub.EndMatch(pb.EndMatchRequest(match_id=match_id, seat=0))
    return elapsed / len(calls) * 1e6


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        servers = {kind: start_server(kind, Path(tmp)) for kind in ("echo", "bot")}
        try:
            for deltas in (True, False):
                compare(servers, requests(deltas), "history deltas" if deltas else "full history")
        finally:
            for process, _ in servers.values():
                process.terminate()
                process.wait(timeout=10)


def compare(
    servers: dict[str, tuple[subprocess.Popen[str], pb_grpc.BotStub]],
    calls: list[tuple[str, pb.DecideRequest]],
    what: str,
) -> None:
    size = sum(r.ByteSize() for _, r in calls) / len(calls)
    events = sum(len(r.view.header.history) for _, r in calls) / len(calls)
    print(f"{len(calls)} Decide requests ({what}), mean {size:.0f} B, {events:.0f} events sent")
    best = {kind: float("inf") for kind in servers}
    for _ in range(PASSES):  # alternate, so both see the same machine load
        for kind, (_, stub) in servers.items():
            best[kind] = min(best[kind], one_pass(stub, calls))
    echo, bot = best["echo"], best["bot"]
    print(f"  bare gRPC echo  {echo:8.1f} us/call  {1e6 / echo:8.0f} calls/s")
    print(f"  SDK bot         {bot:8.1f} us/call  {1e6 / bot:8.0f} calls/s")
    print(f"  SDK bot reaches {echo / bot:.0%} of the echo's rate (best of {PASSES} passes each)")


if __name__ == "__main__":
    if "--serve" in sys.argv:
        kind = sys.argv[sys.argv.index("--serve") + 1]
        address = sys.argv[sys.argv.index("--listen") + 1]
        if kind == "echo":
            serve_echo(address)
        else:
            run(FirstOption, address)
    else:
        main()
