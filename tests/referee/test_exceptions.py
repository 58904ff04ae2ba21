"""EXCEPTION faults: a bot whose own code raised is told so with its type, message and
traceback (file and line), sent by the SDK in the gRPC status details and read by the
referee as untrusted text (bounded, control characters escaped, lines kept). A bot that
dies at start-up is quoted with its output's lines intact."""

from __future__ import annotations

import dataclasses
import json

import pytest

from referee.faults import Fault, FaultKind
from referee.match.runner import run_match
from referee.replay.model import Replay
from referee.replay.result import MatchResult
from referee.spec import MatchSpec
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire import error_status
from tests.referee.bad_bots import raises
from tests.referee.helpers import FAST_CLOCK, bot_named, descendants

# Quick decisions; a setup limit that a loaded machine meets.
CLOCK = dataclasses.replace(FAST_CLOCK, setup_ms=30_000)


def match_with(name: str) -> MatchResult:
    good = bot_named("seeded_random")
    bots = (good, bot_named(name), good)
    return run_match(MatchSpec("x-" + name, "6nimmt", {"rounds": "1"}, 5, bots, CLOCK))


def printable_lines(text: str) -> bool:
    return all(line.isprintable() for line in text.split("\n"))


def test_an_exception_in_decide_is_an_exception_fault_with_the_bots_traceback() -> None:
    result = match_with("raises")
    faults = result.faults
    assert [f.kind for f in faults] == [FaultKind.EXCEPTION] * CLOCK.max_faults
    first = faults[0]
    assert "ValueError" in first.detail and "not in tuple" in first.detail
    lines = first.traceback.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert any(
        "bad_bots/raises.py" in line and f"line {raises.LINE_OF_THE_BUG}, in decide" in line
        for line in lines
    ), first.traceback
    assert lines[-1].startswith("ValueError: ")
    assert "sdk/runtime.py" not in first.traceback  # the SDK's own frame is left out
    # The fault survives JSON (stores, replays) with its traceback.
    assert Fault.from_json(first.to_json()) == first
    saved = json.loads(json.dumps(result.recorded_replay().to_json()))
    replayed = [d["fault"] for d in saved["decisions"] if d["fault"]]
    assert replayed[0]["traceback"] == first.traceback
    assert Replay.from_json(saved).decisions[replayed[0]["decision"]].fault == first
    assert descendants() == []


def test_hostile_exception_details_are_bounded_and_printable() -> None:
    result = match_with("hostile_exception")
    assert result.faults
    for fault in result.faults:
        assert fault.detail.isprintable()
        assert printable_lines(fault.traceback)
        assert len(fault.traceback) <= error_status.TRACEBACK_CHARS + 3
        assert len(fault.traceback.splitlines()) <= error_status.MAX_TRACEBACK_LINES
        assert "\x1b" not in fault.traceback and "\r" not in fault.traceback


def test_a_start_up_crash_quotes_the_traceback_with_its_lines() -> None:
    result = match_with("crash_at_import")
    (fault,) = result.faults
    assert fault.kind == FaultKind.CRASH and fault.decision == -1
    assert "SyntaxError" in fault.detail
    lines = fault.traceback.splitlines()
    assert "Traceback (most recent call last):" in lines
    assert any('File "my_bot_logic.py", line 2' in line for line in lines), fault.traceback
    assert lines[-1].startswith("SyntaxError: ")


@pytest.mark.parametrize(
    "blob",
    [
        b"",
        b"\xff" * 100,
        b"x" * (error_status.MAX_READ_BYTES + 1),
        pb.ErrorStatus(
            details=[pb.ErrorDetail(type_url="other", value=b"\x00")]
        ).SerializeToString(),
    ],
)
def test_details_that_are_not_an_exception_read_as_none(blob: bytes) -> None:
    assert error_status.read_exception([(error_status.DETAILS_KEY, blob)]) is None


def test_the_sdk_bounds_what_it_sends() -> None:
    try:
        raise KeyError("\n".join(f"line {i}" for i in range(3000)))
    except KeyError as error:
        blob = error_status.exception_details(13, "decide() raised", error)
    assert len(blob) <= error_status.MAX_DETAILS_BYTES
    read = error_status.read_exception([(error_status.DETAILS_KEY, blob)])
    assert read is not None and read.type == "KeyError"
    assert read.traceback.startswith("...")  # cut from the top: the last lines kept
    assert read.traceback.endswith("line 2999'")


def test_the_referee_bounds_and_cleans_what_it_reads() -> None:
    nasty = "\x1b[2J\r\u202e\x00[bold]"
    exc = pb.BotException(
        type="T" * 1000 + nasty,
        message=nasty * 100,
        traceback="\n".join(f"line {i} {nasty}" for i in range(400)),
    )
    detail = pb.ErrorDetail(type_url=error_status.EXCEPTION_TYPE_URL, value=exc.SerializeToString())
    blob = pb.ErrorStatus(code=13, details=[detail]).SerializeToString()
    assert len(blob) <= error_status.MAX_READ_BYTES
    read = error_status.read_exception([(error_status.DETAILS_KEY, blob)])
    assert read is not None
    assert len(read.type) <= error_status.TYPE_CHARS + 3 and read.type.isprintable()
    assert len(read.message) <= error_status.MESSAGE_CHARS + 3 and read.message.isprintable()
    assert len(read.traceback) <= error_status.TRACEBACK_CHARS + 3
    assert len(read.traceback.splitlines()) <= error_status.MAX_TRACEBACK_LINES
    assert printable_lines(read.traceback)
    assert read.traceback.endswith("line 399 \\x1b[2J\\r\\u202e\\x00[bold]")
