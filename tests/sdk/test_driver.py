"""sdk.game.driver: every pending seat is asked on the same table, choices applied in seat
order, and a recorded game steps through exactly as it was played. Seeded random games of
every family."""

from __future__ import annotations

import random

import pytest

from sdk.game import Option, driver, new_game
from sdk.game.core import GameState

FAMILIES = ["6nimmt", "xnimmt", "11nimmt", "hornochsen"]


def random_moves(preset: str, seed: int) -> tuple[GameState, list[tuple[int, Option]], int]:
    """A random game played through driver.play: the final state, every (seat, option)
    applied in order, and how many steps asked more than one seat."""
    state = new_game(preset, 4 if preset != "hornochsen" else 3, seed)
    rng = random.Random(seed)
    applied: list[tuple[int, Option]] = []
    seen: list[int] = []  # the seats of the current step, as their choices were applied
    shared = 0

    def note(ask: driver.Ask, choice: int) -> None:
        seen.append(ask.seat)
        applied.append((ask.seat, ask.options[choice]))

    while step := driver.asks(state):
        # Every ask is the table as it stands: computed again now, nothing has changed.
        assert [a.seat for a in step] == list(state.pending())
        for ask in step:
            assert ask.view == state.view(ask.seat)
            assert ask.options == tuple(state.legal_options(ask.seat))
        shared += len(step) > 1
        seen.clear()
        driver.apply_choices(state, step, [rng.randrange(len(a.options)) for a in step], note)
        assert seen == [a.seat for a in step]  # each applied once, in seat order
    return state, applied, shared


@pytest.mark.parametrize("preset", FAMILIES)
@pytest.mark.parametrize("seed", [1, 2])
def test_asks_see_one_table_and_choices_apply_in_seat_order(preset: str, seed: int) -> None:
    state, applied, shared = random_moves(preset, seed)
    assert state.is_terminal() and applied
    if preset == "6nimmt":
        assert shared > 0  # simultaneous picks were asked together


@pytest.mark.parametrize("preset", FAMILIES)
def test_recorded_steps_replay_the_game_exactly(preset: str) -> None:
    played, applied, _ = random_moves(preset, 7)
    state = new_game(preset, played.players, 7)
    groups = []
    for group in driver.recorded_steps(state, applied, lambda move: move):
        assert [seat for seat, _ in group] == list(state.pending())
        groups.append(group)
    assert [m for g in groups for m in g] == applied
    assert state.is_terminal() and state.scores() == played.scores()


def test_play_asks_every_seat_of_a_step_before_applying_any() -> None:
    state = new_game("6nimmt", 4, 3)
    asked: list[tuple[int, tuple[int, ...]]] = []  # (seat, the pending seats when asked)

    def choose(ask: driver.Ask) -> int:
        asked.append((ask.seat, tuple(state.pending())))
        return 0

    driver.play(state, choose)
    assert state.is_terminal()
    # The first pick: four seats asked, no choice applied before the last was asked.
    assert asked[:4] == [(seat, (0, 1, 2, 3)) for seat in range(4)]
