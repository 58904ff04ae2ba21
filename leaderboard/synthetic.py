"""A real league run with in-process stand-in bots: the leaderboard's test and benchmark data.

:func:`run_synthetic_league` runs the league runner (referee/league/runner.py) with its real
store, schedule, ratings and replays; only the bots are replaced by simple in-process
policies, so thousands of matches need no bot processes. Bot names pick the policy:
``low*`` plays its lowest option, ``high*`` its highest, ``flaky*`` plays like ``random``
but faults (TIMEOUT, then the referee's fallback option) on a seeded 3% of its decisions;
anything else chooses at random (seeded by match and seat).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from pathlib import Path

from referee.league.config import LeagueConfig, VariantConfig
from referee.league.executors import LocalExecutor
from referee.league.runner import LeagueRunner, LeagueSummary
from referee.match import FALLBACK_INDEX
from referee.replay import ReplayBuilder
from referee.spec import BotSpec, ClockSpec, Fault, FaultKind, MatchResult, MatchSpec
from sdk.game import new_game, parse_variant
from sdk.game.views import View

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
    state = new_game(variant.preset.name, len(spec.bots), spec.seed, variant.options)
    builder = ReplayBuilder(
        spec.match_id,
        variant.preset.name,
        variant.options,
        spec.seed,
        [(b.name, b.version) for b in spec.bots],
        spec.clock.to_json(),
    )
    builder.snapshot(state)
    rngs = [random.Random(f"{spec.seed}:{seat}") for seat in range(len(spec.bots))]
    faults: list[Fault] = []
    n = 0
    while not state.is_terminal():
        chosen = []
        for seat in state.pending():
            view: View = state.view(seat)  # type: ignore[assignment]
            options = state.legal_options(seat)
            name = spec.bots[seat].name
            rng = rngs[seat]
            choice = _choose(name, len(options), rng)
            ms = round(rng.uniform(0.2, 3.0), 3)
            fault = None
            if name.startswith("flaky") and rng.random() < FLAKY_FAULT_RATE:
                fault = Fault(seat, FaultKind.TIMEOUT, n, "no answer within 1000 ms")
                faults.append(fault)
                choice, ms = FALLBACK_INDEX, float(spec.clock.decision_ms)
            builder.decision(
                seat, view, options, choice, ms, fault.to_json() if fault else None, False
            )
            chosen.append((seat, options[choice]))
            n += 1
        for seat, option in chosen:
            state.apply(seat, option)
            builder.snapshot(state)
    scores = tuple(state.scores())
    ranks = tuple(state.ranks())
    forfeited = tuple(False for _ in spec.bots)
    replay = builder.finish(
        state,
        {
            "scores": list(scores),
            "ranks": list(ranks),
            "faults": [f.to_json() for f in faults],
            "forfeited": list(forfeited),
        },
    )
    return MatchResult(
        spec.match_id,
        scores,
        ranks,
        tuple(faults),
        forfeited,
        n,
        time.perf_counter() - started,
        replay,
    )


class SyntheticRunner:
    """A MatchRunner (referee/league/executors.py) that plays with the stand-in policies."""

    async def run(self, spec: MatchSpec) -> MatchResult:
        return play_synthetic(spec)

    async def close(self) -> None:
        return None

    def child_pids(self) -> list[int]:
        return []


def synthetic_config(
    store: Path,
    *,
    name: str = "synthetic",
    bots: Sequence[str] = ("random", "low", "high", "flaky"),
    variants: Sequence[tuple[str, str, int]] = (("6nimmt", "rounds=1", 4),),
    games: int = 10,
    seed: int = 1,
) -> LeagueConfig:
    """A random-format league: `games` matches of each (preset, options, seats) variant."""
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


def run_synthetic_league(config: LeagueConfig) -> LeagueSummary:
    """Run `config` to the end with the stand-in bots, in this process."""
    executor = LocalExecutor(SyntheticRunner, workers=1)
    return LeagueRunner(config, executor=executor, factory=SyntheticRunner).run()
