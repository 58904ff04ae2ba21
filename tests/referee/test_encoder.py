"""The referee's per-match encoder sends exactly the Decide request the codec describes."""

from __future__ import annotations

import random

import pytest

from referee.match.encoder import MatchEncoder
from sdk.game import PRESETS, GameState, new_game
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire import codec
from sdk.wire.view_decoder import ViewDecoder


def play_encoded(state: GameState, encoder: MatchEncoder, rng: random.Random, deltas: bool) -> int:
    """Play `state` to the end with random choices, checking every request `encoder`
    writes against codec.decide_request and what a seat's decoder makes of it; the
    number of requests checked."""
    decoders = [ViewDecoder() for _ in range(state.players)]
    sent = [0] * state.players
    checked = 0
    while not state.is_terminal():
        for seat in state.pending():
            view = state.view(seat)
            options = state.legal_options(seat)
            offset = min(sent[seat], len(view.header.history)) if deltas else 0
            wire = encoder.decide_request("m", seat, checked, view, options, 900, 4000, offset)
            expected = codec.decide_request("m", seat, checked, view, options, 900, 4000, offset)
            received = pb.DecideRequest.FromString(wire)
            assert received == expected
            assert decoders[seat].decode(received.view, received.history_offset) == view
            assert codec.options_from_proto(received.options) == options
            sent[seat] = len(view.header.history)
            checked += 1
            state.apply(seat, options[rng.randrange(len(options))])
    return checked


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("deltas", [False, True])
def test_encoded_requests_parse_to_the_codecs_message(preset: str, deltas: bool) -> None:
    players = min(4, PRESETS[preset].max_players)
    rng = random.Random(3)
    assert play_encoded(new_game(preset, players, seed=3), MatchEncoder(), rng, deltas) > 0


def test_an_encoder_fed_another_game_encodes_that_games_values() -> None:
    """The caches reuse a piece only for the same object with the same value: an encoder
    that saw one game and is then fed a different game (other options, other seeds, a
    history reset) still writes exactly the second game's requests."""
    encoder = MatchEncoder()
    rng = random.Random(8)
    first = new_game("6nimmt", 3, seed=8)
    second = new_game("6nimmt-tactics", 4, seed=9)
    assert play_encoded(first, encoder, rng, deltas=False) > 0
    assert play_encoded(second, encoder, rng, deltas=False) > 0


def test_encoders_share_no_caches() -> None:
    """Each match owns its encoder: what one encoder cached is not in another."""
    state = new_game("6nimmt", 3, seed=4)
    seat = state.pending()[0]
    view, options = state.view(seat), state.legal_options(seat)
    one, two = MatchEncoder(), MatchEncoder()
    data = one.decide_request("m", seat, 0, view, options, 0, 0)
    assert two.decide_request("m", seat, 0, view, options, 0, 0) == data
    for name in MatchEncoder.__slots__:
        assert getattr(one, name) is not getattr(two, name)
