"""Seeded random-game property runs on top of the generic harness (tests/sdk/properties.py).

Many cheap games (conservation at the end, replay of every `replay_every`-th game, a
family's final checks) plus a few deep games checked at every decision (every offered
option applies on a copy, a determinization keeps the view, the family's hidden-card
check).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from sdk.game import GameState
from tests.sdk.properties import (
    PlayedGame,
    assert_determinization_keeps_view,
    assert_replay_reproduces,
    play_random,
    seeds_over_player_counts,
)

StepCheck = Callable[[GameState, int, random.Random], None]
FinalCheck = Callable[[PlayedGame], None]


def assert_every_option_applies(state: GameState, seat: int) -> None:
    """Each legal option of `seat` applies without error on a copy of the state."""
    for option in state.legal_options(seat):
        state.clone().apply(seat, option)


def run_cheap_games(
    variant: str,
    min_players: int,
    max_players: int,
    games: int,
    final_check: FinalCheck,
    *,
    replay_every: int = 10,
) -> int:
    """Play `games` random games; return how many were played (for the test to assert)."""
    played = 0
    for players, seed in seeds_over_player_counts(min_players, max_players, games):
        game = play_random(variant, players, seed, check_every=1 << 30)
        final_check(game)
        if seed % replay_every == 0:
            assert_replay_reproduces(game)
        played += 1
    return played


def run_deep_games(
    variant: str,
    min_players: int,
    max_players: int,
    games: int,
    hidden_check: StepCheck,
    *,
    base_seed: int = 1_000_000,
) -> int:
    """Play `games` random games checked at every decision; return the decisions checked."""
    checked = 0
    rng = random.Random(base_seed)

    def on_step(state: GameState, seat: int) -> None:
        nonlocal checked
        assert_every_option_applies(state, seat)
        assert_determinization_keeps_view(state, seat, rng)
        hidden_check(state, seat, rng)
        checked += 1

    for players, seed in seeds_over_player_counts(min_players, max_players, games, base_seed):
        game = play_random(variant, players, seed, on_step=on_step)
        assert_replay_reproduces(game)
    return checked
