"""``bullring bot submit`` of a bot the league file names runs the check too (loading the
league file registers its bots unchecked; issue 14): a bot that fails it is refused, one
that passes is said to have passed it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.referee.helpers import BAD_BOTS
from tests.referee.league.leagues import bullring, write_league
from tests.referee.league.test_submit import LEAGUE, RANDOM_BOT

pytestmark = pytest.mark.slow


def named(manifest: Path) -> str:
    return f'[[bots]]\nmanifest = "{manifest}"\n'


def test_submit_checks_a_bot_the_league_file_names(tmp_path: Path) -> None:
    illegal = BAD_BOTS / "illegal.toml"
    file = write_league(tmp_path, LEAGUE + named(RANDOM_BOT) + named(illegal), bots=["a"])
    faulty = bullring("bot", "submit", str(illegal), "--league", str(file), cwd=tmp_path)
    assert faulty.returncode == 1, faulty.stdout + faulty.stderr
    assert "illegal@1 not registered" in faulty.stderr and "ILLEGAL" in faulty.stderr
    assert "already registered" not in faulty.stdout + faulty.stderr

    done = bullring("bot", "submit", str(RANDOM_BOT), "--league", str(file), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"random_bot@1.0 (named in {file}) passed the check" in done.stdout
