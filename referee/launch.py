"""Apply resource limits, then exec the bot's command (run as ``python -I -S launch.py``).

The referee starts every bot through this tiny launcher instead of a ``preexec_fn``:
forking a threaded process (gRPC runs threads) and running Python code before ``exec`` is
unsafe, while a fresh interpreter can set its limits and replace itself with the bot.

Usage: ``launch.py AS_BYTES FSIZE_BYTES NPROC CPU_SECONDS -- COMMAND...`` (0: no limit).
It imports nothing from the project, so it starts in a few milliseconds.
"""

import os
import resource
import sys


def main(argv: list[str]) -> None:
    if len(argv) < 6 or argv[4] != "--":
        sys.stderr.write("usage: launch.py AS FSIZE NPROC CPU -- COMMAND...\n")
        sys.exit(2)
    limits = (
        (resource.RLIMIT_AS, int(argv[0])),
        (resource.RLIMIT_FSIZE, int(argv[1])),
        (resource.RLIMIT_NPROC, int(argv[2])),
        (resource.RLIMIT_CPU, int(argv[3])),
    )
    for which, value in limits:
        if value > 0:
            _, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(which, (value, value))
    command = argv[5:]
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        sys.stderr.write(f"bullring launcher: cannot run {command[0]!r}: {exc}\n")
        sys.exit(127)


if __name__ == "__main__":
    main(sys.argv[1:])
