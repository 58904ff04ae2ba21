"""Signalling other processes: at its first decision the bot looks for every process it
can see (``/proc``, and ``kill(pid, 0)`` over pids 1..65535), then sends SIGSTOP and
SIGKILL to each of them but itself (its own threads included: a thread id names its whole
process to kill), to pid 1, to its parent, to every pid of ``pids`` (the referee's and
other bots', as the host numbers them) and to -1 (every process it may signal). It reports
what each signal did, and plays on."""

from __future__ import annotations

import os
import signal
from typing import Any

from tests.referee.hostile.common import HostileBot, attempt, main

SCAN = range(1, 65536)


class Signaller(HostileBot):
    name = "signaller"

    def attack(self) -> dict[str, Any]:
        me = os.getpid()
        seen = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
        found = []
        for pid in SCAN:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                continue
            except PermissionError:
                pass
            found.append(pid)
        targets = sorted({*seen, *found, 1, os.getppid(), *map(int, self.config.get("pids", []))})
        tried, own = [], {me}
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            for pid in targets:
                if pid == me or os.path.exists(f"/proc/self/task/{pid}"):
                    own.add(pid)  # one of its own threads (gRPC starts them as it goes)
                    continue
                tried.append(attempt(f"{sig.name} {pid}", lambda p=pid, s=sig: os.kill(p, s)))
        tried.append(attempt("SIGKILL -1", lambda: os.kill(-1, signal.SIGKILL)))
        return {
            "pid": me,
            "own": sorted(own),
            "ppid": os.getppid(),
            "seen": seen,
            "found": found,
            "tried": tried,
        }


if __name__ == "__main__":
    main(Signaller())
