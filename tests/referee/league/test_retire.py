"""A retired version keeps its results and ratings and is scheduled no more (issue 29):
LeagueStore.retire, retired_bots, and what active_bots and league run schedule then."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from referee.league.config import load_league
from referee.league.runner import active_roster
from referee.league.store import LeagueStore
from tests.referee.league.leagues import FIRST_OPTION, bullring, two_bot_league

pytestmark = pytest.mark.slow


def run(file: Path) -> None:
    done = bullring("league", "run", str(file), "--no-progress", "--parallel", "1", cwd=file.parent)
    assert done.returncode == 0, done.stderr


def add_bot(file: Path, name: str, version: str) -> None:
    """A [[bots]] entry: `name`@`version` (the same deterministic bot)."""
    with file.open("a") as out:
        out.write(f'[[bots]]\nmanifest = "{FIRST_OPTION}"\nname = "{name}"\n')
        out.write(f'version = "{version}"\n\n')


def played(store: Path) -> list[tuple[str, ...]]:
    with LeagueStore.open_readonly(store) as db:
        return [m.seats for m in db.matches()]


def test_a_retired_newest_version_is_scheduled_no_more_nor_is_an_older_one(
    tmp_path: Path,
) -> None:
    file = two_bot_league(tmp_path, "ret", games=1)
    add_bot(file, "c", "1")
    run(file)
    store = tmp_path / "ret.sqlite"
    with LeagueStore.open_readonly(store) as db:
        assert [b.key for b in db.active_bots()] == ["a@1", "b@1", "c@1"]
        assert db.retired_bots() == {}
        history = db.rating_history("6nimmt:rounds=1", "c@1")
        assert db.matches_played() == {"a@1": 2, "b@1": 2, "c@1": 2}
    # A new version of c, then c@2 retired: neither c@2 nor c@1 is scheduled again.
    add_bot(file, "c", "2")
    run(file)
    with LeagueStore.open(store) as db:
        assert [b.key for b in db.active_bots()] == ["a@1", "b@1", "c@2"]
        assert db.retire("c@2") is True
        first = db.retired_bots()["c@2"]
        assert db.retire("c@2") is True  # idempotent: the first time is kept
        assert db.retired_bots() == {"c@2": first}
        assert db.retire("nobody@1") is False
        assert [b.key for b in db.active_bots()] == ["a@1", "b@1"]
        assert [b.key for b in db.newest_bots()] == ["a@1", "b@1", "c@2"]
        # It keeps its results and ratings.
        assert db.rating_history("6nimmt:rounds=1", "c@1") == history
        assert db.matches_played()["c@2"] == 2
        assert db.matches_played("c") == {"c@1": 2, "c@2": 2}
        assert db.matches_played("b") == {"b@1": 3} and db.matches_played("x") == {}
    config = load_league(file)
    assert [b.key for b in active_roster(config, store)] == ["a@1", "b@1"]
    before = played(store)
    # A new bot joins: it meets a and b, and never c (of either version).
    add_bot(file, "d", "1")
    run(file)
    after = played(store)
    assert after[: len(before)] == before
    new = after[len(before) :]
    assert sorted(sorted(seats) for seats in new) == [["a@1", "d@1"], ["b@1", "d@1"]]
    # A newer version of a retired name is scheduled again.
    add_bot(file, "c", "3")
    with LeagueStore.open_readonly(store) as db:
        assert "c@2" in db.retired_bots()
    roster = active_roster(load_league(file), store)
    assert [b.key for b in roster] == ["a@1", "b@1", "c@3", "d@1"]  # c's place: first seen


def test_a_store_made_before_retirement_reads_none_and_gains_the_column(tmp_path: Path) -> None:
    file = two_bot_league(tmp_path, "old", games=1)
    run(file)
    store = tmp_path / "old.sqlite"
    with sqlite3.connect(store) as db:
        db.execute("ALTER TABLE bots DROP COLUMN retired_at")
    with LeagueStore.open_readonly(store) as db:
        assert db.retired_bots() == {}
        assert [b.key for b in db.active_bots()] == ["a@1", "b@1"]
    with LeagueStore.open(store) as db:
        assert db.retire("b@1") is True
        assert [b.key for b in db.active_bots()] == ["a@1"]
