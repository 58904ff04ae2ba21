"""Named presets, variant options and the one way to start a game.

A variant id is a preset name (``6nimmt-pro``) optionally followed by options
(``6nimmt-pro:end=reach66,rounds=2``). Options combine freely within a family; the preset
fixes the family's defaults. Everything invalid is refused with a :class:`RulesError` that
says what is allowed.
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from sdk.game.core import GameState, RulesError
from sdk.game.views import View

_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
MAX_ROUNDS = 100  # the rounds option: a game of 6 nimmt! rarely lasts 10


@dataclass(frozen=True)
class OptionSpec:
    """One option of a family: its allowed values (None: an integer from minimum to
    maximum, written in ASCII digits)."""

    name: str
    choices: tuple[str, ...] | None
    default: str
    minimum: int = 1
    maximum: int = 1_000_000
    help: str = ""

    def check(self, value: str) -> str:
        if self.choices is not None:
            if value not in self.choices:
                raise RulesError(
                    f"option {self.name}={value!r} is not allowed; "
                    f"choose one of: {', '.join(self.choices)}"
                )
            return value
        if value == "" and self.default == "":
            return ""
        # ASCII digits only: int() also takes Arabic-Indic digits, '1_000' and ' 7 '.
        if not _WHOLE_NUMBER.fullmatch(value):
            raise RulesError(f"option {self.name}={value!r} must be a whole number in ASCII digits")
        if len(value) > 12:  # no int() of a huge string
            raise RulesError(
                f"option {self.name}={value[:12]}... must be from {self.minimum} to {self.maximum}"
            )
        number = int(value)
        if number < self.minimum:
            raise RulesError(f"option {self.name}={value} must be at least {self.minimum}")
        if number > self.maximum:
            raise RulesError(f"option {self.name}={value} must be at most {self.maximum}")
        return str(number)


@dataclass(frozen=True)
class Preset:
    """A named variant: a family, its fixed options and the player counts it allows."""

    name: str
    family: str
    fixed: Mapping[str, str]
    min_players: int
    max_players: int
    title: str


class Engine(Protocol):
    """What each family module provides."""

    def new_game(
        self, variant: str, options: Mapping[str, str], players: int, seed: int
    ) -> GameState: ...

    def from_view(self, view: View, rng: random.Random) -> GameState: ...


FAMILY_MODULES = {
    "6nimmt": "sdk.game.sixnimmt",
    "xnimmt": "sdk.game.xnimmt",
    "11nimmt": "sdk.game.elevennimmt",
    "hornochsen": "sdk.game.hornochsen",
}

FAMILY_OPTIONS: dict[str, tuple[OptionSpec, ...]] = {
    "6nimmt": (
        OptionSpec("deck", ("full", "tactics"), "full", help="1..104, or 1..10n+4"),
        OptionSpec("deal", ("random", "draft"), "random", help="dealt, or Logic's open draft"),
        OptionSpec("placement", ("ends", "both"), "ends", help="Professional: both ends"),
        OptionSpec("end", ("over66", "reach66"), "over66", help="when the game ends"),
        OptionSpec(
            "rounds", None, "", maximum=MAX_ROUNDS, help="play exactly N rounds (overrides end)"
        ),
    ),
    "xnimmt": (),
    "11nimmt": (),
    "hornochsen": (),
}

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("6nimmt", "6nimmt", {}, 2, 10, "6 nimmt!"),
        Preset("6nimmt-tactics", "6nimmt", {"deck": "tactics"}, 2, 6, "6 nimmt! Tactics"),
        Preset(
            "6nimmt-logic", "6nimmt", {"deck": "tactics", "deal": "draft"}, 2, 6, "6 nimmt! Logic"
        ),
        Preset("6nimmt-pro", "6nimmt", {"placement": "both"}, 2, 10, "6 nimmt! Professional"),
        Preset("xnimmt", "xnimmt", {}, 2, 4, "X nimmt!"),
        Preset("11nimmt", "11nimmt", {}, 2, 7, "11 nimmt!"),
        Preset("hornochsen", "hornochsen", {}, 2, 6, "Hornochsen!"),
    )
}


@dataclass(frozen=True)
class VariantSpec:
    """A resolved variant: preset plus every option of its family, validated."""

    preset: Preset
    options: Mapping[str, str]

    @property
    def family(self) -> str:
        return self.preset.family

    @property
    def id(self) -> str:
        """The canonical id: preset name plus the options that differ from its defaults."""
        defaults = resolve_options(self.preset, {})
        extra = [f"{k}={v}" for k, v in sorted(self.options.items()) if defaults.get(k) != v]
        return self.preset.name + (":" + ",".join(extra) if extra else "")


def parse_variant(spec: str, options: Mapping[str, str] | None = None) -> VariantSpec:
    """Parse ``preset[:k=v,...]`` plus extra options into a validated VariantSpec."""
    name, _, tail = spec.strip().partition(":")
    preset = PRESETS.get(name)
    if preset is None:
        raise RulesError(f"unknown variant {name!r}; known variants: {', '.join(PRESETS)}")
    given: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in tail.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise RulesError(f"variant option {item!r} must look like name=value")
        given[key.strip()] = value.strip()
    given.update(options or {})
    return VariantSpec(preset, resolve_options(preset, given))


def resolve_options(preset: Preset, given: Mapping[str, str]) -> dict[str, str]:
    """Validate `given` against the family's options; fill in the preset's defaults."""
    specs = {s.name: s for s in FAMILY_OPTIONS[preset.family]}
    for key in given:
        if key not in specs:
            allowed = ", ".join(specs) or "none"
            raise RulesError(f"{preset.name} has no option {key!r} (options: {allowed})")
        if key in preset.fixed and given[key] != preset.fixed[key]:
            raise RulesError(
                f"{preset.name} fixes {key}={preset.fixed[key]}; use another preset to change it"
            )
    return {
        name: spec.check(given.get(name, preset.fixed.get(name, spec.default)))
        for name, spec in specs.items()
    }


def check_players(preset: Preset, players: int) -> None:
    """Refuse a player count the preset does not allow."""
    if not preset.min_players <= players <= preset.max_players:
        raise RulesError(
            f"{preset.name} is for {preset.min_players} to {preset.max_players} players, "
            f"not {players}"
        )


def engine(family: str) -> Engine:
    """The engine module of a family."""
    module: Engine = importlib.import_module(FAMILY_MODULES[family])
    return module


def new_game(
    variant: str, players: int, seed: int, options: Mapping[str, str] | None = None
) -> GameState:
    """A new game of `variant` (preset id, options allowed) for `players` seats.

    The same (variant, options, players, seed) and the same choices always give the
    same game.
    """
    spec = parse_variant(variant, options)
    check_players(spec.preset, players)
    return engine(spec.family).new_game(spec.preset.name, spec.options, players, seed)


def from_view(view: View, rng: random.Random) -> GameState:
    """A full state consistent with `view`: hidden cards sampled at random (determinization).

    Only what the view's seat may see is used, so a bot can call it on the view it was sent.
    """
    preset = PRESETS[view.header.variant]
    return engine(preset.family).from_view(view, rng)
