"""A real league process killed with SIGKILL at seeded points resumes to the same end."""

from __future__ import annotations

import contextlib
import ctypes
import os
import random
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.league.store import LeagueStore
from tests.referee.league.leagues import (
    SMALL,
    bullring,
    bullring_argv,
    share_key,
    snapshot,
    write_league,
)

pytestmark = pytest.mark.slow

TOTAL = 24  # 6nimmt: C(4,3) sets x 3 games; xnimmt duplicate: C(4,2) sets x 2 seatings


def descendants(pid: int) -> set[int]:
    """Every live process below `pid` (bots run in their own sessions, still children)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            parents.setdefault(ppid, []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


@pytest.fixture
def adopt_orphans() -> Iterator[None]:
    """Linux: be a child subreaper meanwhile, so bots orphaned by a kill stay ours to kill."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(36, 1)  # PR_SET_CHILD_SUBREAPER
    try:
        yield
    finally:
        kill_descendants()
        libc.prctl(36, 0)


def kill_descendants() -> None:
    for pid in descendants(os.getpid()):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass


def finished(store: Path) -> int:
    if not store.exists():
        return -1
    try:
        with LeagueStore.open_readonly(store) as db:
            return db.counts()[0]
    except Exception:  # not initialised yet
        return -1


def run_and_kill(file: Path, store: Path, target: int) -> None:
    """Start the league; SIGKILL it once `target` matches are finished (-1: at once)."""
    process = subprocess.Popen(
        bullring_argv("league", "run", str(file), "--no-progress"),
        cwd=file.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        while finished(store) < target:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=0.02)
            if process.returncode is not None:
                break
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
        kill_descendants()


@pytest.mark.usefixtures("adopt_orphans")
def test_sigkilled_league_finishes_every_match_exactly_once(tmp_path: Path) -> None:
    file = write_league(tmp_path, SMALL)
    reference = bullring(
        "league", "run", str(file), "--no-progress", "--store", "ref.sqlite", cwd=tmp_path
    )
    assert reference.returncode == 0, reference.stderr
    expected = snapshot(tmp_path / "ref.sqlite")
    assert len(expected["matches"]) == TOTAL

    store = tmp_path / "small.sqlite"
    share_key(tmp_path / "ref.sqlite", store)  # the same deals as the reference run
    rng = random.Random(20240611)
    target = -1  # first kill: as soon as the process starts
    kills = 0
    while kills < 4 and target < TOTAL:
        run_and_kill(file, store, target)
        kills += 1
        target = max(finished(store), 0) + rng.randint(1, 5)
    assert 0 <= finished(store) < TOTAL, "the kills should interrupt the league"

    done = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    resumed = snapshot(store)
    assert resumed == expected
    with LeagueStore.open_readonly(store) as db:
        assert db.counts() == (TOTAL, TOTAL)
        per_match = db.db.execute(
            "SELECT m.match_id, COUNT(r.seat), json_array_length(m.seats) FROM matches m"
            " JOIN results r ON r.match_id = m.match_id GROUP BY m.match_id"
        ).fetchall()
        assert len(per_match) == TOTAL
        assert all(count == seats for _, count, seats in per_match)
