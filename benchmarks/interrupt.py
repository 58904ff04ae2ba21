"""Ctrl-C in ``bullring league run``: the time from SIGINT (to the run's process group, as
a terminal sends it) to the process's exit with code 130, and what is left running.

A real league of real bot processes (4 bots, 3 seats, the league file's sandbox) is
interrupted once its first match is recorded; each run starts a fresh store.

    .venv/bin/python -m benchmarks.interrupt --runs 5
    .venv/bin/python -m benchmarks.interrupt --runs 5 --parallel 4 --sandbox off
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RANDOM_BOT = REPO / "example_bots" / "random_bot" / "bot.toml"


def league_file(folder: Path, parallel: int, sandbox: bool) -> Path:
    bots = "".join(f'[[bots]]\nmanifest = "{RANDOM_BOT}"\nname = "random{i}"\n\n' for i in range(4))
    file = folder / "stop.toml"
    file.write_text(
        f"""
[league]
name = "stop"
seed = 3
seats = 3
games = 40
parallel = {parallel}
store = "stop.sqlite"

[sandbox]
enabled = {"true" if sandbox else "false"}

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

{bots}"""
    )
    return file


def finished(store: Path) -> int:
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    except sqlite3.Error:
        return 0


def one_stop(parallel: int, sandbox: bool) -> tuple[float, int]:
    """Seconds from SIGINT to exit, and the exit code."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        file = league_file(folder, parallel, sandbox)
        bullring = str(Path(sys.executable).with_name("bullring"))
        process = subprocess.Popen(
            [bullring, "league", "run", str(file), "--no-progress"],
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 300
        while finished(folder / "stop.sqlite") < 1 and time.monotonic() < deadline:
            if process.poll() is not None:
                raise SystemExit("the league ended before it could be interrupted")
            time.sleep(0.02)
        sent = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)
        code = process.wait(60)
        return time.monotonic() - sent, code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--sandbox", choices=("on", "off"), default="on")
    args = parser.parse_args()
    times = []
    for _ in range(args.runs):
        seconds, code = one_stop(args.parallel, args.sandbox == "on")
        times.append(seconds)
        print(f"stopped in {seconds:.3f} s, exit code {code}", flush=True)
    load = os.getloadavg()[0]
    print(
        f"Ctrl-C to exit, {args.runs} runs, parallel {args.parallel}, sandbox {args.sandbox}: "
        f"median {statistics.median(times):.3f} s, max {max(times):.3f} s (load {load:.1f})"
    )


if __name__ == "__main__":
    main()
