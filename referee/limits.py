"""Caps on what users may ask for: every number a league file or a command takes.

Anything beyond these is refused, before anything is started or written, with one line
naming the field and the cap (docs/leagues.md lists them). The caps are far above any
sensible league and far below what breaks the referee: clock values travel as uint32
milliseconds, a schedule is held in memory while it is written, and each worker runs
its bots' processes on this machine.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from referee.spec import ClockSpec
from sdk.errors import BullringError

MAX_MATCHES = 1_000_000  # matches one league run may schedule (and `games` per variant)
MAX_CHECK_GAMES = 1_000  # `bullring bot check --games`
MAX_BATCH = 10_000  # matches per scheduling batch of the quality format
PARALLEL_PER_CORE = 4  # workers per core of this machine (local executor, local Ray)
MAX_PARALLEL_CLUSTER = 1024  # workers on a Ray cluster (an `address` is given)
MAX_REPLAY_BYTES = 64 << 20  # a replay file or stored replay, once decompressed
# Commas and brackets in a replay's JSON text (a bound on its values), counted before it
# is parsed: parsed, each costs 50 to 100 bytes of memory, and 64 MiB of "[]," would take
# 1.5 GB. The longest game the engine deals (6 nimmt!, 100 rounds, 10 seats) holds 750,000.
MAX_REPLAY_ITEMS = 4_000_000
LOCK_TIMEOUT_S = 10.0  # how long a writer waits for the store's write lock by default
MAX_LOCK_TIMEOUT_S = 3600.0
MAX_NAME_LENGTH = 64  # bot names and versions

# The referee's clock, in milliseconds (uint32 on the wire, so < 4,294,967,296).
CLOCK_LIMITS: dict[str, tuple[int, int]] = {
    "decision_ms": (1, 600_000),  # 10 minutes per decision
    "time_bank_ms": (0, 3_600_000),  # an hour of overruns per seat
    "setup_ms": (1, 600_000),  # 10 minutes to start and say hello
    "max_faults": (1, 1_000),
}

_SAFE_NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_.\-]{{0,{MAX_NAME_LENGTH - 1}}}")


class LimitError(BullringError, ValueError):
    """A value beyond its cap; the message names the field and the cap."""


def safe_name_problem(text: str) -> str | None:
    """Why `text` cannot be a bot name or version (None: it can).

    Safe names start with a letter or digit and hold only letters, digits, ``_``, ``-``
    and ``.`` (at most 64 characters, ASCII only): they are used in file names, match
    ids and site addresses, so ``../x`` or ``.hidden`` never are.
    """
    if _SAFE_NAME.fullmatch(text) and text.isascii():
        return None
    if len(text) > MAX_NAME_LENGTH:
        return f"{text[:20]!r}... is longer than {MAX_NAME_LENGTH} characters"
    return (
        f"{text!r} is not a safe name: use ASCII letters, digits, '_', '-' and '.', "
        "starting with a letter or digit"
    )


def clock_problem(field: str, value: int) -> str | None:
    """Why `value` cannot be the clock's `field` (None: it can)."""
    low, high = CLOCK_LIMITS[field]
    if value < low:
        return f"must be at least {low}, not {value}"
    if value > high:
        return f"must be at most {high:,}, not {value:,}"
    return None


def check_clock(clock: ClockSpec, names: dict[str, str] | None = None) -> None:
    """LimitError naming the first clock value beyond its cap (`names` maps a field to
    what the user typed, e.g. ``{"decision_ms": "--decision-ms"}``)."""
    for field, value in clock.to_json().items():
        if field in CLOCK_LIMITS:
            problem = clock_problem(field, value)
            if problem:
                raise LimitError(f"{(names or {}).get(field, field)}: {problem}")


@dataclass(frozen=True)
class ParallelCap:
    """The most workers a league may run at once, and why."""

    maximum: int
    reason: str


def parallel_cap(on_cluster: bool, cores: int | None = None) -> ParallelCap:
    """The cap on ``parallel``: a multiple of this machine's cores, or a fixed cap on a
    Ray cluster (whose size this machine cannot see)."""
    if on_cluster:
        return ParallelCap(MAX_PARALLEL_CLUSTER, "on a Ray cluster")
    count = cores or os.cpu_count() or 1
    return ParallelCap(PARALLEL_PER_CORE * count, f"{PARALLEL_PER_CORE} per core, {count} cores")


def parallel_problem(parallel: int, on_cluster: bool) -> str | None:
    """Why `parallel` (0: one per core) cannot be used (None: it can)."""
    if parallel < 0:
        return f"must be at least 0, not {parallel}"
    cap = parallel_cap(on_cluster)
    if parallel > cap.maximum:
        return f"must be at most {cap.maximum} ({cap.reason}), not {parallel}"
    return None


def check_parallel(parallel: int, on_cluster: bool, where: str = "parallel") -> None:
    """LimitError if `parallel` (0: one per core) is negative or above its cap."""
    problem = parallel_problem(parallel, on_cluster)
    if problem:
        raise LimitError(f"{where}: {problem}")


def check_lock_timeout(seconds: float, where: str = "--lock-timeout") -> None:
    """LimitError unless 0 < `seconds` <= MAX_LOCK_TIMEOUT_S."""
    if not 0 < seconds <= MAX_LOCK_TIMEOUT_S:
        raise LimitError(f"{where}: must be above 0 and at most {MAX_LOCK_TIMEOUT_S:g} seconds")


def check_schedule_size(matches: int, where: str = "the schedule") -> None:
    """LimitError if a league would schedule more than MAX_MATCHES matches."""
    if matches > MAX_MATCHES:
        raise LimitError(
            f"{where} has {matches:,} matches, more than the cap of {MAX_MATCHES:,}: "
            "use fewer games, bots or seats"
        )


def json_items_problem(text: bytes) -> str | None:
    """Why the JSON text of a replay (or a digest) is not parsed at all: more items
    (commas and opening brackets, a bound on its values) than MAX_REPLAY_ITEMS. None when
    it may be parsed."""
    items = text.count(b",") + text.count(b"[") + text.count(b"{")
    if items <= MAX_REPLAY_ITEMS:
        return None
    return f"{items:,} JSON values or more, above the cap of {MAX_REPLAY_ITEMS:,}"
