"""Two copies colluding through what they share: at its first decision each copy leaves a
token of its own in /tmp, /dev/shm and an abstract Unix socket (``bullring-collude``),
then looks, for up to 2 s, for any other copy's token in the same places. It reports its
token and everything it found."""

from __future__ import annotations

import os
import socket
import time
import uuid
from pathlib import Path
from typing import Any

from tests.referee.hostile.common import HostileBot, attempt, main

PLACES = (Path("/tmp/bullring-collude"), Path("/dev/shm/bullring-collude"))
ABSTRACT = "\0bullring-collude"
LOOK_S = 2.0


class Colluder(HostileBot):
    name = "colluder"

    def attack(self) -> dict[str, Any]:
        token = uuid.uuid4().hex
        left = []
        for place in PLACES:
            left.append(attempt(f"leave in {place}", lambda p=place: self.leave(p, token)))
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        left.append(attempt("bind the abstract socket", lambda: listener.bind(ABSTRACT)))
        found: set[str] = set()
        end = time.monotonic() + LOOK_S
        while time.monotonic() < end:
            for place in PLACES:
                if place.is_dir():
                    found.update(p.name for p in place.iterdir())
            time.sleep(0.1)
        listener.close()
        return {"token": token, "left": left, "found": sorted(found - {token})}

    @staticmethod
    def leave(place: Path, token: str) -> str:
        place.mkdir(mode=0o777, exist_ok=True)
        os.chmod(place, 0o777)
        (place / token).write_text(token)
        return "left"


if __name__ == "__main__":
    main(Colluder())
