"""The arena's child processes (a check, the ladder, a site build) die with the server."""

from __future__ import annotations

import os
import sys

from sdk.lifeline import die_with_parent

# Killed (SIGKILL) when the server that started it dies, even by SIGKILL: its restart takes
# the work up again (a check, the ladder's unfinished matches, a site build), and no
# orphan may race the new one.
__all__ = ["main"]


def main(argv: list[str]) -> None:
    """``python -m arena.lifeline SERVER_PID -- COMMAND...``: run COMMAND (exec), killed
    when the server dies (the setting survives exec): how the arena starts a visitor's
    game, ``bullring play``, which is no arena code."""
    parent, separator, *command = argv
    if separator != "--" or not command:
        raise SystemExit("usage: python -m arena.lifeline SERVER_PID -- COMMAND...")
    die_with_parent(parent=int(parent))
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
