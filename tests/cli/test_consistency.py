"""The command line's small promises, through typer's CliRunner (argument handling only;
commands that start bots are tested with real processes elsewhere)."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bullring_cli.app import app

runner = CliRunner()

COMMANDS = [
    [],
    ["play"],
    ["replay"],
    ["replay", "export"],
    ["league", "log"],
    ["demo"],
    ["league", "run"],
    ["league", "status"],
    ["bot", "check"],
    ["bot", "submit"],
    ["leaderboard", "build"],
]


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"bullring {version('bullring')}"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "root")
def test_help_shows_no_bool_metavar(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "--help" in result.stdout
    assert "<bool>" not in result.stdout


def test_help_wraps_each_paragraph_to_the_terminal_not_to_the_source() -> None:
    """A docstring's own line breaks are not kept: at 200 columns a sentence is one line."""
    shown = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert "each line prefixed by its seat and name (--quiet-bots hides it)" in shown.stdout
    listed = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert "then step through it in a terminal (next, back, jump, quit)" in listed.stdout


@pytest.mark.parametrize(
    ("command", "flags"),
    [
        (["play"], ["--json", "--quiet-bots", "--log-dir"]),
        (["bot", "submit"], ["--json"]),
        (["bot", "check"], ["--json"]),
        (["league", "run"], ["--json", "--log-dir"]),
        (["league", "status"], ["--json"]),
        (["league", "log"], ["--json", "--seat"]),
        (["leaderboard", "build"], ["--json", "--store"]),
    ],
)
def test_every_reporting_command_has_json(command: list[str], flags: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    for flag in flags:
        assert flag in result.stdout


def test_leaderboard_build_takes_the_league_file_or_the_store(tmp_path: Path) -> None:
    neither = runner.invoke(app, ["leaderboard", "build", "--out", str(tmp_path / "site")])
    assert neither.exit_code == 2
    assert "league file" in neither.stderr
    league = tmp_path / "missing.toml"
    missing = runner.invoke(app, ["leaderboard", "build", str(league), "--out", str(tmp_path)])
    assert missing.exit_code == 2
    assert len(missing.stderr.strip().splitlines()) == 1 and "missing.toml" in missing.stderr
