"""The arena's own SQLite file (``<store>.arena``): authors and their token hashes, who
owns each bot name, and every accepted upload with its state.

A token is shown once, when it is made; only its sha256 is kept, and a presented token is
compared with every live author's hash in constant time. An upload's state runs
``queued`` > ``checking`` > ``active`` or ``rejected``; an active version becomes
``retired`` when a newer one of its name turns active (``superseded by NAME@VERSION``), or
when its author retires it (:meth:`ArenaDb.retire`: a queued or checking one too, which is
then never activated). Each change is one transaction.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from referee.limits import safe_name_problem
from sdk.errors import BullringError

TOKEN_PREFIX = "bra_"
RETIRED_BY_AUTHOR = "retired by its author"
STATES = ("queued", "checking", "rejected", "active", "retired")
SCHEMA = """
CREATE TABLE IF NOT EXISTS authors (
    name TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL,
    revoked_at REAL
);
CREATE TABLE IF NOT EXISTS owners (
    bot TEXT PRIMARY KEY,
    author TEXT NOT NULL REFERENCES authors(name)
);
CREATE TABLE IF NOT EXISTS uploads (
    id INTEGER PRIMARY KEY,
    author TEXT NOT NULL,
    bot TEXT NOT NULL,
    version TEXT NOT NULL,
    tree_hash TEXT NOT NULL,
    folder TEXT NOT NULL,
    state TEXT NOT NULL,
    attempt INTEGER NOT NULL DEFAULT 0,
    reason TEXT,
    output TEXT,
    check_s REAL,
    retired_at REAL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS uploads_bot ON uploads(bot, id);
CREATE INDEX IF NOT EXISTS uploads_state ON uploads(state, id);
"""


class ArenaDbError(BullringError, RuntimeError):
    """An author or token command that cannot be done (the message says why)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Upload:
    """One accepted upload, as the arena keeps it."""

    id: int
    author: str
    bot: str
    version: str
    tree_hash: str
    folder: str
    state: str
    attempt: int
    reason: str | None
    output: str | None
    check_s: float | None  # how long its check took (from the queue to the outcome)
    created_at: float
    updated_at: float
    retired_at: float | None = None  # when it was retired (superseded, or by its author)

    @property
    def key(self) -> str:
        return f"{self.bot}@{self.version}"


class ArenaDb:
    """The arena's file (see the module docstring). A context manager.

    One connection serves every worker thread of the server; a lock makes each read and
    each transaction whole, since sqlite3 does not keep two threads' statements on one
    connection apart. The server calls it only from worker threads: a transaction can
    wait for SQLite's write lock (up to the busy timeout) holding that lock, and the
    event loop must not wait behind it (tests/arena/test_event_loop.py).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.RLock()
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path, isolation_level=None, timeout=30, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA busy_timeout=30000")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        with self.transaction() as db:
            for statement in filter(None, (s.strip() for s in SCHEMA.split(";"))):
                db.execute(statement)
            columns = {row[1] for row in db.execute("PRAGMA table_info(uploads)")}
            if "check_s" not in columns:  # a file made before checks were timed
                db.execute("ALTER TABLE uploads ADD COLUMN check_s REAL")
            if "retired_at" not in columns:  # a file made before authors could retire
                db.execute("ALTER TABLE uploads ADD COLUMN retired_at REAL")
        path.chmod(0o600)

    @classmethod
    def open_readonly(cls, path: Path) -> ArenaDb:
        """Open an existing arena file for reading only (sqlite3.Error if it cannot be)."""
        self = cls.__new__(cls)
        self.path = path
        self._lock = threading.RLock()
        uri = f"file:{quote(str(path.resolve()))}?mode=ro"
        self.db = sqlite3.connect(uri, uri=True, timeout=30, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        try:
            self.db.execute("PRAGMA busy_timeout=30000")
            self.db.execute("SELECT COUNT(*) FROM uploads").fetchone()
        except BaseException:
            self.db.close()
            raise
        return self

    def close(self) -> None:
        with self._lock:
            self.db.close()

    def __enter__(self) -> ArenaDb:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; no other thread uses the connection meanwhile."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def rows(self, query: str, args: tuple[Any, ...] | list[Any] = ()) -> list[sqlite3.Row]:
        """Every row of one read, fetched whole under the lock."""
        with self._lock:
            return self.db.execute(query, args).fetchall()

    # --- authors -----------------------------------------------------------------------

    def add_author(self, name: str) -> str:
        """Make an author; return their new token (shown once, kept only as a hash)."""
        problem = safe_name_problem(name)
        if problem:
            raise ArenaDbError(f"author name: {problem}")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM authors WHERE name = ?", (name,)).fetchone():
                raise ArenaDbError(f"author {name} exists already (revoke, then add a new name)")
            db.execute(
                "INSERT INTO authors(name, token_hash, created_at) VALUES (?, ?, ?)",
                (name, hash_token(token), time.time()),
            )
        return token

    def revoke_author(self, name: str) -> None:
        with self.transaction() as db:
            done = db.execute(
                "UPDATE authors SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                (time.time(), name),
            )
            if done.rowcount != 1:
                raise ArenaDbError(f"no author {name} with a live token")

    def authors(self) -> list[dict[str, Any]]:
        rows = self.rows("SELECT name, created_at, revoked_at FROM authors ORDER BY name")
        return [dict(row) for row in rows]

    def author_of_token(self, token: str) -> str | None:
        """The live author whose token this is, or None; every live hash is compared, in
        constant time, whatever matches."""
        wanted = hash_token(token)
        found = None
        for row in self.rows("SELECT name, token_hash FROM authors WHERE revoked_at IS NULL"):
            if hmac.compare_digest(row["token_hash"], wanted):
                found = row["name"]
        return found

    # --- bots and uploads --------------------------------------------------------------

    def owner(self, bot: str) -> str | None:
        rows = self.rows("SELECT author FROM owners WHERE bot = ?", (bot,))
        return str(rows[0]["author"]) if rows else None

    def add_upload(self, author: str, bot: str, version: str, tree_hash: str, folder: str) -> int:
        """Record an accepted upload as queued, claiming the name for `author` if it is
        new (ArenaDbError if it belongs to someone else)."""
        now = time.time()
        with self.transaction() as db:
            row = db.execute("SELECT author FROM owners WHERE bot = ?", (bot,)).fetchone()
            if row is None:
                db.execute("INSERT INTO owners(bot, author) VALUES (?, ?)", (bot, author))
            elif row["author"] != author:
                raise ArenaDbError(f"bot {bot} belongs to another author")
            cursor = db.execute(
                "INSERT INTO uploads(author, bot, version, tree_hash, folder, state,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'queued', ?, ?)",
                (author, bot, version, tree_hash, folder, now, now),
            )
            return int(cursor.lastrowid or 0)

    def uploads(self, bot: str | None = None, state: str | None = None) -> list[Upload]:
        query, args = "SELECT * FROM uploads WHERE 1=1", list[str]()
        if bot is not None:
            query, args = query + " AND bot = ?", [*args, bot]
        if state is not None:
            query, args = query + " AND state = ?", [*args, state]
        return [Upload(**dict(row)) for row in self.rows(query + " ORDER BY id", args)]

    def waiting(self) -> int:
        return sum(self.state_counts().values())

    def state_counts(self) -> dict[str, int]:
        """How many uploads are ``queued`` and how many ``checking`` (both keys always)."""
        rows = self.rows(
            "SELECT state, COUNT(*) FROM uploads WHERE state IN ('queued', 'checking')"
            " GROUP BY state"
        )
        return {"queued": 0, "checking": 0} | {str(state): int(n) for state, n in rows}

    def take_next(self) -> Upload | None:
        """The oldest queued upload, now ``checking`` with its attempt counted."""
        with self.transaction() as db:
            row = db.execute(
                "SELECT id FROM uploads WHERE state = 'queued' ORDER BY id LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE uploads SET state = 'checking', attempt = attempt + 1, updated_at = ?"
                " WHERE id = ?",
                (time.time(), row["id"]),
            )
        return self.uploads_by_id(int(row["id"]))

    def uploads_by_id(self, upload_id: int) -> Upload:
        (row,) = self.rows("SELECT * FROM uploads WHERE id = ?", (upload_id,))
        return Upload(**dict(row))

    def requeue_unfinished(self) -> int:
        """After a restart: every upload left ``checking`` is queued again."""
        with self.transaction() as db:
            done = db.execute(
                "UPDATE uploads SET state = 'queued', updated_at = ? WHERE state = 'checking'",
                (time.time(),),
            )
            return done.rowcount

    def finish(self, upload: Upload, state: str, reason: str | None, output: str | None) -> bool:
        """Record the check's outcome of `upload` (only for the attempt that was taken:
        False if it was taken again since, so no check is recorded twice)."""
        now = time.time()
        with self.transaction() as db:
            done = db.execute(
                "UPDATE uploads SET state = ?, reason = ?, output = ?, updated_at = ?,"
                " check_s = ? - updated_at WHERE id = ? AND state = 'checking' AND attempt = ?",
                (state, reason, output, now, now, upload.id, upload.attempt),
            )
            if done.rowcount == 1 and state == "active":
                db.execute(
                    "UPDATE uploads SET state = 'retired', reason = ?, updated_at = ?,"
                    " retired_at = ? WHERE bot = ? AND state = 'active' AND id != ?",
                    (f"superseded by {upload.key}", now, now, upload.bot, upload.id),
                )
            return done.rowcount == 1

    def retire(self, upload_id: int) -> Upload:
        """Retire an upload at its author's word (one transaction; idempotent): an active,
        queued or checking one becomes ``retired`` (a queued or checking one is then never
        activated: :meth:`finish` and :meth:`take_next` leave it alone). A rejected or
        retired one is left as it is. The upload as it stands then."""
        now = time.time()
        with self.transaction() as db:
            db.execute(
                "UPDATE uploads SET state = 'retired', reason = ?, retired_at = ?, updated_at = ?"
                " WHERE id = ? AND state IN ('queued', 'checking', 'active')",
                (RETIRED_BY_AUTHOR, now, now, upload_id),
            )
        return self.uploads_by_id(upload_id)
