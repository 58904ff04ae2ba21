"""In-process local play: each bot sees its own view and options, games are reproducible."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from sdk import (
    PRESETS,
    Bot,
    DecisionClock,
    InvalidChoice,
    MatchInfo,
    MatchOutcome,
    Option,
    View,
    new_game,
    play_local,
)


class RecordingBot(Bot):
    """Random choices from its seed hint; records what it was shown."""

    name = "recorder"

    def __init__(self) -> None:
        self.info: MatchInfo | None = None
        self.outcome: MatchOutcome | None = None
        self.shown: list[tuple[View, tuple[Option, ...], DecisionClock]] = []
        self.rng = random.Random()

    def start_match(self, match: MatchInfo) -> None:
        self.info = match
        self.rng = random.Random(match.seed_hint)

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int | Option:
        self.shown.append((view, tuple(options), clock))
        index = self.rng.randrange(len(options))
        return options[index] if index % 2 else index

    def end_match(self, outcome: MatchOutcome) -> None:
        self.outcome = outcome


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_bots_see_exactly_their_seat_and_the_game_replays(preset: str) -> None:
    players = 3
    bots = [RecordingBot() for _ in range(players)]
    result = play_local(preset, bots, seed=5, decision_ms=250, time_bank_ms=900)

    # Replaying the recorded choices on a fresh game: at every turn each pending seat was
    # shown exactly its view and its legal options, all before any pick was applied.
    state = new_game(preset, players, result.deal_seed)
    shown = {seat: iter(bot.shown) for seat, bot in enumerate(bots)}
    decisions = iter(result.decisions)
    while not state.is_terminal():
        chosen = []
        for seat in state.pending():
            view, options, clock = next(shown[seat])
            decision = next(decisions)
            assert decision.seat == seat
            assert view == state.view(seat)
            assert list(options) == state.legal_options(seat) == list(decision.options)
            assert decision.kind == state.decision_kind(seat)
            assert (clock.deadline_ms, clock.time_bank_ms) == (250, 900)
            chosen.append((seat, decision.option))
        for seat, option in chosen:
            state.apply(seat, option)
    assert next(decisions, None) is None
    assert result.scores == tuple(state.scores())
    assert result.ranks == tuple(state.ranks())

    for seat, bot in enumerate(bots):
        assert bot.info is not None and bot.info.seat == seat and bot.info.players == players
        assert bot.info.variant == preset
        assert bot.outcome == MatchOutcome(result.scores, result.ranks)
    hints = {bot.info.seed_hint for bot in bots if bot.info}
    assert len(hints) == players, "every seat gets its own seed hint"


def test_same_seed_same_game_and_other_seed_other_game() -> None:
    first = play_local("6nimmt", [RecordingBot, RecordingBot], seed=1)
    again = play_local("6nimmt", [RecordingBot, RecordingBot], seed=1)
    other = play_local("6nimmt", [RecordingBot, RecordingBot], seed=2)
    assert [d.option for d in first.decisions] == [d.option for d in again.decisions]
    assert first.scores == again.scores
    assert [d.option for d in first.decisions] != [d.option for d in other.decisions]


class OutOfRange(Bot):
    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int | Option:
        return len(options)


def test_a_bad_answer_is_raised_for_the_debugger() -> None:
    with pytest.raises(InvalidChoice, match="there are 10 options"):
        play_local("6nimmt", [OutOfRange(), RecordingBot()], seed=1)


def test_seats_never_share_an_instance() -> None:
    bot = RecordingBot()
    with pytest.raises(ValueError, match="own Bot instance"):
        play_local("6nimmt", [bot, bot], seed=1)


def test_the_documented_bot_and_examples_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "sdk.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", doc, flags=re.DOTALL)
    bot_source, local_example = blocks[0], blocks[1]
    assert len(bot_source.strip().splitlines()) <= 20
    (tmp_path / "my_bot.py").write_text(bot_source)
    monkeypatch.syspath_prepend(str(tmp_path))
    exec(compile(local_example, "docs/sdk.md", "exec"), {})
    printed = capsys.readouterr().out.strip()
    assert re.fullmatch(r"\(\d+, \d+, \d+\) \([123], [123], [123]\) \d+", printed), printed
    exec(compile(blocks[-1], "docs/sdk.md", "exec"), {})
    assert len(capsys.readouterr().out.strip().splitlines()) == 5


class SleepyBot(Bot):
    """Answers the first option after sleeping `delay` seconds (time.sleep: at least)."""

    name = "sleepy"
    delay = 0.0

    def __init__(self) -> None:
        self.clocks: list[DecisionClock] = []
        self.outcome: MatchOutcome | None = None

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        self.clocks.append(clock)
        time.sleep(self.delay)
        return len(options) - 1  # never the fallback, so a fallback shows

    def end_match(self, outcome: MatchOutcome) -> None:
        self.outcome = outcome


def test_the_clock_turns_overruns_into_timeouts_and_forfeits_the_seat() -> None:
    slow = SleepyBot()
    slow.delay = 0.2  # always past 10 ms + a 100 ms bank
    fast = SleepyBot()
    result = play_local(
        "6nimmt:rounds=1", [slow, fast], seed=3, decision_ms=10, time_bank_ms=100, clock=True
    )
    mine = [d for d in result.decisions if d.seat == 0]
    assert [d.fault for d in mine[:3]] == ["TIMEOUT"] * 3
    assert all(d.index == 0 for d in mine)  # the fallback, not the bot's last option
    assert all(d.auto and d.fault == "" for d in mine[3:]) and len(mine) > 3
    assert len(slow.clocks) == 3  # a forfeited seat is never asked again
    assert [c.time_bank_ms for c in slow.clocks] == [100, 0, 0]  # a TIMEOUT empties it
    assert result.faults == (3, 0) and result.forfeited == (True, False)
    assert slow.outcome is not None and slow.outcome.faults == 3 and slow.outcome.forfeited


def test_the_clock_draws_overruns_from_the_bank() -> None:
    slow = SleepyBot()
    slow.delay = 0.03  # 20 ms or more over a 10 ms deadline, far inside a 60 s bank
    result = play_local(
        "6nimmt:rounds=1",
        [slow, SleepyBot()],
        seed=3,
        decision_ms=10,
        time_bank_ms=60_000,
        clock=True,
    )
    asked = [d for d in result.decisions if d.seat == 0]
    assert all(d.fault == "" and d.index == len(d.options) - 1 for d in asked)
    overrun_ms = sum(d.seconds * 1000 - 10 for d in asked)
    assert result.time_banks_ms[0] == pytest.approx(60_000 - overrun_ms, abs=1.0)
    assert result.time_banks_ms[0] <= 60_000 - 20 * len(asked)
    banks = [c.time_bank_ms for c in slow.clocks]
    assert banks == sorted(banks, reverse=True) and banks[0] == 60_000
    assert result.faults == (0, 0)


def test_without_the_clock_a_slow_bot_is_never_faulted() -> None:
    slow = SleepyBot()
    slow.delay = 0.02
    result = play_local("6nimmt:rounds=1", [slow, SleepyBot()], seed=3, decision_ms=1)
    assert all(d.fault == "" and not d.auto for d in result.decisions)
    assert result.faults == (0, 0) and result.time_banks_ms == ()


class SimulatedTimer:
    """A clock that moves only when a bot says it thought (``think``)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class ThinkingBot(Bot):
    """Spends `thought` seconds of a simulated timer on each decision, no wall time."""

    name = "thinker"

    def __init__(self, timer: SimulatedTimer, thought: float) -> None:
        self.timer = timer
        self.thought = thought
        self.clocks: list[DecisionClock] = []

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        self.clocks.append(clock)
        self.timer.now += self.thought
        return len(options) - 1


