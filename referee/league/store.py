"""The league store: one SQLite file (WAL) per league. Schema and API: docs/store.md.

Writes are transactions: scheduling a batch, registering bots, and recording a finished
match (its result, faults, replay and the rating rows it unlocks) each commit or vanish
whole, so a league killed at any moment (even with SIGKILL) restarts where it stopped:
finished matches have results, every other scheduled match is played again.

The read API (:meth:`LeagueStore.standings`, :meth:`LeagueStore.rating_history`,
:meth:`LeagueStore.matches`, :meth:`LeagueStore.replay`, ...; in store_reads.py, the rows
in store_rows.py) is what the CLI and the leaderboard use; it opens the file read-only
with :meth:`LeagueStore.open_readonly`. This module opens, checks and writes.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import time
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from referee.decompress import DecompressError, inflate
from referee.league.archive import (
    ArchiveError,
    BotArchive,
    Entry,
    changed_files,
    live_tree,
)
from referee.league.config import RatingConfig
from referee.league.formats import PlannedMatch, league_match_id
from referee.league.ratings import Rating, Ratings
from referee.league.store_reads import StoreReads
from referee.league.store_rows import (
    MatchRow,
    RegisteredBot,
    Standing,
    compress_log,
    compress_replay,
    manifest_conflict,
    manifest_hash,
)
from referee.limits import LOCK_TIMEOUT_S, MAX_REPLAY_BYTES
from referee.replay.result import MatchResult
from referee.sandbox.folders import bot_folder
from referee.spec import BotSpec
from sdk.errors import BullringError
from sdk.game import forfeits_ranked_last

__all__ = [  # the store's public names, wherever they are defined
    "SCHEMA_VERSION",
    "LeagueStore",
    "MatchRow",
    "RegisteredBot",
    "Standing",
    "StoreError",
    "StoreLocked",
    "compress_replay",
    "manifest_hash",
    "store_errors",
]

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS variants (
    id TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    preset TEXT NOT NULL,
    options TEXT NOT NULL,
    seats INTEGER NOT NULL,
    games INTEGER NOT NULL,
    format TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS bots (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    version TEXT NOT NULL,
    manifest TEXT,
    manifest_hash TEXT,
    spec TEXT NOT NULL,
    registered_at REAL NOT NULL,
    tree_hash TEXT,
    retired_at REAL
);
CREATE TABLE IF NOT EXISTS matches (
    seq INTEGER PRIMARY KEY,
    match_id TEXT NOT NULL UNIQUE,
    slot TEXT NOT NULL UNIQUE,
    variant TEXT NOT NULL REFERENCES variants(id),
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    deal TEXT,
    status TEXT NOT NULL CHECK (status IN ('scheduled', 'finished')),
    scheduled_at REAL NOT NULL,
    started_at REAL,
    finished_at REAL,
    duration_s REAL,
    decisions INTEGER
);
CREATE INDEX IF NOT EXISTS matches_variant_status ON matches(variant, status, seq);
CREATE TABLE IF NOT EXISTS results (
    match_id TEXT NOT NULL REFERENCES matches(match_id),
    seat INTEGER NOT NULL,
    bot TEXT NOT NULL,
    score INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    forfeited INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS results_bot ON results(bot);
CREATE TABLE IF NOT EXISTS faults (
    id INTEGER PRIMARY KEY,
    match_id TEXT NOT NULL REFERENCES matches(match_id),
    seat INTEGER NOT NULL,
    bot TEXT NOT NULL,
    kind TEXT NOT NULL,
    decision INTEGER NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS faults_match ON faults(match_id);
CREATE TABLE IF NOT EXISTS replays (
    match_id TEXT PRIMARY KEY REFERENCES matches(match_id),
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS digests (
    match_id TEXT PRIMARY KEY REFERENCES matches(match_id),
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    variant TEXT NOT NULL,
    seq INTEGER NOT NULL,
    match_id TEXT NOT NULL,
    bot TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (variant, seq, bot)
);
CREATE INDEX IF NOT EXISTS ratings_bot ON ratings(variant, bot, seq);
CREATE TABLE IF NOT EXISTS logs (
    match_id TEXT NOT NULL REFERENCES matches(match_id),
    seat INTEGER NOT NULL,
    bot TEXT NOT NULL,
    total INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (match_id, seat)
);
"""


