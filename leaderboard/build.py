"""`build_site`: a league store in, a static site out (what `bullring leaderboard build`
and `bullring demo` call)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from leaderboard.from_store import load_site
from leaderboard.render import render_site
from referee.league.store import LeagueStore, StoreError, store_errors
from referee.limits import MAX_REPLAY_BYTES
from referee.replay.shape import MAX_DETAIL_CHARS, MAX_NAME_CHARS
from sdk.errors import BullringError


class BuildError(BullringError, ValueError):
    """The site cannot be built (missing or unreadable store, unwritable output)."""


@dataclass(frozen=True)
class BuildReport:
    """What a build wrote, and how long it took."""

    out_dir: Path
    index: Path
    pages: int
    files: int
    matches: int
    replays_made: int  # match pages holding replay data
    seconds: float

    def summary(self) -> str:
        return (
            f"built {self.pages} pages ({self.files} files, {self.matches} matches, "
            f"{self.replays_made} with replay data) "
            f"in {self.seconds:.2f} s: {self.index}"
        )


# What a store from elsewhere may hold, checked before anything is built from it: for each
# column the build reads, the SQLite types its values may have (SQLite keeps any value in
# any column) and the longest text or blob (None: no cap). Names are 64 characters at most
# and a fault's detail about 1,300; replays are capped once inflated (MAX_REPLAY_BYTES).
_NAME = MAX_NAME_CHARS
_TEXT = MAX_DETAIL_CHARS
_INT = ("integer",)
_STR = ("text",)
_BLOB = ("blob",)
_NUMBER = ("integer", "real")
COLUMNS: dict[str, tuple[tuple[str, tuple[str, ...], int | None], ...]] = {
    "meta": (("key", _STR, _NAME), ("value", _STR, None)),
    "variants": (("id", _STR, _NAME), ("preset", _STR, _NAME), ("options", _STR, _TEXT)),
    "bots": (
        ("key", _STR, _NAME),
        ("name", _STR, _NAME),
        ("version", _STR, _NAME),
        ("manifest", (*_STR, "null"), _TEXT),
        ("spec", _STR, _TEXT),
    ),
    "matches": (
        ("seq", _INT, None),
        ("match_id", _STR, _NAME),
        ("variant", _STR, _NAME),
        ("options", _STR, _TEXT),
        ("seed", _INT, None),
        ("seats", _STR, _TEXT),
        ("status", _STR, _NAME),
        ("finished_at", (*_NUMBER, "null"), None),
        ("decisions", (*_INT, "null"), None),
    ),
    "results": (
        ("match_id", _STR, _NAME),
        ("seat", _INT, None),
        ("bot", _STR, _NAME),
        ("score", _INT, None),
        ("rank", _INT, None),
        ("forfeited", _INT, None),
    ),
    "faults": (
        ("match_id", _STR, _NAME),
        ("seat", _INT, None),
        ("bot", _STR, _NAME),
        ("kind", _STR, _NAME),
        ("decision", _INT, None),
        ("detail", _STR, _TEXT),
    ),
    "ratings": (
        ("variant", _STR, _NAME),
        ("seq", _INT, None),
        ("match_id", _STR, _NAME),
        ("bot", _STR, _NAME),
        ("mu", _NUMBER, None),
        ("sigma", _NUMBER, None),
    ),
    "replays": (("match_id", _STR, _NAME), ("data", _BLOB, MAX_REPLAY_BYTES)),
    "digests": (("match_id", _STR, _NAME), ("data", _BLOB, MAX_REPLAY_BYTES)),
    "logs": (
        ("match_id", _STR, _NAME),
        ("seat", _INT, None),
        ("bot", _STR, _NAME),
        ("total", _INT, None),
        ("data", _BLOB, MAX_REPLAY_BYTES),
    ),
}

# The columns that hold JSON, and what each holds.
JSON_COLUMNS = (
    ("variants", "options", "object"),
    ("bots", "spec", "object"),
    ("matches", "options", "object"),
    ("matches", "seats", "array"),
)


def check_rows(store: LeagueStore) -> None:
    """StoreError naming the first value of the store that the build could not take as it
    is: of another type than the store's schema gives its column, or longer than its cap
    (COLUMNS), or JSON of another shape (JSON_COLUMNS); or a league name longer than a
    name. One query per column."""
    db = store.db
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    for table, columns in COLUMNS.items():
        if table not in tables:  # digests and logs are optional (older stores)
            continue
        for column, types, cap in columns:
            kinds = ", ".join(f"'{kind}'" for kind in types)
            query = f"SELECT rowid, typeof({column}), length({column}) FROM {table} WHERE "
            query += f"typeof({column}) NOT IN ({kinds})"
            query += f" OR length({column}) > {cap}" if cap is not None else ""
            found = db.execute(query + " LIMIT 1").fetchone()
            if found is None:
                continue
            row, kind, length = found
            if kind in types:
                problem = f"a value of {length:,} characters or bytes, more than {cap:,}"
            else:
                problem = f"a value of type {kind}, not {' or '.join(types)}"
            raise StoreError(f"{store.path}: {table}.{column} (row {row}) holds {problem}")
    for table, column, shape in JSON_COLUMNS:
        query = (
            f"SELECT rowid FROM {table} WHERE CASE WHEN json_valid({column}) "
            f"THEN json_type({column}) END IS NOT '{shape}' LIMIT 1"
        )
        found = db.execute(query).fetchone()
        if found is not None:
            raise StoreError(
                f"{store.path}: {table}.{column} (row {found[0]}) is not a JSON {shape}"
            )
    name = db.execute("SELECT length(value) FROM meta WHERE key = 'name'").fetchone()
    if name is not None and name[0] > _NAME:
        raise StoreError(f"{store.path}: the league's name is {name[0]:,} characters long")


def build_site(store_path: str | Path, out_dir: str | Path, workers: int = 0) -> BuildReport:
    """Build the static leaderboard of the league in `store_path` into `out_dir`.

    `workers` processes write the match pages (0: up to 4, by cores; see match_files.py).
    """
    started = time.perf_counter()
    store_file = Path(store_path)
    if not store_file.is_file():
        raise BuildError(f"no league store at {store_file}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise BuildError(f"{out} exists and is not a folder")
    try:
        store = LeagueStore.open_readonly(store_file)
    except StoreError as exc:  # a damaged file, or not a store: it says which, in one line
        raise BuildError(str(exc)) from None
    except Exception as exc:  # sqlite errors name the file badly; say it plainly
        raise BuildError(f"{store_file}: cannot open the league store: {exc}") from None
    with store:
        try:
            # Reading the store's rows: a value of the wrong type or shape is the file's.
            with store_errors(store_file, only_reads=True):
                check_rows(store)
                site = load_site(store)
            with store_errors(store_file):
                written = render_site(site, out, workers)
        except StoreError as exc:
            raise BuildError(str(exc)) from None
    return BuildReport(
        out_dir=out,
        index=out / "index.html",
        pages=written.pages,
        files=written.files,
        matches=written.matches,
        replays_made=written.replays_made,
        seconds=time.perf_counter() - started,
    )
