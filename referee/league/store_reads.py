"""The league store's read API: bots, matches, standings, ratings, results, replays.

A mixin of :class:`referee.league.store.LeagueStore` (which opens the file and writes);
everything here only reads, so it works on a store opened read-only.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from referee.bots.log import TAIL_BYTES, printable_log
from referee.decompress import inflate
from referee.league.archive import ArchiveError, BotArchive
from referee.league.ratings import RatedMatch, Rating
from referee.league.store_rows import MatchRow, RegisteredBot, Standing, StoredLog, _match_row
from referee.limits import MAX_REPLAY_BYTES, json_items_problem
from referee.replay.model import ReplayError
from referee.spec import BotSpec


class StoreReads:
    """The queries of a league store; `db` is its connection (rows as sqlite3.Row)."""

    db: sqlite3.Connection
    path: Path
    _tables: dict[str, bool] | None = None  # optional tables found so far (see _has_table)

    def bots(self) -> list[RegisteredBot]:
        """Every registered bot version, in registration order; an archived one's spec
        runs its copy in the store's archive (referee/league/archive.py)."""
        archive = BotArchive.of_store(self.path)
        found: list[RegisteredBot] = []
        for row in self.db.execute("SELECT * FROM bots ORDER BY id"):
            stored = json.loads(row["spec"])
            digest = dict(row).get("tree_hash")  # None in a store made before the archive
            spec = BotSpec.from_json(stored)
            # A store from elsewhere may point out of the archive: read as it is then;
            # verify_archive (before anything runs) refuses it.
            if digest:
                with contextlib.suppress(ArchiveError):
                    spec = archive.resolve(stored, digest)
            found.append(
                RegisteredBot(row["id"], spec, row["manifest_hash"], row["registered_at"], digest)
            )
        return found

    def verify_archive(self, keys: Iterable[str] | None = None) -> None:
        """ArchiveError (one line) if the archived copy of a registered bot (of `keys`, or
        every one) is missing or altered: the league then runs none of them."""
        archive = BotArchive.of_store(self.path)
        wanted = None if keys is None else set(keys)
        seen: set[str] = set()
        for row in self.db.execute("SELECT key, spec, tree_hash FROM bots ORDER BY id"):
            digest, key = row["tree_hash"], row["key"]
            if not digest or (wanted is not None and key not in wanted):
                continue
            try:
                archive.resolve(json.loads(row["spec"]), digest)  # it runs inside its copy
            except ArchiveError as error:
                raise ArchiveError(f"bot {key}: {error}") from None
            if digest not in seen:
                seen.add(digest)
                archive.verify(digest, key)

    def newest_bots(self) -> list[BotSpec]:
        """The latest registered version of each bot name, in order of first registration,
        retired or not."""
        latest: dict[str, BotSpec] = {}
        for bot in self.bots():
            latest[bot.spec.name] = bot.spec
        return list(latest.values())

    def active_bots(self) -> list[BotSpec]:
        """What gets scheduled: the latest registered version of each bot name, in order of
        first registration, leaving out a name whose latest version is retired (its older
        versions stay out too: retiring the newest never brings an older one back)."""
        retired = self.retired_bots()
        return [spec for spec in self.newest_bots() if spec.key not in retired]

    def retired_bots(self) -> dict[str, float]:
        """Each retired version's key and when it was retired (:meth:`LeagueStore.retire`);
        none in a store made before retirement."""
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(bots)")}
        if "retired_at" not in columns:
            return {}
        rows = self.db.execute(
            "SELECT key, retired_at FROM bots WHERE retired_at IS NOT NULL ORDER BY id"
        )
        return {str(row[0]): float(row[1]) for row in rows}

    def matches_played(self, name: str | None = None) -> dict[str, int]:
        """How many finished matches each bot version (of bot `name` only, with it)
        played, over all variants."""
        query = "SELECT bot, COUNT(DISTINCT match_id) FROM results"
        args: tuple[str, ...] = ()
        if name is not None:  # the keys NAME@...: '@' sorts just before 'A' (an index range)
            query, args = query + " WHERE bot >= ? AND bot < ?", (f"{name}@", f"{name}A")
        rows = self.db.execute(query + " GROUP BY bot", args)
        return {str(bot): int(count) for bot, count in rows}

    def finished_since(self, since: float) -> int:
        """How many matches finished at or after `since` (a time.time())."""
        row = self.db.execute(
            "SELECT COUNT(*) FROM matches WHERE status = 'finished' AND finished_at >= ?",
            (since,),
        ).fetchone()
        return int(row[0] or 0)

    def bot_specs(self) -> dict[str, BotSpec]:
        return {bot.spec.key: bot.spec for bot in self.bots()}

    def variants(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT * FROM variants ORDER BY position")
        return [{**dict(row), "options": json.loads(row["options"])} for row in rows]

    def matches(
        self,
        variant: str | None = None,
        status: str | None = None,
        bot: str | None = None,
        limit: int | None = None,
    ) -> list[MatchRow]:
        """Matches in schedule order, filtered by variant, status and bot key."""
        query = "SELECT * FROM matches WHERE 1=1"
        args: list[Any] = []
        if variant is not None:
            query += " AND variant = ?"
            args.append(variant)
        if status is not None:
            query += " AND status = ?"
            args.append(status)
        if bot is not None:
            query += " AND match_id IN (SELECT match_id FROM results WHERE bot = ?)"
            args.append(bot)
        query += " ORDER BY seq"
        if limit is not None:
            query += " LIMIT ?"
            args.append(limit)
        return [_match_row(row) for row in self.db.execute(query, args)]

    def match_of_slot(self, slot: str) -> MatchRow | None:
        """The match scheduled for `slot` (formats.py), or None."""
        row = self.db.execute("SELECT * FROM matches WHERE slot = ?", (slot,)).fetchone()
        return None if row is None else _match_row(row)

    def has_match(self, match_id: str) -> bool:
        """Whether the store schedules a match of that id."""
        row = self.db.execute("SELECT 1 FROM matches WHERE match_id = ?", (match_id,)).fetchone()
        return row is not None

    def counts(self) -> tuple[int, int]:
        """(finished, scheduled) match counts."""
        row = self.db.execute("SELECT SUM(status = 'finished'), COUNT(*) FROM matches").fetchone()
        return int(row[0] or 0), int(row[1] or 0)

    def set_counts(self, variant: str) -> dict[str, int]:
        """Matches scheduled per set of bots (order-free key), for the quality format."""
        counts: dict[str, int] = {}
        for (seats,) in self.db.execute("SELECT seats FROM matches WHERE variant = ?", (variant,)):
            key = ",".join(sorted(json.loads(seats)))
            counts[key] = counts.get(key, 0) + 1
        return counts

    def rated_matches(self, variant: str, after_seq: int = 0) -> list[RatedMatch]:
        """Finished matches of `variant` with seq > after_seq: what ratings are made from."""
        rows = self.db.execute(
            "SELECT m.seq, r.bot, r.rank FROM matches m JOIN results r ON r.match_id = m.match_id"
            " WHERE m.variant = ? AND m.seq > ? ORDER BY m.seq, r.seat",
            (variant, after_seq),
        )
        grouped: dict[int, list[tuple[str, int]]] = {}
        for seq, bot, rank in rows:
            grouped.setdefault(seq, []).append((bot, rank))
        return [
            RatedMatch(seq, tuple(b for b, _ in seats), tuple(r for _, r in seats))
            for seq, seats in grouped.items()
        ]

    def rating_state(self, variant: str) -> tuple[int, dict[str, Rating]]:
        """(last rated seq, each bot's latest rating) of a variant."""
        latest: dict[str, Rating] = {}
        last = 0
        for row in self.db.execute(
            "SELECT seq, bot, mu, sigma FROM ratings WHERE variant = ? ORDER BY seq", (variant,)
        ):
            latest[row["bot"]] = Rating(row["mu"], row["sigma"])
            last = row["seq"]
        return last, latest

    def standings(self, variant: str) -> list[Standing]:
        """A variant's table, best conservative rating (mu - 3 sigma) first."""
        _, latest = self.rating_state(variant)
        stats = {
            row["bot"]: row
            for row in self.db.execute(
                "SELECT r.bot, COUNT(*) AS n, SUM(r.rank = 1) AS wins, AVG(r.rank) AS mean_rank,"
                " SUM(CASE WHEN r.rank = 1 THEN 1.0 / (SELECT COUNT(*) FROM results f"
                " WHERE f.match_id = r.match_id AND f.rank = 1) ELSE 0 END) AS shared_wins,"
                " AVG(r.score) AS mean_score FROM results r JOIN matches m"
                " ON m.match_id = r.match_id WHERE m.variant = ? GROUP BY r.bot",
                (variant,),
            )
        }
        faults = dict(
            self.db.execute(
                "SELECT f.bot, COUNT(*) FROM faults f JOIN matches m ON m.match_id = f.match_id"
                " WHERE m.variant = ? GROUP BY f.bot",
                (variant,),
            ).fetchall()
        )
        names = {b.spec.key: b.spec for b in self.bots()}
        table = []
        for bot, rating in latest.items():
            row = stats.get(bot)
            spec = names.get(bot)
            table.append(
                Standing(
                    bot=bot,
                    name=spec.name if spec else bot.split("@")[0],
                    version=spec.version if spec else "",
                    mu=rating.mu,
                    sigma=rating.sigma,
                    matches=int(row["n"]) if row else 0,
                    wins=int(row["wins"] or 0) if row else 0,
                    shared_wins=float(row["shared_wins"] or 0.0) if row else 0.0,
                    mean_rank=float(row["mean_rank"]) if row else 0.0,
                    mean_score=float(row["mean_score"]) if row else 0.0,
                    faults=int(faults.get(bot, 0)),
                )
            )
        table.sort(key=lambda s: (-s.rating, s.bot))
        return table

    def rating_history(self, variant: str, bot: str) -> list[tuple[int, str, Rating]]:
        """(seq, match id, rating after it) for every rated match of `bot` in `variant`."""
        return [
            (row["seq"], row["match_id"], Rating(row["mu"], row["sigma"]))
            for row in self.db.execute(
                "SELECT seq, match_id, mu, sigma FROM ratings WHERE variant = ? AND bot = ?"
                " ORDER BY seq",
                (variant, bot),
            )
        ]

    def results(self, match_id: str) -> list[dict[str, Any]]:
        """Per seat: bot, score, rank, forfeited."""
        return [
            {**dict(row), "forfeited": bool(row["forfeited"])}
            for row in self.db.execute(
                "SELECT seat, bot, score, rank, forfeited FROM results WHERE match_id = ?"
                " ORDER BY seat",
                (match_id,),
            )
        ]

    def faults(self, match_id: str | None = None) -> list[dict[str, Any]]:
        query = "SELECT match_id, seat, bot, kind, decision, detail FROM faults"
        args: tuple[Any, ...] = ()
        if match_id is not None:
            query += " WHERE match_id = ?"
            args = (match_id,)
        return [dict(row) for row in self.db.execute(query + " ORDER BY id", args)]

    def replay(self, match_id: str) -> dict[str, Any] | None:
        """A finished match's replay (see referee/replay/files.py), or None; ReplayError if it
        is not JSON or holds too many values to parse (MAX_REPLAY_ITEMS)."""
        text = self.replay_text(match_id)
        if text is None:
            return None
        where = f"{self.path}: the replay of {match_id!r}"
        problem = json_items_problem(text)  # a JSON bomb (a store from elsewhere)
        if problem is not None:
            raise ReplayError(f"{where}: {problem}")
        try:
            data: dict[str, Any] = json.loads(text)
        except (ValueError, RecursionError) as error:
            reason = "nested too deeply" if isinstance(error, RecursionError) else error
            raise ReplayError(f"{where}: not JSON ({reason})") from None
        return data

    def replay_blob(self, match_id: str) -> bytes | None:
        """A finished match's replay as stored (zlib-compressed JSON), or None."""
        row = self.db.execute("SELECT data FROM replays WHERE match_id = ?", (match_id,)).fetchone()
        return None if row is None else bytes(row[0])

    def replay_text(self, match_id: str) -> bytes | None:
        """A finished match's replay as its compact JSON text (UTF-8, not parsed), or None."""
        blob = self.replay_blob(match_id)
        return None if blob is None else inflate(blob, MAX_REPLAY_BYTES)

    def _has_table(self, name: str) -> bool:
        """Whether the store has the optional table `name` (``logs``, ``digests``): a store
        written before it existed and opened read-only has none. Asked once per store: a
        store opened for writing creates every table when it opens."""
        if self._tables is None:
            self._tables = {}
        found = self._tables.get(name)
        if found is None:
            query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
            found = self._tables[name] = self.db.execute(query, (name,)).fetchone() is not None
        return found

    def _has_logs(self) -> bool:
        return self._has_table("logs")

    def log_tails(self, match_id: str, seat: int | None = None) -> list[StoredLog]:
        """The bot log tails kept for a match (one seat's with `seat`), by seat."""
        if not self._has_logs():
            return []
        query = "SELECT match_id, seat, bot, total, data FROM logs WHERE match_id = ?"
        args: tuple[Any, ...] = (match_id,)
        if seat is not None:
            query += " AND seat = ?"
            args += (seat,)
        return [_stored_log(row) for row in self.db.execute(query + " ORDER BY seat", args)]

    def logs_of(self, name: str, limit: int) -> list[StoredLog]:
        """The last `limit` log tails kept of every version of bot `name` (newest last)."""
        if not self._has_logs():
            return []
        rows = self.db.execute(
            "SELECT match_id, seat, bot, total, data FROM logs"
            " WHERE substr(bot, 1, length(?) + 1) = ? || '@' ORDER BY rowid DESC LIMIT ?",
            (name, name, limit),
        ).fetchall()
        return [_stored_log(row) for row in reversed(rows)]

    def bot_logs(self, match_id: str) -> dict[int, str]:
        """Each seat's log tail in a match as printable text (referee.bots.log.printable_log)."""
        return {log.seat: printable_log(log.data) for log in self.log_tails(match_id)}

    def logged_seats(self) -> set[tuple[str, int]]:
        """(match id, seat) of every kept log tail."""
        if not self._has_logs():
            return set()
        return {(str(r[0]), int(r[1])) for r in self.db.execute("SELECT match_id, seat FROM logs")}

    def recent_faults(self, limit: int) -> list[dict[str, Any]]:
        """The last `limit` faults recorded (newest first), each with ``has_log``: whether
        the league kept its seat's log tail for that match."""
        rows = self.db.execute(
            "SELECT match_id, seat, bot, kind, decision, detail FROM faults"
            " ORDER BY id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        faults = [dict(row) for row in rows]
        if faults and self._has_logs():
            for fault in faults:
                fault["has_log"] = (
                    self.db.execute(
                        "SELECT 1 FROM logs WHERE match_id = ? AND seat = ?",
                        (fault["match_id"], fault["seat"]),
                    ).fetchone()
                    is not None
                )
        else:
            for fault in faults:
                fault["has_log"] = False
        return faults

    def digest_zlib(self, match_id: str) -> bytes | None:
        """A finished match's digest (referee/replay/digest.py) as stored: compact JSON,
        zlib-compressed; None when the match has none (recorded before digests were)."""
        if not self._has_table("digests"):
            return None
        row = self.db.execute("SELECT data FROM digests WHERE match_id = ?", (match_id,)).fetchone()
        return None if row is None else bytes(row[0])


def _stored_log(row: sqlite3.Row) -> StoredLog:
    """A row of the logs table (match_id, seat, bot, total, data), its tail inflated."""
    return StoredLog(
        str(row["match_id"]),
        int(row["seat"]),
        str(row["bot"]),
        int(row["total"]),
        inflate(row["data"], TAIL_BYTES),
    )
