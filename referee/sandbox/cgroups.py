"""Per-bot control groups: memory, process and CPU limits over a bot's whole process tree.

The referee nests one cgroup per bot process under its own place in the cgroup tree
(``/proc/self/cgroup``), sets its limits, and the launcher moves the bot's process into it
before the bot's code runs, so every child, grandchild and thread the bot starts is counted
and limited with it:

* cgroup v1 (``memory``, ``pids`` and ``cpu`` controllers, each mounted on its own): one
  folder per controller. The memory limit covers swap too where swap is accounted.
* cgroup v2 (the unified hierarchy), where the host delegates the three controllers to the
  referee's cgroup: one folder. If the referee's own cgroup holds only the referee, it moves
  itself into a leaf (``bullring-referee-<pid>``) so that the controllers can be enabled
  for its children (the "no internal processes" rule); otherwise it says what is missing.

:func:`host` finds where per-bot cgroups go (or raises :class:`CgroupError`, saying what
is missing and how to get it); :meth:`CgroupHost.create` makes one; a
:class:`BotCgroup` lists, kills and removes its processes and tells which limit was hit.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from sdk.errors import BullringError

CONTROLLERS = ("memory", "pids", "cpu")
CPU_PERIOD_US = 100_000
PREFIX = "bullring-"  # every cgroup the referee makes: bullring-<referee pid>-<n>-<tag>
REFEREE_LEAF = "bullring-referee-"  # v2: the leaf the referee moves itself into
MIB = 1 << 20
REMOVE_WAIT_S = 2.0  # a killed tree is reaped within this, then its cgroup can go
HOW_TO = (
    "run the referee as root on a host with the cgroup v1 memory, pids and cpu "
    "controllers mounted, or on cgroup v2 in a cgroup of its own with those controllers "
    "delegated (e.g. `systemd-run --user --scope -p Delegate=yes bullring ...`)"
)


class CgroupError(BullringError, RuntimeError):
    """Per-bot cgroups cannot be made here; the message says what is missing."""


@dataclass(frozen=True)
class CgroupLimits:
    """What one bot's whole process tree may use."""

    memory_mb: int  # resident memory and tmpfs pages (its private /tmp), swap included
    processes: int  # processes and threads at once
    cpus: float  # CPU time per wall second (1.0: one core)


@dataclass(frozen=True)
class CgroupUsage:
    """What a bot's cgroup recorded: which limits it ran into."""

    oom_kills: int  # processes the kernel killed at the memory limit
    forks_refused: int  # forks and thread starts refused at the process limit
    memory_peak: int  # bytes (0 where the kernel does not say)


@dataclass(frozen=True)
class CgroupHost:
    """Where this process makes per-bot cgroups: v1 (a base folder per controller) or v2
    (one base folder with the controllers enabled for its children)."""

    version: int
    bases: tuple[tuple[str, Path], ...]  # (controller, base folder); v2: ("", base)

    def create(self, limits: CgroupLimits) -> BotCgroup:
        """A new cgroup with `limits`, empty until a process joins it."""
        name = f"{PREFIX}{os.getpid()}-{next(_serial)}-{secrets.token_hex(3)}"
        dirs = tuple((controller, base / name) for controller, base in self.bases)
        made: list[Path] = []
        try:
            for _, folder in dirs:
                folder.mkdir(mode=0o755)
                made.append(folder)
            cgroup = BotCgroup(self.version, dirs, limits)
            cgroup.apply_limits()
        except OSError as error:
            for folder in reversed(made):
                with contextlib.suppress(OSError):
                    folder.rmdir()
            raise CgroupError(f"cannot make a cgroup under {dirs[0][1].parent}: {error}") from None
        return cgroup


_serial = iter(range(1, 1 << 62))


