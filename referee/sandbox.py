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
* lives in a cgroup of its own (:mod:`referee.cgroups`) that limits memory, processes and
  CPU over its whole tree;
* dies with its lease: bubblewrap's ``--die-with-parent``, the launcher's watchdog
  (:mod:`referee.launch`), and the referee killing the whole cgroup on stop.

The referee reaches the bot's socket through a hard link it makes, in its private folder,
to the socket the bot bound (after checking it is a socket of the bot's uid), so a bot can
never point the referee at another bot's socket.

:func:`ensure_available` checks, once per process, that all of this works here and raises
:class:`SandboxUnavailable` naming what is missing and how to get it.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from referee import cgroups
from referee.spec import BotSpec

BWRAP_ENV = "BULLRING_BWRAP"  # overrides where bubblewrap is (e.g. a test's missing one)
MIN_BWRAP = (0, 7)  # --size (a bounded /tmp)
DISABLE_USERNS_BWRAP = (0, 8)
SOCKET_FOLDER = "/run/bullring"  # where the bot's socket folder is, inside the sandbox
SOCKET_NAME = "bot.sock"
LIMIT_FILE = "limit"  # written by the watchdog (launch.LIMIT_FILE) in the private folder
HOSTNAME = "bullring-bot"
INSTALL_BWRAP = (
    "install it: `apt-get install bubblewrap` (Debian, Ubuntu) or `dnf install bubblewrap`"
)
USERNS_HINT = (
    "allow unprivileged user namespaces: `sysctl -w kernel.unprivileged_userns_clone=1` "
    "(Debian), `sysctl -w user.max_user_namespaces=15000`, and on Ubuntu 23.10+ "
    "`sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`"
)
RUNTIME_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
RUNTIME_ETC = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "nsswitch.conf",
    "alternatives",
)
REPO = Path(__file__).resolve().parents[1]
PROBE_TIMEOUT_S = 30.0
MIB = 1 << 20
_probing = threading.Lock()


class SandboxUnavailable(RuntimeError):
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


# --- is it available? -------------------------------------------------------------------


def bwrap_path(config: SandboxConfig) -> str | None:
    """The bubblewrap executable to use, or None if there is none."""
    wanted = config.bwrap or os.environ.get(BWRAP_ENV) or "bwrap"
    if os.sep in wanted:
        return wanted if os.access(wanted, os.X_OK) and os.path.isfile(wanted) else None
    return shutil.which(wanted)


def ensure_available(config: SandboxConfig) -> None:
    """Raise SandboxUnavailable unless `config`'s sandbox works here (checked for real,
    once per process and bubblewrap)."""
    with _probing:  # one trial at a time: the first caller's answer is cached for the rest
        problem = _problem(bwrap_path(config), config.bwrap or os.environ.get(BWRAP_ENV), config)
    if problem is not None:
        raise SandboxUnavailable(f"the bot sandbox is not available: {problem}")


def available(config: SandboxConfig) -> str | None:
    """None if the sandbox works here, else why not (the SandboxUnavailable message)."""
    try:
        ensure_available(config)
    except SandboxUnavailable as error:
        return str(error)
    return None


@functools.cache
def _problem(bwrap: str | None, wanted: str | None, config: SandboxConfig) -> str | None:
    problems = []
    if bwrap is None:
        where = f" at {wanted}" if wanted and os.sep in wanted else ""
        problems.append(f"bubblewrap (bwrap) is not installed{where}; {INSTALL_BWRAP}")
    else:
        version = bwrap_version(bwrap)
        if version is None or version < MIN_BWRAP:
            shown = ".".join(map(str, version)) if version else "unknown"
            problems.append(
                f"bubblewrap {shown} at {bwrap} is too old (0.7 or later is needed); "
                f"{INSTALL_BWRAP}"
            )
    try:
        cgroups.host()
    except cgroups.CgroupError as error:
        problems.append(str(error))
    root = Path(private_root(config))
    if os.geteuid() == 0 and not _reachable(root / "bot"):
        problems.append(
            f"the bots' uids cannot reach {root} (it and the folders above it need o+x)"
        )
    if problems:
        return "; ".join(problems)
    assert bwrap is not None
    return _trial(bwrap, config)


