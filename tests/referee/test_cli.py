"""The bullring play and replay commands, run as the console script a user runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.referee.helpers import BAD_BOTS, bad_bots_copy, descendants

BULLRING = str(Path(sys.executable).with_name("bullring"))
GOOD = str(BAD_BOTS / "seeded_random.toml")


def bullring(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([BULLRING, *args], capture_output=True, text=True, timeout=120, env=env)


def test_play_prints_a_trace_writes_a_replay_and_replay_shows_one_seat(tmp_path: Path) -> None:
    out = tmp_path / "match.json.gz"
    args = ["play", "6nimmt:rounds=1", "--seed", "5", "--decision-ms", "500"]
    bots = ["--bot", GOOD, "--bot", str(BAD_BOTS / "illegal.toml"), "--bot", GOOD]
    played = bullring(*args, *bots, "--replay-out", str(out))
    assert played.returncode == 0, played.stderr
    assert "6nimmt:rounds=1: 3 players, view of referee" in played.stdout  # the format too
    assert "row 1:" in played.stdout and "takes row" in played.stdout
    assert "ILLEGAL" in played.stdout and "result" in played.stdout
    assert out.exists()
    shown = bullring("replay", str(out), "--seat", "0")
    assert shown.returncode == 0, shown.stderr
    assert "6nimmt:rounds=1: 3 players, view of seat 0" in shown.stdout
    assert "my hand:" in shown.stdout
    assert "hand of seat 1" not in shown.stdout
    assert "seat 1 (illegal) chose" not in shown.stdout  # seat 0 does not see seat 1's picks
    assert descendants() == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "7nimmt", "--bot", GOOD, "--bot", GOOD], "unknown variant"),
        (["play", "xnimmt", "--bot", GOOD], "2 to 4 players, not 1"),
        (["play", "6nimmt", "--bot", GOOD, "--bot", "/nonexistent/bot.toml"], "no such manifest"),
        (["play", "6nimmt", "--bot", GOOD, "--bot", GOOD, "--seat", "5"], "--seat 5"),
        (["replay", "/nonexistent.json"], "cannot read replay"),
    ],
)
def test_user_errors_are_one_line_with_exit_code_2(args: list[str], message: str) -> None:
    result = bullring(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def manifest_for(tmp_path: Path, name: str, transport: str) -> Path:
    """A manifest of bad bot `name` deciding by calls or on a decision stream."""
    streams = "1" if transport == "stream" else "0"
    # A sandboxed bot sees only its manifest's folder: the manifest lives with a copy of
    # the bad bots' code.
    file = bad_bots_copy(tmp_path) / f"{name}-{transport}.toml"
    file.write_text(
        f'name = "{name}"\n'
        f'command = ["{{python}}", "-m", "tests.referee.bad_bots.{name}"]\n'
        'workdir = "../../.."\n'
        f'[env]\nBAD_BOT_STREAM = "{streams}"\n'
    )
    return file


@pytest.mark.parametrize(
    ("name", "transport"),
    [
        ("garbage_reply", "call"),
        ("garbage_reply", "stream"),
        ("nested_reply", "call"),
        ("nested_reply", "stream"),
        ("huge_status", "call"),
        ("huge_status", "stream"),
        ("double_reply", "stream"),
    ],
)
def test_play_against_a_hostile_bot_prints_its_faults_never_a_traceback(
    name: str, transport: str, tmp_path: Path
) -> None:
    bad = manifest_for(tmp_path, name, transport)
    args = ["play", "6nimmt:rounds=1", "--seed", "3", "--decision-ms", "500", "-q"]
    played = bullring(*args, "--bot", GOOD, "--bot", str(bad), "--bot", GOOD)
    assert played.returncode == 0, played.stderr
    assert "Traceback" not in played.stdout + played.stderr
    faults = [line for line in played.stdout.splitlines() if line.startswith("FAULT")]
    assert faults and all(f"seat 1 ({name}) PROTOCOL at " in line for line in faults)
    assert "\x1b" not in played.stdout  # the bot's escapes were printed as text
    assert "result" in played.stdout
    assert descendants() == []


def test_play_refuses_a_bot_whose_hello_is_garbage_before_the_match(tmp_path: Path) -> None:
    bad = manifest_for(tmp_path, "garbage_hello", "call")
    played = bullring("play", "6nimmt:rounds=1", "--bot", GOOD, "--bot", str(bad))
    assert played.returncode == 2
    assert "garbage_hello@0 cannot play: its Hello failed: PROTOCOL" in played.stderr
    assert "Traceback" not in played.stdout + played.stderr
    assert "\x1b" not in played.stderr
    assert "result" not in played.stdout
    assert descendants() == []
