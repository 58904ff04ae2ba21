"""``bullring bot check`` when an opponent, not the checked bot, fails its setup: the game
is played again once with a fresh opponent process (a loaded machine can cost an opponent
its start); an opponent that fails again makes the check inconclusive (exit 3), not a
failure of the bot. Real processes over real gRPC, unsandboxed: the flaky opponent keeps
its marker file in its own folder, which the sandbox mounts read-only."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FLAKY = ROOT / "tests" / "fixtures" / "flaky_start_bot"
CRASH_AT_START = ROOT / "tests" / "referee" / "bad_bots" / "crash_at_start.toml"
CANDIDATE = ROOT / "example_bots" / "random_bot"
BULLRING = str(Path(sys.executable).with_name("bullring"))
# Generous limits: the retry is for load, so these runs must pass under load themselves.
ARGS = ["--games", "1", "--variant", "6nimmt:rounds=1", "--players", "2", "--no-sandbox"]
ARGS += ["--decision-ms", "5000", "--setup-ms", "30000"]


def check(opponent: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BULLRING, "bot", "check", str(CANDIDATE), "--opponent", str(opponent), *ARGS, *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture
def flaky(tmp_path: Path) -> Path:
    """A fresh copy of the flaky opponent: its first start fails."""
    folder = tmp_path / "flaky_start_bot"
    shutil.copytree(FLAKY, folder)
    return folder


def test_an_opponent_that_fails_its_first_start_is_started_again(flaky: Path) -> None:
    checked = check(flaky, "--json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    assert report["passed"] and report["problems"] == [] and report["environment"] == []
    (note,) = report["notes"]
    assert "opponent flaky_start@1 at seat" in note and "failed its setup (CRASH" in note
    assert "played again with a fresh opponent process" in note
    assert (flaky / "started").exists()  # it did fail its first start
    (variant,) = report["variants"]
    assert variant["games"] == 1 and variant["faults"] == {}  # only the replay counts
    # rounds=1: ten cards and a few row choices in one game; two games would be 20 or more.
    assert 10 <= variant["decisions"] < 20


def test_an_opponent_that_fails_again_makes_the_check_inconclusive() -> None:
    checked = check(CRASH_AT_START)
    assert checked.returncode == 3, checked.stdout + checked.stderr
    out = checked.stdout
    assert "NOT CHECKED random_bot" in out and "FAIL" not in out
    assert "opponent crash_at_start@1 at seat" in out and "CRASH" in out
    assert "played again with a fresh opponent process" in out  # the retry was made


def test_the_json_report_keeps_environment_problems_apart(tmp_path: Path) -> None:
    checked = check(CRASH_AT_START, "--json")
    assert checked.returncode == 3, checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    assert not report["passed"] and report["problems"] == []
    (problem,) = report["environment"]
    assert "opponent crash_at_start@1" in problem and "check the opponents" in problem
