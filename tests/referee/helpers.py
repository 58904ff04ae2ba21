"""Shared helpers of the referee tests: bot manifests, fast clocks, process checks."""

from __future__ import annotations

import asyncio
import os
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path

from referee.bots.manifest import load_manifest
from referee.bots.process import BotPool
from referee.match.runner import play_match
from referee.replay.result import MatchResult
from referee.sandbox.config import SandboxConfig
from referee.spec import BotSpec, ClockSpec, MatchSpec

HERE = Path(__file__).parent
BAD_BOTS = HERE / "bad_bots"
REPO = HERE.parent.parent
RANDOM_BOT = REPO / "example_bots" / "random_bot"

# Small limits keep the fault tests fast.
FAST_CLOCK = ClockSpec(decision_ms=250, time_bank_ms=600, setup_ms=4000, max_faults=3)
# For tests of well-behaved bots that assert "no fault": a loaded CI machine must not turn
# a slow scheduler into a TIMEOUT.
ROOMY_CLOCK = ClockSpec(decision_ms=10_000, time_bank_ms=30_000, setup_ms=30_000, max_faults=3)


def bot_named(name: str) -> BotSpec:
    """One of the bots in tests/referee/bad_bots (by manifest name)."""
    return load_manifest(BAD_BOTS / f"{name}.toml")


def _proc_stat(pid: int) -> tuple[int, int] | None:
    """(ppid, pgrp) of a live process, None if it is gone or a zombie being reaped."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), int(fields[2])


# Descendants of this test process that were alive when the current test began (set by
# tests/referee/conftest.py): a process another test left behind is that test's fault, so
# `descendants()` of this process reports only what the current test started.
PREEXISTING: set[int] = set()


def descendants(root: int | None = None) -> list[int]:
    """Pids of every live descendant of `root` (default: this process, leaving out those
    alive before the current test began)."""
    if root is None:
        return [pid for pid in all_descendants(os.getpid()) if pid not in PREEXISTING]
    return all_descendants(root)


def all_descendants(root: int) -> list[int]:
    """Pids of every live descendant of `root`."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _proc_stat(int(entry))) is not None:
            parent[int(entry)] = stat[0]
    found: list[int] = []
    frontier = {root}
    while frontier:
        children = {pid for pid, ppid in parent.items() if ppid in frontier}
        found += sorted(children)
        frontier = children
    return found


def group_members(pgrp: int) -> list[int]:
    """Pids of live processes in process group `pgrp`."""
    members = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _proc_stat(int(entry))) is not None and stat[1] == pgrp:
            members.append(int(entry))
    return members


def spy_records(file: Path) -> Iterator[tuple[int, bytes]]:
    """The calls a spy bot process recorded (tests/referee/bad_bots/spy.py): (kind, request
    bytes) in order; kinds 1 Hello, 2 StartMatch, 3 Decide, 4 EndMatch, 5 a decision
    stream opened (its Decide requests are kind 3 too)."""
    data, at = file.read_bytes(), 0
    while at < len(data):
        kind, size = struct.unpack_from("<BI", data, at)
        yield kind, data[at + 5 : at + 5 + size]
        at += 5 + size


def spy_sandbox(folder: Path) -> SandboxConfig:
    """The default sandbox, plus `folder` (made writable by every bot uid) where spy bots
    write their records."""
    folder.chmod(0o777)
    return SandboxConfig(writable=(str(folder),))


def run_spied(spec: MatchSpec, folder: Path) -> MatchResult:
    """Play `spec` with its processes in :func:`spy_sandbox` (all gone when it returns)."""

    async def play() -> MatchResult:
        async with BotPool(sandbox=spy_sandbox(folder)) as pool:
            return await play_match(spec, pool)

    return asyncio.run(play())


def bad_bots_copy(folder: Path) -> Path:
    """A copy of tests/referee/bad_bots, with the package files above it, under `folder`
    (readable by every uid), for a test that writes a manifest of its own for one of those
    bots: a sandboxed bot sees its manifest's folder (widened to its package) and nothing
    else of the host's files, so the manifest must live with the code. Manifests written in
    the copy run ``-m tests.referee.bad_bots.NAME`` with ``workdir = "../../.."``."""
    root = folder / "bot-code"
    target = root / "tests" / "referee" / "bad_bots"
    if not target.exists():
        shutil.copytree(BAD_BOTS, target, ignore=shutil.ignore_patterns("__pycache__", "*.toml"))
        for package in (root / "tests", root / "tests" / "referee"):
            (package / "__init__.py").write_text("")
        for path in [root, *root.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
    return target
