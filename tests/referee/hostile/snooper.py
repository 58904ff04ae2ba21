"""Reading and writing what is not its own: at its first decision the bot tries to read
and list every path in ``read``/``list`` (the league store, a replay, another bot's
folder, the host's /tmp, /root, /work...), to write to every path in ``write`` and create
a file in every folder of ``create``, and to read the referee's ``/proc/<pid>/environ``,
``cmdline``, ``fd`` (and what they point to) and ``mem`` for every pid of ``pids``; and
reads the environment of every process it can see. It reports everything it got."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.referee.hostile.common import READ_LIMIT, HostileBot, attempt, main

MEM_ADDRESS = 0x400000  # where a non-PIE executable's code would be mapped


def read(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read(READ_LIMIT)


def append(path: str) -> int:
    with open(path, "ab") as file:
        return file.write(b"hostile was here")


def read_mem(pid: int) -> bytes:
    with open(f"/proc/{pid}/mem", "rb") as file:
        file.seek(MEM_ADDRESS)
        return file.read(64)


def read_fds(pid: int) -> dict[str, str]:
    found = {}
    for fd in sorted(os.listdir(f"/proc/{pid}/fd"))[:64]:
        target = os.readlink(f"/proc/{pid}/fd/{fd}")
        content = attempt("read", lambda fd=fd: read(f"/proc/{pid}/fd/{fd}"))
        found[fd] = f"{target} -> {content}"
    return found


class Snooper(HostileBot):
    name = "snooper"

    def attack(self) -> dict[str, Any]:
        tried = []
        for path in self.config.get("read", []):
            tried.append(attempt(f"read {path}", lambda p=path: read(p)))
        for path in self.config.get("list", []):
            tried.append(attempt(f"list {path}", lambda p=path: sorted(os.listdir(p))[:200]))
        for path in self.config.get("write", []):
            tried.append(attempt(f"write {path}", lambda p=path: append(p)))
        for folder in self.config.get("create", []):
            tried.append(
                attempt(f"create in {folder}", lambda f=folder: append(str(Path(f, "hostile"))))
            )
        for pid in self.config.get("pids", []):
            for leaf in ("environ", "cmdline", "maps"):
                tried.append(
                    attempt(
                        f"read /proc/{pid}/{leaf}", lambda p=pid, x=leaf: read(f"/proc/{p}/{x}")
                    )
                )
            tried.append(attempt(f"fds of {pid}", lambda p=pid: read_fds(p)))
            tried.append(attempt(f"mem of {pid}", lambda p=pid: read_mem(p)))
        visible = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
        for pid in visible:
            tried.append(
                attempt(f"read /proc/{pid}/environ", lambda p=pid: read(f"/proc/{p}/environ"))
            )
        return {"visible_pids": visible, "pid": os.getpid(), "tried": tried}


if __name__ == "__main__":
    main(Snooper())
