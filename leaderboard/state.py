"""The site's state: what its pages show, kept in a small SQLite file of its own and
filled from the league store's new rows only (docs/leaderboard.md, "Publishing").

A finished match never changes and matches are only added. Its results, faults, log
tails and rating rows are written in the transaction that records it, and the store never
deletes them, so each of those tables is read from a high-water mark: the highest rowid
read so far. SQLite gives a new row the highest rowid in its table plus one and writers
take turns (one write transaction at a time), so every row the state has not read has a
higher rowid than every row it has, whatever order the matches finished in (a test checks
it against matches finishing out of schedule order). The state numbers the matches in the
order their results arrived (`n`, 1, 2, ...): the match list's fixed pages and the recent
lists follow that order, so a match that finishes late joins the newest page rather than
changing a full one.

The state keeps per match its summary; per bot and variant the counts the standings show,
each bot's rating after each of its rated matches (the charts read a thinned few hundred
of them), each pair's head-to-head, each fault; and which match pages it has written
(`pages`). A store it cannot follow (another league, a store restored from an older
backup, one recorded before forfeited seats ranked last, which a reader re-ranks in
memory) resets it: the next build reads everything again.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from leaderboard import charts, paths
from leaderboard.from_store import (
    FAULTS_PER_BOT,
    RECENT_CHANGE,
    RECENT_PER_BOT,
    iso_time,
    manifest_text,
    variant_title,
)
from leaderboard.model import (
    BotPage,
    FaultRecord,
    HeadToHead,
    LeagueInfo,
    MatchSummary,
    PairRecord,
    RatingPoint,
    RatingSeries,
    SeatResult,
    Site,
    StandingRow,
    VariantStandings,
    VersionRow,
)
from referee.league.ratings import conservative_rating
from referee.league.store import FORFEITS_RANKED_LAST, LeagueStore, RegisteredBot
from sdk.game import PRESETS

RECENT_ON_INDEX = 20
LAST_HOUR_S = 3600.0
LAST_HOUR_SHOWN = 500  # the last-hour page lists at most this many (and says how many more)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    n INTEGER PRIMARY KEY,
    match_id TEXT NOT NULL UNIQUE,
    variant TEXT NOT NULL,
    seed INTEGER NOT NULL,
    finished_at REAL,
    decisions INTEGER NOT NULL,
    seats TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS matches_finished ON matches(finished_at);
CREATE INDEX IF NOT EXISTS matches_variant ON matches(variant);
CREATE TABLE IF NOT EXISTS bot_matches (
    bot TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (bot, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seen (bot TEXT PRIMARY KEY, first INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS stats (
    variant TEXT NOT NULL, bot TEXT NOT NULL, matches INTEGER NOT NULL, wins INTEGER NOT NULL,
    shared_wins REAL NOT NULL, rank_sum INTEGER NOT NULL, score_sum INTEGER NOT NULL,
    faults INTEGER NOT NULL, PRIMARY KEY (variant, bot)
);
CREATE TABLE IF NOT EXISTS pairs (
    variant TEXT NOT NULL, bot TEXT NOT NULL, opponent TEXT NOT NULL, matches INTEGER NOT NULL,
    wins INTEGER NOT NULL, losses INTEGER NOT NULL, ties INTEGER NOT NULL,
    PRIMARY KEY (variant, bot, opponent)
);
CREATE TABLE IF NOT EXISTS rated (
    variant TEXT PRIMARY KEY, matches INTEGER NOT NULL, last_seq INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS latest (
    variant TEXT NOT NULL, bot TEXT NOT NULL, count INTEGER NOT NULL, mu REAL NOT NULL,
    sigma REAL NOT NULL, PRIMARY KEY (variant, bot)
);
CREATE TABLE IF NOT EXISTS points (
    variant TEXT NOT NULL, bot TEXT NOT NULL, number INTEGER NOT NULL,
    league_match INTEGER NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,
    PRIMARY KEY (variant, bot, number)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS faults (
    id INTEGER PRIMARY KEY, match_id TEXT NOT NULL, variant TEXT NOT NULL, seat INTEGER NOT NULL,
    bot TEXT NOT NULL, decision INTEGER NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS faults_bot ON faults(bot, id);
CREATE TABLE IF NOT EXISTS fault_kinds (
    bot TEXT NOT NULL, kind TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (bot, kind)
);
CREATE TABLE IF NOT EXISTS logged (
    match_id TEXT NOT NULL, seat INTEGER NOT NULL, PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
"""
MARKED = ("results", "faults", "ratings", "logs")  # the store's tables read from a mark


