"""Writing on the host through its socket folder (the only host folder a bot may write,
until it listens). Before it listens the bot either makes a folder of its own there
(``/run/bullring/keep``, which would stay its own when the socket folder becomes the
referee's), or, with ``unlinked`` = N, opens N files there and unlinks them (an open file
stays writable, and no name is left to find). At its first decision it writes
``write_mb`` MiB, in 8 MiB pieces, into that folder or across those files: past its
private /tmp's limit, outside its /tmp. It reports how much it wrote."""

from __future__ import annotations

import os
from typing import Any

from tests.referee.hostile.common import HostileBot, attempt, main

MIB = 1 << 20
FOLDER = "/run/bullring"
KEEP = f"{FOLDER}/keep"
PIECE_MB = 8


class SocketFolder(HostileBot):
    name = "socket_folder"

    def __init__(self) -> None:
        super().__init__()
        self.files: list[int] = []
        for i in range(int(self.config.get("unlinked", 0))):
            self.files.append(os.open(f"{FOLDER}/f{i}", os.O_CREAT | os.O_WRONLY, 0o600))
            os.unlink(f"{FOLDER}/f{i}")
        if not self.files:
            os.mkdir(KEEP, 0o700)

    def attack(self) -> dict[str, Any]:
        return {"wrote_mb": attempt("fill", lambda: self.fill(int(self.config["write_mb"])))}

    def fill(self, mb: int) -> int:
        block = b"\x01" * MIB
        written = 0
        while written < mb:
            piece = written // PIECE_MB
            if self.files:
                fd = self.files[piece % len(self.files)]
            else:
                fd = os.open(f"{KEEP}/f{piece}", os.O_CREAT | os.O_WRONLY, 0o600)
            for _ in range(min(PIECE_MB, mb - written)):
                os.write(fd, block)
                written += 1
        return written


if __name__ == "__main__":
    main(SocketFolder())
