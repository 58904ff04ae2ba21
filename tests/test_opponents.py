"""benchmarks.opponents: the published greedy and mc:N baselines play every 6 nimmt!
preset legally, and choose what their published descriptions say on hand-made positions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from benchmarks.opponents import GreedyBot, greedy_choice, immediate_cost, mc_bot
from benchmarks.opponents.greedy import SIXNIMMT_PRESETS
from benchmarks.opponents.montecarlo import margins, published_greedy_picks
from sdk.bot import Bot
from sdk.game.core import DecisionKind, Option, OptionKind
from sdk.game.sixnimmt import SixNimmtState
from sdk.game.sixnimmt.batch import Batch, RandomDraws
from sdk.game.variants import new_game
from sdk.game.views import SixNimmtView
from sdk.local import play_local
from sdk.match import DecisionClock

# Heads: 55 has 7, multiples of 11 have 5, of 10 have 3, of 5 have 2, the rest 1.
CHEAP_ROWS = [[10, 11, 12, 13, 14], [50], [60], [70]]  # 3+5+1+1+1 = 11 heads; then 3, 3, 3


def view_of(state: SixNimmtState, seat: int = 0) -> SixNimmtView:
    view = state.view(seat)
    assert isinstance(view, SixNimmtView)
    return view


def pick(variant: str, hand: list[int], rows: list[list[int]]) -> int:
    """The greedy pick of seat 0 holding `hand` (the other seat holds high cards)."""
    others = [c for c in range(104, 0, -1) if c not in hand and all(c not in r for r in rows)]
    state = SixNimmtState.from_position(variant, [hand, sorted(others[: len(hand)])], rows)
    options = state.legal_options(0)
    chosen = greedy_choice(view_of(state), options)
    assert chosen in options
    return chosen.card


@pytest.mark.parametrize("variant", SIXNIMMT_PRESETS)
def test_the_baselines_play_every_6nimmt_preset_legally(variant: str) -> None:
    # play_local raises on an answer that is not one of the options offered.
    bots: list[type[Bot]] = [GreedyBot, mc_bot(2), GreedyBot]
    result = play_local(f"{variant}:rounds=1", bots, seed=11)
    assert result.state.is_terminal()
    kinds = {d.kind for d in result.decisions}
    assert DecisionKind.PICK_CARD in kinds
    assert {d.seat for d in result.decisions} == {0, 1, 2}


def test_greedy_avoids_the_sixth_card_even_for_a_higher_card() -> None:
    # 15 is row 0's 6th card (11 heads); 51 lands on [50] safely.
    assert pick("6nimmt", [15, 51], CHEAP_ROWS) == 51


def test_greedy_plays_below_every_row_when_the_cheapest_row_costs_less() -> None:
    # 5 fits nowhere: it takes the cheapest row (3 heads) against 15's 11 heads.
    assert immediate_cost(5, CHEAP_ROWS) == 3
    assert immediate_cost(15, CHEAP_ROWS) == 11
    assert pick("6nimmt", [5, 15], CHEAP_ROWS) == 5


def test_greedy_prefers_a_sixth_card_on_a_cheap_row_to_one_on_a_dear_row() -> None:
    rows = [[1, 2, 3, 4, 6], [20, 21, 22, 23, 24], [55], [66]]  # 5, 11, 7, 5 heads
    assert immediate_cost(7, rows) == 5
    assert immediate_cost(25, rows) == 11
    assert pick("6nimmt", [7, 25], rows) == 7


def test_greedy_breaks_ties_on_the_lowest_card() -> None:
    assert pick("6nimmt", [51, 61, 71], CHEAP_ROWS) == 51


def test_greedy_uses_both_ends_in_professional() -> None:
    # 45 goes to [50]'s left end (distance 5) in Professional; in the base game it is
    # the 6th card of row 0 (14 < 45 < 50).
    assert immediate_cost(45, CHEAP_ROWS, both_ends=False) == 11
    assert immediate_cost(45, CHEAP_ROWS, both_ends=True) == 0
    assert pick("6nimmt-pro", [45, 61], CHEAP_ROWS) == 45
    assert pick("6nimmt", [45, 61], CHEAP_ROWS) == 61


def test_greedy_takes_the_cheapest_row_on_a_forced_take() -> None:
    rows = [[33, 34], [20], [44], [66]]  # 5+1 = 6; 3; 5; 5 heads
    state = SixNimmtState.from_position(
        "6nimmt", [[2, 90], [91, 92]], rows, revealed=[(0, 1), (1, 93)]
    )
    assert state.decision_kind(0) == DecisionKind.TAKE_ROW
    chosen = greedy_choice(view_of(state), state.legal_options(0))
    assert chosen == Option(OptionKind.ROW, row=1)


@pytest.mark.parametrize("variant", ["6nimmt", "6nimmt-tactics", "6nimmt-logic"])
def test_the_vectorised_greedy_picks_what_the_greedy_bot_picks(variant: str) -> None:
    rng = random.Random(5)
    compared = 0
    for game in range(6):
        state = new_game(variant, 4, game, {"rounds": "1"})
        assert isinstance(state, SixNimmtState)
        while not state.is_terminal():
            seats = state.pending()
            if state.decision_kind(seats[0]) == DecisionKind.PICK_CARD and len(seats) == 4:
                batch = Batch(state, 1, RandomDraws(np.random.default_rng(0)))
                width = max(len(h) for h in state.hands)
                hands = np.zeros((1, 4, width), dtype=np.int64)
                for seat, hand in enumerate(state.hands):
                    hands[0, seat, : len(hand)] = hand
                slots = published_greedy_picks(batch, np.arange(1), hands, np.random.default_rng(0))
                for seat in seats:
                    expected = greedy_choice(view_of(state, seat), state.legal_options(seat))
                    assert hands[0, seat, slots[0, seat]] == expected.card
                    compared += 1
            for seat in seats:
                state.apply(seat, rng.choice(state.legal_options(seat)))
    assert compared >= 100


def test_mc_avoids_a_sure_take_that_greedy_playouts_cannot_avoid() -> None:
    # 15 is row 0's 6th card for 11 heads; every other card is safe now.
    hand = [15, 51, 61, 71]
    state = SixNimmtState.from_position("6nimmt:rounds=1", [hand, [80, 81, 82, 83]], CHEAP_ROWS)
    view = view_of(state)
    options = state.legal_options(0)
    found = margins(view, options, 16, random.Random(1))
    assert len(found) == len(options)
    assert found[0] == max(found)  # 15 has the worst margin
    assert mc_bot(16)().decide(view, options, DecisionClock(1000, 5000)) != options[0]


def test_mc_bot_names_its_worlds() -> None:
    assert mc_bot(64).name == "mc64"
    assert mc_bot(64).worlds == 64
    with pytest.raises(ValueError):
        mc_bot(0)
