"""What a sandboxed bot sees and where its own files go: its bot folder, the read-only
runtime every bot sees, PATH inside, the private folders (and their sockets) under a root
the bots' uids can reach, and the host uid each bot process gets in turn. The sandbox
itself is :mod:`referee.sandbox.box`.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import random
import shutil
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from referee.sandbox import cgroups
from referee.sandbox.config import SandboxConfig
from referee.spec import BotSpec

RUNTIME_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
RUNTIME_ETC = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "nsswitch.conf",
    "alternatives",
)
# The checkout (referee/sandbox/ is two levels down): its proto/ folder, for bots in other
# languages that load the protocol at run time.
REPO = Path(__file__).resolve().parents[2]


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


def on_tmpfs(path: Path) -> bool:
    """Whether `path` is on a tmpfs (its mount, by device, in /proc/self/mountinfo): there,
    what a bot writes counts against its cgroup's memory limit."""
    try:
        device = os.stat(path).st_dev
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return False
    wanted = f"{os.major(device)}:{os.minor(device)}"
    for line in mounts:
        fields, _, rest = line.partition(" - ")
        if fields.split()[2:3] == [wanted]:
            return rest.split()[:1] == ["tmpfs"]
    return False


def reachable(path: Path) -> bool:
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
