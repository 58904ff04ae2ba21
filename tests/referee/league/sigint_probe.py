"""A worker main whose module sends its own process SIGINT when a worker imports it: a
Ctrl-C that lands while a league's worker is still starting (test_worker_sigint.py)."""

from __future__ import annotations

import os
import signal
from multiprocessing.connection import Connection

PARENT = "BULLRING_TEST_SIGINT_PARENT"  # the test's pid: its workers inherit it

if os.environ.get(PARENT, str(os.getpid())) != str(os.getpid()):  # a worker, starting
    os.kill(os.getpid(), signal.SIGINT)


def main(connection: Connection) -> None:
    """Answer each task with itself plus one."""
    while (task := connection.recv()) is not None:
        connection.send(task + 1)
