"""The arena server's log: one line on stderr per upload accepted or refused, per check's
outcome and per retirement, each with a UTC timestamp (docs/arena.md, The server's log).

A line never holds a token: only the fields given, each made inert
(:func:`referee.terminal_text.inert_line`: an author's text cannot break the line or send
a terminal escape) and quoted when it holds a space.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from referee.terminal_text import inert_line

_lock = threading.Lock()


MAX_FIELD = 200  # characters of one field's value kept (what an author sent may be long)


def _value(value: object) -> str:
    text = inert_line(str(value))
    if len(text) > MAX_FIELD:
        text = text[:MAX_FIELD] + "..."
    if not text or any(c in text for c in ' "='):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def event_line(event: str, fields: dict[str, object], now: float | None = None) -> str:
    """``2026-12-06T05:40:00.123Z arena EVENT key=value ...`` (None values left out)."""
    moment = time.time() if now is None else now
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(moment))
    millis = int((moment % 1) * 1000)
    parts = [f"{stamp}.{millis:03d}Z", "arena", inert_line(event)]
    parts += [f"{inert_line(k)}={_value(v)}" for k, v in fields.items() if v is not None]
    return " ".join(parts)


def log_event(event: str, out: TextIO | None = None, **fields: object) -> None:
    """Write one event line (to stderr unless `out`); a failing stream is ignored."""
    line = event_line(event, fields)
    stream = sys.stderr if out is None else out
    with _lock:
        try:
            stream.write(line + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass


def first_line(text: str | None) -> str | None:
    """The first line of `text` (None stays None)."""
    if text is None:
        return None
    return text.strip().splitlines()[0] if text.strip() else ""