class BotCgroup:
    """One bot process's cgroup (see the module docstring)."""

    def __init__(
        self, version: int, dirs: tuple[tuple[str, Path], ...], limits: CgroupLimits
    ) -> None:
        self.version = version
        self.dirs = dirs
        self.limits = limits

    def folder(self, controller: str) -> Path:
        for name, path in self.dirs:
            if self.version == 2 or name == controller:
                return path
        raise KeyError(controller)

    def apply_limits(self) -> None:
        memory = self.limits.memory_mb * MIB
        quota = max(1000, int(self.limits.cpus * CPU_PERIOD_US))
        mem, pids, cpu = (self.folder(c) for c in CONTROLLERS)
        if self.version == 1:
            _write(mem / "memory.limit_in_bytes", str(memory))
            _write_if_present(mem / "memory.memsw.limit_in_bytes", str(memory))
            _write(pids / "pids.max", str(self.limits.processes))
            _write(cpu / "cpu.cfs_period_us", str(CPU_PERIOD_US))
            _write(cpu / "cpu.cfs_quota_us", str(quota))
        else:
            _write(mem / "memory.max", str(memory))
            _write_if_present(mem / "memory.swap.max", "0")
            _write_if_present(mem / "memory.oom.group", "1")
            _write(pids / "pids.max", str(self.limits.processes))
            _write(cpu / "cpu.max", f"{quota} {CPU_PERIOD_US}")

    def join_files(self) -> list[str]:
        """The ``cgroup.procs`` files a process writes its pid to, to join this cgroup."""
        return [str(path / "cgroup.procs") for _, path in self.dirs]

    def procs_file(self) -> str:
        return str(self.folder("pids") / "cgroup.procs")

    def kill_file(self) -> str | None:
        """v2's ``cgroup.kill`` (kills the whole tree at once), where the kernel has it."""
        if self.version == 2 and (self.folder("pids") / "cgroup.kill").exists():
            return str(self.folder("pids") / "cgroup.kill")
        return None

    def limit_watch(self) -> tuple[str | None, list[tuple[str, str]], list[tuple[str, str]]]:
        """How a watchdog learns that the tree ran into a limit, so that it ends the tree
        (a limit is then always a fault, whatever the bot does about it): (the v1 memory
        folder, whose OOMs an eventfd reports; (file, key) counters to read often; (file,
        key) counters the kernel flags on change). v1's ``memory.oom_control`` is costly to
        read often; v2 also kills the whole tree on OOM itself (``memory.oom.group``)."""
        pids_events = (str(self.folder("pids") / "pids.events"), "max")
        if self.version == 1:
            return str(self.folder("memory")), [pids_events], []
        return None, [], [(str(self.folder("memory") / "memory.events"), "oom_kill"), pids_events]

    def pids(self) -> list[int]:
        """Host pids of the processes in the cgroup (empty once it is gone)."""
        try:
            text = Path(self.procs_file()).read_text()
        except OSError:
            return []
        return [int(line) for line in text.split()]

    def kill(self, timeout_s: float = REMOVE_WAIT_S) -> None:
        """SIGKILL every process in the cgroup until it is empty (or `timeout_s` ends)."""
        kill_file = self.kill_file()
        if kill_file is not None:
            with contextlib.suppress(OSError):
                _write(Path(kill_file), "1")
        end = time.monotonic() + timeout_s
        while pids := self.pids():
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            if time.monotonic() >= end:
                return
            time.sleep(0.002)

    def remove(self, timeout_s: float = REMOVE_WAIT_S) -> bool:
        """Remove the cgroup's folders once its processes are reaped; True if all went."""
        end = time.monotonic() + timeout_s
        left = [path for _, path in self.dirs]
        while left:
            still = []
            for path in left:
                try:
                    path.rmdir()
                except FileNotFoundError:
                    pass
                except OSError as error:
                    if error.errno != errno.EBUSY:
                        raise
                    still.append(path)
            left = still
            if left:
                if time.monotonic() >= end:
                    return False
                time.sleep(0.005)
        return True

    def usage(self) -> CgroupUsage:
        """Which limits the tree ran into so far (0s once the cgroup is removed)."""
        memory_file = "memory.oom_control" if self.version == 1 else "memory.events"
        peak_file = "memory.max_usage_in_bytes" if self.version == 1 else "memory.peak"
        return CgroupUsage(
            oom_kills=_counter(self.folder("memory") / memory_file, "oom_kill"),
            forks_refused=_counter(self.folder("pids") / "pids.events", "max"),
            memory_peak=_number(self.folder("memory") / peak_file),
        )


def _write(path: Path, value: str) -> None:
    with open(path, "w") as file:
        file.write(value)


def _write_if_present(path: Path, value: str) -> None:
    if path.exists():
        _write(path, value)


def _counter(path: Path, key: str) -> int:
    """The value of ``key N`` in a flat-keyed cgroup file (0 if missing)."""
    with contextlib.suppress(OSError):
        for line in path.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    return 0


def _number(path: Path) -> int:
    with contextlib.suppress(OSError, ValueError):
        return int(path.read_text().strip())
    return 0


# --- finding where per-bot cgroups go ------------------------------------------------------


@dataclass(frozen=True)
class _Mount:
    point: Path
    fstype: str
    options: frozenset[str]


