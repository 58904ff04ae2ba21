"""Bubblewrap, the program every bot runs under: where it is, which version, and what to
tell a user who lacks it."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess

from referee.sandbox.config import SandboxConfig

BWRAP_ENV = "BULLRING_BWRAP"  # overrides where bubblewrap is (e.g. a test's missing one)
MIN_BWRAP = (0, 7)  # --size (a bounded /tmp)
INSTALL_BWRAP = (
    "install it: `apt-get install bubblewrap` (Debian, Ubuntu) or `dnf install bubblewrap`"
)
USERNS_HINT = (
    "allow unprivileged user namespaces: `sysctl -w kernel.unprivileged_userns_clone=1` "
    "(Debian), `sysctl -w user.max_user_namespaces=15000`, and on Ubuntu 23.10+ "
    "`sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`"
)


def bwrap_path(config: SandboxConfig) -> str | None:
    """The bubblewrap executable to use, or None if there is none."""
    wanted = config.bwrap or os.environ.get(BWRAP_ENV) or "bwrap"
    if os.sep in wanted:
        return wanted if os.access(wanted, os.X_OK) and os.path.isfile(wanted) else None
    return shutil.which(wanted)


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
