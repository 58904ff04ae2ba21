"""Writing the site's files: each one whole or not at all, and the test hook that stops a
publish at one of its writes.

A file is written under a temporary name beside its place and renamed over it (one
rename: a reader sees the old file or the new one, never part of one, and a file another
build holds by a hard link keeps its old contents). `BULLRING_PUBLISH_KILL_AT=N` makes the
process kill itself with SIGKILL at its N-th step (a file written, or a step of
leaderboard/publish.py): tests/leaderboard/test_publish.py stops real publishes that way,
at points it draws with a seed, and checks that the published site is still whole.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

KILL_AT_ENV = "BULLRING_PUBLISH_KILL_AT"
_kill_at = int(os.environ.get(KILL_AT_ENV, "0") or 0)
_steps = 0


def step() -> None:
    """Count a step; at the N-th of `BULLRING_PUBLISH_KILL_AT`, die as a crash would."""
    global _steps
    _steps += 1
    if _kill_at and _steps == _kill_at:
        os.kill(os.getpid(), signal.SIGKILL)


def write_bytes(path: Path, data: bytes) -> None:
    """Write `path` whole: a temporary file beside it, renamed over it."""
    step()
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))
