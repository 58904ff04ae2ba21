"""Memory growth across child processes: at its first decision the bot forks ``children``
(3) processes that each fill ``child_mb`` (100) MiB, then waits for them (at most 20 s).
Each child alone is small; together they go over a 256 MiB sandbox: the kernel kills one
at the limit, the watchdog ends the whole tree, and the seat gets a RESOURCE fault."""

from __future__ import annotations

import os
import time
from typing import Any

from tests.referee.hostile.common import HostileBot, main

WAIT_S = 20.0


class MemoryChildren(HostileBot):
    name = "memory_children"

    def attack(self) -> dict[str, Any]:
        size = int(self.config.get("child_mb", 100)) << 20
        children = []
        for _ in range(int(self.config.get("children", 3))):
            pid = os.fork()
            if pid == 0:
                block = b"\x01" * size  # written, so resident
                time.sleep(WAIT_S)
                os._exit(len(block) & 1)
            children.append(pid)
        ended: dict[int, int] = {}
        end = time.monotonic() + WAIT_S
        while len(ended) < len(children) and time.monotonic() < end:
            for pid in children:
                if pid not in ended:
                    done, status = os.waitpid(pid, os.WNOHANG)
                    if done:
                        ended[pid] = status
            time.sleep(0.05)
        return {"children": len(children), "ended": len(ended)}


if __name__ == "__main__":
    main(MemoryChildren())
