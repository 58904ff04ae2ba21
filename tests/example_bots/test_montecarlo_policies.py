"""The Monte Carlo bot's greedy playout policies (X nimmt!, Hornochsen!), its 6 nimmt!
Tactics objective (the chance to take the fewest heads), and whole games with them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from example_bots.montecarlo_bot.bot import MonteCarloBot
from example_bots.montecarlo_bot.policies import (
    confident_choice,
    hornochsen_candidates,
    hornochsen_greedy,
    hornochsen_next_turn,
    xnimmt_greedy,
)
from example_bots.montecarlo_bot.sixnimmt import value
from example_bots.rules_bot import hornochsen as hornochsen_rules
from example_bots.rules_bot.bot import RulesBot
from sdk.game.core import Option, OptionKind, Special
from sdk.game.hornochsen import HornochsenState
from sdk.game.xnimmt import XNimmtState
from sdk.local import play_local
from sdk.montecarlo import Evaluation, play_until

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


def test_hornochsen_greedy_never_collects_a_negative_row_when_a_safe_card_exists() -> None:
    # 46 would be row 0's 5th card: it collects -20 - (+1) points; 62 and 90 are safe.
    state = HornochsenState.from_position([[46, 62, 90], [1, 2, 3]], [[11, 22, 33, 44], [61], [81]])
    options = state.legal_options(0)
    plays = {hornochsen_greedy(state, 0, options, random.Random(seed)) for seed in SEEDS}
    assert all(o.kind == OptionKind.PLAY for o in plays)
    assert 46 not in {o.card for o in plays}


def test_hornochsen_greedy_collects_a_positive_row() -> None:
    # 17 collects row 0 (+5 points): play it, or first put a special on row 0 to collect.
    state = HornochsenState.from_position([[17, 62, 90], [1, 2, 3]], [[12, 13, 14, 16], [61], [81]])
    options = state.legal_options(0)
    picks = {hornochsen_greedy(state, 0, options, random.Random(seed)) for seed in SEEDS}
    assert {o.card for o in picks if o.kind == OptionKind.PLAY} == {17}
    assert {o.row for o in picks if o.kind == OptionKind.SPECIAL} <= {0}


def test_hornochsen_playouts_stop_at_the_next_turn() -> None:
    state = HornochsenState.from_position(
        [[17, 62, 90], [1, 2, 3], [4, 5, 6]], [[12, 13, 14, 16], [61], [81]]
    )
    state.apply(0, next(o for o in state.legal_options(0) if o.card == 62))
    moves = len(state.history)
    play_until(state, random.Random(2), lambda s: hornochsen_next_turn(s, 0), hornochsen_greedy)
    assert (state.turn, state.steps, state.over) == (0, 0, False)
    movers = {e.seat for e in state.history[moves:]}
    assert {1, 2} <= movers


def test_hornochsen_candidates_are_the_rule_based_favourites_in_order() -> None:
    hands = [[17, 62, 90], [1, 2, 3]]
    rows = [[12, 13, 14, 16], [61], [81]]
    state = HornochsenState.from_position(hands, rows)
    options = state.legal_options(0)
    assert sum(o.kind == OptionKind.SPECIAL for o in options) == 6
    view = state.view(0)
    kept = hornochsen_candidates(view, options, 3)
    assert len(kept) == 3 and len(set(kept)) == 3
    assert kept[0] == hornochsen_rules.choose(view, options)
    # 17 collects row 0: 5 points; x2 or +5 there first, then 17, make it 10 (each +5):
    # equal values keep the canonical order.
    assert (kept[0].kind, kept[0].card, kept[0].row) == (OptionKind.SPECIAL, Special.X2, 0)
    assert kept[2].kind == OptionKind.PLAY and kept[2].card == 17
    assert hornochsen_candidates(view, options, 1) == kept[:1]


def test_hornochsen_candidates_leave_out_what_the_rule_based_bot_values_least() -> None:
    # 46 collects a -21 row (-21); 62 and 90 are safe (-0.1); x2 elsewhere is kept (-1);
    # the rule-based bot values +5 on row 0 at +5 (46 would collect it with 5 more).
    state = HornochsenState.from_position([[46, 62, 90], [1, 2, 3]], [[11, 22, 33, 44], [61], [81]])
    kept = hornochsen_candidates(state.view(0), state.legal_options(0), 3)
    assert (kept[0].kind, kept[0].card, kept[0].row) == (OptionKind.SPECIAL, Special.PLUS5, 0)
    assert [o.card for o in kept[1:]] == [62, 90]


def _evaluation(gains: tuple[float, ...], stderrs: tuple[float, ...]) -> Evaluation:
    options = tuple(Option(OptionKind.PLAY, card) for card in range(1, len(gains) + 1))
    means = tuple(10.0 + g for g in gains)
    return Evaluation(options, (50,) * len(gains), means, 50, gains, stderrs)


def test_confident_choice_keeps_the_prior_unless_a_gain_is_significant() -> None:
    prior, second, third = _evaluation((0, 0, 0), (0, 0, 0)).options
    assert confident_choice(_evaluation((0.0, 1.0, 0.5), (0.0, 0.6, 0.1)), 2.0) == third
    assert confident_choice(_evaluation((0.0, 1.0, 0.5), (0.0, 0.6, 0.3)), 2.0) == prior
    assert confident_choice(_evaluation((0.0, 3.0, 2.0), (0.0, 1.0, 0.5)), 2.0) == second
    assert confident_choice(_evaluation((0.0, -3.0, 1.0), (0.0, 0.1, 0.0)), 2.0) == prior
    assert confident_choice(_evaluation((0.0, 1.0, 0.5), (0.0, 0.6, 0.1)), 6.0) == prior
    unpaired = Evaluation((prior, second), (9, 9), (0.0, 5.0), 9)  # no paired figures
    assert confident_choice(unpaired, 2.0) == prior


def test_win_value_shares_ties_and_breaks_them_by_margin() -> None:
    scores = np.array([[3.0, 5.0, 9.0], [4.0, 4.0, 1.0], [2.0, 2.0, 8.0]])
    win = value(scores, 0, "win")
    assert win[0] > 1.0  # won, and by a margin
    assert 0.5 < win[2] < 0.51  # shared with seat 1, ahead of seat 2
    assert abs(win[1]) < 0.01  # lost: the margin only
    assert list(value(scores, 0, "own")) == [-3.0, -4.0, -2.0]
    assert list(value(scores, 0, "margin")) == [4.0, -1.5, 3.0]


@pytest.mark.parametrize("variant", ["6nimmt-tactics", "xnimmt", "hornochsen"])
def test_the_bot_plays_whole_games_against_rule_based_bots(variant: str) -> None:
    options = {"rounds": "1"} if variant.startswith("6nimmt") else {}
    bots = [MonteCarloBot, RulesBot, RulesBot]
    result = play_local(variant, bots, 7, options, decision_ms=60)
    assert result.state.is_terminal()  # play_local raises on an illegal choice
    assert len(result.scores) == 3
