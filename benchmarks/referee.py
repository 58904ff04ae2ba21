"""Referee throughput: matches between random SDK bots (separate processes), many at once.

Prints refereed decisions/s, p50/p99 decision latency (the referee's measured call time),
and, in the same run, the rate of a bare gRPC echo call (a tiny echo server process, the
same number of concurrent callers as matches at once) for comparison. Target: refereed
decisions/s >= 60% of the echo rate.

    .venv/bin/python -m benchmarks.referee [--concurrency 2] [--rounds 5] [--matches 8]

Both halves run with the referee's gRPC tuning (referee/grpc_tuning.py); to measure with
gRPC's defaults instead, run it with ``GRPC_EXPERIMENTS=`` (empty) in the environment.

The machine is shared, so one measurement is noisy: the two halves run interleaved, round
after round (alternating which goes first), against the same warm bot processes and the
same echo server, and the medians are reported. Each round plays ``--matches`` matches
(``--concurrency`` at once), then times as many echo calls as the round made decisions.
A Decide of a simultaneous pick goes to every seat at once, so up to concurrency x seats
calls are in flight; ``--echo-callers`` sets the echo's callers (default: concurrency).

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

# isort: off
# The referee package first: it tunes gRPC's I/O engine, which only takes effect before
# grpc loads (referee/grpc_tuning.py). The echo server, started from this process, inherits
# the same setting as the bot processes get, so both halves run on the same gRPC.
from referee.match import play_match
import grpc
import grpc.aio

# isort: on
from referee.manifest import load_manifest
from referee.process import BotPool
from referee.spec import ClockSpec, MatchSpec

ROOT = Path(__file__).resolve().parents[1]
ECHO_METHOD = "/bench.Echo/Echo"
ECHO_PAYLOAD = b"x" * 16


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


@dataclasses.dataclass
class Round:
    """One interleaved round: the referee's and the echo's figures."""

    decisions_per_s: float
    latencies_ms: list[float]
    echo_per_s: float

    @property
    def ratio(self) -> float:
        return self.decisions_per_s / self.echo_per_s


class Bench:
    """The echo channel and the bot pool, kept warm across rounds."""

    def __init__(
        self,
        args: argparse.Namespace,
        pool: BotPool,
        echo: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes],
    ) -> None:
        bot = load_manifest(ROOT / "example_bots" / "random_bot")
        clock = ClockSpec(decision_ms=2000, time_bank_ms=10000, setup_ms=30000)
        options = dict(item.split("=", 1) for item in args.option)
        self.base = MatchSpec("bench", args.variant, options, 0, (bot,) * args.players, clock)
        self.args = args
        self.pool = pool
        self.echo = echo
        self.next_seed = 0
        self.echo_calls_hint = 500  # the last round's decision count

    async def referee(self, matches: int) -> tuple[float, list[float]]:
        """(decisions/s, per-decision call ms) of `matches` matches, concurrency at once."""
        seeds = list(range(self.next_seed, self.next_seed + matches))
        self.next_seed += matches
        latencies: list[float] = []
        decisions = 0

        async def worker() -> None:
            nonlocal decisions
            while seeds:
                seed = seeds.pop()
                spec = dataclasses.replace(self.base, match_id=f"m{seed}", seed=seed)
                result = await play_match(spec, self.pool)
                decisions += result.decisions
                latencies.extend(d["ms"] for d in result.replay["decisions"] if not d["auto"])

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(self.args.concurrency)))
        return decisions / (time.perf_counter() - start), latencies

    async def echo_rate(self, calls: int) -> float:
        """Echo calls/s of `calls` calls made by the echo callers at once."""
        callers: int = self.args.echo_callers or self.args.concurrency
        per_caller = max(1, calls // callers)

        async def caller() -> None:
            for _ in range(per_caller):
                await self.echo(ECHO_PAYLOAD)

        start = time.perf_counter()
        await asyncio.gather(*(caller() for _ in range(callers)))
        return per_caller * callers / (time.perf_counter() - start)

    async def round(self, index: int) -> Round:
        if index % 2 == 0:
            rate, latencies = await self.referee(self.args.matches)
            echo = await self.echo_rate(max(500, len(latencies)))
        else:
            echo = await self.echo_rate(max(500, int(self.echo_calls_hint)))
            rate, latencies = await self.referee(self.args.matches)
        self.echo_calls_hint = len(latencies)
        return Round(rate, latencies, echo)


async def run(args: argparse.Namespace) -> tuple[list[Round], int]:
    folder = tempfile.mkdtemp(prefix="bullring-echo-")
    address = f"unix:{folder}/echo.sock"
    server = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.referee", "--echo-server", address], cwd=ROOT
    )
    try:
        async with grpc.aio.insecure_channel(address) as channel, BotPool() as pool:
            await asyncio.wait_for(channel.channel_ready(), 30)
            echo = channel.unary_unary(ECHO_METHOD, None, None)
            bench = Bench(args, pool, echo)
            # Warm up: start the processes the concurrent matches need, and the echo.
            bench.next_seed = 1_000_000
            await bench.referee(args.concurrency * 2)
            bench.next_seed = 0
            await bench.echo_rate(1000)
            rounds = []
            for index in range(args.rounds):
                rounds.append(await bench.round(index))
                r = rounds[-1]
                print(
                    f"  round {index + 1}: refereed {r.decisions_per_s:6.0f}/s  "
                    f"echo {r.echo_per_s:6.0f}/s  ratio {r.ratio:4.0%}",
                    flush=True,
                )
            return rounds, pool.started
    finally:
        server.terminate()
        server.wait()


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=8, help="matches per round")
    parser.add_argument("--concurrency", type=int, default=2, help="matches at once")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--echo-callers", type=int, default=0, help="default: concurrency")
    parser.add_argument("--variant", default="6nimmt")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--echo-server", metavar="ADDRESS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server:
        serve_echo(args.echo_server)
        return
    print(f"  GRPC_EXPERIMENTS={os.environ.get('GRPC_EXPERIMENTS', '')!r} (referee, bots and echo)")
    print(
        f"referee: {args.variant} {args.option or ''} x{args.players} seats, "
        f"{args.concurrency} matches at once, {args.matches} per round, "
        f"echo callers {args.echo_callers or args.concurrency}, {os.cpu_count()} cores",
        flush=True,
    )
    rounds, started = asyncio.run(run(args))
    latencies = [ms for r in rounds for ms in r.latencies_ms]
    rate = statistics.median(r.decisions_per_s for r in rounds)
    echo = statistics.median(r.echo_per_s for r in rounds)
    ratio = statistics.median(r.ratio for r in rounds)
    print(f"  bot processes started: {started}")
    print(f"  refereed decisions/s (median): {rate:9.0f}")
    print(
        f"  decision latency ms:  p50 {percentile(latencies, 50):.2f}  "
        f"p99 {percentile(latencies, 99):.2f}"
    )
    print(f"  bare gRPC echo calls/s (median): {echo:9.0f}")
    print(f"  refereed / echo (median of rounds): {ratio:.0%} (target >= 60%)")


if __name__ == "__main__":
    if not __package__:
        sys.exit("run it as a module: python -m benchmarks.referee")
    main()
