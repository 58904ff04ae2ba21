"""A league whose bot's every free-text field and printed line is hostile text
(tests/referee/bad_bots/hostile_text.py): the terminal tests (tests/referee/
test_inert_text.py) and the site's (tests/leaderboard/test_site_inert.py) show it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.referee.league.leagues import REPO, bullring

HOSTILE_BOT = REPO / "tests" / "referee" / "bad_bots" / "hostile_text.toml"
QUIET = REPO / "tests" / "referee" / "bad_bots" / "first_option.toml"
GAMES = 2
HOSTILE_LEAGUE = f"""
[league]
name = "inert"
seed = 3
seats = 2
games = {GAMES}
parallel = 1
store = "inert.sqlite"

[clock]
decision_ms = 5000
setup_ms = 30000
max_faults = 3

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

[[bots]]
manifest = "{HOSTILE_BOT}"

[[bots]]
manifest = "{QUIET}"
"""


def run_hostile_league(folder: Path) -> Path:
    """Play the league in `folder` with ``bullring league run``; its league file."""
    file = folder / "inert.toml"
    file.write_text(HOSTILE_LEAGUE, encoding="utf-8")
    run = bullring("league", "run", str(file), "--no-progress", "--json", cwd=folder)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["errors"] == [] and summary["finished"] == GAMES, summary
    return file
