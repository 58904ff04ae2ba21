"""What the sandbox looks like from inside: at its first decision the bot reports its ids,
capabilities, no-new-privs, namespaces' view (hostname, network interfaces, processes),
its environment, and which folders of its view it can write to."""

from __future__ import annotations

import os
import socket
from typing import Any

from tests.referee.hostile.common import HostileBot, attempt, main

PROBE_FOLDERS = ("/", "/tmp", "/dev/shm", "/dev", "/run/bullring", "/usr", "/proc", "/etc")


def status() -> dict[str, str]:
    with open("/proc/self/status") as file:
        pairs = (line.split(":", 1) for line in file if ":" in line)
        return {key: value.strip() for key, value in pairs}


def writable(folder: str) -> bool:
    path = os.path.join(folder, f"probe-{os.getpid()}")
    try:
        with open(path, "w") as file:
            file.write("x")
    except OSError:
        return False
    os.unlink(path)
    return True


def mount_points() -> list[str]:
    with open("/proc/self/mountinfo") as file:
        return [line.split()[4] for line in file]


class Introspect(HostileBot):
    name = "introspect"

    def attack(self) -> dict[str, Any]:
        info = status()
        with open("/proc/net/dev") as file:
            interfaces = [line.split(":")[0].strip() for line in file.readlines()[2:]]
        return {
            "uid": os.getuid(),
            "gid": os.getgid(),
            "groups": os.getgroups(),
            "cap_eff": info["CapEff"],
            "cap_prm": info["CapPrm"],
            "cap_bnd": info["CapBnd"],
            "no_new_privs": info["NoNewPrivs"],
            "hostname": socket.gethostname(),
            "interfaces": interfaces,
            "processes": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
            "env": dict(os.environ),
            "cwd": os.getcwd(),
            "writable": {folder: writable(folder) for folder in PROBE_FOLDERS},
            "mounts": mount_points(),
            "userns": attempt("new user namespace", lambda: os.system("unshare -U true")),
        }


if __name__ == "__main__":
    main(Introspect())
