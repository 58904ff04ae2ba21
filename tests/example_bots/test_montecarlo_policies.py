"""The Monte Carlo bot's greedy playout policy (X nimmt!), its 6 nimmt!
Tactics objective (the chance to take the fewest heads), and whole games with them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from example_bots.montecarlo_bot.bot import MonteCarloBot
from example_bots.montecarlo_bot.policies import xnimmt_greedy
from example_bots.montecarlo_bot.sixnimmt import value
from example_bots.rules_bot.bot import RulesBot
from sdk.game.core import OptionKind
from sdk.game.xnimmt import XNimmtState
from sdk.local import play_local

SEEDS = range(200)


def test_xnimmt_greedy_avoids_a_sure_take_when_a_safe_card_exists() -> None:
    # Row 0 (capacity 3) holds 2 cards: 25 would be its 3rd card and take it; 8 is below
    # every row and takes one too; 31 goes safely onto row 1.
    state = XNimmtState.from_position([[8, 25, 31], [60, 61, 62]], [[10, 20], [30], [50]], seed=1)
    options = state.legal_options(0)
    picks = {xnimmt_greedy(state, 0, options, random.Random(seed)).card for seed in SEEDS}
    assert picks == {31}


def test_xnimmt_greedy_takes_the_cheapest_row() -> None:
    state = XNimmtState.from_position([[1, 70], [60, 61]], [[10, 20], [55, 57], [30]], seed=1)
    state.apply(0, next(o for o in state.legal_options(0) if o.card == 1))
    state.apply(1, next(o for o in state.legal_options(1) if o.card == 60))
    options = state.legal_options(0)  # 1 is below every row: seat 0 chooses a row
    assert {o.kind for o in options} == {OptionKind.ROW}
    rows = {xnimmt_greedy(state, 0, options, random.Random(seed)).row for seed in SEEDS}
    assert rows == {2}  # [30]: 0 heads once parked; [55, 57]: 1; [10, 20]: 3


def test_win_value_shares_ties_and_breaks_them_by_margin() -> None:
    scores = np.array([[3.0, 5.0, 9.0], [4.0, 4.0, 1.0], [2.0, 2.0, 8.0]])
    win = value(scores, 0, "win")
    assert win[0] > 1.0  # won, and by a margin
    assert 0.5 < win[2] < 0.51  # shared with seat 1, ahead of seat 2
    assert abs(win[1]) < 0.01  # lost: the margin only
    assert list(value(scores, 0, "own")) == [-3.0, -4.0, -2.0]
    assert list(value(scores, 0, "margin")) == [4.0, -1.5, 3.0]


def test_lead_value_is_the_gap_to_the_best_other_seat() -> None:
    scores = np.array([[3.0, 5.0, 9.0], [4.0, 4.0, 1.0], [2.0, 2.0, 8.0]])
    assert list(value(scores, 0, "lead")) == [2.0, -3.0, 0.0]  # won, lost, tied
    assert list(value(scores, 2, "lead")) == [-6.0, 3.0, -6.0]  # the seat's own column left out


def test_an_unknown_goal_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="no utility 'wins'; one of own, margin, lead, win"):
        value(np.zeros((2, 3)), 0, "wins")


@pytest.mark.parametrize("variant", ["6nimmt-tactics", "xnimmt", "hornochsen"])
def test_the_bot_plays_whole_games_against_rule_based_bots(variant: str) -> None:
    options = {"rounds": "1"} if variant.startswith("6nimmt") else {}
    bots = [MonteCarloBot, RulesBot, RulesBot]
    result = play_local(variant, bots, 7, options, decision_ms=60)
    assert result.state.is_terminal()  # play_local raises on an illegal choice
    assert len(result.scores) == 3
