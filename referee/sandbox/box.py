"""The sandbox every bot process runs in: bubblewrap, a uid of its own and a cgroup of its own.

A sandboxed bot process (see docs/referee.md, "The sandbox"):

* runs as an unprivileged host uid and gid of its own (a distinct one per process, from
  ``SandboxConfig.uids``, when the referee is root; the referee's own uid otherwise), with
  no supplementary groups, no capabilities and no-new-privs, in new user, pid, network,
  ipc, uts and cgroup namespaces (bubblewrap's ``--unshare-all``): it sees and can signal
  only its own processes, has no network at all (not even the host's loopback: its own
  namespace's loopback reaches nothing else), and may not make further user namespaces;
* sees a read-only view of the host made of the runtime it needs (``/usr``, ``/lib*``,
  ``/bin``, the few ``/etc`` files a runtime reads, the referee's Python interpreter and
  virtual environment, the ``sdk`` package, the protocol's ``.proto`` files, Node.js) and
  its **bot folder** (:func:`bot_folder`), each at its own path; it writes only to its
  private ``/tmp`` (a tmpfs of ``tmp_mb``, also ``/dev/shm``) and its socket folder;
* lives in a cgroup of its own (:mod:`referee.sandbox.cgroups`) that limits memory, processes and
  CPU over its whole tree;
* dies with its lease: bubblewrap's ``--die-with-parent``, the launcher's watchdog
  (:mod:`referee.sandbox.launch`), and the referee killing the whole cgroup on stop.

The referee reaches the bot's socket through a hard link it makes, in its private folder,
to the socket the bot bound (after checking it is a socket of the bot's uid), so a bot can
never point the referee at another bot's socket.

:func:`ensure_available` checks, once per process, that all of this works here and raises
:class:`SandboxUnavailable` naming what is missing and how to get it.

This module is the per-bot sandbox (:class:`BotSandbox`); the configuration is
:mod:`referee.sandbox.config`, what a bot sees and its private folders
:mod:`referee.sandbox.folders`, the check that the sandbox works here
:mod:`referee.sandbox.probe`, bubblewrap's look-ups :mod:`referee.sandbox.bubblewrap`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
from pathlib import Path

from referee.sandbox import cgroups
from referee.sandbox.bubblewrap import (
    bwrap_version,
)
from referee.sandbox.config import SandboxConfig
from referee.sandbox.folders import (
    Mount,
    bot_folder,
    next_uid,
    private_folder,
    private_root,
    reachable,
    runtime_mounts,
    sandbox_path,
)
from referee.spec import BotSpec
from sdk.errors import BullringError

DISABLE_USERNS_BWRAP = (0, 8)
SOCKET_FOLDER = "/run/bullring"  # where the bot's socket folder is, inside the sandbox
SOCKET_NAME = "bot.sock"
LIMIT_FILE = "limit"  # written by the watchdog (launch.LIMIT_FILE) in the private folder
HOSTNAME = "bullring-bot"
# The launcher every bot process is started through (run as a script, see launch.py).
LAUNCHER = Path(__file__).with_name("launch.py")
MIB = 1 << 20


class BotStartRefused(BullringError, ValueError):
    """A bot this sandbox cannot start as described (its message says why)."""


class BotSandbox:
    """One bot process's sandbox: uid, private folder, cgroup and the bubblewrap command.

    The private folder (mode 0711, the referee's) holds the bot's socket folder
    (``sock/``, the bot's, 0700, seen inside as ``/run/bullring``), the referee's hard link
    to the bot's socket, mount points for folders staged by the launcher, and the log.
    BotStartRefused if the bot cannot be sandboxed as its manifest says; CgroupError if
    its cgroup cannot be made.
    """

    def __init__(
        self, spec: BotSpec, config: SandboxConfig, bwrap: str, folder: Path | None = None
    ) -> None:
        self.spec = spec
        self.config = config
        self.bwrap = bwrap
        self.folder = (folder or bot_folder(spec)).resolve()
        self.workdir = Path(spec.workdir).resolve()
        inside = self.workdir == self.folder or self.folder in self.workdir.parents
        if not (inside or self.workdir in self.folder.parents):
            raise BotStartRefused(
                f"workdir {self.workdir} is outside the bot's folder {self.folder}: the "
                "sandbox shows a bot only its own folder (and the folders above it, empty)"
            )
        mode = self.folder.stat().st_mode
        if os.geteuid() == 0 and (mode & 0o005) != 0o005:
            raise BotStartRefused(
                f"the bot's folder {self.folder} is not readable by other users (mode "
                f"{stat.S_IMODE(mode):o}), so not by the bot's own uid in the sandbox: "
                f"`chmod -R o+rX {self.folder}`"
            )
        self.uid = next_uid(config)
        self._stage: list[tuple[str, str]] = []
        self._tmp_fd = -1
        self._linked = False
        self.private = private_folder(private_root(config))
        try:
            self.private.chmod(0o711)
            self.socket_folder.mkdir(mode=0o700)
            if self.uid is not None:
                os.chown(self.socket_folder, self.uid, self.uid)
            self.cgroup = cgroups.host().create(config.limits())
        except BaseException:
            shutil.rmtree(self.private, ignore_errors=True)
            raise

    @property
    def socket_folder(self) -> Path:
        return self.private / "sock"

    @property
    def socket_link(self) -> Path:
        """The referee's own link to the bot's socket (what it connects to)."""
        return self.private / SOCKET_NAME

    # --- the command ----------------------------------------------------------------

    def launch_argv(self, launcher: Path, options: list[str], command: list[str]) -> list[str]:
        """The whole argv: the launcher (with `options`, e.g. rlimits, and this sandbox's
        own), then bubblewrap running `command`."""
        inner = self._bwrap_argv(command)  # first: it decides what the launcher stages
        return [
            sys.executable, "-I", "-S", str(launcher), *options, *self._launcher_options(),
            "--", *inner,
        ]  # fmt: skip

    def mounts(self) -> list[Mount]:
        """What the bot sees besides /proc, /dev and its /tmp."""
        found = list(runtime_mounts(self.config.read_only))
        found.append(Mount("ro", str(self.folder), str(self.folder)))
        found.append(Mount("rw", str(self.socket_folder), SOCKET_FOLDER))
        for path in self.config.writable:
            real = os.path.realpath(path)
            found.append(Mount("rw", real, real))
        return found

    def _bwrap_argv(self, command: list[str]) -> list[str]:
        tmp = str(self.config.tmp_mb * MIB)
        args = [self.bwrap, "--unshare-all", "--unshare-user", "--die-with-parent"]
        args += ["--new-session", "--hostname", HOSTNAME]
        if (bwrap_version(self.bwrap) or (0,)) >= DISABLE_USERNS_BWRAP:
            args.append("--disable-userns")
        args += ["--proc", "/proc", "--dev", "/dev"]
        args += ["--perms", "0700", "--size", tmp, "--tmpfs", "/tmp"]
        args += ["--perms", "0700", "--size", tmp, "--tmpfs", "/dev/shm"]
        mounts = self.mounts()
        for m in mounts:
            if m.kind == "symlink":
                args += ["--symlink", m.source, m.target]
        # Parents before children, so that a folder inside another is not hidden by it.
        binds = sorted((m for m in mounts if m.kind != "symlink"), key=lambda m: _depth(m.target))
        for m in binds:
            args += ["--ro-bind" if m.kind == "ro" else "--bind", self._source(m.source), m.target]
        args += ["--remount-ro", "/dev", "--remount-ro", "/", "--chdir", str(self.workdir)]
        return [*args, "--", *command]

    def _source(self, path: str) -> str:
        """`path`, or a staged mount point of it if the bot's uid cannot walk to it."""
        if self.uid is None or reachable(Path(path)):
            return path
        target = self.private / "stage" / str(len(self._stage))
        target.parent.mkdir(mode=0o711, exist_ok=True)
        if Path(path).is_dir():
            target.mkdir()
        else:
            target.touch()
        self._stage.append((path, str(target)))
        return str(target)

    def _launcher_options(self) -> list[str]:
        cgroup = self.cgroup
        options = ["--bwrap", "--procs", cgroup.procs_file(), "--private", str(self.private)]
        for path in cgroup.join_files():
            options += ["--join", path]
        for _, folder in cgroup.dirs:
            options += ["--cleanup", str(folder)]
        kill = cgroup.kill_file()
        if kill is not None:
            options += ["--kill", kill]
        oom_event, watch, notify = cgroup.limit_watch()
        if oom_event is not None:
            options += ["--oom-event", oom_event]
        for flag, counters in (("--watch", watch), ("--notify", notify)):
            for file, key in counters:
                options += [flag, file, key]
        for source, target in self._stage:
            options += ["--stage", source, target]
        if self.uid is not None:
            options += ["--uid", str(self.uid), "--gid", str(self.uid)]
        return options

    def env(self, env: dict[str, str]) -> dict[str, str]:
        """The bot's environment, with the sandbox's own paths."""
        return {
            **env,
            "PATH": sandbox_path(),
            "HOME": "/tmp",
            "TMPDIR": "/tmp",
            "PYTHONDONTWRITEBYTECODE": "1",  # its folder is read-only
            "BULLRING_LISTEN": f"unix:{SOCKET_FOLDER}/{SOCKET_NAME}",
        }

    # --- while it runs ----------------------------------------------------------------

    def socket_ready(self) -> bool:
        """Whether the bot has bound its socket; the first time, link it for the referee.
        BotStartRefused if what it bound is not a socket of its own."""
        if self._linked:
            return True
        bound = self.socket_folder / SOCKET_NAME
        try:
            os.lstat(bound)
        except FileNotFoundError:
            return False
        refused = BotStartRefused(f"{SOCKET_FOLDER}/{SOCKET_NAME} is not a socket it bound")
        try:
            os.link(bound, self.socket_link, follow_symlinks=False)
            info = os.lstat(self.socket_link)
        except OSError:
            raise refused from None
        owner = self.uid if self.uid is not None else os.geteuid()
        if not stat.S_ISSOCK(info.st_mode) or info.st_uid != owner:
            self.socket_link.unlink()
            raise refused
        if self.uid is not None:  # from now on the bot cannot write to that folder
            os.chown(self.socket_folder, 0, 0)
            self.socket_folder.chmod(0o711)
            # ... but a folder or file it made there before would stay its own, on the host
            # and outside its /tmp's limit, for as long as it lives: refuse it (the names
            # are the bot's: counted, never quoted).
            others = len(set(os.listdir(self.socket_folder)) - {SOCKET_NAME})
            if others:
                raise BotStartRefused(
                    f"its socket folder {SOCKET_FOLDER} holds more than its socket "
                    f"({others} other {'entry' if others == 1 else 'entries'})"
                )
        self._linked = True
        self._hold_tmp()
        return True

    def _hold_tmp(self) -> None:
        """Keep a handle on the bot's /tmp, to tell later whether it was full."""
        own = os.readlink("/proc/self/ns/pid")
        for pid in self.cgroup.pids():
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/ns/pid") != own:
                    self._tmp_fd = os.open(f"/proc/{pid}/root/tmp", os.O_PATH | os.O_DIRECTORY)
                    return

    def limit_hit(self) -> str | None:
        """Which sandbox limit the bot ran into, in words, or None: as the watchdog that
        ended it for one says (referee/sandbox/launch.py), or as its cgroup recorded."""
        try:
            ended_for = (self.private / LIMIT_FILE).read_text()
        except OSError:
            ended_for = ""
        usage = self.cgroup.usage()
        if usage.oom_kills or ended_for == "memory":
            return f"memory: its processes went over the {self.config.memory_mb} MiB limit"
        if usage.forks_refused or ended_for == "processes":
            return (
                f"processes: it tried to run more than {self.config.processes} processes "
                "or threads at once"
            )
        if self._tmp_full():
            return f"disk: its private /tmp ({self.config.tmp_mb} MiB) was full"
        return None

    def _tmp_full(self) -> bool:
        if self._tmp_fd < 0:
            return False
        try:
            info = os.fstatvfs(self._tmp_fd)
        except OSError:
            return False
        return info.f_bavail == 0 or info.f_favail == 0

    # --- the end ----------------------------------------------------------------------

    def kill(self) -> None:
        """SIGKILL the whole tree (its pid namespace dies with it)."""
        self.cgroup.kill()

    def clean_up(self) -> None:
        """Remove the cgroup and the private folder (after kill and reaping)."""
        if self._tmp_fd >= 0:
            os.close(self._tmp_fd)
            self._tmp_fd = -1
        try:
            self.cgroup.remove()
        finally:
            shutil.rmtree(self.private, ignore_errors=True)


def _depth(path: str) -> int:
    return len(Path(path).parts)
