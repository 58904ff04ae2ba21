"""Hornochsen!'s variant: its name, options and presets."""

from __future__ import annotations

from sdk.game.family import Catalog, Preset

NAME = "hornochsen"

CATALOG = Catalog(
    name=NAME,
    title="Hornochsen!",
    options=(),
    presets=(Preset("hornochsen", NAME, {}, 2, 6, "Hornochsen!"),),
)
"""The Hornochsen! variants (one preset, no options; the family: ``hornochsen.FAMILY``)."""


DECK = range(1, 99)


DEAL = {2: (14, 7), 3: (12, 9), 4: (12, 12), 5: (12, 15), 6: (10, 15)}
"""Players -> (hand cards each, table cards)."""


ROW_FULL = 5  # the 5th bull card collects the row


MAX_STEPS = 3
