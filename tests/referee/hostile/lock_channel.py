"""Two copies colluding through file locks: each copy opens a file both can read (its own
module, on the read-only view of its folder: the same host file for both), claims a slot
with a POSIX read lock on one byte, and writes its 64-bit token as read locks on the bytes
of that slot whose bit is 1. Then, for up to 2 s, it asks the kernel (F_GETLK) which bytes
another process has locked, and decodes every other slot's token. Read locks need only a
read-only file. It reports its token and every token it decoded."""

from __future__ import annotations

import fcntl
import os
import random
import struct
import time
from typing import Any

from tests.referee.hostile.common import HostileBot, main

SLOTS = 4
BITS = 64
LOOK_S = 2.0
FLOCK = "hh4xqqi4x"  # struct flock on x86-64 and arm64: type, whence, start, len, pid


def locked_by_other(fd: int, byte: int) -> bool:
    query = struct.pack(FLOCK, fcntl.F_WRLCK, os.SEEK_SET, byte, 1, 0)
    kind = struct.unpack(FLOCK, fcntl.fcntl(fd, fcntl.F_GETLK, query))[0]
    return bool(kind != fcntl.F_UNLCK)


def read_lock(fd: int, byte: int) -> None:
    fcntl.fcntl(fd, fcntl.F_SETLK, struct.pack(FLOCK, fcntl.F_RDLCK, os.SEEK_SET, byte, 1, 0))


def bit_byte(slot: int, bit: int) -> int:
    return SLOTS + slot * BITS + bit


class LockChannel(HostileBot):
    name = "lock_channel"

    def attack(self) -> dict[str, Any]:
        token = random.getrandbits(BITS)
        fd = os.open(__file__, os.O_RDONLY)
        time.sleep(random.random() * 0.3)  # so that two copies do not claim one slot at once
        slot = next(s for s in range(SLOTS) if not locked_by_other(fd, s))
        for bit in range(BITS):
            if token >> bit & 1:
                read_lock(fd, bit_byte(slot, bit))
        read_lock(fd, slot)  # the slot is claimed once the token is there
        found: set[int] = set()
        end = time.monotonic() + LOOK_S
        while time.monotonic() < end and not found:
            for other in range(SLOTS):
                if other != slot and locked_by_other(fd, other):
                    bits = [locked_by_other(fd, bit_byte(other, b)) for b in range(BITS)]
                    found.add(sum(1 << b for b, one in enumerate(bits) if one))
            time.sleep(0.05)
        time.sleep(0.3)  # long enough for the other copy to read this one's token
        os.close(fd)  # (closing drops this process's locks)
        return {"token": token, "slot": slot, "found": sorted(found)}


if __name__ == "__main__":
    main(LockChannel())
