"""Misbehaving bots in matches with good bots: every fault is typed, recorded against the
bad seat only, costs bounded time, and never changes the other seats' game."""

from __future__ import annotations

import asyncio
import dataclasses
import time

import pytest

from referee.bots.client import CRASH_WAIT_S, END_MATCH_TIMEOUT_S
from referee.bots.process import BotPool
from referee.bots.transport import DETAIL_CHARS, STREAM_END_GRACE_S
from referee.faults import FaultKind
from referee.match.runner import play_match, run_match
from referee.replay.resimulate import resimulate
from referee.replay.result import MatchResult
from referee.spec import BotSpec, ClockSpec, MatchSpec
from sdk.game import forfeits_ranked_last
from tests.referee.helpers import FAST_CLOCK, bot_named, descendants

BAD_SEAT = 1
# A fault's detail: a prefix of the referee's, then at most DETAIL_CHARS of the bot's text.
DETAIL_LIMIT = DETAIL_CHARS + 120

# bad bot -> (fault kinds it must cause, forfeited at setup)
EXPECTED: dict[str, tuple[set[FaultKind], bool]] = {
    "never_ready": ({FaultKind.UNAVAILABLE}, True),
    "crash_at_start": ({FaultKind.CRASH}, True),
    "crash_at_import": ({FaultKind.CRASH}, True),
    "wrong_version": ({FaultKind.PROTOCOL}, True),
    "crash_mid_match": ({FaultKind.CRASH}, False),
    "exit_mid_call": ({FaultKind.CRASH}, False),
    "close_connection": ({FaultKind.UNAVAILABLE}, False),
    "hang": ({FaultKind.TIMEOUT}, False),
    "slow": ({FaultKind.TIMEOUT}, False),
    "illegal": ({FaultKind.ILLEGAL}, False),
    "empty_reply": ({FaultKind.PROTOCOL}, False),
    "huge_reply": ({FaultKind.PROTOCOL}, False),
    "error_status": ({FaultKind.PROTOCOL}, False),
    "raises": ({FaultKind.EXCEPTION}, False),
    # Hostile replies: bytes no decoder takes, nesting too deep, a decompression bomb,
    # status details too long or full of escapes; setup calls that hang or are garbage.
    "garbage_reply": ({FaultKind.PROTOCOL}, False),
    "nested_reply": ({FaultKind.PROTOCOL}, False),
    "compressed_bomb": ({FaultKind.PROTOCOL}, False),
    "huge_status": ({FaultKind.PROTOCOL}, False),
    "hostile_exception": ({FaultKind.EXCEPTION, FaultKind.PROTOCOL}, False),
    "garbage_hello": ({FaultKind.PROTOCOL}, True),
    "hello_hang": ({FaultKind.TIMEOUT}, True),
    "start_hang": ({FaultKind.TIMEOUT}, True),
}


def match_with(bad: BotSpec, clock: ClockSpec = FAST_CLOCK) -> MatchResult:
    good = bot_named("seeded_random")
    bots = (good, bad, good)
    return run_match(MatchSpec("f-" + bad.name, "6nimmt", {"rounds": "1"}, 21, bots, clock))


@pytest.fixture(scope="module")
def baseline() -> MatchResult:
    """The same match with the bad seat played by a bot that always plays the fallback."""
    return match_with(bot_named("first_option"))


def bad_bot(name: str, transport: str) -> BotSpec:
    """A bad bot, deciding by calls, on a decision stream (offering DecideStream in its
    Hello) or with everything on its Play stream (offering Play)."""
    spec = bot_named(name)
    streams = {"call": "0", "stream": "1", "play": "play"}[transport]
    return dataclasses.replace(spec, env={**spec.env, "BAD_BOT_STREAM": streams})


@pytest.mark.parametrize("transport", ["call", "stream", "play"])
@pytest.mark.parametrize("name", list(EXPECTED))
def test_bad_bot_gets_typed_faults_and_the_match_goes_on(
    name: str, transport: str, baseline: MatchResult
) -> None:
    kinds, at_setup = EXPECTED[name]
    # Every seat's setup has FAST_CLOCK's 4 s; a shorter one (to wait less for the bot
    # that never gets ready) made the good seats miss it on a loaded machine.
    clock = FAST_CLOCK
    result = match_with(bad_bot(name, transport), clock)

    assert result.faults, "a fault must be recorded"
    assert {f.seat for f in result.faults} == {BAD_SEAT}
    assert {f.kind for f in result.faults} == kinds
    # Whatever the bot sent, a fault's detail is one short printable line.
    assert all(f.detail.isprintable() and len(f.detail) <= DETAIL_LIMIT for f in result.faults)
    assert result.forfeited == (False, True, False)
    assert len(result.faults) <= clock.max_faults
    if at_setup:
        assert [f.decision for f in result.faults] == [-1]
    else:
        assert all(f.decision >= 0 for f in result.faults)
    # The bad seat played the fallback, so every seat's game is the baseline's.
    assert result.scores == baseline.scores
    # Seed 21's fallback seat beats seat 0 (13 heads to 23): forfeited, it ranks last.
    assert result.ranks == tuple(forfeits_ranked_last(baseline.ranks, result.forfeited))
    assert result.ranks == (2, 3, 1) and baseline.ranks == (3, 2, 1)
    assert [d.choice for d in result.recorded_replay().decisions] == [
        d.choice for d in baseline.recorded_replay().decisions
    ]
    assert resimulate(result.recorded_replay()) == list(result.scores)
    # Time lost is bounded by the limits: setup, max_faults deadlines and the time bank.
    lost = result.duration_s - baseline.duration_s
    bound_s = (
        clock.setup_ms + clock.max_faults * clock.decision_ms + clock.time_bank_ms
    ) / 1000.0 + clock.max_faults * CRASH_WAIT_S
    assert lost <= bound_s + 2.0, f"lost {lost:.2f}s, bound {bound_s:.2f}s"
    # Each faulted decision ended within its deadline (the decision's and the bank) plus
    # a bounded grace (the wait for a failed stream's status), whatever the reply was.
    deadline_ms = clock.decision_ms + clock.time_bank_ms + 1000.0 * STREAM_END_GRACE_S
    faulted = [d for d in result.recorded_replay().decisions if d.fault]
    assert all(d.ms <= deadline_ms + 500.0 for d in faulted), [d.ms for d in faulted]
    # No process left behind.
    assert descendants() == []


