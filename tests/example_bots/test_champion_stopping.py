"""Stopping a training run: Ctrl-C and SIGTERM stop it at once, self-play workers and
all, keeping the last whole iteration; a killed run's workers die with it; ``--minutes``
starts no iteration it cannot finish. Real processes, real signals."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from example_bots.champion_bot.train import main

# Self-play long enough (about a minute of games) to be stopped in the middle of.
LONG = ["--games", "24", "--players", "4", "--visits", "20", "--search-games", "16",
        "--train-steps", "2", "--batch-size", "16", "--eval-deals", "1", "--jobs", "2",
        "--iterations", "3"]  # fmt: skip
# `python -m example_bots.champion_bot.train` with Ctrl-C's default action, as a terminal
# gives it: a process started in the background by a non-interactive shell (a CI script's
# `cmd &`) inherits SIGINT ignored, and Python keeps it so.
AS_FROM_A_TERMINAL = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler);"
    " runpy.run_module('example_bots.champion_bot.train', run_name='__main__', alter_sys=True)"
)
WAIT_S = 60.0  # generous: a loaded 2-core machine starts spawn workers slowly


def children(pid: int) -> list[int]:
    """The live (not zombie) child processes of `pid`."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            if alive(int(child)):
                found.append(int(child))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def workers(pid: int) -> list[int]:
    """`pid`'s self-play workers (spawned processes; not the resource tracker)."""
    found = []
    for child in children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except FileNotFoundError:
            continue
        if b"spawn_main" in command:
            found.append(child)
    return found


def start_in_self_play(out: Path) -> tuple[subprocess.Popen[str], list[int]]:
    """A run whose two self-play workers are busy with its first iteration's games."""
    command = [sys.executable, "-c", AS_FROM_A_TERMINAL, "--out", str(out), *LONG]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline and run.poll() is None:
        busy = workers(run.pid)
        if len(busy) == 2:
            time.sleep(1.0)  # into their games
            return run, busy
        time.sleep(0.1)
    run.kill()
    raise AssertionError(f"no self-play workers within {WAIT_S} s: {run.communicate()}")


def gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
@pytest.mark.parametrize(("sent", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_the_run_and_its_workers_at_once(
    tmp_path: Path, sent: signal.Signals, code: int
) -> None:
    run, busy = start_in_self_play(tmp_path / "run")
    os.kill(run.pid, sent)
    try:
        _, err = run.communicate(timeout=WAIT_S)
    finally:
        run.kill()
    assert run.returncode == code, err
    assert "interrupted:" in err and "holds iteration 0" in err and "Traceback" not in err
    assert gone_within(busy, 5.0)
    # What it kept is whole: the run goes on from it.
    assert main(["--out", str(tmp_path / "run"), "--resume", "--iterations", "0", "--quiet"]) == 0


@pytest.mark.slow
def test_the_workers_die_with_a_killed_run(tmp_path: Path) -> None:
    run, busy = start_in_self_play(tmp_path / "run")
    run.kill()
    run.communicate()
    assert gone_within(busy, 10.0), [p for p in busy if alive(p)]


def test_no_minutes_left_starts_no_iteration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tiny = ["--games", "1", "--players", "3", "--visits", "2", "--search-games", "2",
            "--train-steps", "1", "--eval-deals", "1"]  # fmt: skip
    out = tmp_path / "run"
    handler = signal.getsignal(signal.SIGTERM)
    assert main(["--out", str(out), *tiny, "--iterations", "5", "--minutes", "0"]) == 0
    assert signal.getsignal(signal.SIGTERM) is handler  # the caller's, given back
    assert "stopped: 0.0 of --minutes 0 left" in capsys.readouterr().out
    assert main(["--out", str(out), "--resume", "--iterations", "0", "--quiet"]) == 0
    assert '"iteration": 1' not in (out / "metrics.jsonl").read_text()