def test_the_clock_reads_the_timer_it_is_given() -> None:
    timer = SimulatedTimer()
    slow, fast = ThinkingBot(timer, 0.5), ThinkingBot(timer, 0.0)
    result = play_local(
        "6nimmt:rounds=1",
        [slow, fast],
        seed=3,
        decision_ms=100,
        time_bank_ms=100,
        clock=True,
        timer=timer,
    )
    # 0.5 s on the timer is past 100 ms + the 100 ms bank, though no wall time passed.
    assert result.faults == (3, 0) and result.forfeited == (True, False)
    mine = [d for d in result.decisions if d.seat == 0 and not d.auto]
    assert [d.fault for d in mine] == ["TIMEOUT"] * 3
    assert all(d.seconds == pytest.approx(0.5) for d in mine)
    assert all(c.timer is timer for c in slow.clocks + fast.clocks)
    clock = slow.clocks[0]
    assert clock.deadline == pytest.approx(clock.received + 0.1)
    assert clock.remaining() == 0.0 and clock.elapsed() > 0.1  # read on the timer: past it


def test_a_decision_clock_defaults_to_wall_time() -> None:
    before = time.monotonic()
    clock = DecisionClock(1000, 0)
    assert before <= clock.received <= time.monotonic()
    assert clock.timer is time.monotonic
    assert DecisionClock(1000, 0, received=5.0).deadline == 6.0
