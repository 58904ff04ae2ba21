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

from arena.uploads import pack
from referee.league.config import RatingConfig
from referee.league.ladder import predicted_matches
from referee.league.store import LeagueStore
from tests.arena.ladder_arena import (
    VARIANT,
    check_exactly_once,
    counts,
    ladder_server,
    server_log,
    sigma_of,
    wait_finished,
    wait_none_running,
)
from tests.arena.servers import new_bot

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
    log = server_log(tmp_path, tail=0)
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
        log = server_log(tmp_path, tail=0)
        finished = re.search(r"ladder: stopped; finished (\d+) match(es)? in flight", log)
        assert finished, log
        assert "arena: stopping (SIGTERM): finishing the matches in flight" in log
        done, scheduled = counts(tmp_path)
        assert done == scheduled  # nothing left in flight, nothing half-recorded

        server.start()
        wait_finished(tmp_path, done + 10, server)
        assert stop_with(server.process, signal.SIGINT) == 130
        log = server_log(tmp_path, tail=0)
        said = r"ladder: interrupted; abandoned (\d+) match(?:es)? in flight(.*)"
        abandoned = re.search(said, log)
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


def test_a_new_version_plays_at_once_and_most_games_until_its_sigma_is_low(
    tmp_path: Path,
) -> None:
    """An upload to a running ladder of 5 bots: its first match is among the first drawn
    after it became active (the workers may be busy with matches drawn before), it plays
    most of the games until its sigma falls below new_sigma, and it gets there in about
    the number of matches the arena file predicts."""
    server = ladder_server(tmp_path, ["a", "b", "c", "d", "e"], extra="new_sigma = 2.5")
    try:
        server.start()
        wait_finished(tmp_path, 30, server)
        token = server.author("alice")
        answer = server.post(pack(new_bot(tmp_path, "newbie")).data, token)
        assert answer.status_code == 202, answer.text
        assert server.wait_for("newbie", answer.json()["upload"], token)["state"] == "active"
        with LeagueStore.open_readonly(tmp_path / "arena.sqlite") as store:
            registered = next(b for b in store.bots() if b.spec.name == "newbie")
        key = registered.spec.key
        deadline = 200
        while (rating := sigma_of(tmp_path, key)) is None or rating.sigma > 2.5:
            done, _ = counts(tmp_path)
            wait_finished(tmp_path, done + 1, server)
            deadline -= 1
            assert deadline > 0, "the new version's sigma never fell below 2.5"
        assert stop_with(server.process, signal.SIGTERM) == 0
    finally:
        server.stop()
    with LeagueStore.open_readonly(tmp_path / "arena.sqlite") as store:
        matches = store.matches()
        after = [m for m in matches if m.scheduled_at >= registered.registered_at]
        history = store.rating_history(VARIANT, key)
    first = next(i for i, m in enumerate(after) if key in m.seats)
    assert first <= 2, [m.seats for m in after[:5]]  # at most the 2 workers' draws before
    crossed = next(seq for seq, _, rating in history if rating.sigma <= 2.5)
    until = [m for m in after[first:] if m.seq <= crossed]
    share = sum(key in m.seats for m in until) / len(until)
    assert share >= 0.6, (share, len(until))
    predicted = predicted_matches(RatingConfig(), 3, 2.5)
    took = sum(key in m.seats for m in until)
    assert abs(took - predicted) <= max(3, predicted // 2), (took, predicted)
    check_exactly_once(tmp_path, seed=31)
