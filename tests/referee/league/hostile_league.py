"""A league whose bot's every free-text field and printed line is hostile text
(tests/referee/bad_bots/hostile_text.py): the terminal tests (tests/referee/
test_inert_text.py) and the site's (tests/leaderboard/test_site_inert.py) show it."""

from __future__ import annotations

from pathlib import Path

from tests.referee.league.leagues import REPO
from tests.referee.league.log_league import run_two_bot_league

HOSTILE_BOT = REPO / "tests" / "referee" / "bad_bots" / "hostile_text.toml"
GAMES = 2


def run_hostile_league(folder: Path) -> Path:
    """Play the hostile bot's league in `folder`; its league file."""
    return run_two_bot_league(folder, "inert", 3, GAMES, HOSTILE_BOT)
