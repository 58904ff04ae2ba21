"""The base of the hostile bots: a RawBot (it plays the first option, the referee's own
fallback, so a match's result does not depend on what the attack did to it) that attacks
once, at its first decision, and prints what it found as one line ``HOSTILE <json>`` on
stdout, which the referee keeps in the bot's log.

Its target list comes from ``HOSTILE_CONFIG`` (JSON) in its environment. Every attack is
bounded in count, memory and time; the harness (harness.py) checks what it reports and,
above all, what it could not change.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any

import grpc

from sdk.protocol.bullring.v1 import bot_pb2 as pb
from tests.referee.bad_bots.rawbot import RawBot, Reply, serve

REPORT_PREFIX = "HOSTILE "
READ_LIMIT = 4096  # bytes kept of anything an attack manages to read


def config() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(os.environ.get("HOSTILE_CONFIG", "{}"))
    return loaded


def attempt(what: str, action: Any) -> dict[str, Any]:
    """Run `action`; what it gave (cut to READ_LIMIT) or the error it raised."""
    try:
        result = action()
    except Exception as error:  # every failure is part of the report
        return {"what": what, "ok": False, "error": f"{type(error).__name__}: {error}"}
    if isinstance(result, bytes):
        result = result[:READ_LIMIT].decode("latin-1")
    elif isinstance(result, str):
        result = result[:READ_LIMIT]
    return {"what": what, "ok": True, "result": result}


def report(data: dict[str, Any]) -> None:
    print(REPORT_PREFIX + json.dumps(data), flush=True)


class HostileBot(RawBot):
    """Attacks once, at its first Decide (the match is under way), then plays on."""

    name = "hostile"

    def __init__(self) -> None:
        super().__init__()
        self.config = config()
        self._lock = threading.Lock()
        self._attacked = False

    def attack(self) -> dict[str, Any]:
        raise NotImplementedError

    def choose(self, request: pb.DecideRequest, context: grpc.ServicerContext) -> Reply:
        with self._lock:
            if not self._attacked:
                self._attacked = True
                report(self.attack())
        return super().choose(request, context)


def main(bot: HostileBot) -> None:
    serve(bot)
