"""League throughput: a 1,000-match league of 4-seat 6 nimmt! (rounds=1) between random bots.

Prints matches/s for the local executor and for Ray on this machine, with the bots in the
sandbox and without it (and the sandboxed rate as a share of the unsandboxed one: pooled
processes start once, so the target is at least 90%), and the time spent in the store
(recording results, ratings included) and in ratings (TrueSkill alone).

    .venv/bin/python -m benchmarks.league               # both executors, both ways, 1000 matches
    .venv/bin/python -m benchmarks.league --matches 200 --executor local --sandbox on
    .venv/bin/python -m benchmarks.league --executor local --matches 500 --rounds 4
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
    """Run the league; print and return its matches/s."""
    config = load_league(file)
    start = time.perf_counter()
    summary = LeagueRunner(config, executor, store).run()
    wall = time.perf_counter() - start
    assert not summary.errors, summary.errors[:3]
    print(
        f"{name:16s} workers={executor.workers}: {summary.played} matches in {wall:.1f}s = "
        f"{summary.played / wall:.2f} matches/s (incl. start-up); "
        f"store {summary.store_s:.2f}s ({1000 * summary.store_s / summary.played:.2f} ms/match), "
        f"ratings {summary.rating_s:.3f}s ({1000 * summary.rating_s / summary.played:.3f} ms/match)"
    )
    return summary.played / wall


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
        help="with --sandbox both: rounds of both leagues, the order alternating (the "
        "share is the median of the rounds': load on a shared machine moves the rates)",
    )
    args = parser.parse_args()
    print(f"{args.matches} matches, 4 seats of {BOTS} random bots, 6nimmt rounds=1")
    sandboxes = {"on": [SandboxConfig()], "off": [NO_SANDBOX]}.get(
        args.sandbox, [SandboxConfig(), NO_SANDBOX]
    )
    executors = ("local", "ray") if args.executor == "both" else (args.executor,)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        file = league_file(folder, args.matches)
        for kind in executors:
            shares = []
            for round_no in range(args.rounds if len(sandboxes) == 2 else 1):
                rates = {}
                order = sandboxes if round_no % 2 == 0 else sandboxes[::-1]
                for sandbox in order:
                    mode = "sandboxed" if sandbox.enabled else "unsandboxed"
                    store = folder / f"{kind}-{mode}-{round_no}.sqlite"
                    rates[mode] = measure(f"{kind} {mode}", make(kind, sandbox, args), file, store)
                if len(rates) == 2:
                    shares.append(rates["sandboxed"] / rates["unsandboxed"])
            if shares:
                rounds = ", ".join(f"{100 * share:.0f}%" for share in shares)
                print(
                    f"{kind}: sandboxed at {100 * statistics.median(shares):.0f}% of the "
                    f"unsandboxed rate (median of rounds: {rounds})"
                )


def make(kind: str, sandbox: SandboxConfig, args: argparse.Namespace) -> Executor:
    factory = functools.partial(RefereeRunner, sandbox)
    if kind == "local":
        return LocalExecutor(factory, workers=args.workers)
    return RayExecutor(factory, args.workers, num_cpus=args.workers)


if __name__ == "__main__":
    main()
