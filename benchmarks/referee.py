"""Referee throughput: matches between random SDK bots (separate processes), many at once.

Prints refereed decisions/s, p50/p99 decision latency (the referee's measured call time),
and, in the same run, the rate of bare gRPC echo calls with the same concurrency, two ways:

- **fan-out echo**: the referee's call pattern without the referee and the SDK. One echo
  server process per bot process (``--concurrency`` x ``--players``), and per match at once
  one caller that sends a call to each of its seats' servers at once and waits for all of
  them, step after step, as the referee asks a simultaneous pick. The same calls in flight,
  to the same number of processes: what is left between the two is the referee's and the
  SDK's own cost.
- **single echo**: one echo server process and ``--echo-callers`` callers (default: one per
  match at once, each with one call in flight): the cheapest layout gRPC has, with every
  call to the same process.

The refereed bots are SDK bots, so each bot process gets its StartMatch, decisions and
EndMatch on one Play stream (see docs/referee.md); the echoes are bare unary calls, the
issue's "bare gRPC echo call" (benchmarks/grpc_streams.py compares calls with stream
messages).

Target: refereed decisions/s >= 80% of the fan-out echo's calls/s; the ratio is printed against
both echoes, and a busy machine moves the two apart (eight echo processes suffer more from
other load than one). The echo servers are the same
one-line Python server (a sync ``grpc.server``, as the SDK runs), the callers the same
``grpc.aio`` client stack as the referee, all on Unix sockets.

Each round also prints CPU time (from /proc and the process's own clock, so less moved by
other load than the rates): the referee's and its bots' per refereed decision, and the
fan-out caller's and its echo servers' per echo call.

    .venv/bin/python -m benchmarks.referee [--concurrency 2] [--rounds 5] [--matches 8]

Everything runs with the referee's gRPC tuning (referee/bots/grpc_tuning.py); to measure with
gRPC's defaults instead, run it with ``GRPC_EXPERIMENTS=`` (empty) in the environment.

The machine is shared, so one measurement is noisy: the three parts run interleaved, round
after round (in a rotating order), against the same warm bot processes and echo servers,
and the medians are reported. Each round plays ``--matches`` matches (``--concurrency`` at
once), then times as many echo calls of each kind as the round made decisions.

(As a module: run as a script, this file's name would hide the ``referee`` package.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Iterable, Iterator, Sequence
from concurrent import futures
from pathlib import Path

# isort: off
# The referee package first: it tunes gRPC's I/O engine, which only takes effect before
# grpc loads (referee/bots/grpc_tuning.py). The echo servers, started from this process, inherit
# the same setting as the bot processes get, so every part runs on the same gRPC.
from referee.match.runner import play_match
import grpc
import grpc.aio

# isort: on
from referee.bots.manifest import load_manifest
from referee.bots.process import BotPool
from referee.spec import ClockSpec, MatchSpec

ROOT = Path(__file__).resolve().parents[1]
ECHO_METHOD = "/bench.Echo/Echo"
ECHO_STREAM_METHOD = "/bench.Echo/Stream"  # benchmarks/grpc_streams.py: messages on a stream
ECHO_PAYLOAD = b"x" * 16
TARGET = 0.80  # issue 13: refereed decisions >= 80% of the fan-out echo

Echo = grpc.aio.UnaryUnaryMultiCallable[bytes, bytes]


def serve_echo(address: str) -> None:
    """An echo server: one Python gRPC server answering every call with its request (and
    every message of a stream with that message)."""

    def stream(requests: Iterator[bytes], context: grpc.ServicerContext) -> Iterator[bytes]:
        yield from requests

    handler = grpc.method_handlers_generic_handler(
        "bench.Echo",
        {
            "Echo": grpc.unary_unary_rpc_method_handler(lambda req, ctx: req),
            "Stream": grpc.stream_stream_rpc_method_handler(stream),
        },
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port(address)
    server.start()
    server.wait_for_termination()


class ServerProcesses:
    """`count` server processes, each started as `command` + its private Unix socket's
    address (``unix:...``), with a channel to each once connected. `name` names the
    temporary folder and the sockets; `quiet` sends the servers' output to /dev/null."""

    def __init__(self, command: Sequence[str], count: int, name: str, quiet: bool = False) -> None:
        self.folder = tempfile.mkdtemp(prefix=f"bullring-{name}-")
        self.addresses = [f"unix:{self.folder}/{name}{i}.sock" for i in range(count)]
        output = subprocess.DEVNULL if quiet else None
        self.processes = [
            subprocess.Popen([*command, address], cwd=ROOT, stdout=output)
            for address in self.addresses
        ]
        self.channels: list[grpc.aio.Channel] = []

    async def connect(self) -> None:
        self.channels = [grpc.aio.insecure_channel(a) for a in self.addresses]
        for channel in self.channels:
            await asyncio.wait_for(channel.channel_ready(), 30)

    async def close(self) -> None:
        for channel in self.channels:
            await channel.close(None)
        for process in self.processes:
            process.terminate()
            process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


