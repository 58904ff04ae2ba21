"""The rows the league store hands out (matches, standings, bots) and the replay blob."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.bots.log import TAIL_BYTES, printable_log
from referee.league.ratings import conservative_rating
from referee.spec import BotSpec


@dataclass(frozen=True)
class MatchRow:
    """A scheduled or finished match, as stored."""

    seq: int
    match_id: str
    slot: str
    variant: str
    options: dict[str, str]
    seed: int
    seats: tuple[str, ...]
    deal: str | None
    status: str
    started_at: float | None
    finished_at: float | None
    duration_s: float | None
    decisions: int | None
    scheduled_at: float = 0.0


@dataclass(frozen=True)
class Standing:
    """One bot's line in a variant's table."""

    bot: str
    name: str
    version: str
    mu: float
    sigma: float
    matches: int
    wins: int  # matches where it ranked first (shared or not)
    shared_wins: float  # the same, a first place shared by k bots counting 1/k
    mean_rank: float
    mean_score: float
    faults: int

    @property
    def win_share(self) -> float:
        """Wins per match, a first place shared by k bots counting 1/k (the win % of
        ``league status`` and of the leaderboard site)."""
        return self.shared_wins / self.matches if self.matches else 0.0

    @property
    def rating(self) -> float:
        return conservative_rating(self.mu, self.sigma)

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "name": self.name,
            "version": self.version,
            "rating": self.rating,
            "mu": self.mu,
            "sigma": self.sigma,
            "matches": self.matches,
            "wins": self.wins,
            "shared_wins": self.shared_wins,
            "win_share": self.win_share,
            "mean_rank": self.mean_rank,
            "mean_score": self.mean_score,
            "faults": self.faults,
        }


@dataclass(frozen=True)
class RegisteredBot:
    id: int
    spec: BotSpec
    manifest_hash: str | None
    registered_at: float
    tree_hash: str | None = None  # its archived copy (None: a running endpoint)


def manifest_hash(bot: BotSpec) -> str | None:
    """sha256 of the bot's manifest file, if it has one (a version's fingerprint)."""
    if not bot.manifest:
        return None
    try:
        return hashlib.sha256(Path(bot.manifest).read_bytes()).hexdigest()
    except OSError:
        return None


def manifest_conflict(key: str, digest: str | None, registered: str | None) -> str | None:
    """Why the bot `key` with manifest hash `digest` may not stand for the version
    registered with hash `registered` (None: it may): a known name@version must come from
    the same manifest contents, so a changed bot needs a new version."""
    if digest and registered and registered != digest:
        return (
            f"bot {key} is already registered with a different manifest; "
            "give the changed bot a new version"
        )
    return None


@dataclass(frozen=True)
class StoredLog:
    """The tail of one seat's bot log in one match: `data` (the bot's own bytes, at most
    TAIL_BYTES: untrusted, see referee.bots.log.printable_log) of the `total` it printed."""

    match_id: str
    seat: int
    bot: str
    total: int
    data: bytes

    def to_json(self) -> dict[str, Any]:
        """As ``bullring league log --json`` prints it (the text made printable)."""
        return {
            "match_id": self.match_id,
            "seat": self.seat,
            "bot": self.bot,
            "total_bytes": self.total,
            "kept_bytes": len(self.data),
            "text": printable_log(self.data),
        }


def compress_log(data: bytes) -> bytes:
    """A seat's log tail as stored (zlib; at most TAIL_BYTES before compression)."""
    return zlib.compress(data[-TAIL_BYTES:], 6)


def compress_replay(replay: Mapping[str, Any]) -> bytes:
    """A replay as stored: compact JSON, zlib-compressed."""
    return zlib.compress(json.dumps(dict(replay), separators=(",", ":")).encode(), 6)


def _match_row(row: sqlite3.Row) -> MatchRow:
    return MatchRow(
        seq=row["seq"],
        match_id=row["match_id"],
        slot=row["slot"],
        variant=row["variant"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        seats=tuple(json.loads(row["seats"])),
        deal=row["deal"],
        status=row["status"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        duration_s=row["duration_s"],
        decisions=row["decisions"],
        scheduled_at=row["scheduled_at"],
    )
