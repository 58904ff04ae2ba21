"""The replay's fast JSON encoders (events, options, snapshot fields) against the plain
generic conversions they replace, over seeded random games of every preset."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from referee.replay import snapshots
from referee.replay.values import (
    event_to_json,
    option_from_json,
    option_to_replay,
    shared_histories,
    to_json,
)
from sdk.game import PRESETS, Event, GameState, HornochsenRow, Option, new_game

EVENT_DEFAULTS = {
    "seat": -1,
    "card": 0,
    "row": -1,
    "side": "RIGHT",
    "target": -1,
    "cards": [],
    "specials": [],
}


def generic_event(event: Event) -> Any:
    """Every field by the generic converter, then the defaults dropped (round kept)."""
    full = to_json(event)
    assert isinstance(full, dict)
    return {k: v for k, v in full.items() if k == "kind" or EVENT_DEFAULTS.get(k) != v}


def generic_option(option: Option) -> list[int]:
    values = [int(option.kind), option.card, option.row, int(option.side), option.target]
    defaults = [0, 0, -1, 0, -1]
    while len(values) > 1 and values[-1] == defaults[len(values) - 1]:
        values.pop()
    return values


def generic_field(value: object) -> Any:
    """A view field by plain recursion: tuples as lists, enums and bools as numbers."""
    if isinstance(value, tuple):
        return [generic_field(v) for v in value]
    if isinstance(value, HornochsenRow):
        return [list(value.cards), value.x2, value.plus5]
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    return value


def plain(value: object) -> bool:
    """JSON built only of exact dict, list, int, bool and str values (no enums)."""
    if type(value) is dict:
        return all(plain(v) for v in value.values())
    if type(value) is list:
        return all(plain(v) for v in value)
    return type(value) in (int, bool, str) or value is None


def random_game(preset: str, seed: int) -> list[GameState]:
    """The states of a seeded random game, one after every decision."""
    players = max(PRESETS[preset].min_players, 4 if preset == "6nimmt" else 3)
    state = new_game(preset, players, seed)
    rng = random.Random(seed)
    states = [state.clone()]
    while not state.is_terminal():
        for seat in state.pending():
            options = state.legal_options(seat)
            state.apply(seat, options[rng.randrange(len(options))])
            states.append(state.clone())
    return states


@pytest.mark.parametrize("preset", list(PRESETS))
def test_fast_encoders_match_the_generic_conversion(preset: str) -> None:
    for seed in range(2):
        states = random_game(preset, seed)
        final = states[-1]
        for seat in range(final.players):
            for event in final.view(seat).header.history:
                assert event_to_json(event) == generic_event(event), event
        for state in states[:: max(1, len(states) // 40)]:
            snap = snapshots.snapshot(state)
            assert plain(snap)
            view = state.view(-1)
            for name, value in snap.items():
                if name not in ("round", "scores", "to_move", *snapshots.SEAT_OWN_FIELDS):
                    assert value == generic_field(getattr(view, name)), name
            if not state.is_terminal():
                for seat in state.pending():
                    for option in state.legal_options(seat):
                        encoded = option_to_replay(option)
                        assert encoded == generic_option(option)
                        assert option_from_json(json.loads(json.dumps(encoded))) == option


def test_histories_are_stored_once_when_seats_share_them() -> None:
    final = random_game("6nimmt", 3)[-1]
    histories = [final.view(seat).header.history for seat in range(final.players)]
    stored = shared_histories(histories)
    assert stored[1:] == [0] * (final.players - 1)
    assert stored[0] == [generic_event(e) for e in histories[0]]
    other = [histories[0], histories[0][:-1]]
    assert shared_histories(other)[1] == [generic_event(e) for e in histories[0][:-1]]
