"""A bot never outlives its referee, even when the referee is killed with SIGKILL: its
watchdog kills the bot's whole tree and, sandboxed, removes its cgroup and private folder."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.referee.helpers import RANDOM_BOT, group_members

# A referee-like parent: starts the random bot through the real launcher, reports what
# the bot has (its watchdog's process group, its cgroup, private folder and uid), then
# waits to be killed.
PARENT = f"""
import json, sys, time
from referee.bots.manifest import load_manifest
from referee.bots.process import BotProcess, ProcessLimits
from referee.sandbox.config import SandboxConfig
first_uid = int(sys.argv[1])
sandbox = SandboxConfig(enabled=first_uid > 0, uids=(first_uid, first_uid))
bot = BotProcess(load_manifest({str(RANDOM_BOT / "bot.toml")!r}), ProcessLimits(), sandbox)
box = bot.box
print(json.dumps({{
    "group": bot.pid,
    "cgroups": [str(path) for _, path in box.cgroup.dirs] if box else [],
    "procs": box.cgroup.procs_file() if box else None,
    "private": str(bot.tmpdir),
}}), flush=True)
time.sleep(600)
"""


def wait_until(condition: object, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.05)
    return False


def processes_of_uid(uid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            status = Path(f"/proc/{entry}/status").read_text() if entry.isdigit() else ""
        except OSError:
            continue
        if status and int(status.split("\nUid:", 1)[1].split()[0]) == uid:
            found.append(int(entry))
    return found


def cgroup_pids(procs: str | None) -> list[int]:
    try:
        return [int(pid) for pid in Path(procs).read_text().split()] if procs else []
    except OSError:
        return []


@pytest.mark.parametrize("sandboxed", [True, False], ids=["sandboxed", "unsandboxed"])
def test_bot_dies_with_a_killed_referee(sandboxed: bool) -> None:
    uid = 80_000 + random.randrange(10_000) if sandboxed else 0
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(uid)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=os.getcwd(),
    )
    try:
        assert parent.stdout is not None
        bot = json.loads(parent.stdout.readline())
        if sandboxed:
            # bubblewrap, its init and the bot itself run in the bot's cgroup, as its uid.
            assert wait_until(lambda: len(cgroup_pids(bot["procs"])) >= 3, 20)
            assert wait_until(lambda: len(processes_of_uid(uid)) >= 3, 20)
        else:
            # The watchdog (launcher) and the bot itself both run in the bot's group.
            assert wait_until(lambda: len(group_members(bot["group"])) >= 2, 10)
        parent.send_signal(signal.SIGKILL)
        parent.wait(5)
        assert wait_until(lambda: not group_members(bot["group"]), 5), (
            f"bot processes {group_members(bot['group'])} outlived their referee"
        )
        if sandboxed:
            assert wait_until(lambda: not processes_of_uid(uid), 5), processes_of_uid(uid)
            assert wait_until(lambda: not any(Path(p).exists() for p in bot["cgroups"]), 5)
        assert wait_until(lambda: not Path(bot["private"]).exists(), 5), (
            "the watchdog left the bot's private folder behind"
        )
    finally:
        parent.kill()
        parent.wait()
