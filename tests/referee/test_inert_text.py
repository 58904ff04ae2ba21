"""Text a bot controls, or a file from a stranger holds, reaches a terminal inert.

The bot (tests/referee/bad_bots/hostile_text.py) puts hostile text in its Hello's name,
version and author, its manifest's author and description, every line it prints and its
exception's message: a script element, an attribute breaking out into an image, an OSC 52
clipboard write, a CSI screen clear, a bare carriage return and rich console markup. Each
command that shows it (``play``, ``league status``, ``league log``, ``replay``,
``debug``, ``bot check``) must print it with every control character escaped (and so
readable: ``\\x1b[2J``), its markup as text, in one line of error at most, never a
traceback. A replay file is anyone's to write: one whose names, match id and fault
details carry the raw text is shown the same way.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.referee.bad_bots.hostile_text import HOSTILE, SHOWN
from tests.referee.league.hostile_league import HOSTILE_BOT, run_hostile_league
from tests.referee.league.leagues import REPO, bullring_argv
from tests.referee.league.log_league import QUIET

CRASHING_BOT = REPO / "tests" / "referee" / "bad_bots" / "hostile_text_crash.toml"
# What a reader must find of the hostile text, each piece as the terminal shows it.
PIECES = [piece for piece in SHOWN.split(" ") if piece]
DEBUGGED_BOT = REPO / "example_bots" / "random_bot" / "bot.py"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``bullring ARGS``, its output piped (so not a terminal) 200 columns wide."""
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        bullring_argv(*args), cwd=cwd, capture_output=True, text=True, timeout=300, env=env
    )


def assert_inert(done: subprocess.CompletedProcess[str]) -> None:
    """Nothing in the command's output that a terminal obeys: no control character but
    line breaks (a bare carriage return, an escape, a bell...); and no traceback of its
    own (a bot's, quoted, is on stdout)."""
    text = done.stdout + done.stderr
    obeyed = sorted({repr(c) for c in text if not (c.isprintable() or c == "\n")})
    assert obeyed == [], text
    assert "Traceback (most recent call last)" not in done.stderr, done.stderr


def assert_shown(text: str) -> None:
    """Every piece of the hostile text is there, readable (rich may wrap a long line at a
    space: spaces and line breaks count the same)."""
    flat = " ".join(text.split())
    missing = [piece for piece in PIECES if piece not in flat]
    assert missing == [], text


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The played league's file (its store, inert.sqlite, beside it)."""
    return run_hostile_league(tmp_path_factory.mktemp("inert"))


@pytest.fixture(scope="module")
def crafted(league: Path) -> Path:
    """A replay file of the league's first match whose match id, bot names and fault
    details are the raw hostile text (a file from a stranger: nothing cleaned it)."""
    exported = league.parent / "exported.json"
    done = run("replay", "export", str(league), "inert-000001", str(exported), cwd=league.parent)
    assert done.returncode == 0, done.stderr
    data = json.loads(exported.read_text())
    data["match_id"] = HOSTILE
    for bot in data["bots"]:
        bot["name"] = HOSTILE
    faulted = [d["fault"] for d in data["decisions"] if d["fault"]] + data["result"]["faults"]
    assert faulted
    for fault in faulted:
        fault["detail"] = HOSTILE
        fault["traceback"] = f"Traceback\n  {HOSTILE}\n{HOSTILE}"
    data["setup_faults"].append({"seat": 1, "kind": "CRASH", "decision": -1, "detail": HOSTILE})
    file = league.parent / "crafted.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    return file


def test_play_shows_the_bots_output_and_faults_inert(tmp_path: Path) -> None:
    played = run("play", "6nimmt:rounds=1", "--bot", str(HOSTILE_BOT), "--bot", str(QUIET),
                 "--quiet", cwd=tmp_path)  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert_inert(played)
    assert_shown(played.stdout)  # its output, live
    assert ": ValueError: <script>window.pwned = 1</script> " in played.stdout  # the fault
    assert f"| ValueError: {SHOWN}" in played.stdout  # its traceback


