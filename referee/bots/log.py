"""A bot's captured output: its pipe drained into a bounded log file by a thread of its
own, each line also handed to the live echo (``bullring play``) when there is one.
:class:`referee.bots.process.BotProcess` makes one per process.

The sink also keeps the last :data:`TAIL_BYTES` bytes it read in memory and counts every
byte, so that a pooled process, which plays several matches, can give each match the
tail of what it printed during that match only (:meth:`LogSink.mark`, :meth:`LogSink.since`).
Each process has its own pipe and sink: a bot never sees or writes another bot's log.
"""

from __future__ import annotations

import array
import contextlib
import fcntl
import os
import select
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

# A line of a bot's output as the live echo (``bullring play``) gets it, at most.
ECHO_LINE_BYTES = 1000
# The end of a seat's output a league keeps per match, at most.
TAIL_BYTES = 8 * 1024
# How long a mark waits for the sink to read what the bot already wrote into its pipe.
DRAIN_WAIT_S = 0.2


def printable_log(data: bytes) -> str:
    """A bot's output made safe to show in a terminal or a page: decoded leniently, line
    breaks kept, tabs as spaces, every other control character (terminal escapes, a lone
    carriage return, NUL...) shown escaped (``\\x1b``), never interpreted. HTML still
    needs escaping: a page must autoescape this text."""
    text = data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\t", "    ")
    return "\n".join(
        "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in line)
        for line in text.split("\n")
    )


def _open_log(path: Path) -> IO[bytes] | None:
    """The log file, or None if it cannot be made (its output is then only counted)."""
    try:
        return open(path, "wb")  # closed by _close_log
    except OSError:
        return None


def _close_log(out: IO[bytes] | None) -> None:
    """Close the log file; a failed last write (a full folder) is no error."""
    if out is not None:
        with contextlib.suppress(OSError):
            out.close()


class LogSink:
    """Drains a pipe into a file, keeping at most `limit` bytes (the rest is counted);
    with `echo`, also hands it every line (cut to ECHO_LINE_BYTES) as it comes."""

    def __init__(
        self, pipe: IO[bytes], path: Path, limit: int, echo: Callable[[bytes], None] | None
    ) -> None:
        self.path = path
        self.limit = limit
        self.dropped = 0
        self.received = 0  # bytes read from the pipe so far
        self._recent = bytearray()  # the last TAIL_BYTES of them
        self._changed = threading.Condition()
        self._pipe = pipe
        self._fd = pipe.fileno()
        self._done = False
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

    def _read(self, poller: select.poll) -> bytes:
        """The next chunk of output (b"" at the end), counted and kept in the same locked
        step as it is read, so that a mark sees every byte either in the pipe or read."""
        poller.poll()
        with self._changed:
            chunk = os.read(self._fd, 65536)
            self.received += len(chunk)
            self._recent += chunk[-TAIL_BYTES:]
            del self._recent[:-TAIL_BYTES]
            self._changed.notify_all()
        return chunk

    def _run(self) -> None:
        written = 0
        poller = select.poll()
        poller.register(self._fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        out = _open_log(self.path)
        try:
            while chunk := self._read(poller):
                if self._echo is not None:
                    self._lines(chunk)
                keep = chunk[: max(0, self.limit - written)] if out is not None else b""
                if keep and out is not None:
                    try:
                        out.write(keep)
                        out.flush()
                        written += len(keep)
                    except OSError:  # its folder is full: drop the rest, drain the pipe on
                        _close_log(out)
                        out, keep = None, b""
                self.dropped += len(chunk) - len(keep)
            if self._echo is not None and self._partial:
                self._echo(self._partial)
            if self.dropped and out is not None:
                with contextlib.suppress(OSError):
                    out.write(
                        f"\n[bullring: {self.dropped} more bytes of output dropped]\n".encode()
                    )
        finally:
            _close_log(out)
            with self._changed:
                self._done = True
                self._pipe.close()
                self._changed.notify_all()

    def _unread(self) -> int:
        """Bytes the bot wrote into the pipe that the sink has not read yet (under the lock:
        the pipe is open while the sink runs)."""
        if self._done:
            return 0
        count = array.array("i", [0])
        try:
            fcntl.ioctl(self._fd, termios.FIONREAD, count)
        except OSError:
            return 0
        return count[0]

    def mark(self, wait_s: float = DRAIN_WAIT_S) -> int:
        """The count of bytes the bot has printed up to now: what it wrote into its pipe
        before this call is read first (waiting at most `wait_s`)."""
        end = time.monotonic() + wait_s
        with self._changed:
            target = self.received + self._unread()
            while self.received < target and not self._done:
                left = end - time.monotonic()
                if left <= 0:
                    break
                self._changed.wait(left)
            return min(self.received, target)

    def since(self, start: int, end: int) -> tuple[bytes, int]:
        """The last TAIL_BYTES bytes printed between two marks, and how many there were."""
        with self._changed:
            total = max(0, end - start)
            # _recent ends at self.received; the bytes after `end` are cut off.
            after = self.received - end
            upto = len(self._recent) - after
            data = bytes(self._recent[max(0, upto - min(total, TAIL_BYTES)) : max(0, upto)])
        return data, total

    def pending(self) -> int:
        """Bytes in the pipe not read yet (0 once the pipe is closed)."""
        with self._changed:
            return self._unread()

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)
