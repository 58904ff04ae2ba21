"""One ``league run`` per store at a time.

Two runs of the same league would both play every unfinished match (the store keeps
only the first result of each, but the bots' work is done twice and each run's ratings
wait for results the other recorded). So a run holds an advisory lock (``flock``) on a
file beside the store, ``STORE.lock``, for as long as it plays; the lock goes with the
process, however it ends (even ``kill -9``), and the file stays: removing it could let
two runs lock two different files.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from referee.league.store import store_os_error
from sdk.errors import BullringError


class LeagueRunning(BullringError, RuntimeError):
    """Another process is running the league of this store."""


def lock_path(store_path: Path) -> Path:
    """The lock file of the store `store_path` (``league.sqlite.lock``)."""
    return store_path.with_name(store_path.name + ".lock")


@contextmanager
def run_lock(store_path: Path) -> Iterator[None]:
    """Hold the store's run lock; LeagueRunning at once if another process holds it."""
    path = lock_path(store_path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:  # a read-only or full file system, say
        raise store_os_error(store_path, error, f"its run lock {path.name}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise LeagueRunning(
                f"{store_path}: another league run{who} is playing this league; "
                "let it finish or stop it (Ctrl-C), then run again"
            ) from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as error:
            raise store_os_error(store_path, error, f"its run lock {path.name}") from None
        yield
    finally:
        os.close(fd)
