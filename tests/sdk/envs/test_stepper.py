"""The Stepper shows each seat of a step what the referee's driver would ask it, and
applies a step's choices as the driver does."""

from __future__ import annotations

import random

import pytest

from sdk.envs.stepper import Stepper
from sdk.game import driver, new_game
from tests.sdk.envs.games import VARIANTS, player_count


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_stepper_asks_and_plays_as_the_driver(variant: str) -> None:
    rng = random.Random(f"stepper {variant}")
    for game in range(3):
        players = player_count(variant, rng)
        stepper = Stepper(new_game(variant, players, game))
        reference = new_game(variant, players, game)
        while not stepper.done:
            asks = driver.asks(reference)
            choices = []
            for ask in asks:
                assert stepper.seat == ask.seat
                assert stepper.view(ask.seat) == ask.view
                assert stepper.options() == ask.options
                choices.append(rng.randrange(len(ask.options)))
                closed = stepper.choose(choices[-1])
                assert closed == (ask is asks[-1])
            driver.apply_choices(reference, asks, choices)
        assert reference.is_terminal()
        assert stepper.state.scores() == reference.scores()
        assert stepper.seat == -1
