"""In-process local play: each bot sees its own view and options, games are reproducible."""

from __future__ import annotations

import random
import re
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