@pytest.mark.parametrize("transport", ["stream", "play"])
def test_a_second_reply_on_a_stream_is_a_fault_and_never_applied(
    transport: str, baseline: MatchResult
) -> None:
    """double_reply answers each request twice on its stream (the second time with its
    last option): the second reply is a PROTOCOL fault at the next decision, which gets
    the fallback; no reply is ever applied to a decision it was not sent for."""
    result = match_with(bad_bot("double_reply", transport))
    assert {f.seat for f in result.faults} == {BAD_SEAT}
    assert {f.kind for f in result.faults} == {FaultKind.PROTOCOL}
    assert all("no outstanding request" in f.detail for f in result.faults)
    assert result.forfeited == (False, True, False)
    # Applied choices are the baseline's: the bot's first replies were option 0, its
    # faulted decisions got the fallback, and no second reply (the last option) counted.
    assert [d.choice for d in result.recorded_replay().decisions] == [
        d.choice for d in baseline.recorded_replay().decisions
    ]
    assert result.scores == baseline.scores
    # By call there is one reply per call: the same bot plays fair.
    fair = match_with(bad_bot("double_reply", "call"))
    assert fair.faults == () and fair.scores == baseline.scores
    assert descendants() == []


@pytest.mark.parametrize("transport", ["call", "stream", "play"])
def test_a_bot_that_never_answers_end_match_costs_the_end_match_limit(
    transport: str, baseline: MatchResult
) -> None:
    """EndMatch failures are not faults (the game is over), but the referee waits for it
    at most END_MATCH_TIMEOUT_S and does not reuse the process."""
    bad = bad_bot("end_hang", transport)
    good = bot_named("seeded_random")
    spec = MatchSpec("f-end", "6nimmt", {"rounds": "1"}, 21, (good, bad, good), FAST_CLOCK)

    async def twice() -> tuple[list[MatchResult], list[float], int]:
        async with BotPool() as pool:
            results, took = [], []
            for n in (1, 2):
                started = time.monotonic()
                results.append(await play_match(dataclasses.replace(spec, match_id=f"e{n}"), pool))
                took.append(time.monotonic() - started)
            return results, took, pool.started

    results, took, started = asyncio.run(twice())
    assert all(r.faults == () and r.scores == baseline.scores for r in results)
    assert all(s <= baseline.duration_s + END_MATCH_TIMEOUT_S + 2.0 for s in took), took
    assert started == 4  # three seats, then a new process for the one that hung
    assert descendants() == []


def test_forfeit_after_max_faults_stops_calls() -> None:
    clock = dataclasses.replace(FAST_CLOCK, max_faults=1)
    result = match_with(bot_named("illegal"), clock)
    assert [f.kind for f in result.faults] == [FaultKind.ILLEGAL]
    bad = [d for d in result.recorded_replay().decisions if d.seat == BAD_SEAT]
    assert not bad[0].auto and bad[0].fault is not None and bad[0].fault.kind == FaultKind.ILLEGAL
    assert all(d.auto and d.ms == 0 for d in bad[1:])


@pytest.mark.parametrize("transport", ["call", "stream", "play"])
def test_slow_bot_draws_on_its_time_bank_before_timing_out(transport: str) -> None:
    clock = ClockSpec(decision_ms=200, time_bank_ms=1000, setup_ms=4000, max_faults=2)
    result = match_with(bad_bot("slow", transport), clock)
    bad = [d for d in result.recorded_replay().decisions if d.seat == BAD_SEAT]
    answered = [d for d in bad if d.fault is None and not d.auto]
    # Each answer overran by ~150 ms, so the 1000 ms bank paid for a few of them.
    assert 3 <= len(answered) <= 7
    assert all(d.ms > clock.decision_ms for d in answered)
    first_timeout = next(d for d in bad if d.fault)
    assert first_timeout.ms < clock.decision_ms + clock.time_bank_ms
