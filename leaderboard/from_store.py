"""What the site reads of a league store beside its rows (leaderboard/state.py reads
those): times and titles as the pages show them, a bot's manifest, and each match's
replay, digest and log tails for its page (:class:`StoreReplays`).

The store is opened read-only, so a league may keep running while the site is built.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from referee.league.store import LeagueStore
from referee.terminal_text import inert_line
from sdk.game import PRESETS

RECENT_PER_BOT = 20
RECENT_CHANGE = 10  # the standings' rating change covers a bot's last this many matches
FAULTS_PER_BOT = 200
MANIFEST_BYTES = 64 * 1024  # a bot's manifest, read for its author and description


def iso_time(epoch: float | None) -> str:
    """An epoch time as ISO 8601 UTC to the second ('' for None)."""
    if epoch is None:
        return ""
    moment = dt.datetime.fromtimestamp(epoch, dt.UTC).replace(microsecond=0)
    return moment.isoformat().replace("+00:00", "Z")


def option_words(name: str, value: str) -> str:
    """A variant option as words: ``rounds=1`` -> "1 round", ``end=reach66`` -> "end reach66"."""
    if name == "rounds":
        return f"{value} round" + ("" if value == "1" else "s")
    return f"{name.replace('_', ' ')} {value}"


def variant_title(variant: Mapping[str, Any]) -> str:
    """The preset's title, with the variant's non-default options in words when it has any
    ("6 nimmt! · 1 round")."""
    preset = PRESETS.get(str(variant["preset"]))
    title = preset.title if preset else str(variant["preset"])
    _, _, extra = str(variant["id"]).partition(":")
    words = [option_words(*pair.partition("=")[::2]) for pair in extra.split(",") if pair]
    return " · ".join([title, *words])


def manifest_text(manifest: str | None) -> tuple[str, str]:
    """(author, description) from a bot's manifest file, ("", "") when it cannot be read.

    The store names the file, and a store may come from elsewhere: only a regular file of
    at most MANIFEST_BYTES is read (never a device, a pipe or a folder, which could
    block the build or fill its memory). The texts are the bot's author's: their control
    characters are shown escaped (as a terminal shows them), the pages escape the rest."""
    if not manifest:
        return "", ""
    path = Path(manifest)
    try:
        if not path.is_file():
            return "", ""
        with path.open("rb") as file:
            raw = file.read(MANIFEST_BYTES + 1)
        if len(raw) > MANIFEST_BYTES:
            return "", ""
        data = tomllib.loads(raw.decode("utf-8"))
    except (OSError, ValueError):
        return "", ""
    return inert_line(str(data.get("author", ""))), inert_line(str(data.get("description", "")))


class StoreReplays:
    """Loads a match's replay JSON text from the store (None if none). Picklable, for
    worker processes: a copy in another process opens the store read-only on first use."""

    def __init__(self, store: LeagueStore) -> None:
        self.path = store.path
        self.store: LeagueStore | None = store

    def __call__(self, match_id: str) -> bytes | None:
        if self.store is None:
            self.store = LeagueStore.open_readonly(self.path)
        return self.store.replay_text(match_id)

    def blob(self, match_id: str) -> bytes | None:
        """A match's replay as stored (zlib-compressed JSON), or None."""
        if self.store is None:
            self.store = LeagueStore.open_readonly(self.path)
        return self.store.replay_blob(match_id)

    def digest(self, match_id: str) -> bytes | None:
        """The match's digest as the store keeps it (zlib-compressed JSON: the viewer's
        data less the log links), or None (a match recorded before digests were)."""
        if self.store is None:
            self.store = LeagueStore.open_readonly(self.path)
        return self.store.digest_zlib(match_id)

    def logs(self, match_id: str) -> dict[int, str]:
        """Each seat's bot log tail kept for the match (by seat), if the store keeps them
        (a store with a ``bot_logs(match_id)`` method); {} otherwise."""
        if self.store is None:
            self.store = LeagueStore.open_readonly(self.path)
        read = getattr(self.store, "bot_logs", None)
        if read is None:
            return {}
        return {int(seat): str(text) for seat, text in read(match_id).items() if text}

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "store": None}