@dataclass(frozen=True)
class Synced:
    """What one sync read: the new matches (in arrival order) and the store's facts."""

    new: tuple[MatchSummary, ...]
    finished: int  # finished matches in the store, in the snapshot read
    newest: float | None  # the newest finished_at among them
    reset: bool  # the state was emptied first (a store it could not follow)


class SiteState:
    """The state file (or an in-memory one for a plain build). Every change is made in
    one transaction, committed by :meth:`commit` once the build it fed is published."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.db = sqlite3.connect(":memory:" if path is None else str(path), isolation_level=None)
        self.db.execute("PRAGMA journal_mode=" + ("MEMORY" if path is None else "DELETE"))
        self.db.execute("BEGIN IMMEDIATE")
        for statement in filter(None, (s.strip() for s in SCHEMA.split(";"))):
            self.db.execute(statement)

    def close(self) -> None:
        """Close the file; what was not committed is rolled back."""
        self.db.close()

    def commit(self) -> None:
        self.db.execute("COMMIT")
        self.db.execute("BEGIN IMMEDIATE")

    # --- meta ---------------------------------------------------------------------------

    def get(self, key: str, default: str = "") -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return default if row is None else str(row[0])

    def put(self, key: str, value: object) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, str(value)))

    def number(self, key: str) -> int:
        return int(self.get(key, "0"))

    def reset(self) -> None:
        """Forget everything read (the next sync reads the whole store)."""
        tables = [
            r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        ]
        for table in tables:
            self.db.execute(f"DELETE FROM {table}")

    @property
    def matches(self) -> int:
        """Matches the state holds (their numbers are 1..matches)."""
        row = self.db.execute("SELECT MAX(n) FROM matches").fetchone()
        return int(row[0] or 0)

    # --- reading the store --------------------------------------------------------------

    def sync(self, store: LeagueStore, public_logs: bool = True) -> Synced:
        """Read the store's rows that are new since the last sync, inside one read
        transaction of the store (the caller's: see build.py), into the state. Without
        `public_logs` it keeps no fault's detail (what a bot's exception said), so nothing
        the bots printed is under the site's folder at all."""
        db = store.db
        fingerprint = _fingerprint(store, public_logs)
        reset = self.get("store") != fingerprint or _moved_back(self, db)
        if reset:
            self.reset()
            self.put("store", fingerprint)
        marks = {table: self.number(f"mark:{table}") for table in MARKED}
        tops = {table: _top(db, table) for table in MARKED}
        faults = db.execute(
            "SELECT id, match_id, seat, bot, kind, decision, detail FROM faults"
            " WHERE id > ? AND id <= ? ORDER BY id",
            (marks["faults"], tops["faults"]),
        ).fetchall()
        per_seat: dict[tuple[str, int], int] = defaultdict(int)
        for fault in faults:
            per_seat[(str(fault[1]), int(fault[2]))] += 1
        rows = db.execute(
            "SELECT r.match_id, r.seat, r.bot, r.score, r.rank, r.forfeited, m.variant, m.seed,"
            " m.finished_at, m.decisions FROM results r JOIN matches m ON m.match_id = r.match_id"
            " WHERE r.rowid > ? AND r.rowid <= ? ORDER BY r.rowid",
            (marks["results"], tops["results"]),
        ).fetchall()
        new = self._add_matches(rows, per_seat)
        self._add_faults(faults, {m.match_id: m.variant for m in new}, public_logs)
        self._add_ratings(db, marks["ratings"], tops["ratings"])
        if tops["logs"]:
            self.db.executemany(
                "INSERT OR IGNORE INTO logged(match_id, seat) VALUES (?, ?)",
                db.execute(
                    "SELECT match_id, seat FROM logs WHERE rowid > ? AND rowid <= ?",
                    (marks["logs"], tops["logs"]),
                ),
            )
        for table, top in tops.items():
            self.put(f"mark:{table}", max(top, marks[table]))
        finished, newest = db.execute(
            "SELECT COUNT(*), MAX(finished_at) FROM matches WHERE status = 'finished'"
        ).fetchone()
        return Synced(tuple(new), int(finished), newest, reset)

    def _add_matches(
        self, rows: Sequence[Sequence[Any]], per_seat: Mapping[tuple[str, int], int]
    ) -> list[MatchSummary]:
        grouped: dict[str, list[Sequence[Any]]] = {}
        for row in rows:
            grouped.setdefault(str(row[0]), []).append(row)
        n = self.matches
        known = {str(r[0]) for r in self.db.execute("SELECT bot FROM seen")}
        stats: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0.0, 0, 0])
        pairs: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        new: list[MatchSummary] = []
        for match_id, seats in grouped.items():
            first = seats[0]
            summary = MatchSummary(
                match_id=match_id,
                variant=str(first[6]),
                seed=int(first[7]),
                finished_at=iso_time(first[8]),
                decisions=int(first[9] or 0),
                seats=tuple(
                    SeatResult(
                        seat=int(s[1]),
                        bot=str(s[2]),
                        score=int(s[3]),
                        rank=int(s[4]),
                        faults=per_seat.get((match_id, int(s[1])), 0),
                        forfeited=bool(s[5]),
                    )
                    for s in sorted(seats, key=lambda s: int(s[1]))
                ),
            )
            n += 1
            new.append(summary)
            self.db.execute(
                "INSERT INTO matches(n, match_id, variant, seed, finished_at, decisions, seats)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (n, match_id, summary.variant, summary.seed, first[8], summary.decisions,
                 _seats_json(summary.seats)),
            )  # fmt: skip
            winners = sum(1 for s in summary.seats if s.rank == 1)
            for seat in summary.seats:
                if seat.bot not in known:
                    known.add(seat.bot)
                    self.db.execute("INSERT INTO seen(bot, first) VALUES (?, ?)", (seat.bot, n))
                counts = stats[(summary.variant, seat.bot)]
                counts[0] += 1
                counts[1] += seat.rank == 1
                counts[2] += 1 / winners if seat.rank == 1 else 0.0
                counts[3] += seat.rank
                counts[4] += seat.score
                for other in summary.seats:
                    if other.seat == seat.seat or other.bot == seat.bot:
                        continue
                    pair = pairs[(summary.variant, seat.bot, other.bot)]
                    pair[0] += 1
                    pair[1 if seat.rank < other.rank else 2 if seat.rank > other.rank else 3] += 1
            self.db.executemany(
                "INSERT OR IGNORE INTO bot_matches(bot, n) VALUES (?, ?)",
                [(bot, n) for bot in {s.bot for s in summary.seats}],
            )
        self.db.executemany(
            "INSERT INTO stats(variant, bot, matches, wins, shared_wins, rank_sum, score_sum,"
            " faults) VALUES (?, ?, ?, ?, ?, ?, ?, 0) ON CONFLICT(variant, bot) DO UPDATE SET"
            " matches = matches + excluded.matches, wins = wins + excluded.wins,"
            " shared_wins = shared_wins + excluded.shared_wins,"
            " rank_sum = rank_sum + excluded.rank_sum, score_sum = score_sum + excluded.score_sum",
            [(v, b, *counts) for (v, b), counts in stats.items()],
        )
        self.db.executemany(
            "INSERT INTO pairs(variant, bot, opponent, matches, wins, losses, ties)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(variant, bot, opponent) DO UPDATE SET"
            " matches = matches + excluded.matches, wins = wins + excluded.wins,"
            " losses = losses + excluded.losses, ties = ties + excluded.ties",
            [(*key, *counts) for key, counts in pairs.items()],
        )
        return new

    def _add_faults(
        self, faults: Sequence[Sequence[Any]], variants: Mapping[str, str], public_logs: bool
    ) -> None:
        kinds: dict[tuple[str, str], int] = defaultdict(int)
        per_bot: dict[tuple[str, str], int] = defaultdict(int)
        for fid, match_id, seat, bot, kind, decision, detail in faults:
            variant = variants.get(str(match_id)) or self._variant_of(str(match_id))
            self.db.execute(
                "INSERT OR IGNORE INTO faults(id, match_id, variant, seat, bot, decision, kind,"
                " detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (fid, match_id, variant, seat, bot, decision, kind, detail if public_logs else ""),
            )
            kinds[(str(bot), str(kind))] += 1
            per_bot[(variant, str(bot))] += 1
        self.db.executemany(
            "INSERT INTO fault_kinds(bot, kind, n) VALUES (?, ?, ?)"
            " ON CONFLICT(bot, kind) DO UPDATE SET n = n + excluded.n",
            [(*key, n) for key, n in kinds.items()],
        )
        self.db.executemany(
            "UPDATE stats SET faults = faults + ? WHERE variant = ? AND bot = ?",
            [(n, *key) for key, n in per_bot.items()],
        )

    def _variant_of(self, match_id: str) -> str:
        row = self.db.execute("SELECT variant FROM matches WHERE match_id = ?", (match_id,))
        found = row.fetchone()
        return "" if found is None else str(found[0])

    def _add_ratings(self, db: sqlite3.Connection, mark: int, top: int) -> None:
        rated = {
            str(r[0]): [int(r[1]), int(r[2])]
            for r in self.db.execute("SELECT variant, matches, last_seq FROM rated")
        }
        latest = {
            (str(r[0]), str(r[1])): int(r[2])
            for r in self.db.execute("SELECT variant, bot, count FROM latest")
        }
        now: dict[tuple[str, str], tuple[float, float]] = {}
        points = []
        # Rating rows are written in schedule order (docs/store.md): a variant's new rows
        # come after its old ones; by seq within the batch, as a full read needs.
        for variant, seq, bot, mu, sigma in db.execute(
            "SELECT variant, seq, bot, mu, sigma FROM ratings WHERE rowid > ? AND rowid <= ?"
            " ORDER BY seq, rowid",
            (mark, top),
        ):
            order = rated.setdefault(str(variant), [0, -1])
            if seq != order[1]:
                order[0], order[1] = order[0] + 1, int(seq)
            key = (str(variant), str(bot))
            latest[key] = latest.get(key, 0) + 1
            now[key] = (float(mu), float(sigma))
            points.append((*key, latest[key], order[0], float(mu), float(sigma)))
        self.db.executemany(
            "INSERT OR REPLACE INTO points(variant, bot, number, league_match, mu, sigma)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            points,
        )
        self.db.executemany(
            "INSERT OR REPLACE INTO latest(variant, bot, count, mu, sigma) VALUES (?, ?, ?, ?, ?)",
            [(*key, latest[key], mu, sigma) for key, (mu, sigma) in now.items()],
        )
        self.db.executemany(
            "INSERT OR REPLACE INTO rated(variant, matches, last_seq) VALUES (?, ?, ?)",
            [(v, m, s) for v, (m, s) in rated.items()],
        )

    # --- what the pages show ------------------------------------------------------------

    def summaries(self, first: int, last: int) -> list[MatchSummary]:
        """The matches numbered `first` to `last`, oldest first."""
        return [
            _summary(row)
            for row in self.db.execute(
                "SELECT match_id, variant, seed, finished_at, decisions, seats FROM matches"
                " WHERE n BETWEEN ? AND ? ORDER BY n",
                (first, last),
            )
        ]

    def newest(self, limit: int) -> tuple[MatchSummary, ...]:
        """The last `limit` matches to arrive, newest first."""
        top = self.matches
        return tuple(reversed(self.summaries(max(1, top - limit + 1), top)))

    def last_hour(self, newest: float | None) -> tuple[tuple[MatchSummary, ...], int]:
        """(the matches that finished in the hour up to `newest`, newest first, at most
        LAST_HOUR_SHOWN; how many there are)."""
        if newest is None:
            return (), 0
        since = newest - LAST_HOUR_S
        (total,) = self.db.execute(
            "SELECT COUNT(*) FROM matches WHERE finished_at >= ?", (since,)
        ).fetchone()
        rows = self.db.execute(
            "SELECT match_id, variant, seed, finished_at, decisions, seats FROM matches"
            " WHERE finished_at >= ? ORDER BY finished_at DESC, n DESC LIMIT ?",
            (since, LAST_HOUR_SHOWN),
        )
        return tuple(_summary(row) for row in rows), int(total)

    def site(
        self,
        store: LeagueStore,
        synced: Synced,
        *,
        built_at: str | None = None,
        about: Mapping[str, Any] | None = None,
        public_logs: bool = True,
    ) -> Site:
        """The bounded pages' data: standings, bots, recent lists (the store's league,
        variants and bots are read again: a few rows)."""
        meta = store.meta()
        variants = store.variants()
        registered = store.bots()
        about_of = {b.spec.key: manifest_text(b.spec.manifest) for b in registered}
        newest_key = {b.spec.name: b.spec.key for b in registered}
        retired = {
            b.spec.key: newest_key[b.spec.name]
            for b in registered
            if newest_key[b.spec.name] != b.spec.key
        }
        # A version its author retired (the arena) names itself: no newer version took over.
        retired.update({key: key for key in store.retired_bots() if key not in retired})
        names = {b.spec.key: (b.spec.name, b.spec.version) for b in registered}
        standings = tuple(self._standings(v, names, about_of, retired) for v in variants)
        keys = [b.spec.key for b in registered]  # then the keys only results name
        known = set(keys)
        seen = self.db.execute("SELECT bot FROM seen ORDER BY first, bot")
        keys += [str(r[0]) for r in seen if str(r[0]) not in known]
        league = LeagueInfo(
            name=meta.get("name", store.path.stem),
            variants=tuple(str(v["id"]) for v in variants),
            matches_played=synced.finished,
            bots=len(keys),
            built_at=built_at or iso_time(dt.datetime.now(dt.UTC).timestamp()),
            titles=tuple((s.variant, s.title) for s in standings),
            newest_finished=iso_time(synced.newest),
            has_submit=about is not None,
            public_logs=public_logs,
        )
        versions = _versions(registered, self, retired, standings)
        bots = tuple(
            self._bot_page(key, standings, about_of, retired, versions, public_logs) for key in keys
        )
        hour, hour_total = self.last_hour(synced.newest)
        size = paths.MATCH_LIST_PAGE_SIZE
        full = self.matches // size
        return Site(
            league=league,
            standings=standings,
            bots=bots,
            recent_matches=self.newest(RECENT_ON_INDEX),
            latest_matches=tuple(reversed(self.summaries(full * size + 1, self.matches))),
            latest_page=full + 1,
            last_hour=hour,
            last_hour_total=hour_total,
            about=about,
        )

    def series(self, variant: str, bot: str, count: int) -> RatingSeries:
        """A bot's rating series in a variant, thinned to at most charts.MAX_POINTS points
        (the first and the last kept): only those rows are read."""
        numbers = thinned(count)
        rows = self.db.execute(
            "SELECT number, league_match, mu, sigma FROM points WHERE variant = ? AND bot = ?"
            f" AND number IN ({','.join('?' * len(numbers))}) ORDER BY number",
            (variant, bot, *numbers),
        )
        return RatingSeries(bot, variant, tuple(RatingPoint(*row) for row in rows))

    def _point(self, variant: str, bot: str, number: int) -> float:
        row = self.db.execute(
            "SELECT mu, sigma FROM points WHERE variant = ? AND bot = ? AND number = ?",
            (variant, bot, number),
        ).fetchone()
        return 0.0 if row is None else conservative_rating(row[0], row[1])

    def _standings(
        self,
        variant: Mapping[str, Any],
        names: Mapping[str, tuple[str, str]],
        about: Mapping[str, tuple[str, str]],
        retired: Mapping[str, str],
    ) -> VariantStandings:
        variant_id = str(variant["id"])
        stats = {
            str(r[0]): r
            for r in self.db.execute(
                "SELECT bot, matches, wins, shared_wins, rank_sum, score_sum, faults FROM stats"
                " WHERE variant = ?",
                (variant_id,),
            )
        }
        latest = [
            (str(r[0]), int(r[1]), float(r[2]), float(r[3]))
            for r in self.db.execute(
                "SELECT bot, count, mu, sigma FROM latest WHERE variant = ?", (variant_id,)
            )
        ]
        latest.sort(key=lambda r: (-conservative_rating(r[2], r[3]), r[0]))
        rows, series = [], []
        for rank, (bot, count, mu, sigma) in enumerate(latest, start=1):
            rating = conservative_rating(mu, sigma)
            series.append(self.series(variant_id, bot, count))
            over = min(RECENT_CHANGE, count)
            before = self._point(variant_id, bot, count - over) if count > over else 0.0
            _, n, wins, shared, rank_sum, score_sum, faults = stats.get(
                bot, (bot, 0, 0, 0, 0, 0, 0)
            )
            name, version = names.get(bot, (bot.split("@")[0], ""))
            author, description = about.get(bot, ("", ""))
            rows.append(
                StandingRow(
                    rank=rank,
                    bot=bot,
                    name=name,
                    version=version,
                    conservative=rating,
                    mu=mu,
                    sigma=sigma,
                    matches=n,
                    wins=wins,
                    win_share=shared / n if n else 0.0,
                    mean_score=score_sum / n if n else 0.0,
                    fault_rate=faults / n if n else 0.0,
                    mean_rank=rank_sum / n if n else 0.0,
                    change=rating - before,
                    change_over=over,
                    retired=bot in retired,
                    author=author,
                    description=description,
                )
            )
        played = self.db.execute("SELECT COUNT(*) FROM matches WHERE variant = ?", (variant_id,))
        preset = PRESETS.get(str(variant["preset"]))
        return VariantStandings(
            variant=variant_id,
            title=variant_title(variant),
            matches=int(played.fetchone()[0]),
            rows=tuple(rows),
            series=tuple(series),
            family=preset.family if preset else "",
            head_to_head=tuple(
                PairRecord(*row)
                for row in self.db.execute(
                    "SELECT bot, opponent, matches, wins, losses, ties FROM pairs"
                    " WHERE variant = ? ORDER BY bot, opponent",
                    (variant_id,),
                )
            ),
        )

    def _bot_page(
        self,
        key: str,
        standings: tuple[VariantStandings, ...],
        about: Mapping[str, tuple[str, str]],
        retired: Mapping[str, str],
        versions: Mapping[str, tuple[tuple[VersionRow, ...], tuple[RatingSeries, ...]]],
        public_logs: bool,
    ) -> BotPage:
        name, _, version = key.partition("@")
        recent = [
            _summary(row)
            for row in self.db.execute(
                "SELECT m.match_id, m.variant, m.seed, m.finished_at, m.decisions, m.seats"
                " FROM bot_matches b JOIN matches m ON m.n = b.n WHERE b.bot = ?"
                " ORDER BY b.n DESC LIMIT ?",
                (key, RECENT_PER_BOT),
            )
        ]
        faults = tuple(
            FaultRecord(
                match_id=str(f[0]),
                variant=str(f[1]),
                seat=int(f[2]),
                decision=int(f[3]),
                kind=str(f[4]),
                detail=str(f[5]) if public_logs else "",
                has_log=public_logs and bool(f[6]),
            )
            for f in self.db.execute(
                "SELECT f.match_id, f.variant, f.seat, f.decision, f.kind, f.detail,"
                " EXISTS (SELECT 1 FROM logged l WHERE l.match_id = f.match_id"
                " AND l.seat = f.seat) FROM faults f WHERE f.bot = ? ORDER BY f.id DESC LIMIT ?",
                (key, FAULTS_PER_BOT),
            )
        )
        kinds = {
            str(r[0]): int(r[1])
            for r in self.db.execute("SELECT kind, n FROM fault_kinds WHERE bot = ?", (key,))
        }
        head = tuple(
            HeadToHead(str(r[0]), str(r[1]), *map(int, r[2:]))
            for r in self.db.execute(
                "SELECT opponent, variant, matches, wins, losses, ties FROM pairs"
                " WHERE bot = ? ORDER BY opponent, variant",
                (key,),
            )
        )
        rows, series = versions.get(name, ((), ()))
        return BotPage(
            bot=key,
            name=name,
            version=version,
            series=tuple(s for v in standings for s in v.series if s.bot == key and s.points),
            head_to_head=head,
            recent_matches=tuple(recent),
            faults=faults,
            fault_kinds=kinds,
            author=about.get(key, ("", ""))[0],
            description=about.get(key, ("", ""))[1],
            retired_by=retired.get(key, ""),
            versions=rows if len(rows) > 1 else (),
            version_series=series if len(rows) > 1 else (),
        )


