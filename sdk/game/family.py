"""What a game family is: its options, presets, constructors and view type (:class:`Family`),
and the family-independent explicit position (:class:`Position`).

Each engine module exports one ``FAMILY`` value (``sdk.game.sixnimmt.FAMILY``, ...);
``sdk.game.variants`` lists them. This module imports no engine, so engines can use it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Generic, TypeVar

from sdk.game.core import GameState, RulesError

if TYPE_CHECKING:
    from sdk.game.views import View

S_co = TypeVar("S_co", bound=GameState, covariant=True)
V_co = TypeVar("V_co", covariant=True)


_WHOLE_NUMBER = re.compile(r"-?[0-9]+")


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


@dataclass(frozen=True)
class VariantSpec:
    """A resolved variant: preset plus every option of its family, validated."""

    preset: Preset
    options: Mapping[str, str]
    defaults: Mapping[str, str] = field(default_factory=dict)  # the preset's own options

    @property
    def family(self) -> str:
        return self.preset.family

    @property
    def id(self) -> str:
        """The canonical id: preset name plus the options that differ from its defaults."""
        extra = [f"{k}={v}" for k, v in sorted(self.options.items()) if self.defaults.get(k) != v]
        return self.preset.name + (":" + ",".join(extra) if extra else "")


def check_players(preset: Preset, players: int) -> None:
    """Refuse a player count the preset does not allow."""
    if not preset.min_players <= players <= preset.max_players:
        raise RulesError(
            f"{preset.name} is for {preset.min_players} to {preset.max_players} players, "
            f"not {players}"
        )


@dataclass(frozen=True)
class Position:
    """An explicit table at the start of a turn, in the same terms for every family.

    ``places`` names where every card lies exactly as ``GameState.card_locations()`` names
    it, and lists each place's cards in the same order, so that
    ``from_position(state.position())`` continues exactly like ``state``:

    * ``hand i``: seat i's hand (any order);
    * ``row r`` (6 nimmt!, X nimmt!, Hornochsen!): row r, its first card first (rows in
      table order; Hornochsen!'s clockwise);
    * ``pile p`` (11 nimmt!): pile p, bottom card first, the top card last;
    * ``pile i`` (6 nimmt!: cards seat i took this round; Hornochsen!: seat i's collected
      bull cards), ``x row i`` and ``x pile i`` (X nimmt!: first card first);
    * ``deck`` (11 nimmt!): the face-down draw deck, **top card first**;
    * ``draft`` (6 nimmt! Logic): the face-up cards still to draft;
    * ``unused``: cards out of play (optional: every card found nowhere else).

    Places a family does not know are refused, and so are cards in two places. Places that
    only exist in the middle of a turn (6 nimmt!'s and X nimmt!'s ``revealed``,
    ``pending``, ``taken``) must be empty.
    """

    variant: str  # a preset id, options allowed: "6nimmt-pro:rounds=1"
    places: Mapping[str, Sequence[int]]
    round: int = 1
    totals: Sequence[int] = ()  # each seat's points of the rounds before this one; (): zeros
    turn: int = 0  # the seat to move (11 nimmt!, Hornochsen!) or to draft next (Logic)
    starter: int | None = None  # 11 nimmt!: the seat that started the round (None: `turn`)
    bulls: Sequence[int] = ()  # 11 nimmt!: bull cards in front of each seat; (): none
    specials: Mapping[str, Sequence[int]] | None = None
    """Hornochsen!: the special cards (Special values) by place, as ``special_locations()``
    names them (``hand i``, ``row r``, ``pile i``; ``box`` implied); None: each hand
    holds one x2 and one +5."""
    seed: int = 0  # deals the rounds after this one

    def players(self) -> int:
        """The number of seats: the ``hand i`` places, which must be hand 0 .. hand n-1."""
        hands = sorted(
            int(name.split()[1])
            for name in self.places
            if name.startswith("hand ") and name.split()[1].isdigit()
        )
        if hands != list(range(len(hands))):
            raise RulesError(f"a position names hands {hands}; they must be hand 0 .. hand n-1")
        return len(hands)

    def indexed(self, prefix: str, count: int | None = None) -> list[list[int]]:
        """The places ``{prefix} 0``, ``{prefix} 1``, ... as lists (``count`` of them, or as
        many as are given in a row from 0; missing ones are empty)."""
        if count is None:
            count = 0
            while f"{prefix} {count}" in self.places:
                count += 1
        return [list(self.places.get(f"{prefix} {i}", ())) for i in range(count)]

    def require_places(self, allowed: Sequence[str], empty: Sequence[str] = ()) -> None:
        """Refuse places outside `allowed` (prefixes such as ``"hand"`` or whole names such
        as ``"deck"``), and cards in the places that must be `empty`."""
        for name in self.places:
            head, _, index = name.rpartition(" ")
            base = head if index.isdigit() else name
            if base in empty:
                if self.places[name]:
                    raise RulesError(f"a position is taken at the start of a turn: {name} is not")
            elif base not in allowed and name not in allowed:
                raise RulesError(f"{name!r} is not a place of this game; places: {allowed}")


@dataclass(frozen=True)
class Catalog:
    """A family's variants: its options and presets, and the checks of a variant id.

    The family's own modules (positions, determinization) check and canonicalise variant
    ids with it; the whole :class:`Family` adds the constructors, which need those modules.
    """

    name: str  # the family id: "6nimmt", "xnimmt", "11nimmt", "hornochsen"
    title: str
    options: tuple[OptionSpec, ...]
    presets: tuple[Preset, ...]

    def preset(self, name: str) -> Preset:
        for preset in self.presets:
            if preset.name == name:
                return preset
        known = ", ".join(p.name for p in self.presets)
        raise RulesError(f"{name!r} is not a {self.title} variant; its variants: {known}")

    def resolve(self, preset: Preset, given: Mapping[str, str]) -> dict[str, str]:
        """Validate `given` against the family's options; fill in the preset's defaults."""
        specs = {s.name: s for s in self.options}
        for key in given:
            if key not in specs:
                allowed = ", ".join(specs) or "none"
                raise RulesError(f"{preset.name} has no option {key!r} (options: {allowed})")
            if key in preset.fixed and given[key] != preset.fixed[key]:
                raise RulesError(
                    f"{preset.name} fixes {key}={preset.fixed[key]}; "
                    "use another preset to change it"
                )
        return {
            name: spec.check(given.get(name, preset.fixed.get(name, spec.default)))
            for name, spec in specs.items()
        }

    def spec(self, preset: Preset, given: Mapping[str, str]) -> VariantSpec:
        """The validated variant of one of this family's presets."""
        key = (self.name, preset.name)
        defaults = _PRESET_DEFAULTS.get(key)
        if defaults is None:
            defaults = _PRESET_DEFAULTS[key] = MappingProxyType(self.resolve(preset, {}))
        return VariantSpec(
            preset, self.resolve(preset, given) if given else dict(defaults), defaults
        )


@dataclass(frozen=True)
class Family(Catalog, Generic[S_co, V_co]):
    """One game family: everything the variant registry and the tools need of it."""

    view_type: type[V_co]
    new_game: Callable[[str, Mapping[str, str], int, int], S_co]
    """(preset name, resolved options, players (checked), seed) -> a new game."""
    from_position: Callable[[Position], S_co]
    """An explicit table at the start of a turn (see :class:`Position`)."""
    from_view: Callable[[View, random.Random], S_co]
    """A full state consistent with a view of this family, hidden cards sampled."""

    @classmethod
    def of(
        cls,
        catalog: Catalog,
        *,
        view_type: type[V_co],
        new_game: Callable[[str, Mapping[str, str], int, int], S_co],
        from_position: Callable[[Position], S_co],
        from_view: Callable[[View, random.Random], S_co],
    ) -> Family[S_co, V_co]:
        """The family of `catalog`'s variants, with its constructors."""
        return cls(
            catalog.name,
            catalog.title,
            catalog.options,
            catalog.presets,
            view_type,
            new_game,
            from_position,
            from_view,
        )


_PRESET_DEFAULTS: dict[tuple[str, str], Mapping[str, str]] = {}
"""Each preset's resolved default options, by (family, preset), made once."""


def split_variant(
    spec: str, options: Mapping[str, str] | None = None
) -> tuple[str, dict[str, str]]:
    """``"preset:k=v,..."`` plus extra options -> (preset name, given options)."""
    name, _, tail = spec.strip().partition(":")
    given: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in tail.split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise RulesError(f"variant option {item!r} must look like name=value")
        if key.strip() in given:
            raise RulesError(f"variant option {key.strip()!r} given twice in {spec.strip()!r}")
        given[key.strip()] = value.strip()
    if options:
        for key in given.keys() & options.keys():  # none when the id names no option
            if given[key] != str(options[key]):
                raise RulesError(
                    f"variant option {key!r} is {given[key]!r} in {spec.strip()!r} but "
                    f"{str(options[key])!r} in the options given with it"
                )
        given.update(options)
    return name, given
