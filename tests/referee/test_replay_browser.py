"""Stepping through a replay both ways: the commands and the browser loop (with scripted
input; ``bullring replay`` piped prints everything, as tests/referee/test_cli.py shows)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.cli.replay_browser import browse, next_frame


@pytest.mark.parametrize(
    ("command", "current", "expected"),
    [
        ("", 0, 1),
        ("n", 4, 4),  # the last frame stays
        ("b", 0, 0),
        ("b", 3, 2),
        ("j 2", 0, 2),
        ("3", 0, 3),
        ("j 99", 0, 4),
        ("what", 2, 2),
        ("q", 2, None),
    ],
)
def test_commands(command: str, current: int, expected: int | None) -> None:
    assert next_frame(command, current, 5) == expected


def test_browse_goes_both_ways_and_quits() -> None:
    frames = ["start", "step 1", "step 2", "result"]
    commands: Iterator[str] = iter(["n", "n", "b", "j 3", "b", "q", "n"])
    shown: list[str] = []
    browse(frames, lambda prompt: next(commands), shown.append)
    assert shown == ["start", "step 1", "step 2", "step 1", "result", "step 2"]
    assert next(commands) == "n"  # nothing read after q


def test_browse_ends_at_end_of_input() -> None:
    def read(prompt: str) -> str:
        raise EOFError

    shown: list[str] = []
    browse(["start", "result"], read, shown.append)
    assert shown == ["start"]
