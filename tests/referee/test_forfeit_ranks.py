"""A forfeited seat ranks below every seat that was not forfeited, whatever its score
(issue 26): in the result, the replay, EndMatch and play_local. Real bot processes.

The seeds are chosen so that the fallback (the first legal option, what a forfeited seat
plays) scores at least as well as a bot that played: seed 36 makes the fallback seat tie
for first place with seat 2 (6 heads each), seed 97 makes two fallback seats tie for
first place with seat 0 (7 heads each). Ranked by score alone they would share the win.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from referee.faults import FaultKind
from referee.match.runner import run_match
from referee.replay.model import Replay, ReplayError
from referee.replay.resimulate import resimulate
from referee.replay.result import MatchResult
from referee.spec import BotSpec, MatchSpec
from sdk.bot import Bot
from sdk.game import Option, View, forfeits_ranked_last, ranks_from_scores
from sdk.local import play_local
from sdk.match import DecisionClock, MatchInfo
from tests.referee.helpers import FAST_CLOCK, bot_named, descendants

CLOCK = FAST_CLOCK  # max_faults 3


def test_forfeited_seats_rank_below_every_seat_that_played() -> None:
    assert forfeits_ranked_last([1, 2, 3], [False, False, False]) == [1, 2, 3]
    assert forfeits_ranked_last([1, 1, 3], [False, False, False]) == [1, 1, 3]
    # A forfeited seat tied for first: the seats that played move up, it goes last.
    assert forfeits_ranked_last([3, 1, 1], [False, True, False]) == [2, 3, 1]
    # Forfeited seats among themselves: by score, ties shared.
    assert forfeits_ranked_last([1, 1, 1, 4], [False, True, True, False]) == [1, 3, 3, 2]
    assert forfeits_ranked_last([4, 1, 2, 3], [False, True, True, False]) == [2, 3, 4, 1]
    assert forfeits_ranked_last([2, 1, 2], [True, True, True]) == [2, 1, 2]
    # A forfeited seat that scored worst keeps its place.
    assert forfeits_ranked_last([1, 2, 3], [False, False, True]) == [1, 2, 3]
    # Ranks already made give themselves back.
    assert forfeits_ranked_last([2, 3, 1], [False, True, False]) == [2, 3, 1]
    # Higher-is-better games go through ranks_from_scores first, as the referee does.
    assert forfeits_ranked_last(ranks_from_scores([9, 12, 12], True), [False, True, False]) == [
        2,
        3,
        1,
    ]


def never_starts() -> BotSpec:
    """A bot whose command does not exist: a CRASH at setup."""
    return dataclasses.replace(
        bot_named("first_option"), name="never_starts", command=("/nonexistent/bullring-bot",)
    )


def three_seats(bad: BotSpec, seed: int = 36) -> MatchResult:
    good = bot_named("seeded_random")
    spec = MatchSpec(f"fr-{bad.name}", "6nimmt", {"rounds": "1"}, seed, (good, bad, good), CLOCK)
    return run_match(spec)


@pytest.fixture(scope="module")
def fallback_at_seat_1() -> MatchResult:
    """Seed 36 with seat 1 played by a bot that always plays the fallback, unforfeited."""
    return three_seats(bot_named("first_option"))


def check_replay(result: MatchResult) -> Replay:
    """The replay records the result's ranks and re-simulates to them."""
    replay = result.recorded_replay()
    recorded = replay.final_result()
    assert recorded.ranks == list(result.ranks)
    assert recorded.forfeited == list(result.forfeited)
    assert resimulate(Replay.from_json(replay.to_json())) == list(result.scores)
    return replay


@pytest.mark.parametrize("bad", ["never_starts", "illegal"])
def test_a_forfeited_seat_never_shares_first_place(
    bad: str, fallback_at_seat_1: MatchResult
) -> None:
    """never_starts is forfeited at setup (CRASH, decision -1); illegal mid-match, at its
    third ILLEGAL fault. Both play the fallback throughout, so the scores are those of the
    unforfeited fallback bot, which ties seat 2 for first place."""
    spec = never_starts() if bad == "never_starts" else bot_named("illegal")
    result = three_seats(spec)
    assert fallback_at_seat_1.scores == (21, 6, 6)
    assert fallback_at_seat_1.ranks == (3, 1, 1)  # no forfeit: ranked by score, tied
    assert result.scores == fallback_at_seat_1.scores
    assert result.forfeited == (False, True, False)
    if bad == "never_starts":
        assert [(f.kind, f.decision) for f in result.faults] == [(FaultKind.CRASH, -1)]
    else:
        assert [f.kind for f in result.faults] == [FaultKind.ILLEGAL] * CLOCK.max_faults
        assert all(f.decision >= 0 for f in result.faults)
    assert result.ranks == (2, 3, 1)
    check_replay(result)
    assert descendants() == []


def test_two_forfeited_seats_rank_last_and_tie_by_score() -> None:
    good = bot_named("seeded_random")
    bots = (good, never_starts(), bot_named("illegal"), good)
    result = run_match(MatchSpec("fr-two", "6nimmt", {"rounds": "1"}, 97, bots, CLOCK))
    assert result.scores == (7, 7, 7, 22)
    assert result.forfeited == (False, True, True, False)
    # By score alone seats 0, 1 and 2 shared first place.
    assert result.ranks == (1, 3, 3, 2)
    check_replay(result)
    assert descendants() == []


def test_a_replay_recorded_before_the_rule_still_resimulates(
    fallback_at_seat_1: MatchResult,
) -> None:
    """A replay recorded before forfeited seats ranked last holds the ranks of the scores
    alone; it re-simulates as recorded. Any other ranks are refused."""
    replay = three_seats(never_starts()).recorded_replay()
    data = replay.to_json()
    result = data["result"]
    assert isinstance(result, dict)
    for ranks, ok in (([3, 1, 1], True), ([2, 3, 1], True), ([1, 2, 3], False)):
        result["ranks"] = list(ranks)
        if ok:
            assert resimulate(Replay.from_json(data)) == [21, 6, 6]
        else:
            with pytest.raises(ReplayError, match=r"re-simulated ranks \[2, 3, 1\]"):
                resimulate(Replay.from_json(data))


class SeededRandom(Bot):
    """tests/referee/bad_bots/seeded_random.py as an SDK bot."""

    name = "seeded_random"

    def start_match(self, match: MatchInfo) -> None:
        self.rng = random.Random(match.seed_hint)

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
        return self.rng.randrange(len(options))


def test_play_local_ranks_a_seat_forfeited_on_its_clock_last() -> None:
    """play_local(clock=True): a bot whose every decision takes 10 s on the game's clock
    (the timer is that clock) gets TIMEOUT faults and is forfeited after three; it
    answers the fallback, so the game is seed 36's above, and it ranks last."""
    now = [0.0]

    class TooSlow(Bot):
        name = "too_slow"

        def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> int:
            now[0] += 10.0
            return 0

    result = play_local(
        "6nimmt",
        [SeededRandom, TooSlow, SeededRandom],
        36,
        {"rounds": "1"},
        clock=True,
        timer=lambda: now[0],
    )
    assert result.scores == (21, 6, 6)
    assert result.faults == (0, 3, 0)
    assert result.ranks == (2, 3, 1)
    untimed = play_local("6nimmt", [SeededRandom, TooSlow, SeededRandom], 36, {"rounds": "1"})
    assert untimed.ranks == (3, 1, 1)  # no clock, no forfeit: ranked by score
