"""``league status`` given a league file changed since its store was scheduled (a schedule
field edited): it shows the store's standings and says the file no longer matches, where
it used to promise matches that the next ``league run`` would refuse to schedule; and a
variant without a finished match, said in a line where it was a table of headings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.league.config import load_league
from referee.league.runner import LeagueRunner
from tests.referee.league.leagues import bullring, two_bot_league

pytestmark = pytest.mark.slow


def test_status_of_a_changed_league_file_says_it_no_longer_matches(tmp_path: Path) -> None:
    file = two_bot_league(tmp_path, "changed")
    assert bullring("league", "run", str(file), "--no-progress", cwd=tmp_path).returncode == 0
    file.write_text(file.read_text().replace("games = 2", "games = 4"))
    refused = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path)
    assert refused.returncode == 2
    done = bullring("league", "status", str(file), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "to be scheduled" not in done.stdout
    assert "2/2 matches played" in done.stdout
    assert "no longer matches" in done.stderr and "league run refuses it" in done.stderr
    data = json.loads(bullring("league", "status", str(file), "--json", cwd=tmp_path).stdout)
    assert data["unscheduled"] is None and data["finished"] == 2


def test_status_of_a_variant_without_a_finished_match_says_so(tmp_path: Path) -> None:
    file = two_bot_league(tmp_path, "changed")
    LeagueRunner(load_league(file), store_path=tmp_path / "changed.sqlite").prepare().close()
    done = bullring("league", "status", str(file), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "changed: 0/2 matches played",
        "6nimmt:rounds=1: no match has finished yet",
    ]
