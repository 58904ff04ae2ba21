"""Ctrl-C in ``bullring league run`` (SIGINT to its process group, as a terminal sends
it): exit code 130, a line saying how to resume, no traceback, and the same command
finishes the league afterwards. A real league of real bot processes."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

from tests.referee.helpers import descendants
from tests.referee.league.leagues import (
    SMALL,
    bullring,
    bullring_argv,
    start_as_from_a_terminal,
    write_league,
)
from tests.referee.league.test_resume import finished

# Ctrl-C to exit: the promise (benchmarks/interrupt.py measures it: 0.2-0.35 s
# at load 22 on the 2-core machine, where it used to take 0.8-2.2 s).
STOP_LIMIT_S = 1.0

# The small league with ten times its 6 nimmt! matches: still playing for seconds after its
# first result, so the Ctrl-C always lands mid-league. (With SMALL's 5 matches, the last
# ones could finish between seeing the first result and sending SIGINT: exit 0.)
INTERRUPTIBLE = SMALL.replace("games = 3\n", "games = 30\n", 1)


def sigint_state() -> str:
    """This process's SIGINT disposition and whether its thread blocks it (for messages)."""
    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    return f"SIGINT here: {signal.getsignal(signal.SIGINT)!r}, blocked: {blocked}"


def test_ctrl_c_exits_130_and_the_league_resumes(tmp_path: Path) -> None:
    assert INTERRUPTIBLE != SMALL
    file = write_league(tmp_path, INTERRUPTIBLE)
    store = tmp_path / "small.sqlite"
    here = sigint_state()
    argv = bullring_argv("league", "run", str(file), "--no-progress")
    process = start_as_from_a_terminal(argv, tmp_path)
    deadline = time.monotonic() + 300
    while finished(store) < 1 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None, "the league ended before it could be interrupted"
    sent = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    code = process.wait(timeout=60)
    stopped_s = time.monotonic() - sent
    _, err = process.communicate()
    assert code == 130, f"{err} ({here})"
    assert stopped_s < STOP_LIMIT_S, f"stopped in {stopped_s:.2f} s"
    assert "interrupted: run the same command again to resume" in err
    assert "Traceback" not in err
    done_before = finished(store)
    resumed = bullring("league", "run", str(file), "--no-progress", "--json", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    assert summary["finished"] == summary["scheduled"] > done_before >= 1
    assert summary["played"] == summary["scheduled"] - done_before  # none played twice
    assert descendants() == []
