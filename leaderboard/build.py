"""`build_site`: a league store in, a static site out (what `bullring leaderboard build`
and `bullring demo` call); and the steps it shares with leaderboard/publish.py, which
rebuilds a published site at the cost of what changed: read the store's new rows into
the site's state (leaderboard/state.py), write the match pages not written yet, then the
bounded pages."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from leaderboard import paths
from leaderboard.from_store import StoreReplays
from leaderboard.match_files import MatchFiles
from leaderboard.model import LeagueInfo, Site
from leaderboard.render import SiteWriter, Written, render_pages, write_match_list
from leaderboard.state import MARKED, SiteState, Synced
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


def check_rows(store: LeagueStore, since: Mapping[str, int] | None = None) -> None:
    """StoreError naming the first value of the store that the build could not take as it
    is: of another type than the store's schema gives its column, or longer than its cap
    (COLUMNS), or JSON of another shape (JSON_COLUMNS); or a league name longer than a
    name. One query per column. `since`: the rows a build has read before, each table's
    highest rowid (leaderboard/state.py): only the newer ones are checked (and only the
    matches whose results are newer), so a rebuild checks what it reads."""
    db = store.db
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    for table, columns in COLUMNS.items():
        if table not in tables:  # digests and logs are optional (older stores)
            continue
        rows = _new_rows(table, since)
        for column, types, cap in columns:
            kinds = ", ".join(f"'{kind}'" for kind in types)
            query = f"SELECT rowid, typeof({column}), length({column}) FROM {table} WHERE "
            query += f"(typeof({column}) NOT IN ({kinds})"
            query += f" OR length({column}) > {cap})" if cap is not None else ")"
            found = db.execute(query + rows + " LIMIT 1").fetchone()
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
            f"THEN json_type({column}) END IS NOT '{shape}'"
        )
        found = db.execute(query + _new_rows(table, since) + " LIMIT 1").fetchone()
        if found is not None:
            raise StoreError(
                f"{store.path}: {table}.{column} (row {found[0]}) is not a JSON {shape}"
            )
    name = db.execute("SELECT length(value) FROM meta WHERE key = 'name'").fetchone()
    if name is not None and name[0] > _NAME:
        raise StoreError(f"{store.path}: the league's name is {name[0]:,} characters long")


def _new_rows(table: str, since: Mapping[str, int] | None) -> str:
    """The WHERE clause's tail that keeps a check to the rows read since `since`."""
    if not since or table in ("meta", "variants", "bots"):  # a few rows: always checked
        return ""
    if table in ("matches", "replays", "digests"):  # by the match's new results (a match
        # row changes: scheduled, then finished; a replay is written with the results)
        mark = int(since.get("results", 0))
        return f" AND match_id IN (SELECT match_id FROM results WHERE rowid > {mark})"
    return f" AND rowid > {int(since.get(table, 0))}"


def open_store(store_path: str | Path) -> LeagueStore:
    """The store, opened read-only; BuildError (one line) when it cannot be."""
    store_file = Path(store_path)
    if not store_file.is_file():
        raise BuildError(f"no league store at {store_file}")
    try:
        return LeagueStore.open_readonly(store_file)
    except StoreError as exc:  # a damaged file, or not a store: it says which, in one line
        raise BuildError(str(exc)) from None
    except Exception as exc:  # sqlite errors name the file badly; say it plainly
        raise BuildError(f"{store_file}: cannot open the league store: {exc}") from None


@contextmanager
def snapshot(store: LeagueStore) -> Iterator[None]:
    """One read transaction of the store: every row a build reads is of one moment, while
    a league may write on (WAL). A StoreError inside is a BuildError."""
    try:
        with store_errors(store.path, only_reads=True):
            if store.db.in_transaction:  # a reader's re-ranking (docs/store.md) wrote its
                store.db.commit()  # temporary tables: theirs alone, kept
            store.db.execute("BEGIN")
        try:
            yield
        finally:
            if store.db.in_transaction:
                store.db.execute("ROLLBACK")
    except StoreError as exc:
        raise BuildError(str(exc)) from None


def read_site(
    store: LeagueStore,
    state: SiteState,
    *,
    about: Mapping[str, Any] | None = None,
    public_logs: bool = True,
) -> tuple[Synced, Site]:
    """Check and read the store's new rows into `state` (inside :func:`snapshot`); the
    bounded pages' data. A value of the wrong type or shape is the file's: StoreError."""
    with store_errors(store.path, only_reads=True):
        marks = {table: state.number(f"mark:{table}") for table in MARKED}
        check_rows(store, marks if state.get("store") else None)
        synced = state.sync(store, public_logs)
        if synced.reset:  # the state was emptied: every row is read, so every row is checked
            check_rows(store)
        return synced, state.site(store, synced, about=about, public_logs=public_logs)


def frame_key(league: LeagueInfo) -> str:
    """What every match page shows of the league beside its own match (the header's name
    and links, whether logs are published): a change means every match page again."""
    return json.dumps([league.name, league.titles, league.has_submit, league.public_logs])


def write_site(
    store: LeagueStore,
    state: SiteState,
    site: Site,
    pages: Path,
    shared: Path,
    *,
    workers: int = 0,
    public_logs: bool = True,
) -> Written:
    """Write what `state` has not written yet into `shared` (the match pages, and the
    match list's pages that are full: they never change), then the bounded pages into
    `pages`; record in `state` what was written (committed by the caller). StoreError
    when a match's rows and its replay disagree (match_files.py)."""
    for sub in (paths.MATCHES_DIR, paths.LISTS_DIR):
        (shared / sub).mkdir(parents=True, exist_ok=True)
    total = state.matches
    done = min(state.number("pages"), total)
    match_files = MatchFiles(shared, site.league, StoreReplays(store), workers, public_logs)
    with store_errors(store.path):
        match_files.start(state.summaries(done + 1, total), fresh=done == 0)
    try:
        lists = SiteWriter(site.league, shared)
        size = paths.MATCH_LIST_PAGE_SIZE
        for number in range(state.number("lists") + 1, total // size + 1):
            chunk = state.summaries((number - 1) * size + 1, number * size)
            write_match_list(lists, paths.match_list_page(number), number, chunk[::-1])
        written = render_pages(site, pages)
    finally:
        with store_errors(store.path):
            match_files.finish()
    written.pages += match_files.pages + lists.written.pages
    written.files += match_files.files + lists.written.files
    written.matches = match_files.pages
    written.replays_made = match_files.with_data
    state.put("pages", total)
    state.put("lists", total // size)
    return written


def build_site(
    store_path: str | Path,
    out_dir: str | Path,
    workers: int = 0,
    *,
    about: Mapping[str, Any] | None = None,
    public_logs: bool = True,
) -> BuildReport:
    """Build the static leaderboard of the league in `store_path` into `out_dir`, whole
    (every match page; for a site rebuilt at the cost of what changed, see publish.py).

    `workers` processes write the match pages (0: up to 4, by cores; see match_files.py).
    """
    started = time.perf_counter()
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise BuildError(f"{out} exists and is not a folder")
    state = SiteState(None)
    try:
        with open_store(store_path) as store, snapshot(store):
            _, site = read_site(store, state, about=about, public_logs=public_logs)
            written = write_site(
                store, state, site, out, out, workers=workers, public_logs=public_logs
            )
    finally:
        state.close()
    return BuildReport(
        out_dir=out,
        index=out / "index.html",
        pages=written.pages,
        files=written.files,
        matches=written.matches,
        replays_made=written.replays_made,
        seconds=time.perf_counter() - started,
    )
