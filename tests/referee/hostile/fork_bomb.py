"""A bounded fork bomb: at its first decision the bot forks up to ``forks`` (200) children
that each sleep 30 s. The sandbox's process limit refuses the forks past it (the test sets
32), the watchdog ends the whole tree, and the seat gets a RESOURCE fault."""

from __future__ import annotations

import os
import time
from typing import Any

from tests.referee.hostile.common import HostileBot, main

SLEEP_S = 30.0


class ForkBomb(HostileBot):
    name = "fork_bomb"

    def attack(self) -> dict[str, Any]:
        forked, refused = 0, ""
        for _ in range(int(self.config.get("forks", 200))):
            try:
                pid = os.fork()
            except OSError as error:
                refused = str(error)
                break
            if pid == 0:
                time.sleep(SLEEP_S)
                os._exit(0)
            forked += 1
        return {"forked": forked, "refused": refused}


if __name__ == "__main__":
    main(ForkBomb())
