"""Driving ``bullring play --bot human`` through a real pseudo-terminal (the pty module):
what a person at a terminal does, keys in, the screen out."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RANDOM_BOT = str(REPO / "example_bots" / "random_bot")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]")
PROMPT = "Enter plays"  # printed once each time a question is drawn
ROWS, COLS = 60, 140


def bullring_argv(*args: str) -> list[str]:
    return [str(Path(sys.executable).with_name("bullring")), *args]


def plain(text: str) -> str:
    """The screen's text without its colours and cursor moves."""
    return ANSI.sub("", text)


@dataclass
class Session:
    """A run of a command in a pseudo-terminal: everything it drew, and its exit code."""

    output: str = ""
    code: int | None = None
    sent: list[bytes] = field(default_factory=list)

    @property
    def text(self) -> str:
        return plain(self.output)


# Given the screen so far (plain text) and how many questions have been drawn, the keys
# to send now (b"" for none).
Responder = Callable[[str, int], bytes]


def enter_each_question(screen: str, questions: int) -> bytes:
    return b"\r"


def run_in_pty(
    argv: Sequence[str],
    cwd: Path,
    respond: Responder = enter_each_question,
    timeout_s: float = 600.0,
    hang_up_at: int | None = None,
    interrupt_at: int | None = None,
) -> Session:
    """Run `argv` in a new pseudo-terminal; each time a new question is drawn, send what
    `respond` says. Ends when the command exits (or, past `timeout_s`, kills it). With
    `hang_up_at`, the terminal is closed when that question is drawn (a closed window);
    with `interrupt_at`, the command gets SIGINT then (as from Ctrl-C between questions)."""
    env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(COLS), LINES=str(ROWS))
    env.pop("NO_COLOR", None)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, on the terminal
        # Ctrl-C's default action, as a terminal's shell gives it (a test run started in the
        # background by a non-interactive shell passes SIGINT down ignored).
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.chdir(cwd)
        os.execve(argv[0], list(argv), env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    session = Session()
    seen = 0
    raw = b""
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # EIO: the terminal's other end has closed (the command ended)
                    break
                if not chunk:
                    break
                raw += chunk
                session.output = raw.decode("utf-8", "replace")
                text = plain(session.output)
                questions = text.count(PROMPT)
                while seen < questions:
                    seen += 1
                    if seen == interrupt_at:
                        os.kill(pid, signal.SIGINT)
                        continue
                    if seen == hang_up_at:
                        os.close(fd)
                        fd = -1
                        session.code = _reap(pid, timeout_s)
                        return session
                    keys = respond(text, seen)
                    if keys:
                        session.sent.append(keys)
                        os.write(fd, keys)
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                session.code = os.waitstatus_to_exitcode(status)
                # what is left to read
                while select.select([fd], [], [], 0.2)[0]:
                    try:
                        chunk = os.read(fd, 65536)
                    except OSError:
                        break
                    if not chunk:
                        break
                    raw += chunk
                session.output = raw.decode("utf-8", "replace")
                return session
    finally:
        if session.code is None:
            session.code = _reap(pid)
        if fd >= 0:
            os.close(fd)
    return session


def _reap(pid: int, grace_s: float = 30.0) -> int:
    """The exit code of `pid`, killing its process group if it outlives `grace_s`."""
    end = time.monotonic() + grace_s
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.killpg(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)
