"""Conformance check of a bot (``bullring bot check``): does it start, answer and play?

The bot is started exactly as the referee starts it (:class:`referee.bots.process.BotPool`:
its manifest's command in the sandbox, a private Unix socket, resource limits). The check
then

1. waits for grpc.health.v1 to report SERVING within the setup limit;
2. calls Hello: the protocol version must be the referee's, the name non-empty, name and
   version those of the manifest, and every claim valid (sdk/wire/claims.py: a known variant,
   with valid options if it names any);
3. plays ``games`` seeded matches of each format the bot claims, the claims that name
   options first (or of the ones asked for, which its claims must cover) against the
   example bots (or given opponents), the bot's seat rotating, with the referee's real
   clocks;
4. reports decision latency (p50, p99, max, deadline overruns), faults by kind (PROTOCOL
   and ILLEGAL are protocol errors) and the problems found.

The bot passes when Hello is right and no match recorded a fault against its seat. See
docs/bot-check.md.

To the bot, the check's matches look like a league's (:class:`LeagueLook`): Hello once per
process from the referee's own name, league-format match ids (``demo-000042``), deals and
seed hints from a fresh secret key, the clock it is given (``bot submit``: the league's),
so that a bot cannot play fair only when it is being checked.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from referee.bots.client import BotClient, protocol_mismatch
from referee.bots.manifest import load_manifest
from referee.bots.process import BotPool, BotStartError
from referee.faults import Fault, FaultKind
from referee.league.config import LeagueConfig
from referee.league.formats import league_match_id
from referee.league.runner import active_roster
from referee.league.store import LeagueStore
from referee.match.runner import DecisionRecord, play_match
from referee.replay.result import MatchResult
from referee.sandbox.config import SandboxConfig
from referee.spec import BotSpec, ClockSpec, MatchSpec
from sdk.game import GameState
from sdk.game.variants import VariantSpec, check_players, parse_variant
from sdk.seeding import MatchSeeds, match_seeds, new_key
from sdk.wire.claims import claim_problems, claimed_formats, claims_cover

# The example bots ship as the installed example_bots package (plain files, not zipped).
EXAMPLE_BOTS = Path(str(resources.files("example_bots")))
DEFAULT_OPPONENTS = ("random_bot", "rules_bot")
DEFAULT_PLAYERS = 4
DEFAULT_LEAGUE = "league"  # the league name in the match ids of `bot check` (no league)
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
class LeagueLook:
    """How the check's matches look to the bot: as the league's own. Match ids in the
    league's format numbered on from ``next_seq``; deals, seed hints, seats and opponents
    drawn from a fresh secret key (sdk/seeding.py), which nothing outside this object
    ever sees."""

    league: str = DEFAULT_LEAGUE
    next_seq: int = 1
    key: bytes = field(default_factory=new_key, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.key)

    def next_match(self, seed: int, players: int) -> tuple[str, MatchSeeds]:
        """The next match's id and seeds."""
        match_id = league_match_id(self.league, self.next_seq)
        self.next_seq += 1
        return match_id, match_seeds(self.key, self.league, seed, players)


def quoted(lines: str) -> str:
    """A bot's lines (a traceback, its output), indented under a problem; "" for none."""
    return "".join(f"\n    | {line}" for line in lines.splitlines())


def hello_mismatches(hello: dict[str, Any], spec: BotSpec) -> list[str]:
    """What the bot's Hello says that its manifest does not (name, version)."""
    if spec.manifest is None or not hello:
        return []
    said, written = (hello["name"], hello["version"]), (spec.name, spec.version)
    if said == written:
        return []
    return [
        f"hello: the bot says it is {said[0]!r} version {said[1]!r}, its manifest "
        f"{spec.manifest} says {written[0]!r} version {written[1]!r}"
    ]


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
    problems: list[str] = field(default_factory=list)  # the bot's own failures
    # What kept the check from judging the bot (an opponent that failed even when played
    # again): not the bot's failure, but not a pass either.
    environment: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # worth a look, not failures
    duration_s: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.problems and not self.environment

    @property
    def inconclusive(self) -> bool:
        """Not passed, and not for anything the bot did: only environment problems."""
        return not self.problems and bool(self.environment)

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
            "environment": list(self.environment),
            "notes": list(self.notes),
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


