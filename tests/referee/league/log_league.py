"""A league whose bot prints (tests/referee/bad_bots/log_marker.py): each match's log
tails, ``league log`` and ``league status``, and the site's match pages, are tested on it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.referee.league.leagues import REPO, bullring

MARKER = REPO / "tests" / "referee" / "bad_bots" / "log_marker.toml"
QUIET = REPO / "tests" / "referee" / "bad_bots" / "first_option.toml"  # prints nothing
GAMES = 3
# One worker: the marker bot's one process plays every match (a pooled process), so each
# match's tail must hold only what it printed during that match.
LOG_LEAGUE = f"""
[league]
name = "logs"
seed = 5
seats = 2
games = {GAMES}
parallel = 1
store = "logs.sqlite"

[clock]
decision_ms = 5000
setup_ms = 30000
max_faults = 3

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

[[bots]]
manifest = "{MARKER}"

[[bots]]
manifest = "{QUIET}"
"""


def run_log_league(folder: Path, log_dir: Path | None = None) -> Path:
    """Play the league in `folder` with ``bullring league run``; its league file."""
    file = folder / "logs.toml"
    file.write_text(LOG_LEAGUE, encoding="utf-8")
    extra = ["--log-dir", str(log_dir)] if log_dir is not None else []
    run = bullring("league", "run", str(file), "--no-progress", "--json", *extra, cwd=folder)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["errors"] == [] and summary["finished"] == GAMES, summary
    return file
