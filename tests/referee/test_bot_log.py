"""A bot's log never stops draining its pipe: when the log file cannot be written (the
private folders' tmpfs is full, which another bot can do within its own memory limit, or
the log folder is gone), the output is counted as dropped and the bot prints on, where a
dead log thread would close the pipe and crash the bot at its next print."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.bots.log import LogSink

CHUNK = b"y" * 4096
CHUNKS = 50  # 200 KiB: far more than a pipe holds, so the sink must keep reading


@pytest.mark.parametrize("path", ["/dev/full", "/nonexistent/bot.log"], ids=["full", "missing"])
def test_a_log_that_cannot_be_written_still_drains_the_pipe(path: str) -> None:
    read, write = os.pipe()
    sink = LogSink(os.fdopen(read, "rb"), Path(path), 1 << 20, None)
    try:
        for _ in range(CHUNKS):
            os.write(write, CHUNK)  # BrokenPipeError if the sink had closed the pipe
        assert sink.mark(5.0) == CHUNKS * len(CHUNK)
    finally:
        os.close(write)
        sink.join(5)
    assert sink.dropped == CHUNKS * len(CHUNK)