async def check_hello(report: CheckReport, pool: BotPool, spec: BotSpec) -> list[str] | None:
    """Start the bot, wait for SERVING and call Hello (the referee's own client, so the
    process keeps its Hello for the check's matches, as a league's pooled process does);
    the variants it claims, or None when it failed (the reason is in ``report.problems``)."""
    setup_s = report.clock.setup_ms / 1000.0
    try:
        lease = await pool.lease(spec, setup_s)
    except BotStartError as exc:
        report.problems.append(f"health: {exc.kind.value}: {exc.detail}" + quoted(exc.output))
        return None
    report.healthy = True
    client = BotClient(0, lease)
    reply = await client.hello(setup_s)
    await client.close()
    if isinstance(reply, Fault):
        report.problems.append(f"hello: {reply.kind.value}: {reply.detail}")
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
    mismatch = protocol_mismatch(reply)
    if mismatch is not None:
        report.problems.append(f"hello: {mismatch}")
    if not reply.name.strip():
        report.problems.append("hello: empty bot name")
    report.problems += [f"hello: {problem}" for problem in claim_problems(claimed)]
    if report.problems:
        return None
    # A failure too, but the matches are still played, so that the report says all.
    report.problems += hello_mismatches(report.hello, spec)
    return claimed


def players_for(variant: str, wanted: int) -> int:
    """`wanted` seats when the preset allows them, else the nearest allowed count."""
    preset = parse_variant(variant).preset
    return min(max(wanted, preset.min_players), preset.max_players)


@dataclass
class _Game:
    """One played attempt at a check game: the match's outcome and the checked seat's
    decision times in it."""

    outcome: MatchResult
    latency: Latency

    def faults_of(self, seat: int, *, mine: bool) -> list[Fault]:
        return [f for f in self.outcome.faults if (f.seat == seat) == mine]

    def opponents_failed_setup(self, seat: int) -> bool:
        """An opponent, not the checked seat, failed start-up, Hello or StartMatch."""
        return not self.faults_of(seat, mine=True) and any(
            f.decision < 0 for f in self.faults_of(seat, mine=False)
        )


