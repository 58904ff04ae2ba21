"""How bots are sandboxed (:class:`SandboxConfig`), and the error that says the sandbox
cannot run here. The sandbox itself is :mod:`referee.sandbox.box`."""

from __future__ import annotations

from dataclasses import dataclass

from referee.sandbox import cgroups
from sdk.errors import BullringError


class SandboxUnavailable(BullringError, RuntimeError):
    """The sandbox cannot run here; the message names what is missing and how to get it."""


@dataclass(frozen=True)
class SandboxConfig:
    """How bots are sandboxed (the league file's ``[sandbox]`` table; docs/leagues.md)."""

    enabled: bool = True
    memory_mb: int = 1024  # the bot's whole tree: processes, threads and its /tmp
    processes: int = 64  # processes and threads at once, over the whole tree
    cpus: float = 1.0  # CPU time per second of wall time (1.0: one core)
    tmp_mb: int = 64  # its private /tmp (and /dev/shm): the disk it may fill
    uids: tuple[int, int] = (61000, 61999)  # first and last host uid given to bots
    bwrap: str | None = None  # bubblewrap: $BULLRING_BWRAP, else `bwrap` on PATH
    read_only: tuple[str, ...] = ()  # more host paths every bot may read (runtimes)
    # Host folders every bot may write, at their own paths: for tests and debugging, never
    # for untrusted bots (they could talk, and fill the disk, through them).
    writable: tuple[str, ...] = ()
    # Where private folders go (default: /dev/shm, whose pages count against the bot's
    # memory limit, else the system's temporary folder).
    private_root: str | None = None

    def limits(self) -> cgroups.CgroupLimits:
        return cgroups.CgroupLimits(self.memory_mb, self.processes, self.cpus)


NO_SANDBOX = SandboxConfig(enabled=False)
