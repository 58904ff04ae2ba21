"""Benchmark data: matches played in-process by stand-in policies, no bot processes.

:func:`play_synthetic` plays one match with the real engine and records a real replay
and result through the referee's own replay builder (referee/replay/files.py: the same
``ReplayBuilder.for_match``, ``decision``, ``snapshot`` and ``match_result`` steps as
referee/match/runner.py); only the bots are replaced by simple policies, so the leaderboard
benchmark can make its large store fast. Bot names pick the policy: ``low*`` plays its
lowest option, ``high*`` its highest, ``flaky*`` plays like ``random`` but faults (TIMEOUT,
then the referee's fallback option) on a seeded 3% of its decisions; anything else
chooses at random (seeded by match and seat). Tests use real bot processes instead
(tests/leaderboard/conftest.py).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from pathlib import Path

from referee.faults import Fault, FaultKind
from referee.league.config import LeagueConfig, VariantConfig
from referee.match.runner import FALLBACK_INDEX
from referee.replay.record import ReplayBuilder
from referee.replay.result import MatchResult
from referee.spec import BotSpec, ClockSpec, MatchSpec
from sdk.game import driver, new_game, parse_variant

FLAKY_FAULT_RATE = 0.03


def _choose(name: str, count: int, rng: random.Random) -> int:
    if name.startswith("low"):
        return 0
    if name.startswith("high"):
        return count - 1
    return rng.randrange(count)


def play_synthetic(spec: MatchSpec) -> MatchResult:
    """Play `spec` in-process with the stand-in policies; a real replay and result."""
    started = time.perf_counter()
    variant = parse_variant(spec.variant, spec.options)
    state = new_game(variant.preset.name, len(spec.bots), spec.deal_seed, variant.options)
    builder = ReplayBuilder.for_match(spec, variant, state)
    rngs = [random.Random(f"{spec.seed}:{seat}") for seat in range(len(spec.bots))]
    faults: list[Fault] = []
    n = 0

    def choose(ask: driver.Ask) -> int:  # every pending seat decides on the same table
        nonlocal n
        name, rng = spec.bots[ask.seat].name, rngs[ask.seat]
        choice = _choose(name, len(ask.options), rng)
        ms = round(rng.uniform(0.2, 3.0), 3)
        fault = None
        if name.startswith("flaky") and rng.random() < FLAKY_FAULT_RATE:
            fault = Fault(ask.seat, FaultKind.TIMEOUT, n, "no answer within 1000 ms")
            faults.append(fault)
            choice, ms = FALLBACK_INDEX, float(spec.clock.decision_ms)
        builder.decision(ask.seat, ask.view, ask.options, choice, ms, fault, False)
        n += 1
        return choice

    driver.play(state, choose, lambda *_: builder.snapshot(state))
    forfeited = [False] * len(spec.bots)
    return builder.match_result(state, faults, forfeited, n, time.perf_counter() - started)


def synthetic_config(
    store: Path,
    *,
    name: str = "synthetic",
    bots: Sequence[str] = ("random", "low", "high", "flaky"),
    variants: Sequence[tuple[str, str, int]] = (("6nimmt", "rounds=1", 4),),
    games: int = 10,
    seed: int = 1,
) -> LeagueConfig:
    """A random-format league: `games` matches of each (preset, options, seats) variant.
    Its bots have no process (an endpoint that does not exist): play them with
    :func:`play_synthetic`."""
    resolved = []
    for preset, options, seats in variants:
        spec = parse_variant(f"{preset}:{options}" if options else preset)
        resolved.append(
            VariantConfig(spec.id, spec.preset.name, dict(spec.options), seats, games, "random")
        )
    return LeagueConfig(
        name=name,
        path=None,
        seed=seed,
        format="random",
        games=games,
        seats=resolved[0].seats,
        parallel=1,
        store=store,
        executor="local",
        ray_address=None,
        batch=16,
        bots=tuple(BotSpec(b, "1.0", endpoint="unix:/nonexistent") for b in bots),
        variants=tuple(resolved),
        clock=ClockSpec(),
    )
