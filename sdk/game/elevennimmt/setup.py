"""11 nimmt!'s variant: its name, options and presets."""

from __future__ import annotations

from sdk.game.family import Catalog, Preset

NAME = "11nimmt"

CATALOG = Catalog(
    name=NAME,
    title="11 nimmt!",
    options=(),
    presets=(Preset("11nimmt", NAME, {}, 2, 7, "11 nimmt!"),),
)
"""The 11 nimmt! variants (one preset, no options; the family: ``elevennimmt.FAMILY``)."""
