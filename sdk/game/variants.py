"""The variant registry: every game family, its named presets, and the one way to start a game.

A variant id is a preset name (``6nimmt-pro``) optionally followed by options
(``6nimmt-pro:end=reach66,rounds=2``). Options combine freely within a family; the preset
fixes the family's defaults. Everything invalid is refused with a :class:`RulesError` that
says what is allowed.

The families are listed here, statically: each engine module exports its ``FAMILY``
(:class:`sdk.game.family.Family`); adding a family is adding it to :data:`FAMILIES`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import MappingProxyType

from sdk.game import elevennimmt, hornochsen, sixnimmt, xnimmt
from sdk.game.core import GameState, RulesError
from sdk.game.family import (
    Family,
    OptionSpec,
    Position,
    Preset,
    VariantSpec,
    check_players,
    split_variant,
)
from sdk.game.views import View

__all__ = [
    "FAMILIES",
    "PRESETS",
    "Family",
    "OptionSpec",
    "Position",
    "Preset",
    "VariantSpec",
    "check_players",
    "family_of",
    "from_position",
    "from_view",
    "new_game",
    "parse_variant",
]

FAMILIES: Mapping[str, Family[GameState, View]] = {
    family.name: family
    for family in (sixnimmt.FAMILY, xnimmt.FAMILY, elevennimmt.FAMILY, hornochsen.FAMILY)
}
"""Every game family by id, in the order the docs list them."""

PRESETS: Mapping[str, Preset] = {
    preset.name: preset for family in FAMILIES.values() for preset in family.presets
}
"""Every named variant, by name."""


def family_of(variant: str) -> Family[GameState, View]:
    """The family of a preset or variant id (``"6nimmt-pro:rounds=1"`` -> 6 nimmt!)."""
    name = variant.partition(":")[0].strip()
    preset = PRESETS.get(name)
    if preset is None:
        raise RulesError(f"unknown variant {name!r}; known variants: {', '.join(PRESETS)}")
    return FAMILIES[preset.family]


def parse_variant(spec: str, options: Mapping[str, str] | None = None) -> VariantSpec:
    """Parse ``preset[:k=v,...]`` plus extra options into a validated VariantSpec."""
    name, given = split_variant(spec, options)
    family = family_of(name)
    return family.spec(PRESETS[name], given)


def new_game(
    variant: str, players: int, seed: int, options: Mapping[str, str] | None = None
) -> GameState:
    """A new game of `variant` (preset id, options allowed) for `players` seats.

    The same (variant, options, players, seed) and the same choices always give the
    same game.
    """
    key = (variant, players, tuple(options.items()) if options else ())
    start = _STARTS.get(key)
    if start is None:
        spec = parse_variant(variant, options)
        check_players(spec.preset, players)
        start = (
            FAMILIES[spec.family].new_game,
            spec.preset.name,
            MappingProxyType(dict(spec.options)),
        )
        if len(_STARTS) < _STARTS_LIMIT:
            _STARTS[key] = start
    make, preset, resolved = start
    return make(preset, resolved, players, seed)


_STARTS: dict[
    tuple[str, int, tuple[tuple[str, str], ...]],
    tuple[Callable[[str, Mapping[str, str], int, int], GameState], str, Mapping[str, str]],
] = {}
"""What new_game resolved for each (variant, players, options) it was asked (a variant is
parsed and checked once: it is the same every time)."""
_STARTS_LIMIT = 10_000


def from_position(position: Position) -> GameState:
    """A game from an explicit table at the start of a turn, for any family (see
    :class:`Position`; ``from_position(state.position())`` continues exactly like
    ``state``)."""
    return family_of(position.variant).from_position(position)


def from_view(view: View, rng: random.Random) -> GameState:
    """A full state consistent with `view`: hidden cards sampled at random (determinization).

    Only what the view's seat may see is used, so a bot can call it on the view it was sent.
    """
    return family_of(view.header.variant).from_view(view, rng)
