"""League throughput: a 1,000-match league of 4-seat 6 nimmt! (rounds=1) between random bots.

Prints matches/s for the local executor and for Ray on this machine, with the bots in the
sandbox and without it (and the sandboxed rate as a share of the unsandboxed one: pooled
processes start once, so the target is at least 90%; and Ray's as a share of the local
executor's: the target is at least 80%), and the time spent in the store (recording
results, ratings included) and in ratings (TrueSkill alone).

    .venv/bin/python -m benchmarks.league               # both executors, both ways, 1000 matches
    .venv/bin/python -m benchmarks.league --matches 200 --executor local --sandbox on
    .venv/bin/python -m benchmarks.league --executor local --matches 500 --rounds 4
    .venv/bin/python -m benchmarks.league --executor both --sandbox on --rounds 3  # Ray/local

Each run prints its start-up (until every worker could finish a match: Ray's start, the
workers, their bots) on its own, and its rate once started, which the shares compare.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import tempfile
import time
from pathlib import Path

from referee.league.config import load_league
from referee.league.executors import Executor, LocalExecutor, RayExecutor, RefereeRunner
from referee.league.runner import LeagueRunner
from referee.sandbox import NO_SANDBOX, SandboxConfig

REPO = Path(__file__).resolve().parents[1]
RANDOM_BOT = REPO / "example_bots" / "random_bot" / "bot.toml"
BOTS = 5


def league_file(folder: Path, matches: int) -> Path:
    bots = "".join(
        f'[[bots]]\nmanifest = "{RANDOM_BOT}"\nname = "random{i}"\n\n' for i in range(BOTS)
    )
    file = folder / "bench.toml"
    file.write_text(
        f"""
[league]
name = "bench"
seed = 1
format = "random"
seats = 4
games = {matches}

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

{bots}"""
    )
    return file


def measure(name: str, executor: Executor, file: Path, store: Path) -> float:
    """Run the league; print its rates and return its matches/s once started.

    Start-up is the time until every worker has had time to finish a match (the league's
    first `workers` matches: Ray's start, the workers' processes, each worker's bots); the
    rate once started counts the matches after those, over the time after them.
    """
    config = load_league(file)
    finished: list[float] = []
    start = time.perf_counter()
    runner = LeagueRunner(config, executor, store, progress=lambda _: finished.append(now()))
    summary = runner.run()
    wall = time.perf_counter() - start
    assert not summary.errors, summary.errors[:3]
    warm = min(executor.workers, len(finished) - 1)
    started = finished[warm - 1] - start if warm > 0 else 0.0
    rate = (len(finished) - warm) / (finished[-1] - start - started)
    print(
        f"{name:16s} workers={executor.workers}: {summary.played} matches in {wall:.1f}s = "
        f"{summary.played / wall:.2f} matches/s (incl. start-up); start-up {started:.1f}s, "
        f"then {rate:.2f} matches/s; "
        f"store {summary.store_s:.2f}s ({1000 * summary.store_s / summary.played:.2f} ms/match), "
        f"ratings {summary.rating_s:.3f}s ({1000 * summary.rating_s / summary.played:.3f} "
        f"ms/match); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    return rate


def now() -> float:
    return time.perf_counter()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--executor", choices=("local", "ray", "both"), default="both")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--sandbox", choices=("on", "off", "both"), default="both")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="rounds of every league asked for, the order alternating from round to round "
        "(shares are the median of the rounds': load on a shared machine moves the rates)",
    )
    args = parser.parse_args()
    print(f"{args.matches} matches, 4 seats of {BOTS} random bots, 6nimmt rounds=1")
    sandboxes = {"on": [SandboxConfig()], "off": [NO_SANDBOX]}.get(
        args.sandbox, [SandboxConfig(), NO_SANDBOX]
    )
    executors = ("local", "ray") if args.executor == "both" else (args.executor,)
    runs = [(kind, sandbox) for kind in executors for sandbox in sandboxes]
    rates: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        file = league_file(folder, args.matches)
        for round_no in range(args.rounds):
            for kind, sandbox in runs if round_no % 2 == 0 else runs[::-1]:
                mode = "sandboxed" if sandbox.enabled else "unsandboxed"
                store = folder / f"{kind}-{mode}-{round_no}.sqlite"
                rate = measure(f"{kind} {mode}", make(kind, sandbox, args), file, store)
                rates.setdefault((kind, mode), []).append(rate)
    for kind in executors:
        share("sandboxed", rates.get((kind, "sandboxed")), rates.get((kind, "unsandboxed")), kind)
    for mode in ("sandboxed", "unsandboxed"):
        share("ray", rates.get(("ray", mode)), rates.get(("local", mode)), f"{mode}: local")


def share(what: str, mine: list[float] | None, base: list[float] | None, of: str) -> None:
    """Print `mine` as a share of `base` (rates of the same rounds), once started."""
    if not mine or not base:
        return
    shares = [m / b for m, b in zip(mine, base, strict=True)]
    rounds = ", ".join(f"{100 * s:.0f}%" for s in shares)
    print(
        f"{what} at {100 * statistics.median(shares):.0f}% of {of}'s rate once started "
        f"(median of rounds: {rounds})"
    )


def make(kind: str, sandbox: SandboxConfig, args: argparse.Namespace) -> Executor:
    factory = functools.partial(RefereeRunner, sandbox)
    if kind == "local":
        return LocalExecutor(factory, workers=args.workers)
    return RayExecutor(factory, args.workers, num_cpus=args.workers)


if __name__ == "__main__":
    main()
