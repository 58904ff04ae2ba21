"""Conformance check of a bot (``bullring bot check``): does it start, answer and play?

The bot is started exactly as the referee starts it (:class:`referee.process.BotPool`:
its manifest's command, a private Unix socket, resource limits). The check then

1. waits for grpc.health.v1 to report SERVING within the setup limit;
2. calls Hello: the protocol version must be the referee's, the name non-empty and every
   claimed variant a known preset;
3. plays ``games`` seeded matches of each variant the bot claims (or of the ones asked
   for) against the example bots, the bot's seat rotating, with the referee's real clocks;
4. reports decision latency (p50, p99, max, deadline overruns), faults by kind (PROTOCOL
   and ILLEGAL are protocol errors) and the problems found.

The bot passes when Hello is right and no match recorded a fault against its seat. See
docs/bot-check.md.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import grpc.aio

from referee.manifest import load_manifest
from referee.match import DecisionRecord, play_match
from referee.process import BotPool, BotStartError, channel_options
from referee.sandbox import SandboxConfig
from referee.spec import BotSpec, ClockSpec, Fault, FaultKind, MatchResult, MatchSpec
from sdk import codec
from sdk.game import GameState
from sdk.game.variants import PRESETS, check_players, parse_variant
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.protocol.bullring.v1 import bot_pb2_grpc as pb_grpc

EXAMPLE_BOTS = Path(__file__).resolve().parents[1] / "example_bots"
DEFAULT_OPPONENTS = ("random_bot", "rules_bot")
DEFAULT_PLAYERS = 4
PROTOCOL_KINDS = frozenset({FaultKind.PROTOCOL, FaultKind.ILLEGAL})


def default_opponents() -> list[BotSpec]:
    """The example bots the check plays against (random and rule-based)."""
    return [load_manifest(EXAMPLE_BOTS / name) for name in DEFAULT_OPPONENTS]


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by the nearest-rank method; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100.0 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Latency:
    """Decision times of the checked bot, in milliseconds."""

    samples: list[float] = field(default_factory=list)

    def summary(self, deadline_ms: int) -> dict[str, Any]:
        s = self.samples
        return {
            "decisions": len(s),
            "p50_ms": round(percentile(s, 50), 2),
            "p99_ms": round(percentile(s, 99), 2),
            "max_ms": round(max(s, default=0.0), 2),
            "overruns": sum(1 for ms in s if deadline_ms and ms > deadline_ms),
        }


@dataclass
class VariantReport:
    """The matches of one variant."""

    variant: str
    players: int
    games: int = 0
    latency: Latency = field(default_factory=Latency)
    faults: list[Fault] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    error: str = ""  # the variant could not be played at all

    def to_json(self, deadline_ms: int) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            **self.latency.summary(deadline_ms),
            "faults": dict(Counter(f.kind.value for f in self.faults)),
            "fault_details": [f.to_json() for f in self.faults[:20]],
            "mean_rank": round(sum(self.ranks) / len(self.ranks), 3) if self.ranks else None,
            "error": self.error,
        }


@dataclass
class CheckReport:
    """Everything the check found; ``passed`` decides the exit status."""

    bot: str
    manifest: str | None
    clock: ClockSpec
    healthy: bool = False
    hello: dict[str, Any] = field(default_factory=dict)
    variants: list[VariantReport] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    duration_s: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.problems

    @property
    def latency(self) -> Latency:
        return Latency([ms for v in self.variants for ms in v.latency.samples])

    @property
    def faults(self) -> list[Fault]:
        return [f for v in self.variants for f in v.faults]

    def to_json(self) -> dict[str, Any]:
        faults = self.faults
        return {
            "bot": self.bot,
            "manifest": self.manifest,
            "passed": self.passed,
            "healthy": self.healthy,
            "hello": self.hello,
            "clock": self.clock.to_json(),
            **self.latency.summary(self.clock.decision_ms),
            "faults": dict(Counter(f.kind.value for f in faults)),
            "protocol_errors": sum(1 for f in faults if f.kind in PROTOCOL_KINDS),
            "variants": [v.to_json(self.clock.decision_ms) for v in self.variants],
            "problems": list(self.problems),
            "duration_s": round(self.duration_s, 2),
        }


class _SeatRecorder:
    """A match observer that keeps the checked seat's decision times."""

    def __init__(self, seat: int, latency: Latency) -> None:
        self.seat = seat
        self.latency = latency

    def on_start(self, state: GameState, names: Sequence[str]) -> None:
        pass

    def on_step(self, state: GameState, records: Sequence[DecisionRecord]) -> None:
        for record in records:
            if record.seat == self.seat and not record.auto:
                self.latency.samples.append(record.ms)

    def on_fault(self, fault: Fault) -> None:
        pass

    def on_end(self, result: MatchResult) -> None:
        pass


async def _hello(address: str, timeout_s: float) -> pb.HelloReply:
    async with grpc.aio.insecure_channel(address, options=channel_options()) as channel:
        stub = pb_grpc.BotStub(channel)
        request = pb.HelloRequest(protocol_version=codec.PROTOCOL_VERSION, referee="bullring-check")
        reply: pb.HelloReply = await stub.Hello(request, timeout=timeout_s)
        return reply


