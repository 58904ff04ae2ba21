"""The batch features (:mod:`example_bots.champion_bot.batch_features`) are the view
features (:mod:`example_bots.champion_bot.features`) computed for many seats at once: on
the positions of real seeded games, at every player count and in multi-round games, both
give the same numbers for every seat's card pick, and the network the same logits."""

from __future__ import annotations

import random

import numpy as np
import pytest

from example_bots.champion_bot.batch_features import encode_picks
from example_bots.champion_bot.features import encode
from example_bots.champion_bot.net import initial
from sdk.game.sixnimmt import Phase, SixNimmtState, new_game
from sdk.game.sixnimmt.batch import HEADS_NP


def turn_starts(state: SixNimmtState, rng: random.Random) -> list[SixNimmtState]:
    """Copies of `state` at the start of every turn of a game played at random."""
    starts = []
    while state.phase != Phase.OVER:
        if state.phase == Phase.PICK and len(state.to_pick) == state.players:
            starts.append(state.clone())
        for seat in state.pending():
            state.apply(seat, rng.choice(state.legal_options(seat)))
    return starts


def batch_inputs(states: list[SixNimmtState]) -> dict[str, object]:
    """The arrays :func:`encode_picks` reads, one game per state (all of one player count)."""
    n = states[0].players
    size = max(len(hand) for s in states for hand in s.hands)
    highest = states[0].rules.highest
    hands = np.zeros((len(states), n, size), dtype=np.int64)
    undealt = np.zeros((len(states), highest + 1), dtype=bool)
    for g, state in enumerate(states):
        for seat, hand in enumerate(state.hands):
            hands[g, seat, : len(hand)] = hand[::-1]  # any slot order will do
        undealt[g, state.unused] = True
    return {
        "last": np.array([[r[-1] for r in s.rows] for s in states]),
        "length": np.array([[len(r) for r in s.rows] for s in states]),
        "heads": np.array([[int(HEADS_NP[r].sum()) for r in s.rows] for s in states]),
        "hands": hands,
        "undealt": undealt,
        "round_heads": np.array([s.penalties for s in states]),
        "totals": np.array([s.scores() for s in states]),
        "highest": highest,
        "one_round": states[0].rules.options.get("rounds") == "1",
    }


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {"rounds": "1"}), (4, {"rounds": "1"}), (5, {}), (7, {"rounds": "3"}), (10, {})],
)
def test_the_batch_features_are_the_view_features(players: int, options: dict[str, str]) -> None:
    rng = random.Random(players)
    states = [
        start
        for seed in range(3)
        for start in turn_starts(new_game("6nimmt", options, players, 9000 + seed), rng)
    ]
    assert len(states) >= 30
    inputs = batch_inputs(states)
    state_rows, option_rows = encode_picks(**inputs)  # type: ignore[arg-type]
    net = initial(5, (32, 16), (8,))
    hands = inputs["hands"]
    assert isinstance(hands, np.ndarray)
    checked = 0
    for g, state in enumerate(states):
        for seat in range(players):
            view = state.view(seat)
            legal = state.legal_options(seat)
            expected_state, expected_options = encode(view, legal)
            np.testing.assert_allclose(state_rows[g, seat], expected_state, atol=1e-12)
            slot_of = {int(card): i for i, card in enumerate(hands[g, seat]) if card}
            slots = [slot_of[option.card] for option in legal]
            np.testing.assert_allclose(option_rows[g, seat, slots], expected_options, atol=1e-12)
            empty = [i for i in range(hands.shape[2]) if i not in slots]
            assert not option_rows[g, seat, empty].any()
            np.testing.assert_allclose(
                net.logits(state_rows[g, seat], option_rows[g, seat, slots]),
                net.logits(expected_state, expected_options),
                atol=1e-9,
            )
            checked += 1
    assert checked == len(states) * players


@pytest.mark.parametrize("players", [3, 6])
def test_the_marked_seats_features_are_those_rows_of_every_seats(players: int) -> None:
    rng = random.Random(players)
    states = [
        start
        for seed in range(2)
        for start in turn_starts(new_game("6nimmt", {"rounds": "1"}, players, 9100 + seed), rng)
    ]
    inputs = batch_inputs(states)
    all_states, all_options = encode_picks(**inputs)  # type: ignore[arg-type]
    marked = np.random.default_rng(players).random((len(states), players)) < 0.5
    assert 0 < marked.sum() < marked.size
    some_states, some_options = encode_picks(**inputs, seats=marked)  # type: ignore[arg-type]
    assert some_states.shape == (marked.sum(), all_states.shape[2])
    assert some_options.shape == (marked.sum(), *all_options.shape[2:])
    np.testing.assert_array_equal(some_states, all_states[marked])
    np.testing.assert_array_equal(some_options, all_options[marked])
