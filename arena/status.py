"""``bullring arena status``: where an arena stands, read from its files only (read-only:
the server need not run, and nothing is written).

The queue (uploads waiting for their check; matches scheduled and not finished yet), how
many matches finished, how many a minute over the last 1 and 10 minutes, and the bots the
league schedules (the newest version of each name, less the retired ones), each with its
finished matches and its rating in each variant.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from arena.config import ArenaConfig
from arena.db import ArenaDb
from referee.league.store import LeagueStore, StoreError, store_errors
from referee.terminal_text import inert_line
from sdk.errors import BullringError

WINDOWS_MIN = (1, 10)  # the windows of matches_per_minute, in minutes


class ArenaStatusError(BullringError, RuntimeError):
    """An arena's file that cannot be read (one line: which and why)."""


def arena_status(arena: ArenaConfig, now: float | None = None) -> dict[str, Any]:
    """The arena's state as one JSON object (docs/arena.md, arena status)."""
    moment = time.time() if now is None else now
    found: dict[str, Any] = {
        "arena": arena.league.name,
        "uploads_waiting": 0,
        "uploads_queued": 0,
        "uploads_checking": 0,
        "matches_finished": 0,
        "matches_scheduled": 0,
        "matches_per_minute": {f"last_{m}_min": 0.0 for m in WINDOWS_MIN},
        "bots": [],
    }
    found.update(_uploads(arena))
    if not arena.store.exists():
        return found  # no store yet: the league has played nothing
    try:
        reading = store_errors(arena.store, only_reads=True)
        with LeagueStore.open_readonly(arena.store) as store, reading:
            finished, scheduled = store.counts()
            found["matches_finished"] = finished
            found["matches_scheduled"] = scheduled - finished
            found["matches_per_minute"] = {
                f"last_{m}_min": round(store.finished_since(moment - 60 * m) / m, 3)
                for m in WINDOWS_MIN
            }
            played = store.matches_played()
            ratings: dict[str, dict[str, Any]] = {}
            for variant in store.variants():
                for row in store.standings(variant["id"]):
                    ratings.setdefault(row.bot, {})[variant["id"]] = {
                        "rating": round(row.rating, 3),
                        "matches": row.matches,
                        "faults": row.faults,
                    }
            found["bots"] = [
                {
                    "bot": spec.key,
                    "name": spec.name,
                    "version": spec.version,
                    "matches": played.get(spec.key, 0),
                    "ratings": ratings.get(spec.key, {}),
                }
                for spec in store.active_bots()
            ]
    except StoreError as error:
        raise ArenaStatusError(str(error)) from None
    return found


def _uploads(arena: ArenaConfig) -> dict[str, int]:
    """How many uploads are queued and checking (none without an arena file yet)."""
    path = arena.db_path
    if not path.exists():
        return {}
    try:
        with ArenaDb.open_readonly(path) as db:
            counts = db.state_counts()
    except sqlite3.Error as error:
        raise ArenaStatusError(f"{path}: cannot read the arena's file ({error})") from None
    queued, checking = counts["queued"], counts["checking"]
    return {
        "uploads_waiting": queued + checking,
        "uploads_queued": queued,
        "uploads_checking": checking,
    }


def status_table(found: dict[str, Any]) -> list[str]:
    """The state as a short table for a terminal (what the store says made inert)."""
    rates = ", ".join(
        f"{rate:g} over the last {key.split('_')[1]} min"
        for key, rate in found["matches_per_minute"].items()
    )
    lines = [
        f"arena {inert_line(found['arena'])}",
        f"uploads waiting   {found['uploads_waiting']} "
        f"({found['uploads_queued']} queued, {found['uploads_checking']} checking)",
        f"matches finished  {found['matches_finished']}",
        f"matches scheduled {found['matches_scheduled']} (not finished yet)",
        f"matches a minute  {rates}",
    ]
    if not found["bots"]:
        lines.append("no active bots")
        return lines
    variants = sorted({inert_line(v) for bot in found["bots"] for v in bot["ratings"]})
    header = ["bot", "matches", *variants]
    rows = [
        [
            inert_line(bot["bot"]),
            str(bot["matches"]),
            *(
                f"{bot['ratings'][v]['rating']:.2f}" if v in bot["ratings"] else "-"
                for v in variants
            ),
        ]
        for bot in found["bots"]
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        lines.append("  ".join(cells).rstrip())
    return lines
