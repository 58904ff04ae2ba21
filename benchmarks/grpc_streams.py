"""What a decision stream saves: the fan-out echo as unary calls and as messages on
long-lived bidirectional streams, in the same run.

The referee's call pattern without the referee and the SDK (as benchmarks/referee.py's
fan-out echo): one echo server process per seat (``--matches`` x 4), and per match one
caller that sends a message to each of its 4 seats at once and waits for all of them,
step after step. *unary*: each message is a unary call (as ``Decide``); *stream*: each
seat has one bidirectional stream for the whole run, and a message is a write and a read
on it (as ``DecideStream``). Both on benchmarks/referee.py's echo servers (a sync
``grpc.server``, as the SDK runs) and the referee's ``grpc.aio`` client stack, on Unix
sockets, with the referee's gRPC tuning. Rounds alternate the two; the medians are
printed.

    .venv/bin/python -m benchmarks.grpc_streams [--matches 2] [--steps 500] [--rounds 4]

(The measurement behind DecideStream; docs/referee.md, Speed.)
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

# isort: off
# benchmarks.referee loads the referee package first, which tunes gRPC's I/O engine
# before grpc loads (referee/bots/grpc_tuning.py); its echo servers serve both ways.
from benchmarks.referee import ECHO_METHOD, ECHO_STREAM_METHOD, EchoServers
import grpc
import grpc.aio

# isort: on

SEATS = 4
PAYLOAD = b"x" * 300  # about a 6 nimmt! Decide request with a history delta


async def fan_out(channels: list[grpc.aio.Channel], steps: int, streaming: bool) -> float:
    """Messages per second of every match's steps, all matches at once."""

    async def match(seats: list[grpc.aio.Channel]) -> None:
        if not streaming:
            calls = [c.unary_unary(ECHO_METHOD, None, None) for c in seats]
            for _ in range(steps):
                await asyncio.gather(*(call(PAYLOAD, timeout=10) for call in calls))
            return
        streams = [c.stream_stream(ECHO_STREAM_METHOD, None, None)(None) for c in seats]

        async def exchange(stream: grpc.aio.StreamStreamCall[bytes, bytes]) -> None:
            await stream.write(PAYLOAD)
            await stream.read()

        for _ in range(steps):
            await asyncio.gather(*(exchange(s) for s in streams))
        for s in streams:
            await s.done_writing()

    groups = [channels[i : i + SEATS] for i in range(0, len(channels), SEATS)]
    started = time.perf_counter()
    await asyncio.gather(*(match(group) for group in groups))
    return len(channels) * steps / (time.perf_counter() - started)


async def measure(args: argparse.Namespace) -> None:
    servers = EchoServers(args.matches * SEATS)
    try:
        await servers.connect()
        rates: dict[str, list[float]] = {"unary": [], "stream": []}
        for number in range(1, args.rounds + 1):
            for kind in ("unary", "stream") if number % 2 else ("stream", "unary"):
                rate = await fan_out(servers.channels, args.steps, kind == "stream")
                rates[kind].append(rate)
            print(
                f"  round {number}: unary {rates['unary'][-1]:6.0f}/s"
                f"  stream {rates['stream'][-1]:6.0f}/s",
                flush=True,
            )
    finally:
        await servers.close()
    unary, stream = statistics.median(rates["unary"]), statistics.median(rates["stream"])
    print(f"  unary echo messages/s (median):  {unary:.0f}")
    print(f"  stream echo messages/s (median): {stream:.0f}")
    print(f"  stream / unary: {stream / unary:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=2, help="matches at once (4 seats)")
    parser.add_argument("--steps", type=int, default=500, help="steps per match per part")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    if min(args.matches, args.steps, args.rounds) < 1:
        parser.error("--matches, --steps and --rounds must be at least 1")
    print(f"grpc streams: {args.matches} matches x {SEATS} seats, {args.steps} steps a part")
    asyncio.run(measure(args))


if __name__ == "__main__":
    main()
