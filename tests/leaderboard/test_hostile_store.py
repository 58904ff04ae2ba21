"""`leaderboard build --store FILE` given a store from a stranger (a copy of a real league's
store, then changed by hand): a crafted store is refused in one line (exit 2, no
traceback), within a bound of time and memory, writing nothing outside the output
folder and running nothing the store names; a store that is only odd (a manifest path
that names a device) is built as it is."""

from __future__ import annotations

import json
import os
import resource
import shutil
import sqlite3
import subprocess
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from leaderboard import paths
from referee.limits import MAX_REPLAY_BYTES
from tests.referee.league.hostile_league import run_hostile_league
from tests.referee.league.leagues import bullring_argv

MEMORY_LIMIT = 1 << 30  # the build's address space: a bomb would need far more
MATCH = "inert-000001"  # the league's first match (the hostile bot at seat 0, a fault)
Change = Callable[[sqlite3.Connection], object]


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store of a real league whose bot faults and prints (digests, logs, faults)."""
    folder = tmp_path_factory.mktemp("stranger")
    run_hostile_league(folder)
    return folder / "inert.sqlite"


def crafted(source: Path, folder: Path, change: Change) -> Path:
    """A copy of `source` in `folder`, changed by `change` (given its connection)."""
    store = folder / "received.sqlite"
    shutil.copy(source, store)
    with sqlite3.connect(store) as db:
        change(db)
    db.close()
    return store


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def build(store: Path, folder: Path) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """``bullring leaderboard build --store STORE --out FOLDER/out/site`` with its memory
    bounded, and every path that is in `folder` afterwards and was not before (the site's
    own files as ``out/site/...``)."""
    before = {str(p.relative_to(folder)) for p in folder.rglob("*")}
    done = subprocess.run(
        bullring_argv("leaderboard", "build", "--store", str(store), "--out", "out/site"),
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_bounded,
    )
    after = {str(p.relative_to(folder)) for p in folder.rglob("*")}
    return done, after - before


def assert_refused(done: subprocess.CompletedProcess[str], says: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], done.stderr


def only_the_site(new: set[str]) -> None:
    """Every new path is the site's (or SQLite's own beside the store it reads, in WAL
    mode: received.sqlite-wal and -shm)."""
    site = {p for p in new if p in ("out", "out/site") or p.startswith("out/site/")}
    assert new - site <= {"received.sqlite-wal", "received.sqlite-shm"}, new


def zlib_bomb(size: int) -> bytes:
    """`size` bytes of zeros, deflated (about 1,000:1)."""
    pack = zlib.compressobj(9)
    chunk = bytes(1 << 20)
    return b"".join(pack.compress(chunk) for _ in range(size >> 20)) + pack.flush()


def json_bomb() -> bytes:
    """A replay's JSON text of 57 MiB whose decisions are 20 million empty lists (parsed,
    1.5 GB of memory), deflated."""
    head = f'{{"format":"bullring-replay","version":3,"match_id":"{MATCH}","decisions":['
    return zlib.compress(head.encode() + b"[]," * 20_000_000 + b"[]]}", 9)


def update(sql: str, *args: object) -> Change:
    return lambda db: db.execute(sql, args)


# (what is wrong, how to make it, what the one line says)
REFUSED: list[tuple[str, Change, str]] = [
    (
        "a score of the wrong type",
        update("UPDATE results SET score = 'many' WHERE match_id = ? AND seat = 0", MATCH),
        "results.score",
    ),
    (
        "a score that is not the replay's",
        update("UPDATE results SET score = score + 1 WHERE match_id = ? AND seat = 0", MATCH),
        f"{MATCH}: its results say",
    ),
    (
        "seats swapped in the results",
        update(
            "UPDATE results SET bot = CASE seat WHEN 0 THEN 'first_option@1' "
            "ELSE 'hostile_text@1' END WHERE match_id = ?",
            MATCH,
        ),
        f"{MATCH}: its results say",
    ),
    (
        "another match's replay",
        lambda db: db.execute(
            "UPDATE replays SET data = (SELECT data FROM replays WHERE match_id != ?) "
            "WHERE match_id = ?",
            (MATCH, MATCH),
        ),
        f"{MATCH}: its replay is of match",
    ),
    (
        "another match's digest",
        lambda db: db.execute(
            "UPDATE digests SET data = (SELECT data FROM digests WHERE match_id != ?) "
            "WHERE match_id = ?",
            (MATCH, MATCH),
        ),
        f"{MATCH}: its viewer data is of match",
    ),
    (
        "a zlib bomb for a replay",
        update("UPDATE replays SET data = ? WHERE match_id = ?", zlib_bomb(1 << 30), MATCH),
        "more than 64 MiB once decompressed",
    ),
    (
        "a zlib bomb for a digest",
        update("UPDATE digests SET data = ? WHERE match_id = ?", zlib_bomb(1 << 30), MATCH),
        "more than 64 MiB once decompressed",
    ),
    (
        "a JSON bomb for a replay (no digest)",
        lambda db: (
            db.execute("DELETE FROM digests WHERE match_id = ?", (MATCH,)),
            db.execute("UPDATE replays SET data = ? WHERE match_id = ?", (json_bomb(), MATCH)),
        ),
        "JSON values or more, above the cap",
    ),
    (
        "an absurd fault detail",
        update("UPDATE faults SET detail = ? WHERE match_id = ?", "x" * 2_000_000, MATCH),
        "faults.detail",
    ),
    (
        "a bot's spec that is not one",
        update("UPDATE bots SET spec = '[1, 2]' WHERE key = 'hostile_text@1'"),
        "bots.spec",
    ),
]


@pytest.mark.parametrize(("what", "change", "says"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_crafted_store_is_refused_in_one_line(
    source: Path, tmp_path: Path, what: str, change: Change, says: str
) -> None:
    store = crafted(source, tmp_path, change)
    done, new = build(store, tmp_path)
    assert_refused(done, says)
    only_the_site(new)


def test_the_copy_unchanged_is_built(source: Path, tmp_path: Path) -> None:
    done, new = build(crafted(source, tmp_path, lambda db: None), tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"out/site/{paths.match_page(MATCH)}" in new
    only_the_site(new)


def test_names_that_are_paths_stay_in_the_output_folder_and_nothing_runs(
    source: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "ran"
    escape = "../../../escaped"

    def rename(db: sqlite3.Connection) -> None:
        """The match, its replay and digest renamed; a bot whose command would leave a
        marker file if the build ran it."""
        for table in ("matches", "results", "faults", "replays", "digests", "logs", "ratings"):
            db.execute(f"UPDATE {table} SET match_id = ? WHERE match_id = ?", (escape, MATCH))
        for table in ("replays", "digests"):
            (blob,) = db.execute(f"SELECT data FROM {table} WHERE match_id = ?", (escape,))
            data = json.loads(zlib.decompress(blob[0]))
            data["match_id"] = escape
            packed = zlib.compress(json.dumps(data, separators=(",", ":")).encode())
            db.execute(f"UPDATE {table} SET data = ? WHERE match_id = ?", (packed, escape))
        command = ["/bin/sh", "-c", f"touch {marker}"]
        spec = {"name": "first_option", "version": "1", "command": command}
        db.execute("UPDATE bots SET spec = ? WHERE key = 'first_option@1'", (json.dumps(spec),))

    store = crafted(source, tmp_path, rename)
    done, new = build(store, tmp_path)
    assert done.returncode == 0, done.stderr
    only_the_site(new)
    assert f"out/site/{paths.match_page(escape)}" in new  # matches/escaped-<hash>.html
    assert not marker.exists()


def test_a_manifest_path_naming_a_device_or_a_pipe_is_not_read(
    source: Path, tmp_path: Path
) -> None:
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)  # opened for reading, it would wait for a writer forever
    store = crafted(
        source,
        tmp_path,
        lambda db: db.executemany(
            "UPDATE bots SET spec = json_set(spec, '$.manifest', ?) WHERE key = ?",
            [("/dev/zero", "hostile_text@1"), (str(pipe), "first_option@1")],
        ),
    )
    done, new = build(store, tmp_path)  # /dev/zero would fill the memory
    assert done.returncode == 0, done.stderr
    only_the_site(new)
    page = (tmp_path / "out" / "site" / paths.bot_page("hostile_text@1")).read_text()
    assert 'class="about"' not in page  # no author nor description: none was read


def test_the_bombs_are_small_files() -> None:
    assert len(zlib_bomb(1 << 30)) < 2 << 20 and len(json_bomb()) < 1 << 20
    assert MAX_REPLAY_BYTES < 1 << 30


@pytest.mark.parametrize(
    ("data", "says"),
    [(json_bomb(), "JSON values or more, above the cap"), (zlib.compress(b"{no"), "not JSON")],
    ids=["JSON bomb", "not JSON"],
)
def test_bullring_replay_of_a_crafted_stores_match_is_one_line(
    source: Path, tmp_path: Path, data: bytes, says: str
) -> None:
    store = crafted(source, tmp_path, update("UPDATE replays SET data = ?", data))
    done = subprocess.run(
        bullring_argv("replay", str(store), MATCH),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_bounded,
    )
    assert_refused(done, says)
