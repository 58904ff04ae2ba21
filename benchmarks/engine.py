"""Engine speed: random-play games per second, per preset and player count.

Scalar path: for every preset in sdk.game.PRESETS, ``new_game`` + ``GameState.playout``
(one process, the random policy). Families with a ``rounds`` option play ``rounds=1`` (the
bots' format). Besides games per second of wall time, the scalar path reports the time of
one game in CPU milliseconds (``cpu ms``): on a shared machine it is the steadier figure.
Batch path (6 nimmt! family): ``sixnimmt_batch.simulate_random`` from a new game, and
``simulate_view`` from seat 0's view (a fresh determinization per game). Views
(``--views``, on by default): one random game per preset and player count played through
the public API, asking ``state.view(seat)`` of every pending seat before each decision
(what the referee does); ``view us`` is the CPU time of one view in microseconds (its cost
grows with the game's history unless views share it), ``views`` how many a game asks;
the same is measured for whole 6 nimmt! games played to the end rule (the longest
histories).

Public API (``--api``, on by default; :mod:`benchmarks.engine_api`): random play through
``new_game``, ``legal_options`` and ``apply`` as the referee and a simulating bot do, in
CPU time: 6 nimmt! ``rounds=1`` rounds per second with 4 and 10 players beside a plain
list-based reference engine's rate in the same run (:mod:`benchmarks.reference_engine`,
the yardstick), and the CPU milliseconds of a 4-player game of 11 nimmt!, X nimmt! and
Hornochsen!.

Figures are printed, not asserted. Targets (2-core machine, one process): 6nimmt
rounds=1, 4 players >= 40,000 games/s, 10 players >= 20,000 games/s (playout); through the
API 12,500 and 6,300 rounds/s, 11 nimmt! at most 1.5 ms a game.

    .venv/bin/python benchmarks/engine.py [--seconds 1.0] [--preset 6nimmt ...]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from benchmarks.engine_api import measure as measure_api
from sdk.game import FAMILIES, PRESETS, new_game


def quick_options(preset: str) -> dict[str, str]:
    family = PRESETS[preset].family
    has_rounds = any(spec.name == "rounds" for spec in FAMILIES[family].options)
    return {"rounds": "1"} if has_rounds else {}


def rates(run_batch: Callable[[int], int], seconds: float) -> tuple[float, float]:
    """Games per second of wall time and of this process's CPU time: call run_batch(seed)
    (it returns games played) for `seconds`."""
    games = 0
    seed = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - start) < seconds or games == 0:
        games += run_batch(seed)
        seed += 1
    return games / elapsed, games / max(time.process_time() - cpu_start, 1e-9)


def rate(run_batch: Callable[[int], int], seconds: float) -> float:
    """Games per second of wall time (see :func:`rates`)."""
    return rates(run_batch, seconds)[0]


def scalar(
    preset: str, players: int, options: dict[str, str], seconds: float
) -> tuple[float, float]:
    """Games per second of wall time and per CPU second."""

    def one(seed: int) -> int:
        new_game(preset, players, seed, options).playout(random.Random(seed))
        return 1

    return rates(one, seconds)


def batch(
    preset: str, players: int, options: dict[str, str], seconds: float
) -> tuple[float, float]:
    from sdk.game.sixnimmt import SixNimmtState
    from sdk.game.sixnimmt.batch import simulate_random, simulate_view

    size = 20_000

    def from_state(seed: int) -> int:
        state = new_game(preset, players, seed, options)
        assert isinstance(state, SixNimmtState)
        return len(simulate_random(state, size, seed))

    def from_view(seed: int) -> int:
        state = new_game(preset, players, seed, options)
        assert isinstance(state, SixNimmtState)
        return len(simulate_view(state.view(0), size, seed))

    return rate(from_state, seconds), rate(from_view, seconds)


def view_cost(
    preset: str, players: int, options: dict[str, str], seconds: float
) -> tuple[float, float]:
    """Microseconds per ``state.view(seat)`` over random games asking every pending seat's
    view before each decision, and views per game."""
    views = 0
    games = 0
    spent = 0.0
    while spent < seconds or games == 0:
        state = new_game(preset, players, games, options)
        rng = random.Random(games)
        while not state.is_terminal():
            for seat in state.pending():
                start = time.process_time()
                state.view(seat)
                spent += time.process_time() - start
                views += 1
                options_now = state.legal_options(seat)
                state.apply(seat, options_now[rng.randrange(len(options_now))])
        games += 1
    return 1e6 * spent / views, views / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--preset", action="append", help="only these presets (repeatable)")
    parser.add_argument(
        "--no-views", dest="views", action="store_false", help="skip the view timing"
    )
    parser.add_argument(
        "--no-api", dest="api", action="store_false", help="skip the public API figures"
    )
    args = parser.parse_args()
    if args.api:
        for line in measure_api(max(args.seconds, 0.01) * 3):
            print(line, flush=True)
    presets = args.preset or list(PRESETS)
    print(
        f"{'preset':<16} {'options':<10} {'players':>7} {'scalar/s':>10} {'cpu ms':>7} "
        f"{'batch/s':>10} {'batch view/s':>12} {'view us':>8} {'views':>6}"
    )
    for name in presets:
        preset = PRESETS[name]
        options = quick_options(name)
        label = ",".join(f"{k}={v}" for k, v in options.items()) or "-"
        for players in range(preset.min_players, preset.max_players + 1):
            speed, cpu_rate = scalar(name, players, options, args.seconds)
            batched = "", ""
            if preset.family == "6nimmt":
                state_rate, view_rate = batch(name, players, options, args.seconds)
                batched = f"{state_rate:10,.0f}", f"{view_rate:12,.0f}"
            viewed = "", ""
            if args.views:
                micros, per_game = view_cost(name, players, options, args.seconds / 2)
                viewed = f"{micros:8.2f}", f"{per_game:6.0f}"
            print(
                f"{name:<16} {label:<10} {players:>7} {speed:10,.0f} {1000 / cpu_rate:7.2f} "
                f"{batched[0]:>10} {batched[1]:>12} {viewed[0]:>8} {viewed[1]:>6}",
                flush=True,
            )
    if args.views and "6nimmt" in presets:
        # A whole game to the end rule (several rounds): the longest histories.
        for players in (4, 10):
            micros, per_game = view_cost("6nimmt", players, {}, args.seconds)
            print(
                f"views, 6nimmt to the end rule, {players} players: "
                f"{micros:.2f} us per view, {per_game:.0f} views per game",
                flush=True,
            )


if __name__ == "__main__":
    main()
