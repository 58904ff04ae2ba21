"""Every match's files: its page and its replay data file (leaderboard/viewer_data.py).

A match's data file is its stored replay, decompressed and written as it is: no
simulation, no parsing, for every replay recorded in format 2. A finished match never
changes, so the builder keeps a small manifest in the site (``matches/replays.cache.json``:
match id -> key) and a later build into the same folder re-makes only the data files of
matches that are new or whose key changed (the key covers the stored result and the data
format); pages are always rewritten. With many matches, worker processes write them, each
reading the store itself, while the builder writes the other pages.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from leaderboard import paths
from leaderboard.model import LeagueInfo, MatchSummary, ReplayLoader
from leaderboard.pages import PageRenderer
from leaderboard.viewer_data import family_of, viewer_script

DATA_VERSION = 4  # bump when the data files' shape changes: every match is re-made
CACHE_FILE = f"{paths.MATCHES_DIR}/replays.cache.json"
PARALLEL_FROM = 256  # matches before worker processes pay off
CHUNK = 250


def match_key(match: MatchSummary) -> str:
    seats = ";".join(f"{s.bot},{s.score},{s.rank},{s.faults}" for s in match.seats)
    return f"{DATA_VERSION}|{match.variant}|{match.seed}|{match.decisions}|{seats}"


def label(seat: int, players: Sequence[str]) -> str:
    return "Referee view (every hand)" if seat < 0 else f"Seat {seat}: {players[seat]}"


def perspectives(match: MatchSummary) -> list[dict[str, str]]:
    """The viewer's perspective menu of a match: the referee, then each seat."""
    players = [s.bot for s in match.seats]
    return [
        {"name": "referee" if seat < 0 else f"seat{seat}", "label": label(seat, players)}
        for seat in range(-1, len(players))
    ]


@dataclass(frozen=True)
class Job:
    """Matches to write; `make_data[i]`: whether match i's data file must be (re)made."""

    out: Path
    league: LeagueInfo
    load_replay: ReplayLoader
    matches: Sequence[MatchSummary]
    make_data: Sequence[bool]


@dataclass
class Done:
    """What a job wrote: match ids with a data file, and whether this job made it."""

    with_data: list[str]
    made: int = 0


_RENDERERS: dict[LeagueInfo, PageRenderer] = {}


def write_matches(job: Job) -> Done:
    """Write each match's data file (if it must be made) and page."""
    renderer = _RENDERERS.get(job.league) or _RENDERERS.setdefault(
        job.league, PageRenderer(job.league)
    )
    done = Done([])
    for match, make in zip(job.matches, job.make_data, strict=True):
        has_data = True
        logs = log_files(job.out, match.match_id, job.load_replay)
        if make:
            text = job.load_replay(match.match_id)
            has_data = text is not None
            if text is not None:
                script = viewer_script(text, logs)
                (job.out / paths.replay_script(match.match_id)).write_bytes(script)
                done.made += 1
        if has_data:
            done.with_data.append(match.match_id)
        name = paths.match_page(match.match_id)
        html = renderer.render(
            name,
            "match.html",
            m=match,
            perspectives=perspectives(match) if has_data else [],
            replay_src=paths.replay_script(match.match_id).rsplit("/", 1)[-1],
            family=family_of(match.variant),
            title=renderer.title_of(match.variant),
            logs=logs,
        )
        (job.out / name).write_text(html, encoding="utf-8")
    return done


def log_files(out: Path, match_id: str, loader: ReplayLoader) -> dict[int, str]:
    """Write the bot log tails the league kept for a match, if it kept any, beside the
    match's page; their file names by seat.

    A loader that can read them has a ``logs(match_id)`` method returning each seat's log
    tail as text (see from_store.StoreReplays); the viewer links a fault to its seat's file.
    """
    read = getattr(loader, "logs", None)
    tails: Mapping[int, str] = read(match_id) if read is not None else {}
    names: dict[int, str] = {}
    for seat, tail in sorted(tails.items()):
        name = paths.log_tail(match_id, seat)
        (out / name).write_text(tail, encoding="utf-8")
        names[seat] = name.rsplit("/", 1)[-1]
    return names


class MatchFiles:
    """Writes every match's page and data file (reusing data an earlier build made).

    :meth:`start` hands the work to worker processes (or does it at once when there is
    little); :meth:`finish` waits for it, writes the cache manifest and counts.
    """

    def __init__(
        self, out_dir: Path, league: LeagueInfo, load_replay: ReplayLoader, workers: int = 0
    ) -> None:
        self.out = out_dir
        self.league = league
        self.load_replay = load_replay
        self.workers = workers or min(4, os.cpu_count() or 1)
        self.cache: dict[str, Any] = self._read_cache()
        self.made = 0
        self.reused = 0
        self.pages = 0
        self._matches: list[MatchSummary] = []
        self._with_data: set[str] = set()
        self._pool: ProcessPoolExecutor | None = None
        self._pending: list[Future[Done]] = []

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
        make = [not self._cached(m) for m in self._matches]
        self.reused = make.count(False)
        if len(make) < PARALLEL_FROM or self.workers == 1:
            self._done(write_matches(self._job(0, len(make), make)))
            return
        self._pool = ProcessPoolExecutor(max_workers=self.workers)
        for i in range(0, len(make), CHUNK):
            job = self._job(i, i + CHUNK, make)
            self._pending.append(self._pool.submit(write_matches, job))

    def _job(self, start: int, end: int, make: list[bool]) -> Job:
        return Job(
            self.out, self.league, self.load_replay, self._matches[start:end], make[start:end]
        )

    def _done(self, done: Done) -> None:
        self._with_data.update(done.with_data)
        self.made += done.made

    def finish(self) -> None:
        try:
            for future in self._pending:
                self._done(future.result())
        finally:
            if self._pool is not None:
                self._pool.shutdown(cancel_futures=True)
        self.pages = len(self._matches)
        self.cache = {
            m.match_id: match_key(m) for m in self._matches if m.match_id in self._with_data
        }
        (self.out / CACHE_FILE).write_text(json.dumps(self.cache), encoding="utf-8")

    @property
    def files(self) -> int:
        """Files this build wrote: every page, and the data files it made."""
        return self.pages + self.made