def _versions(
    registered: Iterable[RegisteredBot],
    state: SiteState,
    retired: Mapping[str, str],
    standings: tuple[VariantStandings, ...],
) -> dict[str, tuple[tuple[VersionRow, ...], tuple[RatingSeries, ...]]]:
    """Per bot name: each registered version (oldest first) and its series in each variant."""
    by_name: dict[str, list[RegisteredBot]] = defaultdict(list)
    for bot in registered:
        by_name[bot.spec.name].append(bot)
    series_of = {(s.variant, s.bot): s for v in standings for s in v.series}
    found: dict[str, tuple[tuple[VersionRow, ...], tuple[RatingSeries, ...]]] = {}
    for name, bots in by_name.items():
        rows, series = [], []
        for bot in bots:
            key = bot.spec.key
            ratings = []
            for s in standings:
                row = next((r for r in s.rows if r.bot == key), None)
                if row is not None:
                    ratings.append((s.variant, row.conservative, row.matches))
                    series.append(series_of[(s.variant, key)])
            rows.append(
                VersionRow(key, bot.spec.version, iso_time(bot.registered_at), tuple(ratings),
                           key in retired)
            )  # fmt: skip
        found[name] = (tuple(rows), tuple(series))
    return found


def thinned(count: int, limit: int = charts.MAX_POINTS) -> list[int]:
    """The numbers (1-based) of the points charts.thin keeps of `count`: at most `limit`,
    evenly spaced, the first and the last kept; made without the points themselves."""
    if count <= limit:
        return list(range(1, count + 1))
    step = (count - 1) / (limit - 1)
    return [round(i * step) + 1 for i in range(limit)]


