"""A bot's captured output: its pipe drained into a bounded log file by a thread of its
own, each line also handed to the live echo (``bullring play``) when there is one.
:class:`referee.process.BotProcess` makes one per process."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO

# A line of a bot's output as the live echo (``bullring play``) gets it, at most.
ECHO_LINE_BYTES = 1000


class LogSink:
    """Drains a pipe into a file, keeping at most `limit` bytes (the rest is counted);
    with `echo`, also hands it every line (cut to ECHO_LINE_BYTES) as it comes."""

    def __init__(
        self, pipe: IO[bytes], path: Path, limit: int, echo: Callable[[bytes], None] | None
    ) -> None:
        self.path = path
        self.limit = limit
        self.dropped = 0
        self._pipe = pipe
        self._echo = echo
        self._partial = b""
        self._thread = threading.Thread(target=self._run, name=f"botlog:{path.name}", daemon=True)
        self._thread.start()

    def _lines(self, chunk: bytes) -> None:
        """Echo the complete lines of `chunk` (a line longer than ECHO_LINE_BYTES is cut)."""
        assert self._echo is not None
        *lines, self._partial = (self._partial + chunk).split(b"\n")
        if len(self._partial) > ECHO_LINE_BYTES:
            lines.append(self._partial)
            self._partial = b""
        for line in lines:
            self._echo(line[:ECHO_LINE_BYTES])

    def _run(self) -> None:
        written = 0
        with open(self.path, "wb") as out:
            while chunk := os.read(self._pipe.fileno(), 65536):
                if self._echo is not None:
                    self._lines(chunk)
                keep = chunk[: max(0, self.limit - written)]
                if keep:
                    out.write(keep)
                    out.flush()
                    written += len(keep)
                self.dropped += len(chunk) - len(keep)
            if self._echo is not None and self._partial:
                self._echo(self._partial)
            if self.dropped:
                out.write(f"\n[bullring: {self.dropped} more bytes of output dropped]\n".encode())
        self._pipe.close()

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)
