"""Playout policies of the Monte Carlo bot for the families played by the generic path."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sdk.game.core import GameState, Option, OptionKind


def play_first(
    state: GameState, seat: int, options: Sequence[Option], rng: random.Random
) -> Option:
    """11 nimmt!: a random card play when there is one (taking a pile only when no card
    fits), and keep playing while the turn allows; random playouts take piles at any time
    and make rounds that real players never play."""
    plays = [o for o in options if o.kind == OptionKind.PLAY]
    return rng.choice(plays) if plays else options[rng.randrange(len(options))]
