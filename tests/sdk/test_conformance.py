"""Every game family passes the public conformance harness (sdk.testing.check_engine)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

import pytest

from sdk.game import (
    PRESETS,
    Family,
    GameState,
    Option,
    Position,
    RulesError,
    View,
    elevennimmt,
    xnimmt,
)
from sdk.game.elevennimmt import ElevenNimmtState
from sdk.game.xnimmt import XNimmtState
from sdk.testing import EngineCheckError, check_engine

GAMES = {"6nimmt": 80, "xnimmt": 40, "11nimmt": 16, "hornochsen": 40}
"""Games per family: enough for every preset and player count, a few in depth."""


def test_every_family_is_covered() -> None:
    assert set(GAMES) == {preset.family for preset in PRESETS.values()}


@pytest.mark.parametrize("family", sorted(GAMES))
def test_the_family_passes_the_conformance_harness(family: str) -> None:
    report = check_engine(family, games=GAMES[family], seed=7)
    assert report.family == family
    assert report.games == GAMES[family]
    assert set(report.presets) == {n for n, p in PRESETS.items() if p.family == family}
    assert report.decisions > 10 * report.games
    assert report.deep_decisions > 0
    assert report.positions >= report.games
    assert "all passed" in str(report)


def test_an_unknown_family_is_refused() -> None:
    with pytest.raises(RulesError, match="unknown game family '7nimmt'"):
        check_engine("7nimmt")


# ----- the harness catches broken engines -------------------------------------------------


class ReversedOptions(XNimmtState):
    """Offers its legal options highest first: not the canonical order."""

    def legal_options(self, seat: int) -> list[Option]:
        return super().legal_options(seat)[::-1]


class DeckBottomFirst(ElevenNimmtState):
    """Lists the deck bottom card first, unlike from_position (the old 11 nimmt! mismatch)."""

    def card_locations(self) -> dict[str, list[int]]:
        places = super().card_locations()
        places["deck"].reverse()
        return places


def with_engine(family: Family[GameState, View], kind: type[GameState]) -> Family[GameState, View]:
    """`family` whose states (new games, positions, determinizations) are of `kind` (a
    subclass of its engine): a consistently broken engine."""

    def broken(state: GameState) -> GameState:
        other = object.__new__(kind)
        other.__dict__ = state.__dict__
        for klass in type(state).__mro__:  # and the engine's slots, if it has any
            for name in klass.__dict__.get("__slots__", ()):
                if hasattr(state, name):
                    setattr(other, name, getattr(state, name))
        return other

    def make(variant: str, options: Mapping[str, str], players: int, seed: int) -> GameState:
        return broken(family.new_game(variant, options, players, seed))

    def place(position: Position) -> GameState:
        return broken(family.from_position(position))

    def sample(view: View, rng: random.Random) -> GameState:
        return broken(family.from_view(view, rng))

    return replace(family, new_game=make, from_position=place, from_view=sample)


def test_options_out_of_canonical_order_are_caught() -> None:
    broken = with_engine(xnimmt.FAMILY, ReversedOptions)
    with pytest.raises(EngineCheckError, match="not in canonical order"):
        check_engine(broken, games=1)


def test_a_deck_listed_otherwise_than_from_position_takes_it_is_caught() -> None:
    broken = with_engine(elevennimmt.FAMILY, DeckBottomFirst)
    with pytest.raises(EngineCheckError, match=r"from_position\(position\(\)\)"):
        check_engine(broken, games=1)
    assert str(check_engine(elevennimmt.FAMILY, games=1)).endswith("all passed")
