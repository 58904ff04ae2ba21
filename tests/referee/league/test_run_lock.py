"""The same league run twice at once: the second ``league run`` stops at once with one
line (exit 2) and writes nothing; the first goes on. Real processes, real bots."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from referee.league.run_lock import LeagueRunning, lock_path, run_lock
from referee.league.store import LeagueStore
from tests.referee.helpers import descendants
from tests.referee.league.leagues import (
    FIRST_OPTION,
    REPO,
    bullring,
    bullring_argv,
    snapshot,
    start_as_from_a_terminal,
)

pytestmark = pytest.mark.slow

HANG = REPO / "tests" / "referee" / "bad_bots" / "hang.toml"

# A league that stays busy for minutes: the hang bot stops answering at its second
# decision, and the clock waits 10 minutes for it. The first run holds the store
# meanwhile; it is interrupted once the second run has been refused.
BUSY = f"""
[league]
name = "busy"
seats = 2
games = 2
parallel = 1
store = "busy.sqlite"

[clock]
decision_ms = 600000
setup_ms = 60000

[[bots]]
manifest = "{FIRST_OPTION}"
name = "a"

[[bots]]
manifest = "{HANG}"

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}
"""


def scheduled(store: Path) -> int:
    """How many matches the store schedules (0 while it is not made yet)."""
    try:
        with LeagueStore.open_readonly(store) as db:
            return db.counts()[1]
    except Exception:  # not made yet
        return 0


def test_a_second_run_of_a_running_league_is_refused_in_one_line(tmp_path: Path) -> None:
    file = tmp_path / "busy.toml"
    file.write_text(BUSY)
    store = tmp_path / "busy.sqlite"
    argv = bullring_argv("league", "run", str(file), "--no-progress")
    first = start_as_from_a_terminal(argv, tmp_path)
    try:
        deadline = time.monotonic() + 300
        while scheduled(store) < 2 and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert first.poll() is None, first.communicate()
        before = snapshot(store)
        second = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path, timeout=120)
        lines = second.stderr.strip().splitlines()
        assert second.returncode == 2, second.stderr
        assert len(lines) == 1
        assert f"another league run (pid {first.pid}) is playing this league" in lines[0]
        assert "Traceback" not in second.stderr
        assert snapshot(store) == before
        assert first.poll() is None  # the first run goes on
    finally:
        os.killpg(first.pid, signal.SIGINT)
        first.wait(timeout=60)
    assert descendants() == []
    # The lock went with the first run.
    with run_lock(store):
        pass


def test_the_lock_is_held_per_store_and_released_on_exit(tmp_path: Path) -> None:
    store = tmp_path / "x.sqlite"
    with run_lock(store):
        with pytest.raises(LeagueRunning, match="another league run"), run_lock(store):
            pass
        with run_lock(tmp_path / "other.sqlite"):
            pass
    with run_lock(store):
        pass
    assert lock_path(store).read_text() == f"{os.getpid()}\n"