def _mounts() -> list[_Mount]:
    """cgroup and cgroup2 mounts from /proc/self/mountinfo."""
    mounts = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        before, _, after = line.partition(" - ")
        fields, tail = before.split(), after.split()
        if len(fields) >= 5 and len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            point = Path(fields[4].replace("\\040", " "))
            mounts.append(_Mount(point, tail[0], frozenset(tail[2].split(","))))
    return mounts


def _own_paths() -> dict[str, str]:
    """This process's cgroup path per v1 controller, and "" for the v2 hierarchy."""
    paths: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        number, controllers, path = line.split(":", 2)
        if number == "0" and controllers == "":
            paths[""] = path
        for controller in controllers.split(","):
            if controller:
                paths[controller] = path
    return paths


def _under(mount: Path, path: str) -> Path:
    return mount / path.lstrip("/")


@functools.cache
def host() -> CgroupHost:
    """Where per-bot cgroups go (cached per process); CgroupError says what is missing."""
    mounts, own = _mounts(), _own_paths()
    unified = next((m for m in mounts if m.fstype == "cgroup2"), None)
    v2_problem = ""
    if unified is not None and "" in own:
        base = _under(unified.point, own[""])
        try:
            available = set((base / "cgroup.controllers").read_text().split())
        except OSError:
            available = set()
        if set(CONTROLLERS) <= available:
            try:
                found = CgroupHost(2, (("", _v2_base(base)),))
            except CgroupError as error:
                v2_problem = str(error)
            else:
                sweep_stale(found)
                return found
    bases: list[tuple[str, Path]] = []
    missing: list[str] = []
    for controller in CONTROLLERS:
        mount = next((m for m in mounts if m.fstype == "cgroup" and controller in m.options), None)
        if mount is None or controller not in own:
            missing.append(f"{controller} (not mounted)")
            continue
        base = _under(mount.point, own[controller])
        if not os.access(base, os.W_OK | os.X_OK):
            missing.append(f"{controller} ({base} is not writable)")
            continue
        bases.append((controller, base))
    if missing:
        reason = v2_problem or "cgroup controllers " + ", ".join(missing)
        raise CgroupError(f"no per-bot cgroups: {reason}; {HOW_TO}")
    found = CgroupHost(1, tuple(bases))
    sweep_stale(found)
    return found


def _v2_base(own: Path) -> Path:
    """The v2 folder whose children get the controllers: the referee's own cgroup, or its
    parent if the referee already moved itself into a leaf of its own."""
    base = own.parent if own.name.startswith(REFEREE_LEAF) else own
    wanted = set(CONTROLLERS)
    if wanted <= set((base / "cgroup.subtree_control").read_text().split()):
        return base
    try:
        _write(base / "cgroup.subtree_control", " ".join(f"+{c}" for c in CONTROLLERS))
        return base
    except OSError as error:
        if error.errno != errno.EBUSY:
            raise CgroupError(
                f"cannot enable {', '.join(CONTROLLERS)} in {base}: {error}"
            ) from None
    # "No internal processes": the referee must leave its cgroup first, and only if it is
    # alone there (other processes are not the referee's to move).
    others = [p for p in (base / "cgroup.procs").read_text().split() if int(p) != os.getpid()]
    if others:
        raise CgroupError(
            f"the referee's cgroup {base} holds other processes ({len(others)}), so its "
            "controllers cannot be enabled for per-bot cgroups"
        )
    leaf = base / f"{REFEREE_LEAF}{os.getpid()}"
    try:
        leaf.mkdir(exist_ok=True)
        _write(leaf / "cgroup.procs", str(os.getpid()))
        _write(base / "cgroup.subtree_control", " ".join(f"+{c}" for c in CONTROLLERS))
    except OSError as error:
        raise CgroupError(f"cannot enable {', '.join(CONTROLLERS)} in {base}: {error}") from None
    return base


def sweep_stale(found: CgroupHost) -> None:
    """Remove empty per-bot cgroups left by referees that died with their watchdogs."""
    for _, base in found.bases:
        with contextlib.suppress(OSError):
            for entry in base.iterdir():
                name = entry.name
                if not name.startswith(PREFIX) or name.startswith(REFEREE_LEAF):
                    continue
                owner = name[len(PREFIX) :].split("-", 1)[0]
                if owner.isdigit() and not alive(int(owner)):
                    with contextlib.suppress(OSError):
                        entry.rmdir()  # fails (EBUSY) unless it is empty


def alive(pid: int) -> bool:
    """Whether a process `pid` exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
