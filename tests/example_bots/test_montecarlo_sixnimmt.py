"""The Monte Carlo bot's 6 nimmt! family playouts (vectorised, greedy policy) and its
decisions in every 6 nimmt! preset, Logic's open draft included."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from example_bots.montecarlo_bot import sixnimmt as mc_sixnimmt
from example_bots.montecarlo_bot.bot import MonteCarloBot
from example_bots.montecarlo_bot.sixnimmt import play_out, rules_like_picks, simulation
from example_bots.rules_bot import sixnimmt as rules_sixnimmt
from example_bots.rules_bot.bot import RulesBot
from example_bots.rules_bot.strategy import rules_choice
from sdk.game.cards import HEADS
from sdk.game.core import DecisionKind, OptionKind
from sdk.game.sixnimmt import SixNimmtState
from sdk.game.sixnimmt.batch import Batch, RandomDraws, determinized_hands
from sdk.game.variants import new_game
from sdk.local import play_local
from sdk.montecarlo import evaluate_batched

PICK = DecisionKind.PICK_CARD
# Row 0 holds 5 cards ending in 55 (7 heads): a card just above it is its 6th card.
ROWS = [[11, 22, 33, 44, 55], [60], [70], [80]]


def position() -> SixNimmtState:
    hands = [[56, 91, 92], [1, 2, 3], [4, 5, 6], [7, 8, 9]]
    return SixNimmtState.from_position("6nimmt:rounds=1", hands, ROWS)


def test_playouts_end_the_round_and_only_add_heads() -> None:
    state = position()
    generator = np.random.default_rng(5)
    hands = determinized_hands(state, 0, 300, generator)
    scores = play_out(state, 300, hands, 0, 56, generator)
    assert scores.shape == (300, 4)
    assert (scores >= 0).all()
    # Seat 0 plays 56 first: row 0's 6th card whatever the others do (a card of theirs
    # below 56 is below every row, and takes the cheapest row, never row 0's 27 heads).
    assert (scores[:, 0] >= sum(HEADS[c] for c in ROWS[0])).all()
    assert scores.sum(axis=1).max() <= sum(HEADS[1:105])


def test_the_bot_does_not_play_a_sure_sixth_card() -> None:
    state = position()
    view = state.view(0)
    options = state.legal_options(0)
    rng = random.Random(3)
    found = evaluate_batched(
        options,
        simulation(view, options, rng, "own"),
        time.monotonic() + 60,
        rng,
        batch=64,
        max_rounds=3,
    )
    assert found.samples == (144, 144, 144)  # 16 + 64 + 64
    assert found.best.card != 56


def test_an_unknown_playout_policy_is_refused_at_once() -> None:
    state = position()
    with pytest.raises(ValueError, match="no playout policy 'grredy'; one of greedy, rules"):
        simulation(state.view(0), state.legal_options(0), random.Random(1), "own", "grredy")


def test_a_row_to_take_is_the_cheapest_in_the_playouts() -> None:
    # Seat 0 plays 1, below every row: it must choose a row to take.
    hands = [[1, 50], [61, 62], [71, 72], [81, 82]]
    rows = [[10, 55], [20], [30, 33], [40]]  # heads 1+7, 3, 3+5, 3
    state = SixNimmtState.from_position("6nimmt:rounds=1", hands, rows)
    for seat, card in enumerate((1, 61, 71, 81)):
        state.apply(
            seat, state.legal_options(seat)[[o.card for o in state.legal_options(seat)].index(card)]
        )
    assert state.decision_kind(0) == DecisionKind.TAKE_ROW
    options = state.legal_options(0)
    rng = random.Random(4)
    found = evaluate_batched(
        options,
        simulation(state.view(0), options, rng, "own"),
        time.monotonic() + 60,
        rng,
        batch=32,
        max_rounds=2,
    )
    assert found.best.kind == OptionKind.ROW and found.best.row in (1, 3)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_logic_games_at_every_table_size(players: int) -> None:
    """Regression: the bot raised IndexError in decide() on 6nimmt-logic (demo league)."""
    bots = [MonteCarloBot if seat % 2 == 0 else RulesBot for seat in range(players)]
    result = play_local("6nimmt-logic", bots, seed=players, options={"rounds": "1"}, decision_ms=40)
    kinds = {d.kind for d in result.decisions if d.seat % 2 == 0 and len(d.options) > 1}
    assert DecisionKind.DRAFT_CARD in kinds and DecisionKind.PICK_CARD in kinds
    assert result.state.is_terminal()


@pytest.mark.parametrize("variant", ["6nimmt", "6nimmt-tactics", "6nimmt-pro"])
def test_every_preset_plays_to_the_end(variant: str) -> None:
    bots = [MonteCarloBot, RulesBot, MonteCarloBot]
    result = play_local(variant, bots, seed=11, options={"rounds": "1"}, decision_ms=40)
    assert result.state.is_terminal()


@pytest.mark.parametrize("placement", ["ends", "both"])
def test_rules_like_playouts_pick_what_the_rule_based_bot_picks(
    placement: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In Tactics every card is in play, so a playout's deal shows each seat exactly the
    pool the rule-based bot reasons about: without noise, the vectorised pick is its pick
    (at row ends, and at both ends as in Professional)."""
    monkeypatch.setattr(mc_sixnimmt, "RULES_NOISE", 0.0)
    checked = 0
    for seed in range(60):
        state = new_game("6nimmt-tactics", 4, seed, {"rounds": "1", "placement": placement})
        assert isinstance(state, SixNimmtState)
        for _ in range(random.Random(seed).randrange(8)):  # a few turns of rule-based play
            for seat in state.pending():  # every pick, then any row to take
                state.apply(seat, rules_choice(state.view(seat), state.legal_options(seat)))
            while state.pending() and state.decision_kind(state.pending()[0]) != PICK:
                seat = state.pending()[0]
                state.apply(seat, rules_choice(state.view(seat), state.legal_options(seat)))
        if state.is_terminal():
            continue
        wanted = rules_sixnimmt.choose(state.view(0), state.legal_options(0)).card
        size = max(len(h) for h in state.hands)
        hands = np.zeros((1, 4, size), dtype=np.int64)
        for seat, hand in enumerate(state.hands):
            hands[0, seat, : len(hand)] = hand
        batch = Batch(state, 1, RandomDraws(np.random.default_rng(0)))
        slot = rules_like_picks(batch, np.arange(1), hands, np.random.default_rng(0))[0, 0]
        assert hands[0, 0, slot] == wanted, seed
        checked += 1
    assert checked >= 40
