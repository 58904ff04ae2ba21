"""Generic property checks every game engine must pass, shared by the per-family tests.

Each check plays seeded random games through the public GameState API only, so the same
harness covers every variant:

* every offered option applies without error, and pending seats always have options;
* every card of the game is in exactly one place at every step (card_locations);
* replaying the recorded choices on a fresh game reproduces the final state exactly;
* a determinization built from a seat's view gives that seat the very same view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from sdk.game import GameState, Option, from_view, new_game

Choice = tuple[int, Option]


@dataclass
class PlayedGame:
    """A finished random game, with what is needed to replay and inspect it."""

    variant: str
    players: int
    seed: int
    options: Mapping[str, str]
    choices: list[Choice]
    initial_cards: Counter[int]
    final: GameState


def all_cards(state: GameState) -> Counter[int]:
    """Every number card of the game, counted over all places."""
    counts: Counter[int] = Counter()
    for cards in state.card_locations().values():
        counts.update(cards)
    return counts


def choice_rng(players: int, seed: int) -> random.Random:
    """The random choices of a seeded random game (play_random's; a fast random playout
    from this generator makes the very same choices)."""
    return random.Random(seed * 7919 + players)


def play_random(
    variant: str,
    players: int,
    seed: int,
    options: Mapping[str, str] | None = None,
    *,
    check_every: int = 1,
    on_step: Callable[[GameState, int], None] | None = None,
    max_steps: int = 100_000,
) -> PlayedGame:
    """Play one seeded random game, checking conservation every `check_every` steps.

    `on_step(state, seat)` is called before each decision of `seat` (for extra checks).
    """
    state = new_game(variant, players, seed, options)
    rng = choice_rng(players, seed)
    initial = all_cards(state)
    assert all(n == 1 for n in initial.values()), "a card is in two places at the start"
    choices: list[Choice] = []
    steps = 0
    while not state.is_terminal():
        pending = state.pending()
        assert pending, "a game that is not over must have a pending seat"
        for seat in pending:
            options_now = state.legal_options(seat)
            assert options_now, f"seat {seat} is pending but has no legal option"
            assert options_now == sorted(options_now, key=Option.sort_key), "not canonical"
            assert len(set(options_now)) == len(options_now), "an option is offered twice"
            if on_step is not None:
                on_step(state, seat)
            choice = options_now[rng.randrange(len(options_now))]
            state.apply(seat, choice)
            choices.append((seat, choice))
            steps += 1
            assert steps < max_steps, "the game does not end"
            if steps % check_every == 0:
                assert all_cards(state) == initial, "cards are not conserved"
    assert all_cards(state) == initial, "cards are not conserved at the end"
    assert state.pending() == ()
    return PlayedGame(variant, players, seed, dict(options or {}), choices, initial, state)


def replay(game: PlayedGame) -> GameState:
    """Apply the recorded choices to a fresh game with the same seed."""
    state = new_game(game.variant, game.players, game.seed, game.options)
    for seat, choice in game.choices:
        state.apply(seat, choice)
    return state


def assert_replay_reproduces(game: PlayedGame) -> None:
    again = replay(game)
    assert again.is_terminal()
    assert again.scores() == game.final.scores()
    assert again.view(-1) == game.final.view(-1)


def assert_determinization_keeps_view(state: GameState, seat: int, rng: random.Random) -> None:
    """from_view(view(seat)) must be a full state that shows `seat` the same view."""
    view = state.view(seat)
    sampled = from_view(view, rng)  # type: ignore[arg-type]
    sampled_view = sampled.view(seat)
    assert sampled_view == undo_hidden_picks(view, sampled_view), (
        "determinized state shows the seat another view"
    )
    assert set(state.pending()) <= set(sampled.pending()), "a pending seat lost its turn"
    if seat in state.pending():
        assert sampled.legal_options(seat) == state.legal_options(seat)


def undo_hidden_picks(view: Any, sampled_view: Any) -> Any:
    """`view` with the face-down picks that `sampled_view` left unmade taken back.

    A determinization may leave the opponents' hidden simultaneous picks unmade (6 nimmt!
    does, so a simulation lets them choose again); those seats are then pending again. Only
    picks can be taken back, never added.
    """
    picked = getattr(view, "picked", None)
    if picked is None or getattr(sampled_view, "picked", None) is None:
        return view
    undone = {
        s
        for s, (was, now) in enumerate(zip(picked, sampled_view.picked, strict=True))
        if was and not now
    }
    if not undone:
        return view
    to_move = tuple(sorted(set(view.header.to_move) | undone))
    decision = view.header.decision
    if view.header.seat in undone:  # the seat's own pick was taken back: it decides again
        decision = sampled_view.header.decision
    header = replace(view.header, to_move=to_move, decision=decision)
    return replace(view, header=header, picked=sampled_view.picked)


def seeds_over_player_counts(
    min_players: int, max_players: int, games: int, base_seed: int = 0
) -> Iterator[tuple[int, int]]:
    """(players, seed) pairs: `games` games spread evenly over every player count."""
    counts = list(range(min_players, max_players + 1))
    for i in range(games):
        yield counts[i % len(counts)], base_seed + i
