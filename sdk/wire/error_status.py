"""A bot's exception in the gRPC status details, both ways.

When a bot's own code raises (``decide()``, ``start_match()``, creating the bot), the SDK
fails the call with INTERNAL and puts a ``bullring.v1.BotException`` (type, message, the
bot's traceback) in the status details: the binary trailing metadata
``grpc-status-details-bin``, holding an ``ErrorStatus`` (the wire form of
google.rpc.Status). :func:`exception_details` builds it, bounded to
:data:`MAX_DETAILS_BYTES`.

The referee reads it back with :func:`read_exception`, treating every byte as untrusted:
it reads at most :data:`MAX_READ_BYTES`, keeps at most :data:`TYPE_CHARS`,
:data:`MESSAGE_CHARS` and :data:`TRACEBACK_CHARS` characters (the traceback's last ones,
where the failing line is), and escapes control characters other than line breaks, so
that what it prints is the bot's text and nothing else.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from types import TracebackType

from sdk.protocol.bullring.v1 import bot_pb2 as pb

DETAILS_KEY = "grpc-status-details-bin"
EXCEPTION_TYPE_URL = "type.googleapis.com/bullring.v1.BotException"
MAX_DETAILS_BYTES = 6 * 1024  # what the SDK sends at most (well under gRPC's 8 KiB)
MAX_READ_BYTES = 16 * 1024  # what the referee decodes at most
TYPE_CHARS = 200
MESSAGE_CHARS = 1000
TRACEBACK_CHARS = 8000
MAX_TRACEBACK_LINES = 120


@dataclass(frozen=True, slots=True)
class BotException:
    """What a bot says its code raised (cleaned when read by the referee)."""

    type: str
    message: str
    traceback: str

    def headline(self) -> str:
        """``Type: message``, as Python prints an exception's last line."""
        return f"{self.type}: {self.message}" if self.message else self.type


def _bot_frames(error: BaseException, skip: int) -> TracebackType | None:
    """The exception's traceback without its first `skip` frames (the SDK's own)."""
    tb = error.__traceback__
    for _ in range(skip):
        if tb is None or tb.tb_next is None:
            break
        tb = tb.tb_next
    return tb


def exception_details(code: int, message: str, error: BaseException, skip: int = 1) -> bytes:
    """The serialized ErrorStatus of a call that failed with `code` and `message` because
    the bot's code raised `error`; the traceback leaves out the first `skip` frames (the
    SDK's call into the bot) and is cut from the top until it fits MAX_DETAILS_BYTES."""
    lines = traceback.format_exception(type(error), error, _bot_frames(error, skip))
    text = "".join(lines).rstrip("\n")
    kind = type(error).__qualname__
    module = type(error).__module__
    if module not in ("builtins", "__main__"):
        kind = f"{module}.{kind}"
    exc = pb.BotException(type=kind[:TYPE_CHARS], message=str(error)[:MESSAGE_CHARS])
    budget = MAX_DETAILS_BYTES - 256 - len(exc.SerializeToString()) - len(message)
    encoded = text.encode("utf-8", "replace")
    if len(encoded) > budget:
        encoded = b"...\n" + encoded[len(encoded) - max(0, budget - 4) :]
    exc.traceback = encoded.decode("utf-8", "ignore")
    detail = pb.ErrorDetail(type_url=EXCEPTION_TYPE_URL, value=exc.SerializeToString())
    status = pb.ErrorStatus(code=code, message=message[:MESSAGE_CHARS], details=[detail])
    return status.SerializeToString()


def clean(text: str, limit: int, keep_lines: bool = False) -> str:
    """A bot's `text` made safe to print: control characters escaped (line breaks kept
    when `keep_lines`, tabs as spaces), at most `limit` characters (the last ones when
    `keep_lines`, the first ones otherwise) and MAX_TRACEBACK_LINES lines."""
    if keep_lines:
        text = text[-limit * 2 :].replace("\r\n", "\n").replace("\t", "    ")
        lines = [_printable(line) for line in text.split("\n")][-MAX_TRACEBACK_LINES:]
        out = "\n".join(lines)
        return out if len(out) <= limit else "..." + out[-limit:]
    out = _printable(text[: limit * 2])
    return out if len(out) <= limit else out[:limit] + "..."


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def read_exception(metadata: Iterable[tuple[str, str | bytes]] | None) -> BotException | None:
    """The BotException in a failed call's trailing metadata, cleaned; None if there is
    none, or it is too big or not decodable."""
    for key, value in metadata or ():
        if key != DETAILS_KEY or not isinstance(value, bytes):
            continue
        if len(value) > MAX_READ_BYTES:
            return None
        try:
            status = pb.ErrorStatus.FromString(value)
            for detail in status.details:
                if detail.type_url == EXCEPTION_TYPE_URL:
                    exc = pb.BotException.FromString(detail.value)
                    return BotException(
                        clean(exc.type, TYPE_CHARS) or "Exception",
                        clean(exc.message, MESSAGE_CHARS),
                        clean(exc.traceback, TRACEBACK_CHARS, keep_lines=True),
                    )
        except Exception:  # a bot's bytes: any decoding failure means no exception
            return None
    return None
