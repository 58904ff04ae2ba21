"""A league whose bot prints (tests/referee/bad_bots/log_marker.py): each match's log
tails, ``league log`` and ``league status``, and the site's match pages, are tested on it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.referee.league.leagues import REPO, bullring

MARKER = REPO / "tests" / "referee" / "bad_bots" / "log_marker.toml"
QUIET = REPO / "tests" / "referee" / "bad_bots" / "first_option.toml"  # prints nothing
GAMES = 3


def two_bot_league(name: str, seed: int, games: int, bot: Path) -> str:
    """A league file of `bot` against a bot that prints nothing, 6 nimmt! one round, roomy
    clocks; its store is NAME.sqlite. One worker: the bot's one process plays every match
    (a pooled process), so each match's log tail must hold only what it printed then."""
    return f"""
[league]
name = "{name}"
seed = {seed}
seats = 2
games = {games}
parallel = 1
store = "{name}.sqlite"

[clock]
decision_ms = 5000
setup_ms = 30000
max_faults = 3

[[variants]]
id = "6nimmt"
options = {{ rounds = 1 }}

[[bots]]
manifest = "{bot}"

[[bots]]
manifest = "{QUIET}"
"""


def run_two_bot_league(
    folder: Path, name: str, seed: int, games: int, bot: Path, log_dir: Path | None = None
) -> Path:
    """Play :func:`two_bot_league` in `folder` with ``bullring league run`` (every match
    finished, no error); its league file."""
    file = folder / f"{name}.toml"
    file.write_text(two_bot_league(name, seed, games, bot), encoding="utf-8")
    extra = ["--log-dir", str(log_dir)] if log_dir is not None else []
    run = bullring("league", "run", str(file), "--no-progress", "--json", *extra, cwd=folder)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["errors"] == [] and summary["finished"] == games, summary
    return file


def run_log_league(folder: Path, log_dir: Path | None = None) -> Path:
    """Play the marker bot's league in `folder`; its league file."""
    return run_two_bot_league(folder, "logs", 5, GAMES, MARKER, log_dir)
