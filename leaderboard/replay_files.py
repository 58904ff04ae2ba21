"""The per-match replay data files (leaderboard/viewer_data.py), made once and reused.

Making a match's data file means reading its replay from the store and writing it as it
is (leaderboard/viewer_data.py): no simulation, no parsing, for every replay recorded in
format 2. A finished match never changes, so the builder keeps a small manifest in the site
(``matches/replays.cache.json``: match id -> key) and a later build into the same folder
re-makes only the matches that are new or whose key changed (the key covers the stored
result and the data format). Many new matches are made by worker processes, each reading
the store itself, while the builder writes the pages.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from leaderboard import paths
from leaderboard.model import MatchSummary, ReplayLoader
from leaderboard.viewer_data import viewer_script

DATA_VERSION = 3  # bump when the data files' shape changes: every match is re-made
CACHE_FILE = f"{paths.MATCHES_DIR}/replays.cache.json"
PARALLEL_FROM = 256  # matches to make before worker processes pay off
CHUNK = 250


def match_key(match: MatchSummary) -> str:
    seats = ";".join(f"{s.bot},{s.score},{s.rank},{s.faults}" for s in match.seats)
    return f"{DATA_VERSION}|{match.variant}|{match.seed}|{match.decisions}|{seats}"


def write_files(out_dir: Path, load_replay: ReplayLoader, match_ids: Sequence[str]) -> list[str]:
    """Write the data file of each match that has a replay; the ids written."""
    written = []
    for match_id in match_ids:
        text = load_replay(match_id)
        if text:
            (out_dir / paths.replay_script(match_id)).write_bytes(viewer_script(text))
            written.append(match_id)
    return written


class ReplayFiles:
    """Makes (or reuses) the data files of every match; counts what it made.

    :meth:`start` hands the work to worker processes (or does it at once when there is
    little); :meth:`finish` waits for it and returns the ids of matches with a data file.
    """

    def __init__(self, out_dir: Path, load_replay: ReplayLoader, workers: int = 0) -> None:
        self.out = out_dir
        self.load_replay = load_replay
        self.workers = workers or min(4, os.cpu_count() or 1)
        self.cache: dict[str, Any] = self._read_cache()
        self.made = 0
        self.reused = 0
        self.files = 0
        self._matches: list[MatchSummary] = []
        self._have: set[str] = set()
        self._pool: ProcessPoolExecutor | None = None
        self._pending: list[Future[list[str]]] = []

    def _read_cache(self) -> dict[str, Any]:
        try:
            data = json.loads((self.out / CACHE_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _cached(self, match: MatchSummary) -> bool:
        return (
            self.cache.get(match.match_id) == match_key(match)
            and (self.out / paths.replay_script(match.match_id)).is_file()
        )

    def start(self, matches: Sequence[MatchSummary]) -> None:
        self._matches = list(matches)
        todo = []
        for match in self._matches:
            if self._cached(match):
                self._have.add(match.match_id)
                self.reused += 1
            else:
                todo.append(match.match_id)
        if len(todo) < PARALLEL_FROM or self.workers == 1:
            self._done(write_files(self.out, self.load_replay, todo))
            return
        self._pool = ProcessPoolExecutor(max_workers=self.workers)
        for i in range(0, len(todo), CHUNK):
            chunk = todo[i : i + CHUNK]
            self._pending.append(self._pool.submit(write_files, self.out, self.load_replay, chunk))

    def _done(self, written: list[str]) -> None:
        self._have.update(written)
        self.made += len(written)
        self.files += len(written)

    def finish(self) -> set[str]:
        try:
            for future in self._pending:
                self._done(future.result())
        finally:
            if self._pool is not None:
                self._pool.shutdown(cancel_futures=True)
        self.cache = {m.match_id: match_key(m) for m in self._matches if m.match_id in self._have}
        (self.out / CACHE_FILE).write_text(json.dumps(self.cache), encoding="utf-8")
        return self._have


def label(seat: int, players: Sequence[str]) -> str:
    return "Referee view (every hand)" if seat < 0 else f"Seat {seat}: {players[seat]}"


def perspectives(match: MatchSummary) -> list[dict[str, str]]:
    """The viewer's perspective menu of a match: the referee, then each seat."""
    players = [s.bot for s in match.seats]
    return [
        {"name": "referee" if seat < 0 else f"seat{seat}", "label": label(seat, players)}
        for seat in range(-1, len(players))
    ]
