"""The bot's view decoder gives exactly what full decoding gives, however it is fed."""

from __future__ import annotations

import itertools
import pickle
import random
import sys
import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import cast

import pytest

from sdk.game import SixNimmtView, View, new_game
from sdk.game.core import Event
from sdk.game.history import EMPTY, History
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire import codec, view_decoder
from sdk.wire.view_decoder import ViewDecoder, WireHistory


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


def _game_deltas(seed: int, players: int = 3) -> list[tuple[int, View, pb.DecideRequest]]:
    """Every decision of a seeded random game as (seat, engine view, the Decide request
    the referee sends: the history since the seat's last request), with some deltas sent
    twice (a resend starts from one event earlier, as after a lost reply)."""
    state = new_game("6nimmt", players, seed=seed)
    rng = random.Random(seed)
    sent = [0] * players
    asks: list[tuple[int, View, pb.DecideRequest]] = []
    while not state.is_terminal():
        for seat in state.pending():
            view = state.view(seat)
            options = state.legal_options(seat)
            resends = (True, False) if sent[seat] and rng.random() < 0.2 else (False,)
            for resend in resends:
                offset = max(0, sent[seat] - 1) if resend else sent[seat]
                request = codec.decide_request("m", seat, 0, view, options, 0, 0, offset)
                asks.append((seat, view, pb.DecideRequest.FromString(request.SerializeToString())))
            sent[seat] = len(view.header.history)
            state.apply(seat, options[rng.randrange(len(options))])
    return asks


def test_a_delta_history_is_built_only_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decoding a session's requests builds no event, and views kept unread and read
    later, newest first, across resends, still equal the engine's; a bot that reads each
    view's history as it comes builds each event at least once and no more than decoding
    every delta at once did."""
    built: list[pb.Event] = []

    def counted(msg: pb.Event) -> Event:
        built.append(msg)
        return codec.event_from_proto(msg)

    monkeypatch.setattr(view_decoder, "event_from_proto", counted)
    asks = _game_deltas(seed=11)
    resends = sum(1 for (seat, _, _), (after, _, _) in itertools.pairwise(asks) if seat == after)
    assert resends > 0 and any(request.history_offset for _, _, request in asks)

    decoders = {seat: ViewDecoder() for seat, _, _ in asks}
    unread = [
        (view, decoders[seat].decode(request.view, request.history_offset))
        for seat, view, request in asks
    ]
    assert built == []
    for view, got in reversed(unread):
        assert got == view

    built.clear()
    decoders = {seat: ViewDecoder() for seat, _, _ in asks}
    for seat, view, request in asks:
        got = decoders[seat].decode(request.view, request.history_offset)
        assert got.header.history[-1] == view.header.history[-1]
    sent = sum(len(request.view.header.history) for _, _, request in asks)
    last = {seat: len(view.header.history) for seat, view, _ in asks}
    assert sum(last.values()) <= len(built) <= sent  # at most what decoding every delta did


def test_a_delta_history_behaves_as_the_engine_history() -> None:
    """An unread decoded history (each time a fresh decode) compares, hashes, slices,
    iterates, prints and pickles as the engine's history."""
    asks = _game_deltas(seed=3)
    index = len(asks) // 2
    seat = asks[index][0]

    def fresh() -> Sequence[Event]:
        decoder = ViewDecoder()
        history: Sequence[Event] = EMPTY
        for ask_seat, _, request in asks[: index + 1]:
            if ask_seat == seat:
                history = decoder.decode(request.view, request.history_offset).header.history
        return history

    expected = asks[index][1].header.history
    events = list(expected)
    assert isinstance(fresh(), WireHistory)
    assert len(fresh()) == len(events) > 2
    assert fresh() == expected and expected == fresh()
    assert fresh() == events and fresh() == tuple(events)
    assert fresh() != events[:-1]
    assert hash(fresh()) == hash(tuple(events))
    assert fresh()[-1] == events[-1] and fresh()[1:3] == tuple(events[1:3])
    assert list(reversed(fresh())) == events[::-1]
    history = fresh()
    assert isinstance(history, History) and history.as_tuple() == tuple(events)
    assert repr(fresh()) == repr(History(events))
    assert fresh().index(events[2]) == events.index(events[2])
    copied = pickle.loads(pickle.dumps(fresh()))
    assert type(copied) is History and copied == events


def test_an_unknown_event_in_a_delta_is_refused_at_once() -> None:
    """A delta's events are checked when decoded, not when read: an unknown event kind is
    a CodecError from decode (the runtime's INVALID_ARGUMENT), as in full decoding."""
    asks = _game_deltas(seed=4)
    seat, _, request = next(a for a in asks if a[2].history_offset and a[2].view.header.history)
    decoder = ViewDecoder()
    for ask_seat, _, earlier in asks:
        if earlier is request:
            break
        if ask_seat == seat:
            decoder.decode(earlier.view, earlier.history_offset)
    bad = pb.DecideRequest()
    bad.CopyFrom(request)
    bad.view.header.history[0].kind = cast(pb.EventKind.ValueType, 99)
    with pytest.raises(codec.CodecError, match="unknown event kind 99"):
        decoder.decode(bad.view, bad.history_offset)


def test_threads_reading_unread_histories_at_once_build_each_event_once() -> None:
    """Views of one session share their events: threads reading several unread views at
    once (a bot's helper threads, or a view kept from an earlier decision) must each see
    exactly the engine's history, the shared events built once, never twice."""
    asks = [a for a in _game_deltas(seed=8) if a[0] == 0]  # one seat's session
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # hand the GIL over as often as possible
    try:
        for attempt in range(20):
            decoder = ViewDecoder()
            views = [
                (view, decoder.decode(request.view, request.history_offset))
                for _, view, request in asks
            ]
            mismatches: list[int] = []
            orders = [
                random.Random(attempt * 10 + t).sample(range(len(views)), len(views))
                for t in range(4)
            ]
            threads = [
                threading.Thread(target=_read, args=(views, order, mismatches)) for order in orders
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert mismatches == []
    finally:
        sys.setswitchinterval(switch)


def _read(views: list[tuple[View, View]], order: list[int], mismatches: list[int]) -> None:
    """Read the histories of `views` (engine's, decoded) in `order`; note each that differs."""
    for k in order:
        expected, got = views[k]
        if got.header.history != expected.header.history:
            mismatches.append(k)
