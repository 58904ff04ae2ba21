"""Whether the sandbox works here: bubblewrap (found and recent enough), cgroups, folders
the bots' uids can reach, then a real trial sandbox. :func:`ensure_available` checks once
per process and raises :class:`SandboxUnavailable` naming what is missing and how to get
it; :func:`available` says it in words. The sandbox itself is :mod:`referee.sandbox.box`.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

from referee.sandbox import cgroups
from referee.sandbox.box import LAUNCHER, BotSandbox
from referee.sandbox.bubblewrap import (
    BWRAP_ENV,
    INSTALL_BWRAP,
    MIN_BWRAP,
    USERNS_HINT,
    bwrap_path,
    bwrap_version,
)
from referee.sandbox.config import SandboxConfig, SandboxUnavailable
from referee.sandbox.folders import on_tmpfs, private_folder, private_root, reachable
from referee.spec import BotSpec

PROBE_TIMEOUT_S = 30.0
_probing = threading.Lock()


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
    if not on_tmpfs(root):
        # A bot writes in its socket folder before it listens (and through files it opened
        # there, after): on a tmpfs that counts against its memory, on a disk nothing bounds it.
        problems.append(
            f"the bots' private folders would be on {root}, which is not a tmpfs (a bot "
            "could fill the disk through its socket folder); mount a tmpfs at /dev/shm"
        )
    if os.geteuid() == 0 and not reachable(root / "bot"):
        problems.append(
            f"the bots' uids cannot reach {root} (it and the folders above it need o+x)"
        )
    if problems:
        return "; ".join(problems)
    assert bwrap is not None
    return _trial(bwrap, config)


def _trial(bwrap: str, config: SandboxConfig) -> str | None:
    """Run the referee's interpreter in a real sandbox (uid, namespaces, cgroup); None if it
    works, else what went wrong."""

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