class EchoServers(ServerProcesses):
    """This module's echo servers (``--echo-server``)."""

    def __init__(self, count: int) -> None:
        super().__init__(
            [sys.executable, "-m", "benchmarks.referee", "--echo-server"], count, "echo"
        )

    def unary_echoes(self) -> list[Echo]:
        """A unary echo call per connected server."""
        return [c.unary_unary(ECHO_METHOD, None, None) for c in self.channels]


@dataclasses.dataclass
class Round:
    """One interleaved round: the referee's and the two echoes' figures (CPU: ms per
    decision or call, of the calling process and of the called processes)."""

    decisions_per_s: float
    latencies_ms: list[float]
    fanout_per_s: float
    single_per_s: float
    referee_cpu_ms: float = 0.0
    bots_cpu_ms: float = 0.0
    fanout_cpu_ms: float = 0.0
    echoes_cpu_ms: float = 0.0


TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")


def with_descendants(pids: Iterable[int]) -> list[int]:
    """`pids` and every live process below them (a bot runs below its launcher)."""
    found, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        found.append(pid)
        for task in Path(f"/proc/{pid}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                todo += [int(child) for child in task.read_text().split()]
    return found


def cpu_of(pids: Iterable[int]) -> float:
    """CPU seconds (user + system) the live processes `pids` have used, from /proc."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += (int(fields[11]) + int(fields[12])) * TICK_S
    return total


class Bench:
    """The bot pool and the echo servers, kept warm across rounds."""

    def __init__(
        self, args: argparse.Namespace, pool: BotPool, fanout: list[Echo], single: Echo
    ) -> None:
        bot = load_manifest(ROOT / "example_bots" / "random_bot")
        clock = ClockSpec(decision_ms=2000, time_bank_ms=10000, setup_ms=30000)
        options = dict(item.split("=", 1) for item in args.option)
        self.base = MatchSpec("bench", args.variant, options, 0, (bot,) * args.players, clock)
        self.args = args
        self.pool = pool
        self.fanout = fanout
        self.single = single
        self.next_seed = 0
        self.calls = 500  # echo calls per part: the last round's decision count
        self.fanout_pids: list[int] = []  # the fan-out echo's server processes

    async def referee(self) -> tuple[float, list[float]]:
        """(decisions/s, per-decision call ms) of a round's matches, concurrency at once."""
        seeds = list(range(self.next_seed, self.next_seed + self.args.matches))
        self.next_seed += self.args.matches
        latencies: list[float] = []
        decisions = 0

        async def worker() -> None:
            nonlocal decisions
            while seeds:
                seed = seeds.pop()
                spec = dataclasses.replace(self.base, match_id=f"m{seed}", seed=seed)
                result = await play_match(spec, self.pool)
                decisions += result.decisions
                assert result.replay is not None
                latencies.extend(d.ms for d in result.replay.decisions if not d.auto)

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(self.args.concurrency)))
        return decisions / (time.perf_counter() - start), latencies

    async def single_rate(self) -> float:
        """Calls/s of the single echo: its callers at once, one call in flight each."""
        callers: int = self.args.echo_callers or self.args.concurrency
        per_caller = max(1, self.calls // callers)

        async def caller() -> None:
            for _ in range(per_caller):
                await self.single(ECHO_PAYLOAD)

        return await timed(per_caller * callers, gather_all(caller() for _ in range(callers)))

    def fanout_calls(self) -> int:
        """The calls :meth:`fanout_rate` makes."""
        seats: int = self.args.players
        concurrency: int = self.args.concurrency
        return max(1, self.calls // (seats * concurrency)) * seats * concurrency

    async def fanout_rate(self) -> float:
        """Calls/s of the fan-out echo: per match at once, a call to each seat's server at
        once, step after step."""
        seats = self.args.players
        steps = max(1, self.calls // (seats * self.args.concurrency))

        async def match(servers: list[Echo]) -> None:
            for _ in range(steps):
                await asyncio.gather(*(echo(ECHO_PAYLOAD) for echo in servers))

        groups = [self.fanout[m * seats : (m + 1) * seats] for m in range(self.args.concurrency)]
        return await timed(steps * seats * len(groups), gather_all(match(g) for g in groups))

    async def round(self, index: int) -> Round:
        """The three parts, in an order that rotates from round to round."""
        rate, fanout, single = 0.0, 0.0, 0.0
        cpu = [0.0] * 4
        latencies: list[float] = []
        parts = ("referee", "fanout", "single")
        bots = with_descendants(self.pool.pids())
        for part in parts[index % 3 :] + parts[: index % 3]:
            if part == "referee":
                own, others = time.process_time(), cpu_of(bots)
                rate, latencies = await self.referee()
                cpu[0] = 1000 * (time.process_time() - own) / len(latencies)
                cpu[1] = 1000 * (cpu_of(bots) - others) / len(latencies)
            elif part == "fanout":
                own, others = time.process_time(), cpu_of(self.fanout_pids)
                fanout = await self.fanout_rate()
                cpu[2] = 1000 * (time.process_time() - own) / self.fanout_calls()
                cpu[3] = 1000 * (cpu_of(self.fanout_pids) - others) / self.fanout_calls()
            else:
                single = await self.single_rate()
        self.calls = max(500, len(latencies))
        return Round(rate, latencies, fanout, single, *cpu)


async def gather_all(awaitables: Iterable[Awaitable[None]]) -> None:
    await asyncio.gather(*awaitables)


async def timed(calls: int, work: Awaitable[None]) -> float:
    """`calls` / the seconds awaiting `work` takes."""
    start = time.perf_counter()
    await work
    return calls / (time.perf_counter() - start)


async def run(args: argparse.Namespace) -> tuple[list[Round], int]:
    fleet = EchoServers(args.concurrency * args.players + 1)
    try:
        async with BotPool() as pool:
            await fleet.connect()
            echoes = fleet.unary_echoes()
            bench = Bench(args, pool, echoes[:-1], echoes[-1])
            bench.fanout_pids = [p.pid for p in fleet.processes[:-1]]
            # Warm up: start the processes the concurrent matches need, and the echoes.
            bench.next_seed = 1_000_000
            await bench.referee()
            bench.next_seed = 0
            await bench.fanout_rate()
            await bench.single_rate()
            rounds = []
            for index in range(args.rounds):
                rounds.append(r := await bench.round(index))
                print(
                    f"  round {index + 1}: refereed {r.decisions_per_s:6.0f}/s  "
                    f"fan-out echo {r.fanout_per_s:6.0f}/s "
                    f"({r.decisions_per_s / r.fanout_per_s:4.0%})  "
                    f"single echo {r.single_per_s:6.0f}/s "
                    f"({r.decisions_per_s / r.single_per_s:4.0%})  CPU ms: referee "
                    f"{r.referee_cpu_ms:.3f} + bots {r.bots_cpu_ms:.3f} per decision, fan-out "
                    f"caller {r.fanout_cpu_ms:.3f} + echoes {r.echoes_cpu_ms:.3f} per call; "
                    f"load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
            return rounds, pool.started
    finally:
        await fleet.close()


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else values[0]


def verdict(ratio: float) -> str:
    return "met" if ratio >= TARGET else "not met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=8, help="matches per round")
    parser.add_argument("--concurrency", type=int, default=2, help="matches at once")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument(
        "--echo-callers", type=int, default=0, help="single echo's callers (default: concurrency)"
    )
    parser.add_argument("--variant", default="6nimmt")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--echo-server", metavar="ADDRESS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server:
        serve_echo(args.echo_server)
        return
    print(
        f"referee: {args.variant} {args.option or ''} x{args.players} seats, "
        f"{args.concurrency} matches at once, {args.matches} per round, "
        f"single echo callers {args.echo_callers or args.concurrency}, "
        f"{os.cpu_count()} cores, GRPC_EXPERIMENTS={os.environ.get('GRPC_EXPERIMENTS', '')!r}",
        flush=True,
    )
    rounds, started = asyncio.run(run(args))
    latencies = [ms for r in rounds for ms in r.latencies_ms]
    rate = statistics.median(r.decisions_per_s for r in rounds)
    fanout = statistics.median(r.fanout_per_s for r in rounds)
    single = statistics.median(r.single_per_s for r in rounds)
    fanout_ratio = statistics.median(r.decisions_per_s / r.fanout_per_s for r in rounds)
    single_ratio = statistics.median(r.decisions_per_s / r.single_per_s for r in rounds)
    print(f"  bot processes started: {started}")
    cpu = {
        name: statistics.median(getattr(r, name) for r in rounds)
        for name in ("referee_cpu_ms", "bots_cpu_ms", "fanout_cpu_ms", "echoes_cpu_ms")
    }
    print(
        f"  CPU ms per refereed decision (median): referee {cpu['referee_cpu_ms']:.3f}, "
        f"bots {cpu['bots_cpu_ms']:.3f}; per fan-out echo call: caller "
        f"{cpu['fanout_cpu_ms']:.3f}, echo servers {cpu['echoes_cpu_ms']:.3f}"
    )
    print(f"  refereed decisions/s (median): {rate:9.0f}")
    print(
        f"  decision latency ms:  p50 {percentile(latencies, 50):.2f}  "
        f"p99 {percentile(latencies, 99):.2f}"
    )
    print(f"  fan-out echo calls/s (median): {fanout:9.0f}")
    print(f"  single echo calls/s (median):  {single:9.0f}")
    print(
        f"  refereed / fan-out echo (median of rounds): {fanout_ratio:.0%} "
        f"(target >= {TARGET:.0%}: {verdict(fanout_ratio)})"
    )
    print(
        f"  refereed / single echo (median of rounds):  {single_ratio:.0%} "
        f"(target >= {TARGET:.0%}: {verdict(single_ratio)})"
    )


if __name__ == "__main__":
    if not __package__:
        sys.exit("run it as a module: python -m benchmarks.referee")
    main()