async def check_hello(report: CheckReport, pool: BotPool, spec: BotSpec) -> list[str] | None:
    """Start the bot, wait for SERVING and call Hello; the variants it claims, or None when
    it failed (the reason is in ``report.problems``)."""
    setup_s = report.clock.setup_ms / 1000.0
    try:
        lease = await pool.lease(spec, setup_s)
    except BotStartError as exc:
        report.problems.append(f"health: {exc.kind.value}: {exc.detail}")
        return None
    report.healthy = True
    try:
        reply = await _hello(lease.address, setup_s)
    except grpc.aio.AioRpcError as exc:
        report.problems.append(f"hello: {exc.code().name}: {exc.details()}")
        await pool.release(lease, discard=True)
        return None
    await pool.release(lease, discard=False)
    claimed = list(reply.variants)
    report.hello = {
        "name": reply.name,
        "version": reply.version,
        "author": reply.author,
        "protocol_version": reply.protocol_version,
        "variants": claimed,
        "history_deltas": reply.history_deltas,
        "decide_stream": reply.decide_stream,
    }
    if reply.protocol_version != codec.PROTOCOL_VERSION:
        report.problems.append(
            f"hello: protocol version {reply.protocol_version}, "
            f"the referee speaks {codec.PROTOCOL_VERSION}"
        )
    if not reply.name.strip():
        report.problems.append("hello: empty bot name")
    unknown = [v for v in claimed if v not in PRESETS]
    if unknown:
        report.problems.append(
            f"hello: unknown variant(s) {', '.join(unknown)}; known: {', '.join(PRESETS)}"
        )
    if report.problems:
        return None
    return [v for v in claimed if v in PRESETS] or list(PRESETS)


def players_for(variant: str, wanted: int) -> int:
    """`wanted` seats when the preset allows them, else the nearest allowed count."""
    preset = parse_variant(variant).preset
    return min(max(wanted, preset.min_players), preset.max_players)


async def check_variant(
    report: CheckReport,
    pool: BotPool,
    spec: BotSpec,
    variant: str,
    *,
    games: int,
    players: int,
    opponents: Sequence[BotSpec],
    seed: int,
) -> VariantReport:
    """Play `games` matches of `variant`, the checked bot's seat rotating."""
    parsed = parse_variant(variant)
    seats = players_for(variant, players)
    result = VariantReport(parsed.id, seats)
    check_players(parsed.preset, seats)
    for game in range(games):
        seat = game % seats
        others = [opponents[(game + i) % len(opponents)] for i in range(seats - 1)]
        bots = (*others[:seat], spec, *others[seat:])
        match = MatchSpec(
            match_id=f"check-{spec.name}-{parsed.id}-{game}",
            variant=parsed.preset.name,
            options=dict(parsed.options),
            seed=seed + game,
            bots=bots,
            clock=report.clock,
        )
        recorder = _SeatRecorder(seat, result.latency)
        outcome = await play_match(match, pool, recorder)
        result.games += 1
        result.ranks.append(outcome.ranks[seat])
        mine = [f for f in outcome.faults if f.seat == seat]
        result.faults.extend(mine)
        theirs = [f for f in outcome.faults if f.seat != seat]
        if theirs:
            first = theirs[0]
            report.problems.append(
                f"{parsed.id} game {game}: opponent at seat {first.seat} faulted "
                f"({first.kind.value}: {first.detail}); check the opponents, not this bot"
            )
        if mine:
            first = mine[0]
            where = "setup" if first.decision < 0 else f"decision {first.decision}"
            report.problems.append(
                f"{parsed.id} game {game} (seat {seat}): {len(mine)} fault(s), first "
                f"{first.kind.value} at {where}: {first.detail}"
            )
            break  # one failing game is enough to fail the variant
    return result


async def check_bot(
    spec: BotSpec,
    *,
    games: int = 2,
    variants: Sequence[str] | None = None,
    players: int = DEFAULT_PLAYERS,
    clock: ClockSpec | None = None,
    opponents: Sequence[BotSpec] | None = None,
    seed: int = 1,
    keep_going: bool = False,
    sandbox: SandboxConfig | None = None,
) -> CheckReport:
    """Run the whole check on `spec` (see the module docstring), its processes in
    `sandbox` (default: the default sandbox)."""
    started = time.monotonic()
    report = CheckReport(spec.name, spec.manifest, clock or ClockSpec())
    rivals = list(opponents) if opponents else default_opponents()
    async with BotPool(sandbox=sandbox or SandboxConfig()) as pool:
        claimed = await check_hello(report, pool, spec)
        if claimed is not None:
            wanted = list(variants) if variants else claimed
            for variant in wanted:
                name = variant.partition(":")[0]
                if name not in claimed:
                    report.problems.append(f"{variant}: the bot does not claim this variant")
                    continue
                part = await check_variant(
                    report,
                    pool,
                    spec,
                    variant,
                    games=games,
                    players=players,
                    opponents=rivals,
                    seed=seed,
                )
                report.variants.append(part)
                if part.faults and not keep_going:
                    break
    report.duration_s = time.monotonic() - started
    return report


def run_check(spec: BotSpec, **kwargs: Any) -> CheckReport:
    """:func:`check_bot` from synchronous code."""
    return asyncio.run(check_bot(spec, **kwargs))