@functools.cache
def bwrap_version(bwrap: str) -> tuple[int, ...] | None:
    try:
        out = subprocess.run(
            [bwrap, "--version"], capture_output=True, text=True, timeout=10
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", out)
    return tuple(int(part) for part in found.groups() if part is not None) if found else None


def _trial(bwrap: str, config: SandboxConfig) -> str | None:
    """Run the referee's interpreter in a real sandbox (uid, namespaces, cgroup); None if it
    works, else what went wrong."""
    from referee.process import LAUNCHER  # the launcher is the process module's

    folder = private_folder(private_root(config))  # the trial bot's (empty) folder
    folder.chmod(0o755)
    command = (sys.executable, "-I", "-S", "-c", "pass")
    spec = BotSpec("sandbox-probe", command=command, workdir=str(folder))
    box: BotSandbox | None = None
    try:
        box = BotSandbox(spec, config, bwrap, folder=folder)
        argv = box.launch_argv(LAUNCHER, [], list(command))
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, env=box.env({})
        )
    except (OSError, subprocess.SubprocessError, cgroups.CgroupError) as error:
        return f"a trial sandbox could not start: {error}"
    finally:
        if box is not None:
            box.kill()
            box.clean_up()
        shutil.rmtree(folder, ignore_errors=True)
    if done.returncode == 0:
        return None
    said = " | ".join(line for line in done.stderr.strip().splitlines()[-3:])
    hint = USERNS_HINT if "namespace" in said or "uid map" in said else "see bwrap's message"
    return f"a trial sandbox failed (exit {done.returncode}: {said or 'no message'}); {hint}"


# --- what a bot sees ---------------------------------------------------------------------


def bot_folder(spec: BotSpec) -> Path:
    """The folder a bot sees besides its runtime: the folder of its manifest (its workdir
    if it has none), widened to the outermost enclosing Python package, so that a bot that
    is a module of a package (``python -m example_bots.random_bot``) sees the package."""
    folder = Path(spec.manifest).parent if spec.manifest else Path(spec.workdir)
    folder = folder.resolve()
    while (folder / "__init__.py").is_file() and (folder.parent / "__init__.py").is_file():
        folder = folder.parent
    return folder


@dataclass(frozen=True)
class Mount:
    """One thing the sandbox shows: ``ro``/``rw`` bind of a host path, or a ``symlink``."""

    kind: str
    source: str
    target: str


@functools.cache
def runtime_mounts(extra: tuple[str, ...] = ()) -> tuple[Mount, ...]:
    """The runtime every bot sees read-only: system folders, the interpreter, the SDK."""
    found: list[Mount] = [Mount("ro", "/usr", "/usr")]
    for name in RUNTIME_LINKS:
        path = Path("/", name)
        if path.is_symlink():
            found.append(Mount("symlink", os.readlink(path), str(path)))
        elif path.is_dir():
            found.append(Mount("ro", str(path), str(path)))
    for name in RUNTIME_ETC:
        path = Path("/etc", name)
        if path.exists():
            found.append(Mount("ro", str(path), str(path)))
    paths = [sys.base_prefix, sys.prefix, str(Path(os.path.realpath(sys.executable)).parents[1])]
    sdk = importlib.util.find_spec("sdk")
    if sdk is not None and sdk.submodule_search_locations:
        paths += list(sdk.submodule_search_locations)
    if (REPO / "proto").is_dir():
        paths.append(str(REPO / "proto"))
    node = shutil.which("node")
    if node is not None:
        paths.append(str(Path(os.path.realpath(node)).parents[1]))
    paths += extra
    for wanted in paths:
        real = os.path.realpath(wanted)
        if os.path.exists(real) and not _covered(real, found):
            found.append(Mount("ro", real, real))
    return tuple(found)


