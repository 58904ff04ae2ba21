"""The per-match replay data files, made once and reused by later builds.

Making a match's viewer data means re-simulating it (leaderboard/frames.py), the one costly
step of a build. A finished match never changes, so the builder keeps a small manifest in
the site (``matches/replays.cache.json``: match id -> key and file names) and on the next
build into the same folder re-makes only the matches that are new or whose key changed
(the key covers the stored result and the frame format). New matches are made in worker
processes when there are many.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from leaderboard import paths
from leaderboard.frames import build_perspectives
from leaderboard.model import MatchSummary, ReplayLoader

FRAMES_VERSION = 1  # bump when the data files' shape changes: every match is re-made
CACHE_FILE = f"{paths.MATCHES_DIR}/replays.cache.json"
PARALLEL_FROM = 64  # matches to make before worker processes pay off
CHUNK = 32


@dataclass(frozen=True)
class Source:
    """One perspective's data file of a match, as the match page lists it."""

    name: str  # "referee" or "seat<N>"
    label: str
    src: str  # file name, relative to the match page

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "label": self.label, "src": self.src}


def match_key(match: MatchSummary) -> str:
    seats = ";".join(f"{s.bot},{s.score},{s.rank},{s.faults}" for s in match.seats)
    return f"{FRAMES_VERSION}|{match.variant}|{match.seed}|{match.decisions}|{seats}"


def label(seat: int, players: Sequence[str]) -> str:
    return "Referee view (every hand)" if seat < 0 else f"Seat {seat}: {players[seat]}"


def make_files(replay: Mapping[str, Any]) -> list[tuple[str, int, str]]:
    """(perspective, seat, script text) for every perspective of a replay."""
    out = []
    for perspective in build_perspectives(replay):
        payload = json.dumps(perspective.data, separators=(",", ":"), ensure_ascii=False)
        out.append((perspective.name, perspective.seat, f"Bullring.replayLoaded({payload});\n"))
    return out


def _make_many(replays: list[Mapping[str, Any]]) -> list[list[tuple[str, int, str]]]:
    return [make_files(r) for r in replays]


class ReplayFiles:
    """Makes (or reuses) the data files of every match; counts what it made."""

    def __init__(self, out_dir: Path, load_replay: ReplayLoader, workers: int = 0) -> None:
        self.out = out_dir
        self.load_replay = load_replay
        self.workers = workers or min(4, os.cpu_count() or 1)
        self.cache: dict[str, dict[str, Any]] = self._read_cache()
        self.made = 0
        self.reused = 0
        self.files = 0

    def _read_cache(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads((self.out / CACHE_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _cached(self, match: MatchSummary) -> list[Source] | None:
        entry = self.cache.get(match.match_id)
        if not entry or entry.get("key") != match_key(match):
            return None
        sources = [Source(**s) for s in entry.get("sources", [])]
        folder = self.out / paths.MATCHES_DIR
        if not all((folder / s.src).is_file() for s in sources):
            return None
        return sources

    def sources(self, matches: Sequence[MatchSummary]) -> dict[str, list[Source]]:
        """Every match's data files, making the missing ones; match id -> sources."""
        result: dict[str, list[Source]] = {}
        todo: list[MatchSummary] = []
        for match in matches:
            cached = self._cached(match)
            if cached is None:
                todo.append(match)
            else:
                result[match.match_id] = cached
                self.reused += 1
        for match, files in self._make(todo):
            result[match.match_id] = self._write(match, files)
            self.made += 1
        self.cache = {
            m.match_id: {"key": match_key(m), "sources": [s.to_json() for s in result[m.match_id]]}
            for m in matches
        }
        (self.out / CACHE_FILE).write_text(json.dumps(self.cache), encoding="utf-8")
        return result

    def _make(
        self, todo: list[MatchSummary]
    ) -> Iterator[tuple[MatchSummary, list[tuple[str, int, str]]]]:
        if len(todo) < PARALLEL_FROM or self.workers == 1:
            for match in todo:
                replay = self.load_replay(match.match_id)
                yield match, make_files(replay) if replay else []
            return
        chunks = [todo[i : i + CHUNK] for i in range(0, len(todo), CHUNK)]
        with ProcessPoolExecutor(max_workers=self.workers) as pool:
            pending = []
            for chunk in chunks:
                replays = [self.load_replay(m.match_id) for m in chunk]
                pending.append((chunk, pool.submit(_make_many, replays)))
                while len(pending) > 2 * self.workers:
                    yield from _finish(pending.pop(0))
            while pending:
                yield from _finish(pending.pop(0))

    def _write(self, match: MatchSummary, files: list[tuple[str, int, str]]) -> list[Source]:
        players = [s.bot for s in match.seats]
        sources = []
        for name, seat, text in files:
            relative = paths.replay_script(match.match_id, name)
            (self.out / relative).write_text(text, encoding="utf-8")
            self.files += 1
            sources.append(Source(name, label(seat, players), relative.rsplit("/", 1)[-1]))
        return sources


def _finish(
    item: tuple[list[MatchSummary], Any],
) -> Iterator[tuple[MatchSummary, list[tuple[str, int, str]]]]:
    chunk, future = item
    yield from zip(chunk, future.result(), strict=True)