async def _play_game(
    pool: BotPool,
    clock: ClockSpec,
    look: LeagueLook,
    seed: int,
    bots: Sequence[BotSpec],
    variant: VariantSpec,
    seat: int,
) -> _Game:
    """Play one check game (the next match id of `look`; the deal of `seed`)."""
    match_id, seeds = look.next_match(seed, len(bots))
    match = MatchSpec(
        match_id=match_id,
        variant=variant.preset.name,
        options=dict(variant.options),
        seed=seed,
        bots=tuple(bots),
        clock=clock,
        seeds=seeds,
    )
    latency = Latency()
    outcome = await play_match(match, pool, _SeatRecorder(seat, latency))
    return _Game(outcome, latency)


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
    look: LeagueLook | None = None,
    strict_opponents: bool = True,
) -> VariantReport:
    """Play `games` matches of `variant`, the checked bot's seat rotating from a random
    first seat, its opponents drawn in turn from a random order of `opponents`.

    A game in which an opponent, not the checked bot, failed its setup (start-up, Hello,
    StartMatch: a loaded machine can cost an opponent its start) is played once more on
    the same deal, the failed opponent in a fresh process (the match discards a process
    that failed setup); only the replay counts. An opponent's fault in the game that
    counts is not the checked bot's: with `strict_opponents` (the default opponents are
    known to play) it is an environment problem (the check could not judge the bot),
    else a note."""
    look = look or LeagueLook()
    parsed = parse_variant(variant)
    seats = players_for(variant, players)
    result = VariantReport(parsed.id, seats)
    check_players(parsed.preset, seats)
    first_seat = look.rng.randrange(seats)
    rivals = look.rng.sample(list(opponents), len(opponents))
    for game in range(games):
        seat = (first_seat + game) % seats
        others = [rivals[(game + i) % len(rivals)] for i in range(seats - 1)]
        bots = (*others[:seat], spec, *others[seat:])
        played = await _play_game(pool, report.clock, look, seed + game, bots, parsed, seat)
        if played.opponents_failed_setup(seat):
            first = next(f for f in played.faults_of(seat, mine=False) if f.decision < 0)
            report.notes.append(
                f"{parsed.id} game {game}: opponent {bots[first.seat].key} at seat "
                f"{first.seat} failed its setup ({first.kind.value}: {first.detail}); "
                "the game was played again with a fresh opponent process"
            )
            played = await _play_game(pool, report.clock, look, seed + game, bots, parsed, seat)
        outcome = played.outcome
        result.games += 1
        result.latency.samples += played.latency.samples
        result.ranks.append(outcome.ranks[seat])
        mine = played.faults_of(seat, mine=True)
        result.faults.extend(mine)
        theirs = played.faults_of(seat, mine=False)
        if theirs:
            first = theirs[0]
            (report.environment if strict_opponents else report.notes).append(
                f"{parsed.id} game {game}: opponent {bots[first.seat].key} at seat "
                f"{first.seat} faulted ({first.kind.value}: {first.detail}); check the "
                "opponents, not this bot"
            )
        if mine:
            first = mine[0]
            where = "setup" if first.decision < 0 else f"decision {first.decision}"
            report.problems.append(
                f"{parsed.id} game {game} (seat {seat}): {len(mine)} fault(s), first "
                f"{first.kind.value} at {where}: {first.detail}" + quoted(first.traceback)
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
    look: LeagueLook | None = None,
    strict_opponents: bool = True,
    progress: Callable[[str], None] | None = None,
) -> CheckReport:
    """Run the whole check on `spec` (see the module docstring), its processes in
    `sandbox` (default: the default sandbox); `look`: the league the matches are made to
    look like (default: ids ``league-000001``..., a fresh key); `progress` is told each
    stage as it starts (one line)."""
    say = progress or (lambda line: None)
    look = look or LeagueLook()
    started = time.monotonic()
    report = CheckReport(spec.name, spec.manifest, clock or ClockSpec())
    rivals = list(opponents) if opponents else default_opponents()
    async with BotPool(sandbox=sandbox or SandboxConfig()) as pool:
        say("starting the bot and calling Hello")
        claimed = await check_hello(report, pool, spec)
        if claimed is not None:
            wanted = list(variants) if variants else claimed_formats(claimed)
            for number, variant in enumerate(wanted, start=1):
                if not claims_cover(claimed, variant):
                    report.problems.append(
                        f"{variant}: the bot does not claim this format (it claims "
                        f"{', '.join(claimed)})"
                    )
                    continue
                say(f"variant {number}/{len(wanted)}: {variant}, {games} game(s)")
                part = await check_variant(
                    report,
                    pool,
                    spec,
                    variant,
                    games=games,
                    players=players,
                    opponents=rivals,
                    seed=seed,
                    look=look,
                    strict_opponents=strict_opponents,
                )
                report.variants.append(part)
                if part.faults and not keep_going:
                    break
    report.duration_s = time.monotonic() - started
    return report


def run_check(spec: BotSpec, **kwargs: Any) -> CheckReport:
    """:func:`check_bot` from synchronous code."""
    return asyncio.run(check_bot(spec, **kwargs))


def next_seq(store: Path) -> int:
    """The number the league's next scheduled match will get."""
    if not store.is_file():
        return 1
    with LeagueStore.open_readonly(store) as db:
        return db.counts()[1] + 1


def check_for_league(bot: BotSpec, config: LeagueConfig, store: Path) -> list[str]:
    """The conformance check (``bullring bot check``) on every league variant, made to
    look like the league's own matches: its clock, seats, match ids, the league's bots as
    opponents (the example bots fill in for a league with too few) and a fresh secret key.
    The problems found (empty: the bot may join): Hello's name and version against the
    manifest, then every fault of the bot's seat."""
    look = LeagueLook(config.name, next_seq(store))
    roster = [b for b in active_roster(config, store) if b.name != bot.name]
    problems: list[str] = []
    for variant in config.variants:
        enough = len(roster) >= variant.seats - 1
        report = run_check(
            bot,
            games=1,
            variants=[variant.id],
            players=variant.seats,
            clock=config.clock,
            sandbox=config.sandbox,
            opponents=roster if enough else [*roster, *default_opponents()],
            look=look,
            strict_opponents=False,
        )
        problems += report.problems  # Hello's name and version against the manifest too
        if problems:
            break
    return problems
