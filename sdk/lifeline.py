"""Processes that die with the process that started them.

A training script's self-play workers, a league's match workers, an arena's checks: when
their parent dies, even by SIGKILL, nothing should be left running (and holding a core, a
port or a file). On Linux :func:`die_with_parent` asks the kernel for a signal when the
parent dies (``prctl(PR_SET_PDEATHSIG)``); elsewhere it does nothing.

    from multiprocessing import get_context
    from sdk.lifeline import die_with_parent

    pool = get_context("spawn").Pool(2, initializer=die_with_parent)
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal

__all__ = ["die_with_parent"]

PR_SET_PDEATHSIG = 1  # prctl(2)


def die_with_parent(sig: int = signal.SIGKILL, parent: int | None = None) -> None:
    """Get `sig` (SIGKILL by default) when the parent process dies.

    `parent` is the pid the parent must have (default: the parent at the call). If it is
    already gone, and this process adopted by another, this process exits at once: the
    death came before the request and no signal would follow.
    """
    expected = os.getppid() if parent is None else parent
    with contextlib.suppress(OSError, AttributeError):  # not Linux: no such request
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, sig)
    if os.getppid() != expected:
        os._exit(1)
