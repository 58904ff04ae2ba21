"""``bullring play`` and ``bullring bot check`` with a bot author's bots: play refuses
before any match a bot that does not claim the variant or does not start (its traceback
shown once: live, or quoted with ``--quiet-bots``); it shows each bot's output live,
prefixed by seat and name (``--quiet-bots`` hides it) and keeps full logs with
``--log-dir``; ``bot check`` fails a bot whose class and manifest disagree on its
version, and quotes an EXCEPTION's traceback."""

from __future__ import annotations

import json
from pathlib import Path

from referee.bots.output import TracebackFilter
from tests.referee.helpers import BAD_BOTS, descendants
from tests.referee.test_cli import GOOD, bullring

PLAY = ["play", "6nimmt:rounds=1", "--seed", "3", "--setup-ms", "30000"]


def test_play_refuses_a_bot_that_does_not_claim_the_variant() -> None:
    only = str(BAD_BOTS / "sixnimmt_only.toml")
    played = bullring("play", "xnimmt", "--setup-ms", "30000", "--bot", GOOD, "--bot", only)
    assert played.returncode == 2, played.stdout + played.stderr
    assert "sixnimmt_only@1 cannot play: it does not claim xnimmt (it claims 6nimmt)" in (
        played.stderr
    )
    assert "result" not in played.stdout and "seat 0" not in played.stdout  # no match
    assert descendants() == []


def test_play_refuses_a_bot_that_crashes_starting_and_shows_its_traceback_once() -> None:
    """Its output is shown live (stdout), so the refusal points there; with --quiet-bots
    the refusal quotes it instead."""
    crash = str(BAD_BOTS / "crash_at_import.toml")
    played = bullring(*PLAY, "--bot", GOOD, "--bot", crash)
    assert played.returncode == 2
    refusal = "crash_at_import@1 is not ready: CRASH: process exited with code 1"
    assert played.stderr.startswith(f"error: {refusal}")
    assert played.stderr.rstrip().endswith("(its output is above)")
    assert len(played.stderr.splitlines()) == 1
    live = played.stdout.splitlines()
    assert live.count("[crash_at_import] Traceback (most recent call last):") == 1
    assert '[crash_at_import]   File "my_bot_logic.py", line 2' in live
    assert any(line.startswith("[crash_at_import] SyntaxError: ") for line in live)
    assert "result" not in played.stdout

    quiet = bullring(*PLAY, "--bot", GOOD, "--bot", crash, "--quiet-bots")
    assert quiet.returncode == 2
    err = quiet.stderr
    assert refusal in err and "(its output is above)" not in err
    assert "| Traceback (most recent call last):" in err
    assert '|   File "my_bot_logic.py", line 2' in err
    assert "| SyntaxError: " in err
    assert "[crash_at_import]" not in quiet.stdout
    assert descendants() == []


def test_play_shows_each_bots_output_live_and_keeps_logs(tmp_path: Path) -> None:
    chatty = str(BAD_BOTS / "chatty.toml")
    logs = tmp_path / "logs"
    played = bullring(*PLAY, "--bot", GOOD, "--bot", chatty, "--log-dir", str(logs))
    assert played.returncode == 0, played.stderr
    lines = played.stdout.splitlines()
    assert "[seat 1 chatty] chatty stdout: decision 1" in lines
    assert any(line.startswith("[seat 1 chatty] chatty stderr: ") for line in lines)
    assert "\x1b" not in played.stdout and "\\x1b[2J" in played.stdout  # shown, not obeyed
    assert not any("LISTENING" in line for line in lines)
    kept = sorted(logs.glob("chatty-*.log"))
    assert len(kept) == 1, list(logs.iterdir())
    text = kept[0].read_text()
    assert "chatty stdout: decision 1" in text and "chatty stderr: " in text
    assert f"bot logs kept in {logs}" in played.stdout

    quiet = bullring(*PLAY, "--bot", GOOD, "--bot", chatty, "--quiet-bots")
    assert quiet.returncode == 0, quiet.stderr
    assert "chatty stdout" not in quiet.stdout and "result" in quiet.stdout
    assert descendants() == []


def test_play_json_prints_the_result_alone() -> None:
    played = bullring(*PLAY, "--bot", GOOD, "--bot", str(BAD_BOTS / "raises.toml"), "--json")
    assert played.returncode == 0, played.stderr
    data = json.loads(played.stdout)
    assert data["bots"] == ["seeded_random@1", "raises@1"]
    assert {f["kind"] for f in data["faults"]} == {"EXCEPTION"}
    assert "bad_bots/raises.py" in data["faults"][0]["traceback"]
    assert len(data["scores"]) == 2 and "replay" not in data


def test_quiet_play_prints_neither_the_deal_nor_the_steps() -> None:
    played = bullring(*PLAY, "--bot", GOOD, "--bot", GOOD, "-q", "--quiet-bots")
    assert played.returncode == 0, played.stderr
    assert "row 1:" not in played.stdout and "chose" not in played.stdout
    assert "result" in played.stdout


def test_bot_check_fails_a_version_mismatch() -> None:
    checked = bullring(
        "bot", "check", str(BAD_BOTS / "version_mismatch.toml"), "--games", "1", "--json"
    )
    assert checked.returncode == 1, checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    assert any("version '1'" in p and "'9.9'" in p for p in report["problems"])
    assert not report["passed"]


def test_bot_check_quotes_an_exceptions_traceback() -> None:
    checked = bullring(
        "bot", "check", str(BAD_BOTS / "raises.toml"), "--games", "1", "--variant", "6nimmt"
    )
    assert checked.returncode == 1
    assert "EXCEPTION at decision" in checked.stdout
    assert "bad_bots/raises.py" in checked.stdout and "in decide" in checked.stdout


def test_play_shows_an_exceptions_traceback_once(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    raises = str(BAD_BOTS / "raises.toml")
    played = bullring(*PLAY, "--bot", GOOD, "--bot", raises, "--log-dir", str(logs))
    assert played.returncode == 0, played.stderr
    out = played.stdout
    faults = out.count("EXCEPTION at decision")
    assert faults >= 1
    assert out.count("Traceback (most recent call last):") == faults  # the fault's, once
    assert out.count("  | Traceback (most recent call last):") == faults
    assert out.count('raises.py", line 22, in decide') == faults
    assert out.count("[seat 1 raises] decide() raised (its traceback: with the fault)") == faults
    (log,) = logs.glob("raises-*.log")  # the bot's own log keeps what it printed
    assert log.read_text().count("Traceback (most recent call last):") == faults


def test_the_echo_leaves_out_only_the_traceback_the_sdk_logs() -> None:
    shown = TracebackFilter()
    lines = [
        ("before", True),
        ("Traceback (most recent call last):", True),  # the bot's own, not after the SDK line
        ('  File "x.py", line 1', True),
        ("decide() raised", True),
        ("Traceback (most recent call last):", False),
        ('  File "bot.py", line 3, in decide', False),
        ("KeyError: 'a'", False),
        ("", False),
        ("During handling of the above exception, another exception occurred:", False),
        ("", False),
        ("Traceback (most recent call last):", False),
        ('  File "bot.py", line 5, in decide', False),
        ("ValueError: b", False),
        ("the bot's next line", True),
        ("Traceback (most recent call last):", True),
    ]
    assert [(text, shown.shows(text)) for text, _ in lines] == lines
