"""The first ``league run`` of a store says that it made a new store and its secret key
(to back up together); a run that resumes says nothing of the kind. A store path with a
typo in its folder is then seen at once, not taken for a league that starts afresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.referee.league.leagues import REPO, bullring, two_bot_league

pytestmark = pytest.mark.slow


def test_the_first_run_names_the_new_store_and_key_and_later_runs_do_not(
    tmp_path: Path,
) -> None:
    file = two_bot_league(tmp_path, "first", games=1, store="stores/first.sqlite")
    first = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    store = tmp_path / "stores" / "first.sqlite"
    assert first.stderr.strip().splitlines() == [
        f"note: new league store {store} (in a new folder, {store.parent}) and its "
        f"secret key {store}.key: back them up together"
    ]
    again = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path)
    assert again.returncode == 0 and again.stderr == "", again.stderr


def test_a_run_into_a_store_that_bot_submit_made_names_the_new_key(tmp_path: Path) -> None:
    file = two_bot_league(tmp_path, "first", games=1, store="stores/first.sqlite")
    random_bot = REPO / "example_bots" / "random_bot" / "bot.toml"
    submitted = bullring("bot", "submit", str(random_bot), "--league", str(file), cwd=tmp_path)
    assert submitted.returncode == 0, submitted.stderr
    store = tmp_path / "stores" / "first.sqlite"
    assert store.is_file() and not Path(f"{store}.key").exists()
    run = bullring("league", "run", str(file), "--no-progress", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stderr.strip().splitlines() == [
        f"note: new secret key {store}.key of the league store {store}: back them up together"
    ]
