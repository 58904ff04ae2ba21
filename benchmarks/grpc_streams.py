"""What a streaming Decide could gain: the fan-out echo as unary calls and as messages on
long-lived bidirectional streams, in the same run.

The referee's call pattern without the referee and the SDK (as benchmarks/referee.py's
fan-out echo): one echo server process per seat (``--matches`` x 4), and per match one
caller that sends a message to each of its 4 seats at once and waits for all of them,
step after step. *unary*: each message is a unary call (the protocol's Decide today);
*stream*: each seat has one bidirectional stream for the whole run, and a message is a
write and a read on it. Both on the same Python servers (a sync ``grpc.server``, as the
SDK runs) and the referee's ``grpc.aio`` client stack, on Unix sockets, with the referee's
gRPC tuning. Rounds alternate the two; the medians are printed.

    .venv/bin/python -m benchmarks.grpc_streams [--matches 2] [--steps 500] [--rounds 4]

(A measurement to decide on a protocol change, not a target: DESIGN.md's Decide is a
unary call with a gRPC deadline.)
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path

# isort: off
import referee  # noqa: F401  (tunes gRPC's I/O engine before grpc loads)
import grpc
import grpc.aio

# isort: on

ROOT = Path(__file__).resolve().parents[1]
SEATS = 4
PAYLOAD = b"x" * 300  # about a 6 nimmt! Decide request with a history delta


def serve(address: str) -> None:
    """An echo server answering unary calls and stream messages with what it got."""

    def stream(requests: Iterator[bytes], context: grpc.ServicerContext) -> Iterator[bytes]:
        yield from requests

    handler = grpc.method_handlers_generic_handler(
        "bench.Echo",
        {
            "Unary": grpc.unary_unary_rpc_method_handler(lambda request, context: request),
            "Stream": grpc.stream_stream_rpc_method_handler(stream),
        },
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(address)
    server.start()
    server.wait_for_termination()


async def fan_out(channels: list[grpc.aio.Channel], steps: int, streaming: bool) -> float:
    """Messages per second of every match's steps, all matches at once."""

    async def match(seats: list[grpc.aio.Channel]) -> None:
        if not streaming:
            calls = [c.unary_unary("/bench.Echo/Unary", None, None) for c in seats]
            for _ in range(steps):
                await asyncio.gather(*(call(PAYLOAD, timeout=10) for call in calls))
            return
        streams = [c.stream_stream("/bench.Echo/Stream", None, None)(None) for c in seats]

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


async def measure(args: argparse.Namespace, addresses: list[str]) -> None:
    channels = [grpc.aio.insecure_channel(a) for a in addresses]
    try:
        for channel in channels:
            await asyncio.wait_for(channel.channel_ready(), 30)
        rates: dict[str, list[float]] = {"unary": [], "stream": []}
        for number in range(1, args.rounds + 1):
            for kind in ("unary", "stream") if number % 2 else ("stream", "unary"):
                rates[kind].append(await fan_out(channels, args.steps, kind == "stream"))
            print(
                f"  round {number}: unary {rates['unary'][-1]:6.0f}/s"
                f"  stream {rates['stream'][-1]:6.0f}/s",
                flush=True,
            )
    finally:
        for channel in channels:
            await channel.close(None)
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
    parser.add_argument("--serve", metavar="ADDRESS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    if min(args.matches, args.steps, args.rounds) < 1:
        parser.error("--matches, --steps and --rounds must be at least 1")
    folder = tempfile.mkdtemp(prefix="bs-")  # short: a Unix socket path has ~107 bytes
    addresses = [f"unix:{folder}/echo{i}.sock" for i in range(args.matches * SEATS)]
    servers = [
        subprocess.Popen([sys.executable, "-m", "benchmarks.grpc_streams", "--serve", a], cwd=ROOT)
        for a in addresses
    ]
    print(f"grpc streams: {args.matches} matches x {SEATS} seats, {args.steps} steps a part")
    try:
        asyncio.run(measure(args, addresses))
    finally:
        for server in servers:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
