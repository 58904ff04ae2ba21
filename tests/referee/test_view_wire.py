"""The referee's hand-written wire bytes equal protobuf's serialization of the same
message, for every 6 nimmt! preset's views and for values that need more than a byte."""

from __future__ import annotations

import dataclasses
import random
from typing import cast

import pytest

from referee.match.wire import header_fields, six_nimmt_fields
from sdk.game import PRESETS, DecisionKind, GameState, SixNimmtView, ViewHeader, new_game
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire.codec import GAME_FIELDS

SIX_PRESETS = sorted(name for name in PRESETS if PRESETS[name].family == "6nimmt")


def six_view(state: GameState, seat: int) -> SixNimmtView:
    view = state.view(seat)
    assert isinstance(view, SixNimmtView)
    return view


def serialized_view(view: SixNimmtView) -> bytes:
    return GAME_FIELDS[SixNimmtView][1](view).SerializeToString()


def serialized_header(header: ViewHeader) -> bytes:
    decision = header.decision
    return pb.Header(
        seat=header.seat,
        round=header.round,
        scores=header.scores,
        to_move=header.to_move,
        decision=cast(pb.DecisionKind.ValueType, 0 if decision is None else decision),
    ).SerializeToString()


@pytest.mark.parametrize("preset", SIX_PRESETS)
def test_every_view_of_a_game_is_written_as_protobuf_writes_it(preset: str) -> None:
    players = min(5, PRESETS[preset].max_players)
    state = new_game(preset, players, seed=11)
    rng = random.Random(11)
    checked = 0
    while not state.is_terminal():
        for seat in (-1, *state.pending()):  # the referee's view has seat -1: ten bytes
            view = six_view(state, seat)
            assert six_nimmt_fields(view) == serialized_view(view)
            assert header_fields(view.header) == serialized_header(view.header)
            checked += 1
        seat = state.pending()[0]
        options = state.legal_options(seat)
        state.apply(seat, options[rng.randrange(len(options))])
    assert checked > 20


def test_numbers_of_more_than_a_byte_and_defaults_are_written_as_protobuf_writes_them() -> None:
    state = new_game("6nimmt", 4, seed=2)
    view = six_view(state, 0)
    header = view.header
    odd_headers = [
        dataclasses.replace(header, scores=(0, 127, 128, 300)),
        dataclasses.replace(header, scores=(-1, 5, 0, 0), seat=3),
        dataclasses.replace(header, seat=0, round=0, scores=(), to_move=(), decision=None),
        dataclasses.replace(header, decision=DecisionKind.TAKE_ROW, to_move=(2,)),
    ]
    for odd in odd_headers:
        assert header_fields(odd) == serialized_header(odd)
    odd_views = [
        dataclasses.replace(view, round_penalties=(0, 200, 3, 0)),
        dataclasses.replace(view, hand=(), rows=((), (1,), (), (104,))),
        dataclasses.replace(view, revealed=((0, 5), (3, 0), (2, 130)), pending_card=5),
        dataclasses.replace(view, highest_card=0, hand_sizes=(), picked=()),
        dataclasses.replace(view, draft_pool=tuple(range(1, 120)), public_hands=True),
        dataclasses.replace(view, all_hands=((1, 2), (), (255,), (-4,))),
    ]
    for odd_view in odd_views:
        assert six_nimmt_fields(odd_view) == serialized_view(odd_view)
