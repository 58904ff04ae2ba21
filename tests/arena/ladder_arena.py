"""A real ``bullring arena serve`` playing its ladder, for the ladder's tests: an arena file
over deterministic house bots, the store read while it runs, and the checks that the
store of a ladder holds every scheduled match once, with ratings equal to a replay."""

from __future__ import annotations

import os
import random
import sqlite3
import time
from collections import defaultdict
from contextlib import closing
from pathlib import Path

from referee.league.config import RatingConfig
from referee.league.ratings import RatedMatch, Rating, replay_ratings
from referee.league.store import LeagueStore
from referee.replay.model import Replay
from referee.replay.resimulate import resimulate
from tests.arena.servers import Server, free_port
from tests.referee.league.leagues import FIRST_OPTION, bots_toml

LADDER = """
[league]
name = "lad"
seed = 29
seats = 3
games = 1
parallel = 2
store = "arena.sqlite"

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

{bots}

[arena]
listen = "127.0.0.1:{port}"
site_every_s = 2
{extra}
"""
WAIT_S = 120.0
VARIANT = "6nimmt:rounds=1"
NUL = b"\0"


def ladder_server(folder: Path, bots: list[str], extra: str = "") -> Server:
    """A ladder arena (not started) in `folder` over `bots` (the first-option bot)."""
    port = free_port()
    file = folder / "arena.toml"
    file.write_text(LADDER.format(bots=bots_toml(bots, FIRST_OPTION), port=port, extra=extra))
    return Server(folder, file, port)


def counts(folder: Path) -> tuple[int, int]:
    """(finished, scheduled) matches in the arena's store, read-only (0, 0 before it)."""
    store = folder / "arena.sqlite"
    if not store.exists():
        return 0, 0
    with closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=30)) as db:
        try:
            row = db.execute("SELECT SUM(status = 'finished'), COUNT(*) FROM matches").fetchone()
        except sqlite3.OperationalError:  # made, its tables not yet
            return 0, 0
    return int(row[0] or 0), int(row[1] or 0)


def wait_finished(folder: Path, at_least: int, server: Server) -> int:
    deadline = time.monotonic() + WAIT_S
    while (done := counts(folder)[0]) < at_least:
        assert server.process is not None and server.process.poll() is None, server_log(folder)
        assert time.monotonic() < deadline, f"{done} of {at_least} matches in {WAIT_S} s"
        time.sleep(0.05)
    return done


def server_log(folder: Path, tail: int = 4000) -> str:
    """The server's log (its last `tail` characters; 0: all of it)."""
    return (folder / "serve.log").read_text(errors="replace")[-tail:]


def running_under(folder: Path) -> list[str]:
    """The processes whose command line names `folder` (the ladder, its bots)."""
    found = []
    mark = str(folder).encode()
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                argv = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if mark in argv:
                found.append(f"{entry}: {argv.replace(NUL, b' ').decode(errors='replace')}")
    return found


def wait_none_running(folder: Path) -> None:
    deadline = time.monotonic() + 30
    while left := running_under(folder):
        assert time.monotonic() < deadline, f"still running after the kill: {left}"
        time.sleep(0.1)


def check_exactly_once(folder: Path, sample: int = 8, seed: int = 0) -> int:
    """Every scheduled match is finished once, with a result per seat; ladder slots run
    0..n-1 without a gap; ratings equal a replay of the results in schedule order; a
    seeded sample of replays re-simulates to its stored scores. Returns the matches."""
    with LeagueStore.open_readonly(folder / "arena.sqlite") as store:
        matches = store.matches()
        assert matches and all(m.status == "finished" for m in matches)
        slots = sorted(int(m.slot.rsplit("|", 1)[1]) for m in matches)
        assert slots == list(range(len(matches)))
        rated = []
        for match in matches:
            results = store.results(match.match_id)
            assert [r["seat"] for r in results] == list(range(len(match.seats)))
            assert [r["bot"] for r in results] == list(match.seats)
            rated.append(RatedMatch(match.seq, match.seats, tuple(r["rank"] for r in results)))
        final, _ = replay_ratings(RatingConfig(), rated)
        _, stored = store.rating_state(VARIANT)
        assert set(stored) == set(final)
        for bot, rating in final.items():
            assert abs(stored[bot].mu - rating.mu) < 1e-9, bot
            assert abs(stored[bot].sigma - rating.sigma) < 1e-9, bot
        rows = store.db.execute("SELECT COUNT(*) FROM ratings").fetchone()[0]
        assert rows == sum(len(m.seats) for m in matches)  # one row a seat, none twice
        for match in random.Random(seed).sample(matches, min(sample, len(matches))):
            replay = store.replay(match.match_id)
            assert replay is not None
            scores = [r["score"] for r in store.results(match.match_id)]
            assert resimulate(Replay.from_json(replay)) == scores
    return len(matches)


def bot_matches(folder: Path) -> dict[str, list[int]]:
    """Each bot's matches, by schedule number."""
    found: dict[str, list[int]] = defaultdict(list)
    with LeagueStore.open_readonly(folder / "arena.sqlite") as store:
        for match in store.matches():
            for bot in match.seats:
                found[bot].append(match.seq)
    return found


def sigma_of(folder: Path, bot: str) -> Rating | None:
    with LeagueStore.open_readonly(folder / "arena.sqlite") as store:
        return store.rating_state(VARIANT)[1].get(bot)
