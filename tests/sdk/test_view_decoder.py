"""The bot's view decoder gives exactly what full decoding gives, however it is fed."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from sdk import codec
from sdk.game import SixNimmtView, new_game
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.view_decoder import ViewDecoder


def test_session_decoder_matches_full_decoding_over_real_games() -> None:
    """One decoder per seat, fed views in game order, then a different game, then views
    whose history was rewritten, must always decode exactly what view_from_proto does."""
    decoders = {seat: ViewDecoder() for seat in range(3)}
    for seed in (1, 2):
        state = new_game("6nimmt", 3, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for seat in state.pending():
                view = state.view(seat)
                assert isinstance(view, SixNimmtView)
                msg = pb.View.FromString(codec.view_to_proto(view).SerializeToString())
                assert decoders[seat].decode(msg) == view
                options = state.legal_options(seat)
                state.apply(seat, options[rng.randrange(len(options))])
    # A later view whose earlier history differs (not an extension) is decoded in full.
    view = state.view(0)
    assert isinstance(view, SixNimmtView)
    history = view.header.history
    changed = replace(history[0], card=history[0].card + 1)
    longer = replace(view.header, history=(changed, *history[1:], history[-1]))
    rewritten = replace(view, header=longer)
    assert decoders[0].decode(codec.view_to_proto(rewritten)) == rewritten
    shorter = replace(view, header=replace(view.header, history=history[:3]))
    assert decoders[0].decode(codec.view_to_proto(shorter)) == shorter


def test_session_decoder_puts_history_deltas_together() -> None:
    """Fed only each view's new events (history_offset = what it was sent before), a
    session's decoder gives exactly the whole view; a resent delta (a call whose reply was
    lost) replaces what followed the offset; an offset beyond what it has is refused."""
    state = new_game("6nimmt", 3, seed=5)
    rng = random.Random(5)
    decoders = {seat: ViewDecoder() for seat in range(3)}
    sent = [0, 0, 0]
    deltas = 0
    while not state.is_terminal():
        for seat in state.pending():
            view = state.view(seat)
            assert isinstance(view, SixNimmtView)
            options = state.legal_options(seat)
            for resend in (True, False) if sent[seat] and rng.random() < 0.2 else (False,):
                offset = max(0, sent[seat] - 1) if resend else sent[seat]
                request = codec.decide_request("m", seat, 0, view, options, 0, 0, offset)
                wire = pb.DecideRequest.FromString(request.SerializeToString())
                assert len(wire.view.header.history) == len(view.header.history) - offset
                assert decoders[seat].decode(wire.view, wire.history_offset) == view
            deltas += offset > 0
            sent[seat] = len(view.header.history)
            state.apply(seat, options[rng.randrange(len(options))])
    assert deltas > 0
    view = state.view(0)
    assert isinstance(view, SixNimmtView)
    request = codec.decide_request("m", 0, 0, view, [], 0, 0, 0)
    assert ViewDecoder().decode(request.view, 0) == view  # offset 0: the whole history
    with pytest.raises(codec.CodecError, match="beyond"):
        ViewDecoder().decode(request.view, 1)
