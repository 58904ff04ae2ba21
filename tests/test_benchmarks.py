"""Every benchmark still runs and prints its figures (tiny sizes: a smoke test, not a
measurement; the figures themselves are read by people, never asserted)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

CASES = {
    "engine": (["--seconds", "0.02", "--preset", "6nimmt-pro"], "plain reference engine"),
    "montecarlo_clock": (
        ["--decisions", "2", "--variant", "11nimmt", "--deadline-ms", "50"],
        "cpu/deadline",
    ),
    "referee": (
        ["--concurrency", "1", "--matches", "1", "--rounds", "1"],
        "refereed / fan-out echo",
    ),
    "league": (["--matches", "12", "--executor", "local"], "of the unsandboxed rate"),
    "interrupt": (["--runs", "1"], "Ctrl-C to exit, 1 runs"),
    "sandbox": (["--starts", "1"], "to SERVING, sandboxed"),
    "grpc_streams": (["--steps", "20", "--rounds", "1", "--matches", "1"], "stream / unary"),
    "play_stream": (
        ["--matches", "1", "--games", "1", "--rounds", "1"],
        "for the messages alone",
    ),
    "codec": ([], "history read"),
    "champion_belief": (["--games", "1", "--turns", "2", "--deals", "10"], "real cards held"),
    "champion_playouts": (["--games", "4", "--seconds", "0", "--players", "3"], "visits in"),
    "champion_models": (
        ["--player", "rules_bot", "--games", "1", "--decision-ms", "20"],
        "greedy heuristic",
    ),
    "champion_search": (
        ["--games", "1", "--oracle-deals", "64", "--decision-ms", "40", "--repeats", "1"],
        "best chosen",
    ),
    "arena": (
        shlex.split(
            "--uploads 1 --seconds 1 --clients 1 --ladder-s 4 --league-games 2"
            " --decision-ms 50 --new-sigma 8"
        ),
        "a new version in a running ladder",
    ),
    "leaderboard": (["--matches", "12", "--distinct", "4"], "cold build of 12 matches"),
    "site_publish": (["--matches", "12", "--rounds", "1"], "+50 matches, publish"),
    "strength": (
        ["--deals", "1", "--decision-ms", "40", "--variant", "6nimmt:rounds=1"],
        "montecarlo_bot",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_benchmark_runs_and_prints_its_figures(name: str, tmp_path: Path) -> None:
    args, expected = CASES[name]
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", f"benchmarks.{name}", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert expected in done.stdout, done.stdout[-2000:]
