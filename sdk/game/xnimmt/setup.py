"""X nimmt!'s variant: its name, options and presets."""

from __future__ import annotations

from sdk.game.family import Catalog, Preset

NAME = "xnimmt"

CATALOG = Catalog(
    name=NAME,
    title="X nimmt!",
    options=(),
    presets=(Preset("xnimmt", NAME, {}, 2, 4, "X nimmt!"),),
)
"""The X nimmt! variants (one preset, no options; the family: ``xnimmt.FAMILY``)."""
