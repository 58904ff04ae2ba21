"""Connecting where it must not: at its first decision the bot tries to connect to every
Unix socket path of ``sockets`` (other bots' sockets, as the host sees them), to every
abstract Unix socket name of ``abstract``, and to every TCP port of ``ports`` on the
loopback (127.0.0.1 and ::1), and lists its network interfaces. It reports the outcomes."""

from __future__ import annotations

import socket
from typing import Any

from tests.referee.hostile.common import HostileBot, attempt, main

TIMEOUT_S = 1.0


def connect(family: socket.AddressFamily, address: Any) -> str:
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.settimeout(TIMEOUT_S)
        sock.connect(address)
        sock.sendall(b"hostile")
        return "connected"


def interfaces() -> list[str]:
    with open("/proc/net/dev") as file:
        return [line.split(":")[0].strip() for line in file.readlines()[2:]]


class Connector(HostileBot):
    name = "connector"

    def attack(self) -> dict[str, Any]:
        tried = []
        for path in self.config.get("sockets", []):
            tried.append(attempt(f"unix {path}", lambda p=path: connect(socket.AF_UNIX, p)))
        for name in self.config.get("abstract", []):
            tried.append(
                attempt(f"abstract {name}", lambda n=name: connect(socket.AF_UNIX, "\0" + n))
            )
        for port in self.config.get("ports", []):
            tried.append(
                attempt(
                    f"tcp 127.0.0.1:{port}",
                    lambda p=port: connect(socket.AF_INET, ("127.0.0.1", p)),
                )
            )
            tried.append(
                attempt(f"tcp [::1]:{port}", lambda p=port: connect(socket.AF_INET6, ("::1", p)))
            )
        return {"interfaces": attempt("interfaces", interfaces), "tried": tried}


if __name__ == "__main__":
    main(Connector())
