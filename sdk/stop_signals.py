"""Wait in the main thread for SIGTERM or SIGINT, without a lock in a signal handler.

A Python signal handler runs in the main thread between two bytecodes, wherever that
thread happens to be. A handler that takes a lock can therefore deadlock: the bot
runtime used to call ``threading.Event.set()`` from its handler, and when SIGTERM landed
while the main thread was entering ``Event.wait()`` (holding the event's lock), the
handler waited for that lock for ever and the bot ignored SIGTERM. Under load that window
is wide enough to hit (about 1 in 100 bots signalled as soon as they printed LISTENING).

Here the handlers do nothing. Python's own C-level handler writes each signal's number to
a socket (:func:`signal.set_wakeup_fd`), and :meth:`StopSignals.wait` reads it. A signal
that arrives before ``wait()`` is called stays in the socket, so it is never missed.
"""

from __future__ import annotations

import signal
import socket
from collections.abc import Callable, Sequence
from types import FrameType, TracebackType
from typing import Any

Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None


def _do_nothing(signum: int, frame: FrameType | None) -> None:
    """Installed so that the signal no longer kills the process; the wakeup fd reports it."""


class StopSignals:
    """``with StopSignals() as signals: ...; signals.wait()``: the main thread's stop request.

    Entering installs the handlers (from the main thread only, as :mod:`signal` requires);
    leaving restores the previous handlers and wakeup fd.
    """

    def __init__(self, signals: Sequence[int] = (signal.SIGTERM, signal.SIGINT)) -> None:
        self.signals = frozenset(int(sig) for sig in signals)
        self._reader: socket.socket | None = None
        self._writer: socket.socket | None = None
        self._previous_fd = -1
        self._previous: dict[int, Handler] = {}

    def __enter__(self) -> StopSignals:
        self._reader, self._writer = socket.socketpair()
        self._writer.setblocking(False)  # set_wakeup_fd requires it
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        self._previous = {sig: signal.signal(sig, _do_nothing) for sig in self.signals}
        return self

    def wait(self) -> int:
        """Block until one of the signals has arrived (perhaps already); its number."""
        assert self._reader is not None, "wait() outside the with block"
        while True:
            received = self._reader.recv(64)
            for signum in received:
                if signum in self.signals:
                    return signum

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(self._previous_fd)
        for end in (self._reader, self._writer):
            if end is not None:
                end.close()
        self._reader = self._writer = None
