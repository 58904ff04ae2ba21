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
import threading
import time
from pathlib import Path

from referee.league.config import load_league
from referee.league.executors import Executor, LocalExecutor, RayExecutor, RefereeRunner
from referee.league.runner import LeagueRunner, Progress
from referee.sandbox.config import NO_SANDBOX, SandboxConfig

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


PROJECTED = 10_000  # matches: the league size whose time is projected
TARGET_S = 180.0  # ... and the time it must take at most (issue 13)


TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")


def own_cpu(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of its own, user + system) of a live process, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), (int(fields[11]) + int(fields[12])) * TICK_S


class CpuMeter:
    """The CPU time of this process and of every process below it (workers, launchers,
    sandboxes and bots), sampled from /proc every `every_s` seconds while a league runs
    and once after its last match: each process counts with the last CPU time seen of it
    (the league's processes live for the whole league). Bots are not always reaped by their
    parents, so ``RUSAGE_CHILDREN`` would miss them. The sampling's own CPU time is left
    out of the league process's."""

    def __init__(self, every_s: float = 1.0) -> None:
        self.every_s = every_s
        self.seen: dict[int, float] = {}
        self.kinds: dict[int, str] = {}
        self.own_s = 0.0  # CPU seconds of the meter's own sampling (not the league's)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._start = time.process_time()

    def sample(self) -> None:
        """Read the CPU time of every process below this one."""
        if threading.current_thread() is not self._thread:
            start = time.thread_time()
            self._sample()
            self.own_s += time.thread_time() - start
        else:
            self._sample()

    def _sample(self) -> None:
        me = os.getpid()
        table: dict[int, tuple[int, float]] = {}
        for entry in os.scandir("/proc"):
            if entry.name.isdigit() and (found := own_cpu(int(entry.name))) is not None:
                table[int(entry.name)] = found
        below = {me}
        for _ in range(8):  # depth: league -> worker -> launcher/sandbox -> bot
            below |= {pid for pid, (parent, _) in table.items() if parent in below}
        for pid in below - {me}:
            self.seen[pid] = max(self.seen.get(pid, 0.0), table[pid][1])
            if pid not in self.kinds:
                self.kinds[pid] = process_kind(pid)

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            self.sample()
        self.own_s += time.thread_time()  # this thread's CPU: the meter's, not the league's

    def _thread_cpu(self) -> float:
        """CPU seconds the sampling thread has used so far."""
        assert self._thread.ident is not None
        return time.clock_gettime(time.pthread_getcpuclockid(self._thread.ident))

    def __enter__(self) -> CpuMeter:
        self.sample()
        self.before = dict(self.seen)  # processes already running count from now
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def seconds(self) -> float:
        return sum(self.by_kind().values())

    def by_kind(self) -> dict[str, float]:
        """CPU seconds so far: "league" (this process), "workers" and "bots" (the rest)."""
        league = time.process_time() - self._start - self.own_s
        if self._thread.is_alive():  # still sampling: its CPU so far is in process_time
            league = max(0.0, league - self._thread_cpu())
        spent = {"league": league, "workers": 0.0, "bots": 0.0}
        for pid, cpu in self.seen.items():
            spent[self.kinds[pid]] += cpu - self.before.get(pid, 0.0)
        return spent


def process_kind(pid: int) -> str:
    """ "workers" for a league worker process, "bots" for anything else (bots, launchers)."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "bots"
    return "workers" if b"multiprocessing" in command or b"ray" in command else "bots"


def load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def measure(name: str, executor: Executor, file: Path, store: Path) -> float:
    """Run the league; print and return its matches/s (start-up included).

    Besides the wall-clock rates (which other load on a shared machine moves), it prints
    the CPU time the whole league spent per match (league process, workers and bots) once
    the first tenth of the matches is done (the processes have started), and the time
    10,000 matches would take: at the measured steady rate, and from the CPU time with
    every core busy with the league alone (``cores x seconds / CPU per match``).
    """
    config = load_league(file)
    warm: list[float] = []  # (wall, matches) when the first tenth of the matches was done
    kinds: dict[str, float] = {}  # CPU seconds by kind of process by then
    with CpuMeter() as meter:

        def progress(now: Progress) -> None:
            if now.done == now.total:  # the last match: before the processes stop
                meter.sample()
            if not warm and now.played_now >= max(1, now.total // 10):
                meter.sample()
                warm.extend((time.perf_counter(), now.played_now))
                kinds.update(meter.by_kind())

        start = time.perf_counter()
        summary = LeagueRunner(config, executor, store, progress=progress).run()
        wall = time.perf_counter() - start
    assert not summary.errors, summary.errors[:3]
    played = summary.played
    cores = os.cpu_count() or 1
    steady = played - int(warm[1])
    rate = steady / (start + wall - warm[0])
    spent = {kind: 1000 * (cpu - kinds[kind]) / steady for kind, cpu in meter.by_kind().items()}
    cpu_ms = sum(spent.values())
    split = ", ".join(f"{kind} {ms:.1f}" for kind, ms in spent.items())
    print(
        f"{name:16s} workers={executor.workers}: {played} matches in {wall:.1f}s = "
        f"{played / wall:.2f} matches/s (incl. start-up; {load()}); "
        f"store {summary.store_s:.2f}s ({1000 * summary.store_s / played:.2f} ms/match), "
        f"ratings {summary.rating_s:.3f}s ({1000 * summary.rating_s / played:.3f} ms/match)\n"
        f"{'':16s} after the first tenth: {rate:.2f} matches/s, CPU {cpu_ms:.1f} ms/match "
        f"({split}); {PROJECTED:,} matches: {PROJECTED / rate:.0f}s at "
        f"this rate, {PROJECTED * cpu_ms / 1000 / cores:.0f}s on {cores} idle cores "
        f"(target <= {TARGET_S:.0f}s)",
        flush=True,
    )
    return played / wall


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
