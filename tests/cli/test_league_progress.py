"""What ``league run`` shows on stderr with its progress bar on (the default), as an
organiser sees it with stderr in a file: the bar starts once the league is ready, at the
matches already played; a league that cannot run is its one error line, no bar."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.referee.league.leagues import bullring, two_bot_league

pytestmark = pytest.mark.slow


def test_a_league_that_cannot_run_shows_its_error_and_no_progress_bar(tmp_path: Path) -> None:
    file = two_bot_league(tmp_path, "bar")
    assert bullring("league", "run", str(file), "--no-progress", cwd=tmp_path).returncode == 0
    file.write_text(file.read_text().replace("games = 2", "games = 3"))  # schedule changed
    done = bullring("league", "run", str(file), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        line for line in done.stderr.strip().splitlines() if line.startswith("error: ")
    ]
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_finished_league_run_again_shows_its_count_not_an_unknown_total(
    tmp_path: Path,
) -> None:
    file = two_bot_league(tmp_path, "bar")
    assert bullring("league", "run", str(file), "--no-progress", cwd=tmp_path).returncode == 0
    done = bullring("league", "run", str(file), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "2/2" in done.stderr and "?" not in done.stderr, done.stderr
    assert "0 matches played" in done.stdout
