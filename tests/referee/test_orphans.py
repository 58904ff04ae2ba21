"""A bot never outlives its referee, even when the referee is killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from tests.referee.helpers import RANDOM_BOT, group_members

# A referee-like parent: starts the random bot through the real launcher, reports the
# bot's process group, then waits to be killed.
PARENT = f"""
import sys, time
from referee.manifest import load_manifest
from referee.process import BotProcess, ProcessLimits
bot = BotProcess(load_manifest({str(RANDOM_BOT / "bot.toml")!r}), ProcessLimits())
print(bot.pid, flush=True)
time.sleep(600)
"""


def wait_until(condition: object, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.05)
    return False


def test_bot_group_dies_with_a_killed_referee() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True, cwd=os.getcwd()
    )
    try:
        assert parent.stdout is not None
        group = int(parent.stdout.readline())
        # The watchdog (launcher) and the bot itself both run in the bot's group.
        assert wait_until(lambda: len(group_members(group)) >= 2, 10), group_members(group)
        parent.send_signal(signal.SIGKILL)
        parent.wait(5)
        assert wait_until(lambda: not group_members(group), 5), (
            f"bot processes {group_members(group)} outlived their referee"
        )
    finally:
        parent.kill()
        parent.wait()
