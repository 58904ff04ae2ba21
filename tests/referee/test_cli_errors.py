"""User mistakes are caught once, by the root app: one line on stderr, exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from bullring_cli.app import app
from referee.bots.manifest import ManifestError
from referee.cli.errors import USER_ERRORS, UserErrorGroup
from referee.league.config import LeagueFileError
from referee.league.runner import LeagueError
from referee.league.store import StoreError
from referee.limits import LimitError
from sdk.errors import BullringError

REPO = Path(__file__).resolve().parents[2]
DEMO = str(REPO / "example_bots" / "demo.toml")


def test_every_user_error_is_a_bullring_error() -> None:
    for error in (LeagueFileError, LeagueError, StoreError, LimitError, ManifestError):
        assert issubclass(error, BullringError)
    assert USER_ERRORS[0] is BullringError


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["league", "status", "/nonexistent.toml"], "/nonexistent.toml: cannot read"),
        (["league", "run", "/nonexistent.toml"], "/nonexistent.toml: cannot read"),
        (["league", "run", DEMO, "--lock-timeout", "-1"], "--lock-timeout"),
        (["bot", "submit", "/nonexistent", "--league", "/nonexistent.toml"], "cannot read"),
        (["bot", "submit", "/nonexistent", "--league", DEMO, "--lock-timeout", "0"], "--lock"),
    ],
)
def test_the_root_app_says_a_user_error_in_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def _group_with(error: Exception) -> typer.Typer:
    """A root app like bullring's, with one command that raises `error`."""
    root = typer.Typer(cls=UserErrorGroup)
    sub = typer.Typer()

    @sub.command()
    def fails() -> None:
        raise error

    @sub.command()
    def other() -> None:
        """A second command, so that `fails` is a sub-command by name."""

    root.add_typer(sub, name="sub")
    return root


def test_a_bullring_error_from_a_sub_app_is_one_line_and_a_bug_is_not_swallowed() -> None:
    said = CliRunner().invoke(_group_with(StoreError("the store is locked")), ["sub", "fails"])
    assert said.exit_code == 2
    assert said.stderr.strip() == "error: the store is locked"
    bug = CliRunner().invoke(_group_with(KeyError("oops")), ["sub", "fails"])
    assert bug.exit_code == 1
    assert isinstance(bug.exception, KeyError)  # a bug keeps its traceback


def test_the_console_script_says_a_user_error_in_one_line(tmp_path: Path) -> None:
    bullring = str(Path(sys.executable).with_name("bullring"))
    env = {**os.environ, "COLUMNS": "200"}
    args = [bullring, "league", "run", DEMO, "--lock-timeout", "-1"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: --lock-timeout: must be above 0 and at most 3600 seconds"
    ]
