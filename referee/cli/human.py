"""``bullring play --bot human``: start the human seat's process beside the match.

The human seats of a match are served by one process, ``python -m human_seat``, started
here with this terminal (the user's own process, so unsandboxed), listening on a unix
socket in a private folder. The match's bot specs name it as an endpoint: to the referee
a human seat is a seat like any other. The referee imports nothing of it.
"""

from __future__ import annotations

import base64
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.replay.digest import packed_digest
from referee.replay.model import Replay
from referee.spec import BotSpec
from sdk.errors import BullringError

HUMAN = "human"  # what --bot takes for a person's seat
START_TIMEOUT_S = 60.0  # a loaded machine may take a while to import gRPC
STOP_TIMEOUT_S = 5.0
POLL_S = 0.05


class HumanSeatError(BullringError):
    """The human seat's process did not start."""


@dataclass
class HumanSeats:
    """The running human seat process: its address and, with --web, its page."""

    process: subprocess.Popen[bytes]
    address: str
    url: str = ""
    end_file: Path | None = None  # with --web: written once the replay page is shown
    replay_data: Path | None = None  # with --web: the replay's viewer data, for its page

    def write_replay_data(self, replay: Replay) -> None:
        """Give the page the replay's viewer data (the site's digest, packed as its match
        pages hold it), written whole before the page can see it."""
        if self.replay_data is None:
            return
        packed = base64.b64encode(packed_digest(replay.to_json())).decode("ascii")
        part = self.replay_data.with_name(self.replay_data.name + ".part")
        part.write_text(packed, encoding="ascii")
        part.replace(self.replay_data)

    def bot(self) -> BotSpec:
        return BotSpec(name=HUMAN, version="1", endpoint=self.address)


def _wait_started(process: subprocess.Popen[bytes], sock: Path, url_file: Path | None) -> str:
    """Wait until the socket (and the page's address) exist; the page's address."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise HumanSeatError(
                f"the human seat's process ended at start (exit {process.returncode})"
            )
        url = url_file.read_text().strip() if url_file is not None and url_file.exists() else ""
        if sock.exists() and (url_file is None or url):
            return url
        time.sleep(POLL_S)
    raise HumanSeatError(f"the human seat's process did not listen within {START_TIMEOUT_S:.0f} s")


@contextmanager
def human_seats(web: bool, replay: Path | None, open_browser: bool = True) -> Iterator[HumanSeats]:
    """Start the human seat process (see the module docstring); stop it on leaving."""
    folder = Path(tempfile.mkdtemp(prefix="bullring-human-"))
    sock = folder / "seat.sock"
    command = [sys.executable, "-m", "human_seat", "--listen", f"unix:{sock}"]
    url_file: Path | None = None
    end_file: Path | None = None
    replay_data: Path | None = None
    if web:
        url_file = folder / "url"
        end_file = folder / "end-seen"
        replay_data = folder / "replay-data"
        command += ["--web", "--url-file", str(url_file), "--end-file", str(end_file)]
        command += ["--replay-data", str(replay_data)]
        if not open_browser:
            command.append("--no-open")
        if replay is not None:
            # As the person named it (the seat's process shares this working folder): the
            # page shows it, and an arena's visitor must not see where the server keeps it.
            command += ["--replay-page", str(replay)]
    terminal = _terminal_mode()
    process = subprocess.Popen(command, env=dict(os.environ))
    try:
        url = _wait_started(process, sock, url_file)
        yield HumanSeats(process, f"unix:{sock}", url, end_file, replay_data)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(STOP_TIMEOUT_S)
        shutil.rmtree(folder, ignore_errors=True)
        if terminal is not None:  # however the process ended, the terminal as it was
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, terminal)


def _terminal_mode() -> list[Any] | None:
    """This terminal's settings (the human seat changes them while it asks), or None."""
    try:
        if sys.stdin.isatty():
            return termios.tcgetattr(sys.stdin.fileno())
    except (termios.error, OSError, ValueError):
        pass
    return None


def linger(seats: HumanSeats, limit_s: float) -> None:
    """With --web: keep the page up until it has shown the replay page, self-contained
    once loaded (at most `limit_s`; Ctrl-C stops waiting)."""
    deadline = time.monotonic() + limit_s
    try:
        while time.monotonic() < deadline and seats.process.poll() is None:
            if seats.end_file is not None and seats.end_file.exists():
                return
            time.sleep(POLL_S * 4)
    except KeyboardInterrupt:
        return
