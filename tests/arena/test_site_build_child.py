"""The arena's site builds die with it: ``kill -9`` of the server while a build
(``python -m leaderboard.publish``) runs leaves no build running (it would race the
restarted server's builds, and nothing would ever stop it). A real arena, its ladder
publishing after every match; the build found running is frozen (SIGSTOP) so that it
cannot end by itself first; the waits are bounded."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.arena.servers import arena_server, new_bot

pytestmark = pytest.mark.slow
WAIT_S = 120.0


def builds_for(store: Path) -> list[int]:
    """The live ``leaderboard.publish`` processes building `store`'s site."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        # The build itself (after the lifeline's exec, if any), not its lifeline.
        building = argv[1:3] == [b"-m", b"leaderboard.publish"] and str(store).encode() in argv
        if building and state != "Z":
            found.append(int(entry))
    return found


def test_a_killed_arena_leaves_no_site_build_running(tmp_path: Path) -> None:
    # Two house bots so that the ladder plays; a build after every match.
    second = new_bot(tmp_path, "second")
    extra = f'site_every_matches = 1\nsite_every_s = 1\n[[bots]]\nmanifest = "{second}/bot.toml"'
    with arena_server(tmp_path, ladder=True, extra=extra) as server:
        store = server.folder / "arena.sqlite"
        deadline = time.monotonic() + WAIT_S
        while not (building := builds_for(store)):
            assert time.monotonic() < deadline, "no site build seen running"
            time.sleep(0.01)
        # Frozen, the build cannot end by itself: only the kill that follows the server's
        # death can end it.
        for pid in building:
            os.kill(pid, signal.SIGSTOP)
        server.kill()
        deadline = time.monotonic() + 10
        while builds_for(store) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = builds_for(store)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert left == [], f"builds {left} outlived the killed arena"
