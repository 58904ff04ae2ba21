"""A store that is damaged, not a store, or locked by another process: one line, exit 2,
no traceback, and nothing lost or changed."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from referee.league.config import load_league
from referee.league.executors import LocalExecutor
from referee.league.runner import LeagueRunner
from referee.league.store import LeagueStore, StoreError, StoreLocked
from tests.referee.league.leagues import (
    FIRST_OPTION,
    bullring,
    share_archive,
    share_key,
    snapshot,
    write_league,
)

pytestmark = pytest.mark.slow

LEAGUE = """
[league]
name = "tiny"
seed = 3
seats = 2
games = 2
store = "tiny.sqlite"

[[variants]]
id = "6nimmt"
options = { rounds = 1 }
"""


@pytest.fixture(scope="module")
def good_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished league's store (2 bots, 2 matches), made once for the module."""
    folder = tmp_path_factory.mktemp("good")
    config = load_league(write_league(folder, LEAGUE, bots=["a", "b"]))
    summary = LeagueRunner(config, LocalExecutor(workers=1), folder / "tiny.sqlite").run()
    assert summary.played == 2
    return folder / "tiny.sqlite"


def damaged(good: Path, folder: Path, how: str) -> Path:
    """A copy of `good` broken in one way, or a path that is not a store at all."""
    path = folder / f"{how}.sqlite"
    data = good.read_bytes() if how in ("truncated", "zeroed", "garbage", "header") else b""
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "zeroed":  # the second half of the pages lost
        path.write_bytes(data[: len(data) // 2] + bytes(len(data) - len(data) // 2))
    elif how == "garbage":
        rng = random.Random(20240611)
        broken = bytearray(data)
        for _ in range(400):
            broken[rng.randrange(100, len(broken))] = rng.randrange(256)
        path.write_bytes(bytes(broken))
    elif how == "header":  # an SQLite file whose header after its first 16 bytes is lost
        path.write_bytes(data[:16] + bytes(84) + data[100:])
    elif how == "text":
        path.write_text("this is a text file\n")
    elif how == "folder":
        path.mkdir()
    elif how == "other":
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        db.commit()
        db.close()
    elif how == "empty":
        path.write_bytes(b"")
    return path


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


STATUS_CASES = {
    "truncated": "the league store is damaged (database disk image is malformed)",
    "zeroed": "the league store is damaged (",
    "header": "the league store is damaged (file is not a database)",
    "text": "not a league store (file is not a database: not an SQLite file)",
    "folder": "not a file",
    "other": "not a league store (it holds tables: notes)",
    "empty": "an empty database",
}


@pytest.mark.parametrize("how", sorted(STATUS_CASES))
def test_status_of_a_store_that_is_damaged_or_not_one_is_one_line(
    good_store: Path, tmp_path: Path, how: str
) -> None:
    path = damaged(good_store, tmp_path, how)
    line = one_line_error(bullring("league", "status", str(path), cwd=tmp_path, timeout=60))
    assert str(path.name) in line and STATUS_CASES[how] in line
    # "Damaged" only for a damaged store: a file that is not one is never called damaged.
    assert ("damaged" in line) == (how in ("truncated", "zeroed", "header")), line


def test_status_of_a_store_with_random_garbage_never_shows_a_traceback(
    good_store: Path, tmp_path: Path
) -> None:
    path = damaged(good_store, tmp_path, "garbage")
    done = bullring("league", "status", str(path), cwd=tmp_path, timeout=60)
    assert "Traceback" not in done.stderr
    assert done.returncode == 0 or len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("how", ["truncated", "text", "other"])
def test_leaderboard_build_of_a_store_that_is_damaged_or_not_one_is_one_line(
    good_store: Path, tmp_path: Path, how: str
) -> None:
    path = damaged(good_store, tmp_path, how)
    done = bullring("leaderboard", "build", "--store", str(path), "--out", "site", cwd=tmp_path)
    assert STATUS_CASES[how] in one_line_error(done)


@pytest.mark.parametrize("how", ["truncated", "text", "folder", "other"])
def test_league_run_into_a_path_that_is_not_a_store_changes_nothing(
    good_store: Path, tmp_path: Path, how: str
) -> None:
    path = damaged(good_store, tmp_path, how)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    file = write_league(tmp_path, LEAGUE.replace("tiny.sqlite", path.name), bots=["a", "b"])
    line = one_line_error(bullring("league", "run", str(file), "--no-progress", cwd=tmp_path))
    assert path.name in line
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file() and p != file}
    assert {name: after.get(name) for name in before} == before  # not a byte written
    # Reading a store in WAL mode makes SQLite's side files (as for any reader); a file
    # that is not a WAL store gets none.
    wal = {f"{path.name}-wal", f"{path.name}-shm"} if how == "truncated" else set()
    assert set(after) - set(before) <= wal


def test_opening_another_database_for_writing_leaves_it_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a league store"):
        LeagueStore.open(path)
    assert path.read_bytes() == before


# --- the write lock ----------------------------------------------------------------------

HOLD = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.read()  # until the test closes our stdin
db.execute("ROLLBACK")
"""


@contextmanager
def lock_held(store: Path) -> Iterator[None]:
    """Another real process holds the store's write lock meanwhile."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(store)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)


def test_a_held_lock_is_a_bounded_wait_then_one_line_and_nothing_is_lost(
    good_store: Path, tmp_path: Path
) -> None:
    store = tmp_path / "tiny.sqlite"
    store.write_bytes(good_store.read_bytes())
    share_key(good_store, store)
    share_archive(good_store, store)
    before = snapshot(store)
    file = write_league(tmp_path, LEAGUE, bots=["a", "b", "c"])  # c: 4 new matches to play
    with lock_held(store):
        run = ("league", "run", str(file), "--no-progress", "--lock-timeout", "1")
        line = one_line_error(bullring(*run, cwd=tmp_path))
        assert "another process holds the store's write lock (waited 1 s)" in line
        assert snapshot(store) == before
        with pytest.raises(StoreLocked):
            LeagueStore.open(store, lock_timeout=0.2)

    resumed = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    with LeagueStore.open_readonly(store) as db:
        assert db.counts() == (6, 6)  # C(3, 2) pairs x 2 games, each once
        rows = db.db.execute("SELECT match_id, COUNT(*) FROM results GROUP BY match_id").fetchall()
        assert len(rows) == 6 and all(count == 2 for _, count in rows)
    after = snapshot(store)
    for table in ("matches", "results", "replays"):  # the first two matches as they were
        assert set(before[table]) <= set(after[table])


def test_bot_submit_to_a_locked_store_is_one_line_and_registers_after(
    good_store: Path, tmp_path: Path
) -> None:
    store = tmp_path / "tiny.sqlite"
    store.write_bytes(good_store.read_bytes())
    share_key(good_store, store)
    share_archive(good_store, store)
    file = write_league(tmp_path, LEAGUE, bots=["a", "b"])
    submit = ("bot", "submit", str(FIRST_OPTION), "--league", str(file), "--lock-timeout", "1")
    with lock_held(store):
        line = one_line_error(bullring(*submit, cwd=tmp_path))
        assert "write lock" in line
    with LeagueStore.open_readonly(store) as db:
        assert [b.spec.key for b in db.bots()] == ["a@1", "b@1"]
    done = bullring(*submit, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with LeagueStore.open_readonly(store) as db:
        assert [b.spec.key for b in db.bots()] == ["a@1", "b@1", "first_option@1"]


@pytest.mark.parametrize("name", ["a b.sqlite", "what?.sqlite", "no#1.sqlite", "x%20y.sqlite"])
def test_a_store_path_with_spaces_or_uri_characters_is_read_as_that_file(
    good_store: Path, tmp_path: Path, name: str
) -> None:
    """The read-only open goes through an SQLite URI: a path holding ?, # or % opened
    another file (`an empty database, not a league store`) until it was quoted."""
    folder = tmp_path / "my league #2?"
    folder.mkdir()
    path = folder / name
    path.write_bytes(good_store.read_bytes())
    with LeagueStore.open_readonly(path) as store:
        assert store.counts() == (2, 2)
    done = bullring("league", "status", str(path), "--json", cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    done = bullring("leaderboard", "build", "--store", str(path), "--out", "site", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
