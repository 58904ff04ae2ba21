"""Stepping through a replay in a terminal, both ways.

The trace of a replay is cut into frames: the start (seats, deal, setup faults), one per
engine step, and the result. :func:`browse` shows one frame at a time and reads a command
line after each: Enter or ``n`` next, ``b`` back, ``j N`` (or just ``N``) jump to step N,
``q`` quit. ``bullring replay`` browses when both its input and output are a terminal, and
prints every frame when piped.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console

HELP = "Enter/n next, b back, j N jump to step N, q quit"


def frame_console(like: Console) -> Console:
    """A console that records what is printed, as wide and as colourful as `like`."""
    return Console(
        file=io.StringIO(),
        record=True,
        width=like.width,
        force_terminal=like.is_terminal,
        color_system="auto",
        highlight=False,
        emoji=False,
    )


def next_frame(command: str, current: int, count: int) -> int | None:
    """The frame a command line asks for (None: quit); unknown commands stay put."""
    word = command.strip().lower()
    if word in ("q", "quit", "exit"):
        return None
    if word in ("", "n", "next"):
        return min(current + 1, count - 1)
    if word in ("b", "back", "p"):
        return max(current - 1, 0)
    target = word[1:].strip() if word.startswith("j") else word
    if target.isdigit():
        return min(max(int(target), 0), count - 1)
    return current


def browse(frames: list[str], read: Callable[[str], str], show: Callable[[str], None]) -> None:
    """Show `frames` one at a time, reading a command after each (see the module
    docstring); end of input quits. Frame 0 is the start, the last the result."""
    current = 0
    while True:
        show(frames[current])
        prompt = f"-- step {current}/{len(frames) - 1} ({HELP}) -- "
        try:
            command = read(prompt)
        except EOFError:
            return
        chosen = next_frame(command, current, len(frames))
        if chosen is None:
            return
        current = chosen
