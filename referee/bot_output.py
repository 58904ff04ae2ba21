"""A bot's output, live: each line its process prints, prefixed by seat and bot name.

``bullring play`` gives :class:`OutputEcho` to its pool (``BotPool.echo``). The lines are a
bot's own bytes: they are decoded leniently and made printable (terminal escapes and other
control characters shown escaped, never interpreted), and never read as console markup.
The SDK's ``LISTENING <address>`` line, the start-up handshake, is not echoed.
"""

from __future__ import annotations

import threading

from rich.console import Console
from rich.markup import escape

from referee.bot_log import ECHO_LINE_BYTES
from referee.process import BotProcess
from sdk.error_status import clean

LISTENING = b"LISTENING "


class OutputEcho:
    """Prints bot output lines on `console` as ``[seat K name] line`` (thread-safe: the
    log sinks call it from their own threads)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._lock = threading.Lock()
        self.lines = 0

    def __call__(self, process: BotProcess, line: bytes) -> None:
        if line.startswith(LISTENING):
            return
        text = clean(line.decode("utf-8", "replace").rstrip("\r"), ECHO_LINE_BYTES)
        seat = "" if process.seat is None else f"seat {process.seat} "
        with self._lock:
            self.lines += 1
            self.console.print(
                f"[magenta]\\[{seat}{escape(process.spec.name)}][/magenta] {escape(text)}",
                soft_wrap=True,
                highlight=False,
            )