class StoreError(BullringError, RuntimeError):
    """The store cannot serve this request (wrong league, missing file, ...)."""


class StoreLocked(StoreError):
    """Another process held the store's write lock for longer than the lock timeout."""


TABLES = ("meta", "variants", "bots", "matches", "results", "faults", "replays", "ratings")
"""The tables every store of this schema has. ``digests`` is not among them: a store written
before digests existed gains the table the next time it is opened for writing, and a
match without a digest is published from its replay (leaderboard/viewer_text.py). So
with ``logs``: a store without it reads as keeping no log tails."""

FORFEITS_RANKED_LAST = "forfeits_ranked_last"
"""The ``meta`` key (value ``1``) of a store whose ranks put every forfeited seat below
every seat that was not forfeited (issue 26). A store recorded before that rule lacks it:
the next writer to open it re-ranks its matches with a forfeited seat, their stored
replays and the ratings they changed (:meth:`LeagueStore.rank_forfeits_last`), and a
reader sees the same ranks in temporary tables of its own, the file unchanged."""

_READER_SHADOWS = (
    "PRAGMA temp_store = MEMORY",
    "CREATE TEMP TABLE results AS SELECT * FROM main.results",
    "CREATE INDEX temp.results_seat ON results(match_id, seat)",
    "CREATE INDEX temp.results_bot ON results(bot)",
    "CREATE TEMP TABLE ratings AS SELECT * FROM main.ratings",
    "CREATE INDEX temp.ratings_bot ON ratings(variant, bot, seq)",
    "CREATE TEMP TABLE replay_ranks (match_id TEXT PRIMARY KEY, data BLOB NOT NULL)",
    "CREATE TEMP VIEW replays AS SELECT r.match_id AS match_id, COALESCE(f.data, r.data) AS data"
    " FROM main.replays r LEFT JOIN replay_ranks f ON f.match_id = r.match_id",
)
"""A reader's view of a store recorded before forfeited seats ranked last: copies of
``results`` and ``ratings``, and ``replays`` through the replays it re-ranked
(``replay_ranks``), all in the connection's temp schema, where SQLite looks for a table
name before it looks in the file. The re-ranking then writes there, not to the file."""


def _is_locked(error: sqlite3.OperationalError) -> bool:
    return "locked" in str(error) or "busy" in str(error)


def _locked_error(path: Path, timeout: float) -> StoreLocked:
    return StoreLocked(
        f"{path}: another process holds the store's write lock (waited {timeout:g} s); "
        "stop the other `league run` or `bot submit` on it, or wait and run this again "
        "(nothing was lost)"
    )


def _file_system(path: Path) -> tuple[bool, bool]:
    """(read-only, full) of the file system that holds `path` ((False, False) when it
    cannot be asked): what an I/O error of SQLite's there most likely means."""
    try:
        found = os.statvfs(path.parent)
    except OSError:
        return False, False
    full = (found.f_blocks > 0 and found.f_bavail == 0) or (
        found.f_files > 0 and found.f_favail == 0
    )
    return bool(found.f_flag & os.ST_RDONLY), full


def _finished_matches(path: Path) -> int | None:
    """How many finished matches the store at `path` holds (None: it cannot be read)."""
    try:
        db = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, timeout=1.0)
        try:
            row = db.execute("SELECT COUNT(*) FROM matches WHERE status = 'finished'").fetchone()
            return int(row[0])
        finally:
            db.close()
    except (sqlite3.Error, OSError, TypeError, ValueError):
        return None


def _full_error(path: Path, error: Exception | str) -> StoreError:
    recorded = _finished_matches(path)
    if recorded is None:
        kept = ""
    elif recorded == 0:
        kept = "; no match had finished yet"
    elif recorded == 1:
        kept = "; the 1 finished match recorded so far is kept"
    else:
        kept = f"; the {recorded} finished matches recorded so far are kept"
    return StoreError(
        f"{path}: the disk is full ({error}): no space is left on the file system of "
        f"{Path(os.path.abspath(path)).parent}{kept}. Free space there and run this again: "
        "league run resumes where it stopped (a match it could not record is played again)"
    )