def _fingerprint(store: LeagueStore, public_logs: bool) -> str:
    """What the state must be read again for when it changes: the league (its name,
    schedule digest, creation time), whether its ranks are the file's, and whether the
    site publishes what bots printed."""
    meta = store.meta()
    keys = ("name", "digest", "created_at", FORFEITS_RANKED_LAST)
    return json.dumps([*(meta.get(k, "") for k in keys), public_logs])


def _top(db: sqlite3.Connection, table: str) -> int:
    """The highest rowid of a table of the store (0: none, or no such table)."""
    try:
        row = db.execute(f"SELECT MAX(rowid) FROM {table}").fetchone()
    except sqlite3.OperationalError:  # an optional table the store does not have
        return 0
    return int(row[0] or 0)


def _moved_back(state: SiteState, db: sqlite3.Connection) -> bool:
    """Whether a table of the store holds fewer rows than the state has read (a store
    restored from an older backup): the state cannot follow it."""
    return any(_top(db, table) < state.number(f"mark:{table}") for table in MARKED)


def _seats_json(seats: Iterable[SeatResult]) -> str:
    return json.dumps(
        [[s.seat, s.bot, s.score, s.rank, s.faults, int(s.forfeited)] for s in seats],
        separators=(",", ":"),
    )


def _summary(row: Sequence[Any]) -> MatchSummary:
    match_id, variant, seed, finished_at, decisions, seats = row
    return MatchSummary(
        match_id=str(match_id),
        variant=str(variant),
        seed=int(seed),
        finished_at=iso_time(finished_at),
        decisions=int(decisions),
        seats=tuple(
            SeatResult(int(s[0]), str(s[1]), int(s[2]), int(s[3]), int(s[4]), bool(s[5]))
            for s in json.loads(seats)
        ),
    )
