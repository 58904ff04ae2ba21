"""Referee throughput: matches between random SDK bots (separate processes), many at once.

Prints refereed decisions/s, p50/p99 decision latency (the referee's measured call time),
and, in the same run, the rate of a bare gRPC echo call (a tiny echo server process, same
client concurrency) for comparison. Target: refereed decisions/s >= 60% of the echo rate.

    .venv/bin/python -m benchmarks.referee [--matches 24] [--concurrency 6]

(As a module: run as a script, this file's name would hide the ``referee`` package.)
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent import futures
from pathlib import Path

import grpc
import grpc.aio

ROOT = Path(__file__).resolve().parents[1]
ECHO_METHOD = "/bench.Echo/Echo"


def serve_echo(address: str) -> None:
    """The echo server: one Python gRPC server answering every call with its request."""
    handler = grpc.method_handlers_generic_handler(
        "bench.Echo", {"Echo": grpc.unary_unary_rpc_method_handler(lambda req, ctx: req)}
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(address)
    server.start()
    server.wait_for_termination()


async def echo_rate(concurrency: int, calls: int) -> float:
    """Calls/s of a bare echo at `concurrency` concurrent callers (server in a child)."""
    folder = tempfile.mkdtemp(prefix="bullring-echo-")
    address = f"unix:{folder}/echo.sock"
    server = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.referee", "--echo-server", address], cwd=ROOT
    )
    try:
        async with grpc.aio.insecure_channel(address) as channel:
            await asyncio.wait_for(channel.channel_ready(), 30)
            echo = channel.unary_unary(ECHO_METHOD, None, None)
            payload = b"x" * 16
            per_caller = max(1, calls // concurrency)

            async def caller() -> None:
                for _ in range(per_caller):
                    await echo(payload, wait_for_ready=True)

            await caller()  # warm up
            start = time.perf_counter()
            await asyncio.gather(*(caller() for _ in range(concurrency)))
            return per_caller * concurrency / (time.perf_counter() - start)
    finally:
        server.terminate()
        server.wait()


async def referee_rate(
    matches: int, concurrency: int, variant: str, options: dict[str, str], players: int
) -> tuple[float, list[float], int]:
    """(decisions/s, per-decision call ms, processes started) for `matches` matches."""
    from referee.manifest import load_manifest
    from referee.match import play_match
    from referee.process import BotPool
    from referee.spec import ClockSpec, MatchSpec

    bot = load_manifest(ROOT / "example_bots" / "random_bot")
    clock = ClockSpec(decision_ms=2000, time_bank_ms=10000, setup_ms=30000)
    base = MatchSpec("bench", variant, options, 0, (bot,) * players, clock)
    latencies: list[float] = []
    decisions = 0
    async with BotPool() as pool:
        # Warm up: start the processes the concurrent matches need.
        await asyncio.gather(
            *(
                play_match(dataclasses.replace(base, match_id=f"warm{i}", seed=10_000 + i), pool)
                for i in range(concurrency)
            )
        )
        queue = list(range(matches))
        start = time.perf_counter()

        async def worker() -> None:
            nonlocal decisions
            while queue:
                i = queue.pop()
                spec = dataclasses.replace(base, match_id=f"m{i}", seed=i)
                result = await play_match(spec, pool)
                decisions += result.decisions
                latencies.extend(d["ms"] for d in result.replay["decisions"] if not d["auto"])

        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - start
        started = pool.started
    return decisions / elapsed, latencies, started


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=24)
    parser.add_argument("--concurrency", type=int, default=6, help="matches at once")
    parser.add_argument("--variant", default="6nimmt")
    parser.add_argument("--option", action="append", default=["rounds=1"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--echo-server", metavar="ADDRESS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server:
        serve_echo(args.echo_server)
        return
    options = dict(item.split("=", 1) for item in args.option)
    rate, latencies, started = asyncio.run(
        referee_rate(args.matches, args.concurrency, args.variant, options, args.players)
    )
    calls = max(2000, int(rate * 5))
    echo = asyncio.run(echo_rate(args.concurrency, calls))
    print(
        f"referee: {args.matches} matches of {args.variant} {options} x{args.players} seats, "
        f"{args.concurrency} at once, {started} bot processes, {os.cpu_count()} cores"
    )
    print(f"  refereed decisions/s: {rate:9.0f}")
    print(
        f"  decision latency ms:  p50 {percentile(latencies, 50):.2f}  "
        f"p99 {percentile(latencies, 99):.2f}"
    )
    print(f"  bare gRPC echo calls/s at concurrency {args.concurrency}: {echo:9.0f}")
    print(f"  refereed / echo: {rate / echo:.0%} (target >= 60%)")


if __name__ == "__main__":
    if not __package__:
        sys.exit("run it as a module: python -m benchmarks.referee")
    main()
