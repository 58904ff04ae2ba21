"""The arena's child processes (a check, the ladder, a site build, a visitor's game) die
with the server, by SIGKILL, even when the server is killed by SIGKILL: its restart takes
the work up again, and no orphan may race the new one (:func:`sdk.lifeline.die_with_parent`)."""

from __future__ import annotations

import os
import sys

from sdk.lifeline import die_with_parent

__all__ = ["main"]


def main(argv: list[str]) -> None:
    """``python -m arena.lifeline SERVER_PID -- COMMAND...``: run COMMAND (exec), killed
    when the server dies (the setting survives exec): how the arena starts what is no
    arena code (a visitor's game, ``bullring play``; a site build, ``leaderboard.publish``)."""
    parent, separator, *command = argv
    if separator != "--" or not command:
        raise SystemExit("usage: python -m arena.lifeline SERVER_PID -- COMMAND...")
    die_with_parent(parent=int(parent))
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
