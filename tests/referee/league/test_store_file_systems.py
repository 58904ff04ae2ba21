"""A store on a file system that is full or read-only, for real (a small tmpfs, mounted
here; skipped where mounting is not permitted): one line that names the cause, exit 2,
nothing lost, and a full league that resumes once there is space (issue 26).

The other causes have their tests in test_store_errors.py (a held lock, a file that is
not a store, a damaged store) and test_store_readonly.py (a read-only file or folder).
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from referee.bots.manifest import load_manifest
from referee.league.archive import tree_entries
from referee.league.store import LeagueStore
from referee.replay.model import Replay
from referee.replay.resimulate import resimulate
from referee.sandbox.folders import bot_folder
from tests.referee.league.leagues import (
    FIRST_OPTION,
    bullring,
    share_archive,
    share_key,
    snapshot,
    two_bot_league,
    write_league,
)
from tests.referee.league.test_store_errors import one_line_error

pytestmark = pytest.mark.slow

LEAGUE = """
[league]
name = "full"
seed = 3
seats = 2
games = {games}
store = "full.sqlite"

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}
"""


def archive_need(manifest: Path) -> int:
    """KiB a tmpfs needs for the archived copy of the folder of the bot `manifest` (a page
    per file and folder at least), with room to spare."""
    folder = bot_folder(load_manifest(manifest))
    entries = tree_entries(folder)
    pages = sum(1 + (p.stat().st_size // 4096 if p.is_file() else 0)
                for p in (folder.parent / e.path for e in entries))  # fmt: skip
    return pages * 4 + 256


@contextmanager
def tmpfs(folder: Path, size: str) -> Iterator[Path]:
    """A tmpfs of `size` mounted at `folder` (made), unmounted afterwards whatever happens."""
    folder.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(folder)]
    try:
        subprocess.run(mount, check=True, capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as error:
        pytest.skip(f"cannot mount a tmpfs here: {error}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False, capture_output=True)


def remount(folder: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(folder)], check=True, timeout=30)


def fill(folder: Path) -> None:
    """Fill the file system of `folder` to its last byte."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            os.write(fd, bytes(4096))
    except OSError as error:
        assert error.errno == errno.ENOSPC, error
    finally:
        os.close(fd)


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def good_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished league's store (2 bots, 2 matches) with its key and league file."""
    folder = tmp_path_factory.mktemp("good")
    league = two_bot_league(folder, "good")
    done = bullring("league", "run", str(league), "--no-progress", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder / "good.sqlite"


def test_a_league_that_fills_its_disk_says_so_keeps_its_matches_and_resumes(
    tmp_path: Path,
) -> None:
    # 600k for the store, besides the archived copy of the bots' folder (referee/league/
    # archive.py), which the league makes before it plays.
    with tmpfs(tmp_path / "disk", f"{archive_need(FIRST_OPTION) + 600}k") as disk:
        league = write_league(disk, LEAGUE.format(games=30), bots=["a", "b"], name="full")
        line = one_line_error(bullring("league", "run", str(league), "--no-progress", cwd=disk))
        assert line.startswith(
            f"error: {disk}/full.sqlite: the disk is full (database or disk is full): no "
            f"space is left on the file system of {disk}; the "
        ), line
        assert "damaged" not in line
        assert "run this again: league run resumes where it stopped" in line
        found = re.search(r"the (\d+) finished matches recorded so far are kept", line)
        assert found, line
        recorded = int(found.group(1))
        store = disk / "full.sqlite"
        # The store is whole, and holds exactly the matches the line counts.
        with LeagueStore.open_readonly(store) as db:
            assert [tuple(r) for r in db.db.execute("PRAGMA integrity_check")] == [("ok",)]
            finished, scheduled = db.counts()
            assert 0 < finished == recorded < scheduled == 30
            for match in db.matches(status="finished"):
                assert len(db.results(match.match_id)) == 2
                replay = Replay.from_json(db.replay(match.match_id) or {})
                assert resimulate(replay) == [r["score"] for r in db.results(match.match_id)]
        before = snapshot(store)
        # With space again, the same command resumes: each match played once, the first
        # ones as they were.
        remount(disk, "size=16m")
        done = bullring("league", "run", str(league), "--no-progress", cwd=disk)
        assert done.returncode == 0, done.stderr
        with LeagueStore.open_readonly(store) as db:
            assert db.counts() == (30, 30)
        after = snapshot(store)
        finished_before = {r for r in before["matches"] if tuple(r)[-1] == "finished"}
        assert len(finished_before) == recorded
        assert finished_before <= set(after["matches"])
        for table in ("results", "replays"):
            assert set(before[table]) <= set(after[table])
        assert len(after["results"]) == 60


def test_a_store_on_a_full_disk_that_cannot_be_read_says_the_disk_is_full(
    good_store: Path, tmp_path: Path
) -> None:
    """SQLite makes good.sqlite-shm to read a store in WAL mode: with no byte left, that
    fails as a disk I/O error, which is the full disk, not damage."""
    with tmpfs(tmp_path / "disk", "600k") as disk:
        store = disk / "good.sqlite"
        shutil.copyfile(good_store, store)
        fill(disk)
        before = file_hash(store)
        line = one_line_error(bullring("league", "status", str(store), cwd=disk, timeout=60))
        assert "good.sqlite: the disk is full (disk I/O error)" in line, line
        assert "damaged" not in line
        build = ("leaderboard", "build", "--store", str(store), "--out", str(tmp_path / "site"))
        line = one_line_error(bullring(*build, cwd=tmp_path))
        assert "good.sqlite: the disk is full" in line, line
        assert file_hash(store) == before


@pytest.mark.parametrize("side_files", [False, True], ids=["closed", "with-wal-and-shm"])
def test_a_store_on_a_read_only_file_system_says_so(
    good_store: Path, tmp_path: Path, side_files: bool
) -> None:
    """A store left closed has no -wal and -shm, which SQLite cannot make there, so even
    reading it fails; one left with them (copied while open) can be read, but league run
    cannot take its run lock, nor bot submit write it."""
    with tmpfs(tmp_path / "disk", f"{archive_need(FIRST_OPTION) + 4096}k") as disk:
        store = disk / "good.sqlite"
        league = two_bot_league(disk, "good")
        share_key(good_store, store)
        share_archive(good_store, store)
        if side_files:
            reader = sqlite3.connect(good_store)
            assert reader.execute("SELECT COUNT(*) FROM matches").fetchone() == (2,)
            for suffix in ("", "-wal", "-shm"):
                shutil.copyfile(f"{good_store}{suffix}", f"{store}{suffix}")
            reader.close()
        else:
            shutil.copyfile(good_store, store)
        remount(disk, "ro")
        before = {p.name: file_hash(p) for p in disk.iterdir() if p.is_file()}
        read_only = (
            "good.sqlite: its file system is read-only ("
            if not side_files
            else "good.sqlite: its file system is read-only (its run lock good.sqlite.lock: "
            "Read-only file system)"
        )
        status = bullring("league", "status", str(store), cwd=tmp_path, timeout=60)
        if side_files:
            assert status.returncode == 0, status.stderr
            assert "2/2 matches played" in status.stdout
        else:
            assert read_only in one_line_error(status)
        run = bullring("league", "run", str(league), "--no-progress", cwd=tmp_path)
        line = one_line_error(run)
        assert read_only in line and "damaged" not in line, line
        assert "mount the file system read-write, or copy the store to a writable folder" in line
        submit = ("bot", "submit", str(FIRST_OPTION), "--league", str(league))
        line = one_line_error(bullring(*submit, cwd=tmp_path))
        assert "good.sqlite: its file system is read-only (" in line, line
        assert {p.name: file_hash(p) for p in disk.iterdir() if p.is_file()} == before
