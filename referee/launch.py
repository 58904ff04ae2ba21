"""Apply resource limits, then exec the bot's command (run as ``python -I -S launch.py``).

The referee starts every bot through this tiny launcher instead of a ``preexec_fn``:
forking a threaded process (gRPC runs threads) and running Python code before ``exec`` is
unsafe, while a fresh interpreter can set its limits and replace itself with the bot.

It then stays behind as a tiny watchdog: the bot runs as its child, and if the referee
dies without cleaning up (``kill -9`` of a league), the watchdog kills the bot's whole
process group, so an untrusted bot can never outlive its referee. The watchdog exits the
way the bot did (same code, or the same signal), so the referee sees the bot's own fate.

Usage: ``launch.py AS_BYTES FSIZE_BYTES NPROC CPU_SECONDS -- COMMAND...`` (0: no limit).
It imports nothing from the project, so it starts in a few milliseconds.
"""

import os
import resource
import select
import signal
import sys

PARENT_POLL_S = 0.5  # only used where pidfd_open is missing
REFEREE_ENV = "BULLRING_REFEREE_PID"  # set by the referee, removed before the bot starts


def _exec(command: list[str]) -> None:
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        sys.stderr.write(f"bullring launcher: cannot run {command[0]!r}: {exc}\n")
        os._exit(127)


def _mirror(status: int) -> None:
    """Exit as the bot did: same exit code, or killed by the same signal."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    sys.exit(os.waitstatus_to_exitcode(status) if not os.WIFSIGNALED(status) else 128)


def _watch(child: int, referee: int) -> None:
    """Wait for the bot to end; kill its group if the referee goes away first."""
    # The referee stops bots by signalling the whole group; the watchdog waits for the
    # bot to go, so the referee's "has it exited" check still means the bot exited.
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    try:
        child_fd = os.pidfd_open(child)
        referee_fd = os.pidfd_open(referee)
    except (AttributeError, OSError):
        child_fd = referee_fd = -1
    poller = select.poll()
    if child_fd >= 0:
        poller.register(child_fd, select.POLLIN)
        poller.register(referee_fd, select.POLLIN)
    while True:
        ready = {fd for fd, _ in poller.poll()} if child_fd >= 0 else set()
        if child_fd < 0:
            select.select([], [], [], PARENT_POLL_S)
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            _mirror(status)
        if referee_fd in ready or os.getppid() != referee:
            os.killpg(0, signal.SIGKILL)


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
    # The referee names itself: if it died before this line, getppid() is already
    # whoever adopted us, and watching that would let the bot outlive its referee.
    referee = int(os.environ.pop(REFEREE_ENV, "0")) or os.getppid()
    child = os.fork()
    if child == 0:
        _exec(command)
    _watch(child, referee)


if __name__ == "__main__":
    main(sys.argv[1:])