def _covered(path: str, mounts: list[Mount]) -> bool:
    return any(
        m.kind != "symlink" and (path == m.target or path.startswith(m.target.rstrip("/") + "/"))
        for m in mounts
    )


def sandbox_path() -> str:
    """PATH inside the sandbox: the interpreter's folders, then the system's."""
    folders = [str(Path(sys.executable).parent), str(Path(sys.base_prefix, "bin"))]
    node = shutil.which("node")
    if node is not None:
        folders.append(str(Path(os.path.realpath(node)).parent))
    folders += ["/usr/local/bin", "/usr/bin", "/bin"]
    return ":".join(dict.fromkeys(folders))


def private_root(config: SandboxConfig) -> str:
    if config.private_root:
        return socket_root(config.private_root)
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK):
        return str(shm)
    return tempfile.gettempdir()


PRIVATE_PREFIX = "bullring-bot-"  # private folders: bullring-bot-<referee pid>-<random>
_swept: set[str] = set()
# A Unix socket's path has at most 107 bytes. A private folder's socket path adds about 45
# to its root (prefix, pid, random part, "sock/bot.sock"); past this a root is too deep.
MAX_SOCKET_ROOT = 56


def socket_root(root: str) -> str:
    """`root` if a bot socket under it fits a Unix socket's path, else a short system one.

    A deep TMPDIR (pytest's, say) would otherwise make gRPC fail to bind with no reason
    given."""
    if len(os.fsencode(root)) <= MAX_SOCKET_ROOT:
        return root
    for short in ("/dev/shm", "/tmp"):
        if os.path.isdir(short) and os.access(short, os.W_OK | os.X_OK):
            return short
    raise OSError(f"no folder for bot sockets: {root} is too deep for a Unix socket's path")


def private_folder(root: str) -> Path:
    """A new private folder for a bot process under `root` (mode 0700), named after this
    referee process. The first one in each root also sweeps away the folders of referees
    that are gone and whose watchdogs could not clean up (both killed with SIGKILL)."""
    root = socket_root(root)
    if root not in _swept:
        _swept.add(root)
        sweep_stale_private(root)
    return Path(tempfile.mkdtemp(prefix=f"{PRIVATE_PREFIX}{os.getpid()}-", dir=root))


def sweep_stale_private(root: str) -> None:
    """Remove this user's private folders under `root` whose referee process is gone."""
    with contextlib.suppress(OSError), os.scandir(root) as entries:
        for entry in entries:
            owner = entry.name[len(PRIVATE_PREFIX) :].split("-", 1)[0]
            if (
                entry.name.startswith(PRIVATE_PREFIX)
                and owner.isdigit()
                and not cgroups.alive(int(owner))
                and entry.is_dir(follow_symlinks=False)
                and entry.stat(follow_symlinks=False).st_uid == os.geteuid()
            ):
                shutil.rmtree(entry.path, ignore_errors=True)


def _reachable(path: Path) -> bool:
    """Whether any user can walk to `path` (every folder above it is o+x)."""
    return all(parent.stat().st_mode & stat.S_IXOTH for parent in path.parents)


_uid_turn = random.Random().randrange(1 << 30)


def next_uid(config: SandboxConfig) -> int | None:
    """The host uid of the next bot process: one of ``config.uids`` in turn (starting at a
    random place, so referees on one host rarely share one), or None (the referee's own)
    when the referee is not root."""
    global _uid_turn
    if os.geteuid() != 0:
        return None
    first, last = config.uids
    _uid_turn += 1
    return first + _uid_turn % (last - first + 1)


class BotStartRefused(ValueError):
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
        if self.uid is None or _reachable(Path(path)):
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
        self._linked = True
        if self.uid is not None:  # from now on the bot cannot write to that folder
            os.chown(self.socket_folder, 0, 0)
            self.socket_folder.chmod(0o711)
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
        ended it for one says (referee/launch.py), or as its cgroup recorded."""
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
