"""What the adapter tests share: the presets they cover and an engine replay."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sdk.game import PRESETS, GameState, Option, new_game, parse_variant

VARIANTS = (
    "6nimmt:rounds=2",
    "6nimmt-tactics:rounds=1",
    "6nimmt-logic:rounds=1",
    "6nimmt-pro:rounds=1",
    "xnimmt",
    "11nimmt",
    "hornochsen",
)
"""One variant per preset (every preset is covered; 6 nimmt! plays two rounds)."""


def test_every_preset_is_covered() -> None:
    assert {parse_variant(v).preset.name for v in VARIANTS} == set(PRESETS)


def player_count(variant: str, rng: random.Random) -> int:
    """A player count the preset allows, at most 4 (11 nimmt!, which plays a round per
    seat: 2 or 3), to keep the games cheap."""
    preset = parse_variant(variant).preset
    most = 3 if preset.family == "11nimmt" else 4
    return rng.randint(preset.min_players, min(preset.max_players, most))


def cheap_player_count(variant: str, rng: random.Random) -> int:
    """:func:`player_count`, but 11 nimmt! at 2 seats only (two rounds): for the tests
    that play hundreds of games."""
    if parse_variant(variant).preset.family == "11nimmt":
        return 2
    return player_count(variant, rng)


def replay(
    variant: str, players: int, seed: int, record: Sequence[tuple[int, Option]]
) -> GameState:
    """The engine's own game for the same deal and choices, applied one by one through the
    public API (``new_game``, ``apply``)."""
    state = new_game(variant, players, seed)
    for seat, option in record:
        assert seat in state.pending()
        state.apply(seat, option)
    assert state.is_terminal()
    return state
