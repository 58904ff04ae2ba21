"""Faults: why a seat's decision failed (:class:`FaultKind`), a recorded fault, and the end
of what a seat's process printed during a match."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class FaultKind(enum.StrEnum):
    """Why a seat's decision failed. Any fault gets the seat the fallback option."""

    TIMEOUT = "TIMEOUT"  # no answer within the decision deadline plus the time bank
    CRASH = "CRASH"  # the bot's process died
    UNAVAILABLE = "UNAVAILABLE"  # the endpoint could not be reached or never became ready
    ILLEGAL = "ILLEGAL"  # chose an option that was not offered
    PROTOCOL = "PROTOCOL"  # malformed, empty, oversized or wrong-version reply
    EXCEPTION = "EXCEPTION"  # the bot's own code raised (its traceback is in the fault)
    RESOURCE = "RESOURCE"  # the bot's process tree went over a sandbox limit (memory, ...)


@dataclass(frozen=True)
class Fault:
    """A recorded fault of one seat at one decision (decision -1: during setup).

    ``detail`` is one line; ``traceback`` holds the bot's own lines when there are any (an
    EXCEPTION's traceback, the end of the output of a bot that crashed at start-up),
    cleaned of control characters and bounded (:mod:`sdk.wire.error_status`)."""

    seat: int
    kind: FaultKind
    decision: int
    detail: str
    traceback: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.seat,
            "kind": self.kind.value,
            "decision": self.decision,
            "detail": self.detail,
        }
        if self.traceback:
            data["traceback"] = self.traceback
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Fault:
        return cls(
            int(data["seat"]),
            FaultKind(data["kind"]),
            int(data["decision"]),
            data["detail"],
            str(data.get("traceback") or ""),
        )


@dataclass(frozen=True)
class LogTail:
    """The end of what one seat's process printed during one match: at most
    ``referee.bots.log.TAIL_BYTES`` bytes (`data`: the bot's own bytes, untrusted) of the
    `total` it printed then."""

    seat: int
    data: bytes
    total: int
