"""Disk fill: at its first decision the bot writes 1 MiB blocks to /tmp until it is refused
(at most ``max_mb``, 96 MiB), tries to write where it must not (its own folder, /, /usr,
its socket folder), reports, and dies (exit code 1) as a bot that trips over a full disk
would. Its /tmp is a tmpfs of the sandbox's size (the test sets 64 MiB): the seat gets a
RESOURCE (disk) fault."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import Reply
from tests.referee.hostile.common import HostileBot, attempt, main

MIB = 1 << 20


class DiskFill(HostileBot):
    name = "disk_fill"

    def attack(self) -> dict[str, Any]:
        written, refused = 0, ""
        block = b"\x00" * MIB
        with open("/tmp/fill", "wb") as out:
            for _ in range(int(self.config.get("max_mb", 96))):
                try:
                    out.write(block)
                    out.flush()
                except OSError as error:
                    refused = str(error)
                    break
                written += 1
        here = Path(__file__).resolve().parent
        elsewhere = [
            attempt(f"create {folder}", lambda f=folder: Path(f, "hostile-fill").write_bytes(block))
            for folder in (here, "/", "/usr", "/run/bullring", os.getcwd())
        ]
        return {"written_mb": written, "refused": refused, "elsewhere": elsewhere}

    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        reply = super().choose(request, context)
        if self.config.get("die_when_full", True):
            os._exit(1)
        return reply


if __name__ == "__main__":
    main(DiskFill())
