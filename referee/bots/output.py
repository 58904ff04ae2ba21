"""A bot's output, live: each line its process prints, prefixed by seat and bot name.

``bullring play`` gives :class:`OutputEcho` to its pool (``BotPool.echo``). The lines are a
bot's own bytes: they are decoded leniently and made printable (terminal escapes and other
control characters shown escaped, never interpreted), and never read as console markup.
The SDK's ``LISTENING <address>`` line, the start-up handshake, is not echoed, nor the
traceback the SDK logs after its ``decide() raised`` line: the same traceback reaches
the referee in the EXCEPTION fault, which ``play`` prints (so it shows once).
"""

from __future__ import annotations

import re
import threading

from rich.console import Console
from rich.markup import escape

from referee.bots.log import ECHO_LINE_BYTES
from referee.bots.process import BotProcess
from sdk.wire.error_status import clean

LISTENING = b"LISTENING "
# The line the SDK logs before the traceback of a bot's exception (sdk/runtime.py).
SDK_RAISED = re.compile(r"(?:[a-z_]+\(\) raised|creating the bot failed)")
TRACEBACK_START = "Traceback (most recent call last):"
# How many lines of one traceback are left out, at most (a bot's own lines after that
# are shown again).
TRACEBACK_LINES = 400


class TracebackFilter:
    """Leaves out of one process's output the traceback the SDK logs after its
    ``X() raised`` line (the fault carries it): from ``Traceback (most recent call
    last):`` to the exception's line, chained tracebacks included."""

    def __init__(self) -> None:
        self._state = "output"  # output | raised | traceback | after
        self._skipped = 0

    def shows(self, text: str) -> bool:
        """Whether to echo `text`, the next line of the process's output."""
        state = self._state
        if state == "raised" and text == TRACEBACK_START:
            self._state, self._skipped = "traceback", 1
            return False
        if state in ("traceback", "after") and self._skipped < TRACEBACK_LINES:
            self._skipped += 1
            if state == "after" and text.startswith(("During handling", "The above exception")):
                return False
            if state == "after" and text in ("", TRACEBACK_START):
                self._state = "after" if text == "" else "traceback"
                return False
            if state == "traceback":
                if not text.startswith(" ") and text != "":
                    self._state = "after"  # the exception's line ends this traceback
                return False
        self._state = "raised" if SDK_RAISED.fullmatch(text) else "output"
        return True


class OutputEcho:
    """Prints bot output lines on `console` as ``[seat K name] line`` (thread-safe: the
    log sinks call it from their own threads)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._lock = threading.Lock()
        self._filters: dict[int, TracebackFilter] = {}
        self.lines = 0

    def __call__(self, process: BotProcess, line: bytes) -> None:
        if line.startswith(LISTENING):
            return
        text = clean(line.decode("utf-8", "replace").rstrip("\r"), ECHO_LINE_BYTES)
        seat = "" if process.seat is None else f"seat {process.seat} "
        with self._lock:
            if not self._filters.setdefault(id(process), TracebackFilter()).shows(text):
                return
            if SDK_RAISED.fullmatch(text):
                text += " (its traceback: with the fault)"
            self.lines += 1
            self.console.print(
                f"[magenta]\\[{seat}{escape(process.spec.name)}][/magenta] {escape(text)}",
                soft_wrap=True,
                highlight=False,
            )
