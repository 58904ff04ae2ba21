"""sdk.lifeline: a process that asked to die with its parent dies when the parent is
killed (SIGKILL: no handler of the parent's runs), and one whose parent is already gone
exits at once. Real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHILD = (
    "import time; from sdk.lifeline import die_with_parent; die_with_parent();"
    " print('ready', flush=True); time.sleep(120)"
)
# The parent starts the child, says its pid, and waits to be killed.
PARENT = (
    "import subprocess, sys, time;"
    f" child = subprocess.Popen([sys.executable, '-c', {CHILD!r}], stdout=subprocess.PIPE,"
    " text=True); child.stdout.readline(); print(child.pid, flush=True); time.sleep(120)"
)


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_the_child_dies_with_a_killed_parent() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert alive(child)
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 10
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    if alive(child):
        os.kill(child, signal.SIGKILL)
        raise AssertionError("the child outlived its killed parent")


def test_a_child_whose_parent_is_gone_exits_at_once() -> None:
    # The "parent" it expects is not its parent: as if the real one died and it was adopted.
    code = "from sdk.lifeline import die_with_parent; die_with_parent(parent=1); print('lived')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "lived" not in done.stdout
