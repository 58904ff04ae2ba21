"""CPU spin in extra threads: at its first decision the bot runs ``threads`` (4) threads
that hash a 1 MiB block over and over for ``seconds`` (3 s): hashing releases the GIL, so
unconfined they would take every core. It reports the CPU time its process got per second
of wall time, which the sandbox's CPU limit caps for the whole tree."""

from __future__ import annotations

import hashlib
import threading
import time
from typing import Any

from tests.referee.hostile.common import HostileBot, main


class CpuThreads(HostileBot):
    name = "cpu_threads"

    def attack(self) -> dict[str, Any]:
        seconds = float(self.config.get("seconds", 3.0))
        block = b"x" * (1 << 20)
        start, cpu_start = time.monotonic(), time.process_time()
        end = start + seconds

        def spin() -> None:
            while time.monotonic() < end:
                hashlib.sha256(block).digest()

        threads = [threading.Thread(target=spin) for _ in range(int(self.config.get("threads", 4)))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall, cpu = time.monotonic() - start, time.process_time() - cpu_start
        return {"threads": len(threads), "wall_s": wall, "cpu_s": cpu, "cpu_per_s": cpu / wall}


if __name__ == "__main__":
    main(CpuThreads())
