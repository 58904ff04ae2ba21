"""Decompression with a cap on the output: a small bomb cannot take all the memory.

``gzip.decompress`` and ``zlib.decompress`` make the whole output at once, so a 1 MB
file of zeros compressed 1000:1 takes gigabytes. :func:`inflate` streams instead and
stops as soon as the output would pass the cap.
"""

from __future__ import annotations

import zlib

from sdk.errors import BullringError

GZIP_MAGIC = b"\x1f\x8b"
CHUNK = 1 << 20  # output made per step


class DecompressError(BullringError, ValueError):
    """Data that is not valid compressed data, is cut short, or inflates past the cap."""


def inflate(data: bytes, limit: int, gzip: bool = False) -> bytes:
    """`data` decompressed (zlib, or gzip with every member of a multi-member file), at
    most `limit` bytes of output; DecompressError otherwise (the message says why)."""
    out = bytearray()
    rest = data
    while True:
        stream = zlib.decompressobj(wbits=31 if gzip else 15)
        pending = rest
        while pending and not stream.eof:
            try:
                out += stream.decompress(pending, CHUNK)
            except zlib.error as error:
                kind = "gzip" if gzip else "zlib"
                raise DecompressError(f"not valid {kind} data ({error})") from None
            if len(out) > limit:
                raise DecompressError(f"more than {size_text(limit)} once decompressed (the cap)")
            pending = stream.unconsumed_tail
        if not stream.eof:
            raise DecompressError("the compressed data is cut short")
        rest = stream.unused_data
        if not (gzip and rest.startswith(GZIP_MAGIC)):
            break
    if rest.strip(b"\0"):
        raise DecompressError("trailing bytes after the compressed data")
    return bytes(out)


def size_text(size: int) -> str:
    """A byte count as people write it: ``64 MiB``, ``1,000 bytes``."""
    mib = 1 << 20
    return f"{size // mib} MiB" if size % mib == 0 and size else f"{size:,} bytes"
