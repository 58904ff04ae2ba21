"""Seeded random-game property runs on top of the generic harness (tests/sdk/properties.py).

Many cheap games (conservation at the end, the family's final checks, every
`harness_every`-th game also through the generic harness, replayed and matched against the
fast playout) plus a few deep games checked at every decision (every offered option applies
on a copy, a determinization keeps the view, the family's hidden-card check).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import islice

from sdk.game import GameState, new_game
from tests.sdk.properties import (
    all_cards,
    assert_determinization_keeps_view,
    assert_replay_reproduces,
    choice_rng,
    play_random,
    seeds_over_player_counts,
)

StepCheck = Callable[[GameState, int, random.Random], None]
FinalCheck = Callable[[GameState], None]

RANDOM_GAMES = 10_000
"""Seeded random games per preset (at least 10,000, spread over every player count)."""
PARTS = 4
"""The cheap games of a preset run as this many tests, so that xdist spreads them out."""


def run_cheap_games(
    variant: str,
    min_players: int,
    max_players: int,
    games: int,
    final_check: FinalCheck,
    *,
    part: int = 0,
    parts: int = 1,
    harness_every: int = 10,
) -> int:
    """Play part `part` (of `parts` equal slices) of `games` seeded random games spread over
    every player count; return how many were played (for the test to assert).

    Every game is played by the engine's fast random playout, must end with every card in
    exactly one place, and passes `final_check` (heads, scores recounted from the history).
    Every `harness_every`-th game is also played through the public API by the generic
    harness: at every decision the options are non-empty, canonical and distinct, and the
    chosen one applies; its recorded choices replay to the same end; and it must be the
    very game the fast playout played (same choices from the same generator), which shows
    that the fast playout only makes legal choices.
    """
    first, last = games * part // parts, games * (part + 1) // parts
    played = 0
    for players, seed in islice(
        seeds_over_player_counts(min_players, max_players, games), first, last
    ):
        state = new_game(variant, players, seed)
        initial = all_cards(state)
        assert set(initial.values()) == {1}, "a card is in two places at the start"
        state.playout(choice_rng(players, seed))
        assert state.is_terminal() and state.pending() == ()
        assert all_cards(state) == initial, "cards are not conserved"
        final_check(state)
        if seed % harness_every == 0:
            game = play_random(variant, players, seed, check_every=1 << 30)
            assert game.final.view(-1) == state.view(-1), "the fast playout chose otherwise"
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


def assert_every_option_applies(state: GameState, seat: int) -> None:
    """Each legal option of `seat` applies without error on a copy of the state."""
    for option in state.legal_options(seat):
        state.clone().apply(seat, option)
