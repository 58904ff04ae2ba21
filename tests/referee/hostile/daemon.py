"""A setsid double-fork daemon: at its first decision the bot forks a child that starts a
new session and forks again, so that the grandchild (sleeping up to 60 s) is nobody's
child: the classic way to outlive one's parent. The bot then plays on, faultless."""

from __future__ import annotations

import os
import time
from typing import Any

from tests.referee.hostile.common import HostileBot, main

DAEMON_S = 60.0


class Daemon(HostileBot):
    name = "daemon"

    def attack(self) -> dict[str, Any]:
        child = os.fork()
        if child == 0:
            os.setsid()
            if os.fork() != 0:
                os._exit(0)
            end = time.monotonic() + DAEMON_S
            while time.monotonic() < end:
                time.sleep(0.2)
            os._exit(0)
        os.waitpid(child, 0)
        daemons = [p for p in os.listdir("/proc") if p.isdigit() and int(p) > os.getpid()]
        return {"daemon_pids_inside": daemons}


if __name__ == "__main__":
    main(Daemon())
