"""The numpy batch simulator plays exactly the reference engine's games.

Both are driven by the same pre-drawn random choices: play keys (a seat plays its cards in
ascending key order), draft keys, and one uniform number per row or place choice. The
reference engine, with a policy that reads them, must end every game with the very
scores the batch computes, from any starting point and with every option.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest

from sdk.game import DecisionKind, GameState, Option, new_game
from sdk.game.sixnimmt import SixNimmtState, deal_order, from_view
from sdk.game.sixnimmt.batch import FloatArray, IntArray, simulate, simulate_random, simulate_view

MAX_ROUNDS = 60
MAX_CHOICES = 500


class PreDrawn:
    """Pre-drawn random choices for K games, readable by the batch (the Draws protocol)
    and by the reference engine (a policy per game)."""

    def __init__(self, seed: int, k: int, deck_seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.play = rng.random((k, MAX_ROUNDS + 1, 105))
        self.drafting = rng.random((k, MAX_ROUNDS + 1, 105))
        self.u = rng.random((k, MAX_CHOICES))
        self.used = np.zeros(k, dtype=np.int64)
        self.deck_seed = deck_seed

    # The Draws protocol (the batch).
    def play_keys(self, games: IntArray, round_number: int) -> FloatArray:
        keys: FloatArray = self.play[games, round_number]
        return keys

    def draft_keys(self, games: IntArray, round_number: int) -> FloatArray:
        keys: FloatArray = self.drafting[games, round_number]
        return keys

    def choice(self, games: IntArray) -> FloatArray:
        u: FloatArray = self.u[games, self.used[games]]
        self.used[games] += 1
        return u

    def deal(self, games: IntArray, round_number: int, highest: int) -> IntArray:
        deck = deal_order(self.deck_seed, round_number, highest)  # the engine's own deal
        return np.tile(np.array(deck, dtype=np.int64), (len(games), 1))

    # The reference engine.
    def play_reference(self, state: SixNimmtState, game: int) -> list[int]:
        used = 0

        def policy(
            state: GameState, seat: int, options: Sequence[Option], rng: random.Random
        ) -> Option:
            nonlocal used
            assert isinstance(state, SixNimmtState)
            kind = state.decision_kind(seat)
            if kind == DecisionKind.PICK_CARD:
                return min(options, key=lambda o: self.play[game, state.round, o.card])
            if kind == DecisionKind.DRAFT_CARD:
                return min(options, key=lambda o: self.drafting[game, state.round, o.card])
            u = self.u[game, used]
            used += 1
            return options[int(u * len(options))]

        return state.clone().playout(random.Random(0), policy)


def advance(state: SixNimmtState, steps: int, rng: random.Random) -> None:
    """A few random decisions, to start mid-draft, mid-turn or mid-resolution."""
    for _ in range(steps):
        if state.is_terminal():
            return
        seat = state.pending()[0]
        options = state.legal_options(seat)
        state.apply(seat, options[rng.randrange(len(options))])


CASES = [
    ("6nimmt", {"rounds": "1"}),
    ("6nimmt", {}),
    ("6nimmt", {"end": "reach66"}),
    ("6nimmt", {"deal": "draft", "placement": "both", "rounds": "2"}),
    ("6nimmt-tactics", {"rounds": "1"}),
    ("6nimmt-tactics", {"placement": "both"}),
    ("6nimmt-logic", {"rounds": "1"}),
    ("6nimmt-logic", {}),
    ("6nimmt-pro", {"rounds": "1"}),
    ("6nimmt-pro", {"deck": "tactics", "rounds": "3"}),
]


@pytest.mark.parametrize(("preset", "options"), CASES)
def test_batch_and_reference_play_the_same_games(preset: str, options: dict[str, str]) -> None:
    k = 6
    rng = random.Random(preset + str(options))
    high = 6 if preset in ("6nimmt-tactics", "6nimmt-logic") else 10
    for seed in range(24):
        players = 2 + seed % (high - 1)
        state = new_game(preset, players, seed, options)
        assert isinstance(state, SixNimmtState)
        advance(state, rng.randrange(0, 12 * players), rng)
        draws = PreDrawn(seed, k, state.seed)
        batch = simulate(state, k, draws)
        for game in range(k):
            assert list(batch[game]) == draws.play_reference(state, game), (seed, game)


def test_random_batches_are_reproducible_and_vary() -> None:
    state = new_game("6nimmt", 4, 3, {"rounds": "1"})
    assert isinstance(state, SixNimmtState)
    first = simulate_random(state, 500, 1)
    assert (first == simulate_random(state, 500, 1)).all()
    assert len({tuple(row) for row in first}) > 100
    # Heads are only ever taken, never lost: a round of 4 hands takes at least 1 head.
    assert (first.sum(axis=1) >= 1).all()


def test_simulate_view_agrees_with_engine_determinizations_on_average() -> None:
    state = new_game("6nimmt", 4, 9, {"rounds": "1"})
    assert isinstance(state, SixNimmtState)
    view = state.view(0)
    batch = simulate_view(view, 4000, 5).mean(axis=0)
    rng = random.Random(5)
    reference = np.mean([from_view(view, rng).playout(rng) for _ in range(1500)], axis=0)
    assert np.abs(batch - reference).max() < 1.5