def _read_only_file_system_error(path: Path, error: Exception | str) -> StoreError:
    return StoreError(
        f"{path}: its file system is read-only ({error}); league run and bot submit write "
        f"the store, and SQLite writes {path.name}-wal and {path.name}-shm beside a league "
        "store even to read it: mount the file system read-write, or copy the store to a "
        "writable folder"
    )


def store_os_error(path: Path, error: OSError, what: str) -> StoreError:
    """A StoreError for `error`, raised while making `what` beside the store at `path`
    (its run lock, say), naming the cause: a read-only or full file system, or another."""
    if error.errno == errno.EROFS:
        return _read_only_file_system_error(path, f"{what}: {error.strerror}")
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return _full_error(path, f"{what}: {error.strerror}")
    return StoreError(f"{path}: cannot make {what} ({error.strerror})")


def _sqlite_error(path: Path, error: sqlite3.Error, lock_timeout: float) -> StoreError:
    """What SQLite's `error` means for the store at `path`, in one line: a held lock, a
    read-only or full file system, a read-only file or folder, a file that is not a store,
    a damaged store, or (none of these) the error itself."""
    name = getattr(error, "sqlite_errorname", "")
    if isinstance(error, sqlite3.OperationalError) and _is_locked(error):
        return _locked_error(path, lock_timeout)
    read_only, full = _file_system(path)
    if name == "SQLITE_FULL" or (full and name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN"))):
        return _full_error(path, error)
    if read_only and name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_IOERR")):
        return _read_only_file_system_error(path, error)
    if name == "SQLITE_READONLY_DIRECTORY":
        return StoreError(
            f"{path}: its folder {path.parent} is read-only, and SQLite writes "
            f"{path.name}-wal and {path.name}-shm beside a league store even to read it; "
            "make the folder writable, or copy the store to one that is"
        )
    if name.startswith("SQLITE_READONLY"):
        return StoreError(
            f"{path}: the store is read-only ({error}); league run and bot submit write it: "
            "make the file and its folder writable"
        )
    if name == "SQLITE_NOTADB" and not _has_sqlite_header(path):
        return StoreError(f"{path}: not a league store ({error}: not an SQLite file)")
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return _damaged_error(path, error)
    return StoreError(f"{path}: cannot use the league store ({error})")


def _has_sqlite_header(path: Path) -> bool:
    """Whether the file begins as every SQLite database does (one that does, yet is not a
    database to SQLite, is a damaged one)."""
    try:
        with path.open("rb") as file:
            return file.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _damaged_error(path: Path, error: Exception | str) -> StoreError:
    return StoreError(f"{path}: the league store is damaged ({error}); restore it from a backup")


def _schema_problem(db: sqlite3.Connection, empty_ok: bool) -> str | None:
    """Why `db` is not a league store this version reads (None: it is one, or it is an
    empty database and `empty_ok`). Reads only: a foreign database is never changed."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not tables:
        return None if empty_ok else "an empty database, not a league store"
    if "meta" not in tables:
        return f"not a league store (it holds tables: {', '.join(sorted(tables)[:5])})"
    row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    if row is None or row[0] != str(SCHEMA_VERSION):
        found = "none" if row is None else row[0]
        return f"not a league store of schema version {SCHEMA_VERSION} (found: {found})"
    missing = [t for t in TABLES if t not in tables]
    if missing:
        return f"a league store with tables missing: {', '.join(missing)}"
    return None


@contextmanager
def store_errors(
    path: str | Path, lock_timeout: float = LOCK_TIMEOUT_S, only_reads: bool = False
) -> Iterator[None]:
    """Turn what SQLite or a query raises deep inside into one StoreError naming the file
    and the cause: a held lock, a full or read-only file system, a read-only file or
    folder, a file that is not a store, a damaged store (docs/store.md, Errors).

    ``only_reads``: the block does nothing but read the store, so a value of the wrong
    type or shape (TypeError, KeyError, ValueError: a damaged row) is the file's fault too.
    """
    try:
        yield
    except sqlite3.DatabaseError as error:  # OperationalError among them
        raise _sqlite_error(Path(path), error, lock_timeout) from None
    except (zlib.error, DecompressError, UnicodeDecodeError) as error:
        raise _damaged_error(Path(path), error) from None
    except json.JSONDecodeError as error:
        raise _damaged_error(Path(path), f"a JSON value is damaged: {error}") from None
    except (TypeError, KeyError, ValueError) as error:
        if not only_reads:
            raise
        raise _damaged_error(Path(path), f"{type(error).__name__}: {error}") from None


def _replay_json(result: MatchResult) -> Mapping[str, Any]:
    """The result's replay as stored; an empty object for a result made without one (the
    executors send theirs compressed, apart from the result)."""
    return {} if result.replay is None else result.replay.to_json()


class LeagueStore(StoreReads):
    """A league's SQLite file. Use as a context manager or call :meth:`close`."""

    def __init__(
        self, connection: sqlite3.Connection, path: Path, lock_timeout: float = LOCK_TIMEOUT_S
    ) -> None:
        self.db = connection
        self.path = path
        self.lock_timeout = lock_timeout
        self.db.row_factory = sqlite3.Row

    # --- opening -----------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, lock_timeout: float = LOCK_TIMEOUT_S) -> LeagueStore:
        """Open (creating if needed) a store for writing.

        StoreError if the file is not a league store (it is then left as it was), and
        StoreLocked if a write waits more than `lock_timeout` seconds for the lock.
        """
        file = Path(path)
        if file.exists() and not file.is_file():
            raise StoreError(f"{file} is not a file, so not a league store")
        file.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(
            file, isolation_level=None, timeout=lock_timeout, check_same_thread=False
        )
        store = cls(db, file, lock_timeout)
        try:
            with store_errors(file, lock_timeout):
                problem = _schema_problem(db, empty_ok=True)
                if problem:
                    raise StoreError(f"{file}: {problem}")
                db.execute(f"PRAGMA busy_timeout={int(lock_timeout * 1000)}")
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")  # WAL: safe against a killed process
                db.execute("PRAGMA foreign_keys=ON")
                with store.transaction():
                    for statement in filter(None, (s.strip() for s in SCHEMA.split(";"))):
                        db.execute(statement)
                    columns = {row[1] for row in db.execute("PRAGMA table_info(bots)")}
                    if "tree_hash" not in columns:  # a store made before the archive
                        db.execute("ALTER TABLE bots ADD COLUMN tree_hash TEXT")
                    if "retired_at" not in columns:  # a store made before retirement
                        db.execute("ALTER TABLE bots ADD COLUMN retired_at REAL")
                    db.execute(
                        "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)",
                        (str(SCHEMA_VERSION),),
                    )
                    if not store.ranks_forfeits_last():
                        # A value of the wrong type in a row is damage here, as in a read.
                        with store_errors(file, lock_timeout, only_reads=True):
                            store.rank_forfeits_last(shadow=False)
                        db.execute(
                            "INSERT INTO meta(key, value) VALUES (?, '1')", (FORFEITS_RANKED_LAST,)
                        )
        except BaseException:
            db.close()
            raise
        return store

    @classmethod
    def open_readonly(cls, path: str | Path) -> LeagueStore:
        """Open an existing store for reading only (StoreError if there is none, or if
        the file is not a league store)."""
        file = Path(path)
        if file.exists() and not file.is_file():
            raise StoreError(f"{file} is not a file, so not a league store")
        if not file.is_file():
            raise StoreError(f"no league store at {file}")
        # An SQLite URI: the path is quoted, or a ?, # or % in it would open another file.
        uri = f"file:{quote(str(file.resolve()))}?mode=ro"
        db = sqlite3.connect(uri, uri=True, timeout=30.0, check_same_thread=False)
        store = cls(db, file)
        try:
            with store_errors(file, only_reads=True):
                db.execute("PRAGMA busy_timeout=30000")
                problem = _schema_problem(db, empty_ok=False)
                if problem:
                    raise StoreError(f"{file}: {problem}")
                if not store.ranks_forfeits_last():
                    store.rank_forfeits_last(shadow=True)
        except BaseException:
            db.close()
            raise
        return store

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> LeagueStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything inside commits together or not at all.

        StoreLocked if the write lock is not had within the store's lock timeout.
        """
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if _is_locked(error):
                raise _locked_error(self.path, self.lock_timeout) from None
            raise
        try:
            yield self.db
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        try:
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as error:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            if _is_locked(error):
                raise _locked_error(self.path, self.lock_timeout) from None
            raise

    # --- league meta, variants, bots ------------------------------------------------------

    def meta(self) -> dict[str, str]:
        return {row["key"]: row["value"] for row in self.db.execute("SELECT key, value FROM meta")}

    def init_league(
        self, name: str, digest: str, config_json: Mapping[str, Any], variants: Sequence[Any]
    ) -> None:
        """Record the league (once) or check that this is the same league (StoreError)."""
        meta = self.meta()
        if "digest" in meta and meta["digest"] != digest:
            raise StoreError(
                f"{self.path} holds league {meta.get('name')!r} scheduled from a different "
                "league file (seed, variants, games, seats, format, clock or rating changed); "
                "use another store path"
            )
        if "digest" in meta:
            return
        with self.transaction() as db:
            for key, value in (
                ("name", name),
                ("digest", digest),
                ("config", json.dumps(dict(config_json), sort_keys=True)),
                ("created_at", repr(time.time())),
            ):
                db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))
            for position, variant in enumerate(variants):
                db.execute(
                    "INSERT INTO variants(id, position, preset, options, seats, games, format)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        variant.id,
                        position,
                        variant.preset,
                        json.dumps(dict(variant.options), sort_keys=True),
                        variant.seats,
                        variant.games,
                        variant.format,
                    ),
                )

    @property
    def archive(self) -> BotArchive:
        """The archive of this store's bots (docs/store.md, referee/league/archive.py)."""
        return BotArchive.of_store(self.path)

    def register_bots(
        self, bots: Iterable[BotSpec], labels: Mapping[str, str] | None = None
    ) -> list[BotSpec]:
        """Register bots not known yet (one transaction); return those that were new, as
        they run: from their archived copy.

        Each bot's folder is copied into the store's archive (a bot that runs a staged
        copy, :meth:`BotArchive.stage`, has that copy moved in). A known ``name@version``
        must have the same tree: a changed bot needs a new version, which is rated apart
        from the old one. `labels` names where a bot came from (``l.toml: [[bots]] entry
        1``) in the error that refuses a changed one.
        """
        new: list[BotSpec] = []
        archive = self.archive
        trees: dict[str, tuple[str, list[Entry]]] = {}  # bots of one folder: hashed once
        with self.transaction() as db:
            for bot in bots:
                row = db.execute("SELECT 1 FROM bots WHERE key = ?", (bot.key,)).fetchone()
                if row is not None:
                    conflict = self.tree_conflict(bot, (labels or {}).get(bot.key), trees)
                    if conflict:
                        raise StoreError(conflict)
                    continue
                tree_hash, spec_json, runs = None, bot.to_json(), bot
                if bot.endpoint is None and bot.manifest:
                    archived = archive.add(bot)
                    tree_hash, spec_json, runs = archived.digest, archived.stored, archived.spec
                db.execute(
                    "INSERT INTO bots(key, name, version, manifest, manifest_hash, spec,"
                    " registered_at, tree_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        bot.key,
                        bot.name,
                        bot.version,
                        bot.manifest,
                        manifest_hash(bot),
                        json.dumps(spec_json, sort_keys=True),
                        time.time(),
                        tree_hash,
                    ),
                )
                new.append(runs)
        return new

    def retire(self, key: str) -> bool:
        """Retire the registered version `key` (one transaction): it keeps its results and
        ratings, and its name is scheduled no more while it is the name's newest version
        (:meth:`active_bots`). Idempotent: a version retired already keeps its first time.
        False if no version `key` is registered."""
        with self.transaction() as db:
            db.execute(
                "UPDATE bots SET retired_at = ? WHERE key = ? AND retired_at IS NULL",
                (time.time(), key),
            )
            row = db.execute("SELECT 1 FROM bots WHERE key = ?", (key,)).fetchone()
        return row is not None

    def tree_conflict(
        self,
        bot: BotSpec,
        label: str | None = None,
        trees: dict[str, tuple[str, list[Entry]]] | None = None,
    ) -> str | None:
        """Why `bot` may not stand for the registered version of its key (None: it may, or
        the key is new): its folder's tree is not the one archived for that version.
        `trees` keeps the folders hashed so far, by folder."""
        row = self.db.execute(
            "SELECT manifest_hash, tree_hash FROM bots WHERE key = ?", (bot.key,)
        ).fetchone()
        if row is None or bot.endpoint is not None or not bot.manifest:
            return None
        registered = row["tree_hash"]
        if registered is None:  # registered before the archive: the manifest's hash
            return manifest_conflict(bot.key, manifest_hash(bot), row["manifest_hash"])
        # A staged copy (bot submit's) is hashed as any folder is: it is the bot's tree.
        trees = {} if trees is None else trees
        folder = str(bot_folder(bot))
        if folder not in trees:
            trees[folder] = live_tree(bot, self.archive.root)
        digest, entries = trees[folder]
        if digest == registered:
            return None
        try:
            what = changed_files(self.archive.entries(registered), entries)
        except ArchiveError:
            what = "its archived copy is missing"
        if label:
            return (
                f"{label} ({bot.key}): its folder changed since it was registered ({what}); "
                "give the changed bot a new version in its bot.toml"
            )
        return (
            f"bot {bot.key} is already registered with other contents ({what}); "
            "give the changed bot a new version"
        )

    def archive_legacy(self) -> list[str]:
        """Archive the bots registered before the archive (their rows have no tree hash)
        from their folders, if their manifests are still the registered ones; return their
        keys. StoreError for one whose manifest changed or is gone: nothing of it runs."""
        archive = self.archive
        done: list[str] = []
        rows = self.db.execute(
            "SELECT key, spec, manifest_hash FROM bots WHERE tree_hash IS NULL ORDER BY id"
        ).fetchall()
        for row in rows:
            spec = BotSpec.from_json(json.loads(row["spec"]))
            if spec.endpoint is not None or not spec.manifest:
                continue
            if not Path(spec.manifest).is_file() or manifest_hash(spec) != row["manifest_hash"]:
                raise StoreError(
                    f"{self.path}: bot {row['key']} was registered before bots were archived, "
                    f"and its manifest {spec.manifest} changed or is gone since; register the "
                    "bot as a new version, or use another store"
                )
            with self.transaction() as db:
                archived = archive.add(spec)
                db.execute(
                    "UPDATE bots SET tree_hash = ?, spec = ? WHERE key = ? AND tree_hash IS NULL",
                    (archived.digest, json.dumps(archived.stored, sort_keys=True), row["key"]),
                )
            done.append(row["key"])
        return done

    # --- scheduling ------------------------------------------------------------------------

    def schedule(
        self, league: str, planned: Iterable[PlannedMatch], options: Mapping[str, Mapping[str, str]]
    ) -> int:
        """Schedule every planned match whose slot is new (one transaction); return how many."""
        added = 0
        with self.transaction() as db:
            (last,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM matches").fetchone()
            now = time.time()
            for match in planned:
                # One look-up a slot (slots are indexed: UNIQUE), not a read of every slot:
                # the ladder schedules one match at a time into a store of any size.
                if db.execute("SELECT 1 FROM matches WHERE slot = ?", (match.slot,)).fetchone():
                    continue
                last += 1
                added += 1
                db.execute(
                    "INSERT INTO matches(seq, match_id, slot, variant, options, seed, seats, deal,"
                    " status, scheduled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'scheduled', ?)",
                    (
                        last,
                        league_match_id(league, last),
                        match.slot,
                        match.variant,
                        json.dumps(dict(options[match.variant]), sort_keys=True),
                        match.seed,
                        json.dumps(list(match.seats)),
                        match.deal,
                        now,
                    ),
                )
        return added

    # --- results ---------------------------------------------------------------------------

    def write_result(
        self,
        match: MatchRow,
        result: MatchResult,
        started_at: float,
        finished_at: float,
        replay_zlib: bytes | None = None,
        digest_zlib: bytes | None = None,
    ) -> bool:
        """Record a finished match inside the caller's transaction (`replay_zlib`: its
        replay already compressed, else ``result.replay`` is; `digest_zlib`: its digest,
        referee/replay/digest.py, made where the match ran; a match without one is
        published from its replay).

        Returns False (and writes nothing) when the match already has its result, so a
        result can never be counted twice.
        """
        db = self.db
        updated = db.execute(
            "UPDATE matches SET status = 'finished', started_at = ?, finished_at = ?,"
            " duration_s = ?, decisions = ? WHERE seq = ? AND status = 'scheduled'",
            (started_at, finished_at, result.duration_s, result.decisions, match.seq),
        ).rowcount
        if updated != 1:
            return False
        db.executemany(
            "INSERT INTO results(match_id, seat, bot, score, rank, forfeited)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (match.match_id, seat, bot, score, rank, int(forfeited))
                for seat, (bot, score, rank, forfeited) in enumerate(
                    zip(match.seats, result.scores, result.ranks, result.forfeited, strict=True)
                )
            ],
        )
        db.executemany(
            "INSERT INTO faults(match_id, seat, bot, kind, decision, detail)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (match.match_id, f.seat, match.seats[f.seat], f.kind.value, f.decision, f.detail)
                for f in result.faults
            ],
        )
        db.execute(
            "INSERT INTO replays(match_id, data) VALUES (?, ?)",
            (match.match_id, replay_zlib or compress_replay(_replay_json(result))),
        )
        db.executemany(
            "INSERT INTO logs(match_id, seat, bot, total, data) VALUES (?, ?, ?, ?, ?)",
            [
                (match.match_id, t.seat, match.seats[t.seat], t.total, compress_log(t.data))
                for t in result.logs
                if 0 <= t.seat < len(match.seats)
            ],
        )
        if digest_zlib is not None:
            db.execute(
                "INSERT INTO digests(match_id, data) VALUES (?, ?)", (match.match_id, digest_zlib)
            )
        return True

    def write_ratings(
        self, variant: str, seq: int, match_id: str, after: Mapping[str, Rating]
    ) -> None:
        """Rating rows (each bot's rating after match `seq`), inside the caller's transaction."""
        self.db.executemany(
            "INSERT INTO ratings(variant, seq, match_id, bot, mu, sigma) VALUES (?, ?, ?, ?, ?, ?)",
            [(variant, seq, match_id, bot, r.mu, r.sigma) for bot, r in after.items()],
        )

    # --- forfeited seats ranked last (issue 26) ------------------------------------------

    def ranks_forfeits_last(self) -> bool:
        """Whether the store's ranks put forfeited seats last already (FORFEITS_RANKED_LAST)."""
        row = self.db.execute(
            "SELECT 1 FROM main.meta WHERE key = ?", (FORFEITS_RANKED_LAST,)
        ).fetchone()
        return row is not None

    def _forfeit_rank_fixes(self) -> dict[str, list[int]]:
        """The matches whose stored ranks put a forfeited seat level with or above a seat
        that was not forfeited, each with the ranks it gets (by seat)."""
        seats: dict[str, list[tuple[int, bool]]] = {}
        for match_id, rank, forfeited in self.db.execute(
            "SELECT match_id, rank, forfeited FROM results WHERE match_id IN"
            " (SELECT match_id FROM results WHERE forfeited) ORDER BY match_id, seat"
        ):
            seats.setdefault(match_id, []).append((int(rank), bool(forfeited)))
        fixes: dict[str, list[int]] = {}
        for match_id, rows in seats.items():
            ranks = [rank for rank, _ in rows]
            ranked = forfeits_ranked_last(ranks, [out for _, out in rows])
            if ranked != ranks:
                fixes[match_id] = ranked
        return fixes

    def rank_forfeits_last(self, shadow: bool) -> int:
        """Re-rank a store recorded before forfeited seats ranked last; return how many
        matches changed. Each match with a forfeited seat ranked level with or above a seat
        that was not gets its new ranks in ``results`` and in its stored replay (nothing
        else of it changes), and every variant's ratings from its first such match on are
        computed again, in schedule order from the ratings before it, as `league run`
        computes them. Inside the caller's transaction; `shadow` (a reader): into
        temporary copies of those tables (_READER_SHADOWS), the file unchanged."""
        fixes = self._forfeit_rank_fixes()
        if not fixes:
            return 0
        db = self.db
        if shadow:
            for statement in _READER_SHADOWS:
                db.execute(statement)
        db.executemany(
            "UPDATE results SET rank = ? WHERE match_id = ? AND seat = ?",
            [
                (rank, match_id, seat)
                for match_id, ranks in fixes.items()
                for seat, rank in enumerate(ranks)
            ],
        )
        for match_id, ranks in fixes.items():
            blob = self._replay_ranked(match_id, ranks)
            if blob is None:
                continue
            if shadow:
                db.execute(
                    "INSERT INTO replay_ranks(match_id, data) VALUES (?, ?)", (match_id, blob)
                )
            else:
                db.execute("UPDATE replays SET data = ? WHERE match_id = ?", (blob, match_id))
        firsts: dict[str, int] = {}
        ids: dict[int, str] = {}
        for match_id, variant, seq in db.execute(
            "SELECT match_id, variant, seq FROM matches WHERE status = 'finished'"
        ):
            ids[seq] = match_id
            if match_id in fixes:
                firsts[variant] = min(seq, firsts.get(variant, seq))
        for variant, first in firsts.items():
            self._rate_again(variant, first, ids)
        return len(fixes)

    def _replay_ranked(self, match_id: str, ranks: list[int]) -> bytes | None:
        """The match's stored replay with `ranks` as its result's ranks (None: it has none,
        or it cannot be read: it is left as it is, and reading it says what is wrong)."""
        row = self.db.execute("SELECT data FROM replays WHERE match_id = ?", (match_id,)).fetchone()
        if row is None:
            return None
        try:
            replay = json.loads(inflate(bytes(row[0]), MAX_REPLAY_BYTES))
            result = replay["result"]
            if len(result["ranks"]) != len(ranks):
                return None
        except (DecompressError, UnicodeDecodeError, ValueError, TypeError, KeyError):
            return None
        result["ranks"] = ranks
        return compress_replay(replay)

    def _rate_again(self, variant: str, first: int, ids: Mapping[int, str]) -> None:
        """Compute `variant`'s rating rows from match `first` on again, from the ratings
        before it and the (re-ranked) results, for the matches that had rows."""
        before: dict[str, Rating] = {}
        for bot, mu, sigma in self.db.execute(
            "SELECT bot, mu, sigma FROM ratings WHERE variant = ? AND seq < ? ORDER BY seq",
            (variant, first),
        ):
            before[bot] = Rating(mu, sigma)
        rated = [
            seq
            for (seq,) in self.db.execute(
                "SELECT DISTINCT seq FROM ratings WHERE variant = ? AND seq >= ? ORDER BY seq",
                (variant, first),
            )
        ]
        matches = {m.seq: m for m in self.rated_matches(variant, after_seq=first - 1)}
        ratings = Ratings(self._rating_config(), before)
        self.db.execute("DELETE FROM ratings WHERE variant = ? AND seq >= ?", (variant, first))
        for seq in rated:
            match = matches[seq]
            self.write_ratings(variant, seq, ids[seq], ratings.apply(match.seats, match.ranks))

    def _rating_config(self) -> RatingConfig:
        """The league's TrueSkill parameters, as its store recorded them."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()
        recorded = json.loads(row[0]).get("rating", {}) if row else {}
        fields = RatingConfig().to_json()
        return RatingConfig(**{k: float(recorded.get(k, v)) for k, v in fields.items()})