def test_play_quotes_a_bot_that_does_not_start_in_one_inert_error(tmp_path: Path) -> None:
    # Its output is quoted in the error (not shown live): text, never console markup.
    played = run("play", "6nimmt:rounds=1", "--bot", str(CRASHING_BOT), "--bot", str(QUIET),
                 "--quiet-bots", cwd=tmp_path)  # fmt: skip
    assert played.returncode == 2
    assert played.stderr.startswith("error: hostile_text_crash@1 is not ready: CRASH: process")
    assert_inert(played)
    assert f"  | crash {SHOWN}" in played.stderr  # the bare \r kept, escaped: not a break
    assert f"  | hello {SHOWN}" in played.stderr


def test_league_status_and_log_show_the_bots_text_inert(league: Path) -> None:
    status = run("league", "status", str(league), cwd=league.parent)
    assert status.returncode == 0, status.stderr
    assert_inert(status)
    assert "hostile_text@1: EXCEPTION at decision " in status.stdout
    assert ": ValueError: <script>window.pwned = 1</script> " in status.stdout
    logged = run("league", "log", str(league), "inert-000001", cwd=league.parent)
    assert logged.returncode == 0, logged.stderr
    assert_inert(logged)
    assert f"decision 1 {SHOWN}\n" in logged.stdout and f"start {SHOWN}\n" in logged.stdout


def test_replay_of_a_league_match_shows_the_faults_inert(league: Path) -> None:
    shown = run("replay", str(league), "inert-000001", "--print-all", cwd=league.parent)
    assert shown.returncode == 0, shown.stderr
    assert_inert(shown)
    assert_shown(shown.stdout)


def test_replay_of_a_crafted_file_shows_its_text_inert(crafted: Path) -> None:
    shown = run("replay", str(crafted), "--print-all", cwd=crafted.parent)
    assert shown.returncode == 0, shown.stderr
    assert_inert(shown)
    assert_shown(shown.stdout)
    assert f"seat 0: {SHOWN}" in shown.stdout  # the names
    assert f"CRASH at setup: {SHOWN}" in " ".join(shown.stdout.split())
    assert f"  | {SHOWN}\n" in shown.stdout  # a traceback's lines: \r is not one
    out = crafted.with_name("copy.json")
    exported = run("replay", "export", str(crafted), str(out), cwd=crafted.parent)
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout == f"replay of {SHOWN} written to {out}\n"
    assert json.loads(out.read_text())["match_id"] == HOSTILE  # the data is kept as it is


def test_debug_of_a_crafted_file_shows_its_text_inert(crafted: Path) -> None:
    done = run("debug", str(crafted), "--seat", "1", "--all", "--bot", str(DEBUGGED_BOT),
               cwd=crafted.parent)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert_inert(done)
    assert done.stdout.startswith(f"{SHOWN} seat 1: ")
    assert f"note: seat 1 was played by {SHOWN}; RandomBot is random_bot" in done.stderr


def test_bot_check_shows_the_bots_hello_and_faults_inert(tmp_path: Path) -> None:
    checked = run("bot", "check", str(HOSTILE_BOT), "--variant", "6nimmt:rounds=1",
                  "--games", "1", cwd=tmp_path)  # fmt: skip
    assert checked.returncode == 1, checked.stderr  # a fault, and a Hello that lies
    assert_inert(checked)
    assert_shown(checked.stdout)
    assert f"hello: hostile {SHOWN} {SHOWN} (protocol" in " ".join(checked.stdout.split())
    assert f"    | ValueError: {SHOWN}" in checked.stdout


def test_an_error_line_is_text_never_console_markup(tmp_path: Path) -> None:
    league = tmp_path / "l.toml"
    league.write_text(
        '[league]\nname = "l"\nseats = 2\n\n[sandbox]\nenabled = false\n\n'
        '[[variants]]\nid = "6nimmt"\n\n'
        f'[[bots]]\nmanifest = "{QUIET}"\nname = "a"\n\n'
        f'[[bots]]\nmanifest = "{QUIET}"\nname = "b"\n',
        encoding="utf-8",
    )
    refused = run("bot", "submit", str(HOSTILE_BOT), "--league", str(league), cwd=tmp_path)
    assert refused.returncode == 2
    assert f"error: {league}: [sandbox] enabled = false, but bot submit" in refused.stderr
