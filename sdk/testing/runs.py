"""The long seeded runs of the test suite, built from the checks of :mod:`sdk.testing`."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice

from sdk.game import GameState
from sdk.testing.checks import (
    FinalCheck,
    StepCheck,
    all_cards,
    assert_determinization_keeps_view,
    assert_every_option_applies,
    assert_replay_reproduces,
    assert_views_agree,
    choice_rng,
    play_random,
    require,
    start_game,
)


def seeds_over_player_counts(
    min_players: int, max_players: int, games: int, base_seed: int = 0
) -> Iterator[tuple[int, int]]:
    """(players, seed) pairs: `games` games spread evenly over every player count."""
    counts = list(range(min_players, max_players + 1))
    for i in range(games):
        yield counts[i % len(counts)], base_seed + i


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
    every player count; return how many were played (for the caller to check).

    Every game is played by the engine's fast random playout, must end with every card in
    exactly one place, and passes `final_check`. Every `harness_every`-th game is also
    played through the public API by :func:`play_random`; its recorded choices replay to the
    same end, and it must be the very game the fast playout played (same choices from the
    same generator), which shows that the fast playout only makes legal choices.
    """
    first, last = games * part // parts, games * (part + 1) // parts
    played = 0
    for players, seed in islice(
        seeds_over_player_counts(min_players, max_players, games), first, last
    ):
        state = start_game(variant, players, seed)
        where = f"{variant}, {players} players, seed {seed}"
        initial = all_cards(state)
        require(set(initial.values()) == {1}, f"{where}: a card is in two places at the start")
        state.playout(choice_rng(players, seed))
        require(state.is_terminal() and state.pending() == (), f"{where}: playout did not end")
        require(all_cards(state) == initial, f"{where}: cards are not conserved")
        final_check(state)
        if seed % harness_every == 0:
            game = play_random(variant, players, seed, check_every=1 << 30)
            require(
                game.final.view(-1) == state.view(-1),
                f"{where}: the fast playout chose otherwise",
            )
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
    """Play `games` random games checked at every decision; return the decisions checked.

    At every decision: every option applies on a copy, the views agree with the state, a
    determinization keeps the deciding seat's view, and `hidden_check` passes.
    """
    checked = 0
    rng = random.Random(base_seed)

    def on_step(state: GameState, seat: int) -> None:
        nonlocal checked
        assert_every_option_applies(state, seat)
        assert_views_agree(state, seat)
        assert_determinization_keeps_view(state, seat, rng)
        hidden_check(state, seat, rng)
        checked += 1

    for players, seed in seeds_over_player_counts(min_players, max_players, games, base_seed):
        game = play_random(variant, players, seed, on_step=on_step)
        assert_replay_reproduces(game)
    return checked
