"""The arena's ladder (issue 29): ``bullring arena serve`` plays for as long as it runs;
``kill -9`` at seeded points then a restart plays every scheduled match exactly once with
ratings equal to a replay of the results; SIGTERM finishes the matches in flight and
exits 0, SIGINT abandons them (they stay scheduled, and go first at the next start) and
exits 130; each says which matches. Real server processes, real sandboxed bots."""

from __future__ import annotations

import random
import re
import signal
import subprocess
from pathlib import Path

import pytest

from referee.league.store import LeagueStore
from tests.arena.ladder_arena import (
    check_exactly_once,
    counts,
    ladder_server,
    server_log,
    wait_finished,
    wait_none_running,
)

pytestmark = pytest.mark.slow
BOTS = ["a", "b", "c", "d"]


def stop_with(server_process: subprocess.Popen[str] | None, signum: int) -> int:
    assert server_process is not None
    server_process.send_signal(signum)
    return server_process.wait(300)


def test_kill_9_at_seeded_points_then_restart_plays_every_match_exactly_once(
    tmp_path: Path,
) -> None:
    rng = random.Random(29)
    server = ladder_server(tmp_path, BOTS)
    try:
        for _ in range(3):
            server.start()
            done = counts(tmp_path)[0]
            wait_finished(tmp_path, done + rng.randint(2, 25), server)
            # A seeded moment after that: mid-match, mid-record or between them.
            subprocess.run(["sleep", f"{rng.uniform(0, 0.4):.3f}"], check=True)
            server.kill()
            wait_none_running(tmp_path)  # the ladder, its workers and bots died with it
        left = counts(tmp_path)
        server.start()
        wait_finished(tmp_path, left[1] + 5, server)  # the leftovers, then new draws
        assert stop_with(server.process, signal.SIGTERM) == 0, server_log(tmp_path)
    finally:
        server.stop()
    wait_none_running(tmp_path)
    log = server_log(tmp_path)
    assert "matches left scheduled by the last run go first" in log
    played = check_exactly_once(tmp_path, seed=29)
    assert played >= left[1] + 5


def test_sigterm_finishes_the_matches_in_flight_and_sigint_abandons_them(
    tmp_path: Path,
) -> None:
    server = ladder_server(tmp_path, BOTS)
    try:
        server.start()
        wait_finished(tmp_path, 10, server)
        assert stop_with(server.process, signal.SIGTERM) == 0
        log = server_log(tmp_path)
        finished = re.search(r"ladder: stopped; finished the (\d+) matches in flight", log)
        assert finished, log
        assert "arena: stopping (SIGTERM): finishing the matches in flight" in log
        done, scheduled = counts(tmp_path)
        assert done == scheduled  # nothing left in flight, nothing half-recorded

        server.start()
        wait_finished(tmp_path, done + 10, server)
        assert stop_with(server.process, signal.SIGINT) == 130
        log = server_log(tmp_path)
        abandoned = re.search(r"ladder: interrupted; abandoned (\d+) matches in flight(.*)", log)
        assert abandoned, log
        named = re.findall(r"lad-\d{6}", abandoned.group(2))
        assert len(named) == int(abandoned.group(1))
        with LeagueStore.open_readonly(tmp_path / "arena.sqlite") as store:
            states = {m.match_id: m.status for m in store.matches()}
        assert all(states[m] == "scheduled" for m in named)
        assert sum(s == "scheduled" for s in states.values()) == len(named)
        wait_none_running(tmp_path)

        server.start()  # the abandoned matches go first, then it plays on
        wait_finished(tmp_path, len(states) + 3, server)
        assert stop_with(server.process, signal.SIGTERM) == 0
    finally:
        server.stop()
    check_exactly_once(tmp_path, seed=30)
