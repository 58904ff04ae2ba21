"""Protobuf wire-format pieces for the bad bots that send raw bytes."""

from __future__ import annotations


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def uint_field(number: int, value: int) -> bytes:
    """A varint field (wire type 0)."""
    return varint(number << 3) + varint(value)


def bytes_field(number: int, data: bytes) -> bytes:
    """A length-delimited field (wire type 2)."""
    return varint(number << 3 | 2) + varint(len(data)) + data


def nested_groups(number: int, depth: int) -> bytes:
    """Field `number` as a group holding itself `depth` levels deep (wire types 3 and 4):
    valid wire format, unknown to every Bullring message, one byte a level each way."""
    return varint(number << 3 | 3) * depth + varint(number << 3 | 4) * depth
