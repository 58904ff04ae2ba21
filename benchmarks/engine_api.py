"""Random play through the public game API, and the plain reference engine beside it.

What a bot that simulates with ``clone``/``apply``, and the referee, pay: ``new_game``,
then for every pending seat ``legal_options`` and ``apply`` of a uniformly random option,
until the game is over. Every figure is CPU time of this process; runs of the project's
engine and of the reference engine alternate so that both see the same machine.

    .venv/bin/python -m benchmarks.engine_api [--seconds 1.0]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from benchmarks.reference_engine import play_round
from sdk.game import new_game

SIX_ROUND = "6nimmt:rounds=1"
TARGETS = {  # (variant, players): (target, unit)
    (SIX_ROUND, 4): (12_500.0, "rounds/s"),
    (SIX_ROUND, 10): (6_300.0, "rounds/s"),
    ("11nimmt", 4): (1.5, "ms/game"),
}


def api_game(variant: str, players: int, seed: int, draw: Callable[[], float]) -> int:
    """One random game through the public API; the decisions it took."""
    state = new_game(variant, players, seed)
    decisions = 0
    pending = state.pending
    legal_options = state.legal_options
    apply = state.apply
    while seats := pending():
        for seat in seats:
            options = legal_options(seat)
            apply(seat, options[int(draw() * len(options))])
        decisions += len(seats)
    return decisions


def cpu_rate(run: Callable[[int], object], seconds: float) -> float:
    """Calls of run(seed) per CPU second, over about `seconds` of CPU time."""
    calls = 0
    start = time.process_time()
    while (spent := time.process_time() - start) < seconds or calls == 0:
        for _ in range(20):
            run(calls)
            calls += 1
    return calls / spent


def api_rate(variant: str, players: int, seconds: float) -> float:
    """Games per CPU second through the public API."""
    draw = random.Random(1).random
    return cpu_rate(lambda seed: api_game(variant, players, seed, draw), seconds)


def reference_rate(players: int, seconds: float) -> float:
    """Rounds per CPU second of the plain reference engine."""
    rng = random.Random(2)
    draw = rng.random
    return cpu_rate(lambda _: play_round(players, rng, draw), seconds)


def measure(seconds: float, repeats: int = 3) -> list[str]:
    """The figures, as printable lines: the best of `repeats` alternating runs each."""
    lines = []
    for players in (4, 10):
        ours = theirs = 0.0
        for _ in range(repeats):
            ours = max(ours, api_rate(SIX_ROUND, players, seconds / repeats))
            theirs = max(theirs, reference_rate(players, seconds / repeats))
        target = TARGETS[(SIX_ROUND, players)][0]
        lines.append(
            f"api {SIX_ROUND} {players:>2} players: {ours:9,.0f} rounds/s (target {target:,.0f}),"
            f" plain reference engine {theirs:9,.0f} rounds/s, ratio {ours / theirs:.2f}"
        )
    for variant in ("11nimmt", "xnimmt", "hornochsen"):
        best = 0.0
        for _ in range(repeats):
            best = max(best, api_rate(variant, 4, seconds / repeats))
        goal = TARGETS.get((variant, 4))
        wanted = f" (target {goal[0]:.2f})" if goal else ""
        lines.append(f"api {variant:<15} 4 players: {1000 / best:9.3f} cpu ms/game{wanted}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU time per figure")
    args = parser.parse_args()
    for line in measure(args.seconds):
        print(line, flush=True)


if __name__ == "__main__":
    main()
