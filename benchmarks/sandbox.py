"""Start-up time of one sandboxed bot: from asking the pool for it to its health service
answering SERVING (what a match's setup waits for), with the sandbox and without it, and
the sandbox's own cost, measured on a bot that does nothing (`python -c pass`): the
launcher alone, then launcher, cgroup and bubblewrap. Also the one-time check that the
sandbox works here (once per referee process).

    .venv/bin/python -m benchmarks.sandbox               # 10 starts of each
    .venv/bin/python -m benchmarks.sandbox --starts 30 --bot example_bots/rules_bot
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.bots.manifest import load_manifest
from referee.bots.process import BotPool
from referee.sandbox.box import LAUNCHER, BotSandbox
from referee.sandbox.bubblewrap import bwrap_path
from referee.sandbox.config import NO_SANDBOX, SandboxConfig
from referee.sandbox.probe import available
from referee.spec import BotSpec

REPO = Path(__file__).resolve().parents[1]
NOTHING = [sys.executable, "-I", "-S", "-c", "pass"]


def figures(name: str, seconds: list[float]) -> str:
    ms = sorted(1000 * s for s in seconds)
    p90 = ms[max(0, int(0.9 * len(ms)) - 1)]
    return f"{name:34s} median {statistics.median(ms):7.1f} ms  p90 {p90:7.1f} ms  (n={len(ms)})"


async def lease_time(spec: BotSpec, sandbox: SandboxConfig) -> float:
    async with BotPool(sandbox=sandbox) as pool:  # (the pool checks the sandbox first)
        start = time.perf_counter()
        await pool.lease(spec, 60.0)
        return time.perf_counter() - start


def nothing_time(sandbox: SandboxConfig, folder: Path) -> float:
    """One run of `python -c pass` through the launcher, sandboxed or not."""
    if not sandbox.enabled:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-I", "-S", str(LAUNCHER), "--", *NOTHING], check=True)
        return time.perf_counter() - start
    bwrap = bwrap_path(sandbox)
    assert bwrap is not None
    start = time.perf_counter()
    box = BotSandbox(
        BotSpec("nothing", command=tuple(NOTHING), workdir=str(folder)), sandbox, bwrap
    )
    try:
        argv = box.launch_argv(LAUNCHER, [], NOTHING)
        subprocess.run(argv, env=box.env({}), check=True)
        box.kill()
    finally:
        box.clean_up()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--bot", default=str(REPO / "example_bots" / "random_bot"))
    args = parser.parse_args()
    spec = load_manifest(args.bot)
    sandbox = SandboxConfig()
    start = time.perf_counter()
    problem = available(sandbox)
    print(f"{'sandbox check (once per process)':34s} {1000 * (time.perf_counter() - start):.1f} ms")
    if problem is not None:
        sys.exit(problem)
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        folder.chmod(0o755)
        for _ in range(args.starts):  # interleaved, so that load changes hit both alike
            for config in (sandbox, NO_SANDBOX):
                mode = "sandboxed" if config.enabled else "unsandboxed"
                times.setdefault(f"{spec.name} to SERVING, {mode}", []).append(
                    asyncio.run(lease_time(spec, config))
                )
                times.setdefault(f"python -c pass, {mode}", []).append(nothing_time(config, folder))
    for name, seconds in times.items():
        print(figures(name, seconds))


if __name__ == "__main__":
    main()
