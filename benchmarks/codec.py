"""Codec speed: the referee's encode (view -> request bytes, one MatchEncoder per match, as
the match runner does) and the bot's decode (bytes -> message -> view).

Run: ``.venv/bin/python -m benchmarks.codec``. The referee's encode is timed per decision
over whole games in order, with a fresh encoder for each game (its caches start empty,
as every match's do): "whole" sends every view's whole history, "deltas" only the
events the seat has not been sent yet (what a bot that keeps its history gets). The bot's
decode is timed on a fresh message each time: alone ("decode"), with a session's decoder
fed whole histories ("session decode") or deltas ("deltas": what the SDK's runtime gets;
its history's events are built only when read, and "history read" reads them). Views
come from real seeded games of every preset whose engine exists, sampled over the whole
game (late views carry long histories), plus a synthetic late-game 6 nimmt! view with a
600-event history as a worst case (asked again and again in one match).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from referee.match.encoder import MatchEncoder
from sdk.game import (
    PRESETS,
    DecisionKind,
    ElevenNimmtView,
    Event,
    EventKind,
    HornochsenView,
    Option,
    OptionKind,
    SixNimmtView,
    View,
    ViewHeader,
    XNimmtView,
    driver,
    new_game,
)
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire import codec
from sdk.wire.view_decoder import ViewDecoder


def game_views(preset: str, players: int, seed: int) -> list[tuple[View, list[Option]]]:
    """Every (view, options) a seat was shown in one seeded random game."""
    state = new_game(preset, players, seed)
    rng = random.Random(seed)
    shown: list[tuple[View, list[Option]]] = []

    def choose(ask: driver.Ask) -> int:
        view = ask.view
        assert isinstance(view, SixNimmtView | XNimmtView | ElevenNimmtView | HornochsenView)
        shown.append((view, list(ask.options)))
        return rng.randrange(len(ask.options))

    driver.play(state, choose)
    return shown


def synthetic_late_view(events: int = 600) -> tuple[View, list[Option]]:
    rng = random.Random(1)
    history = tuple(
        Event(
            EventKind(rng.randint(1, 4)),
            seat=rng.randrange(5),
            card=rng.randint(1, 104),
            row=rng.randrange(4),
            cards=tuple(rng.randint(1, 104) for _ in range(rng.choice([0, 0, 0, 5]))),
            round=1 + i // 60,
        )
        for i in range(events)
    )
    header = ViewHeader(
        "6nimmt", {"deck": "full"}, 5, 2, 10, (40, 52, 61, 33, 20), (0, 1, 2, 3, 4),
        DecisionKind.PICK_CARD, history,
    )  # fmt: skip
    hand = (5, 17, 33, 48, 71, 90)
    view = SixNimmtView(
        header, hand, ((3, 8), (22, 25, 30), (60,), (99, 101, 102, 103)), (6,) * 5,
        (0, 3, 1, 0, 5), 104, (False,) * 5, (), 0, (), False, (),
    )  # fmt: skip
    return view, [Option(OptionKind.CARD, c) for c in hand]


def per_call_us(fn: Callable[[], object], budget_s: float = 0.3) -> float:
    calls = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < budget_s:
        for _ in range(50):
            fn()
        calls += 50
    return elapsed / calls * 1e6


def measure(label: str, samples: list[tuple[View, list[Option]]]) -> None:
    requests = [
        codec.decide_request("m", v.header.seat, i, v, o, 1000, 5000)
        for i, (v, o) in enumerate(samples)
    ]
    encoded = [r.SerializeToString() for r in requests]
    sent: dict[int, int] = {}  # seat -> history events it was sent
    deltas_encoded = []  # what the referee sends a bot that keeps its history
    for i, (view, options) in enumerate(samples):
        seat, length = view.header.seat, len(view.header.history)
        offset = min(sent.get(seat, 0), length)
        request = codec.decide_request("m", seat, i, view, options, 1000, 5000, offset)
        deltas_encoded.append(request.SerializeToString())
        sent[seat] = length
    i = 0

    def encode_match(deltas: bool) -> Callable[[], None]:
        """One decision after the other, a new match (a new encoder) at each game start."""
        encoders = [MatchEncoder()]
        sent: dict[int, int] = {}  # seat -> history events it was sent

        def encode() -> None:
            nonlocal i
            k = i % len(samples)
            if k == 0 and len(samples) > 1:  # one sample: the same view asked again
                encoders[0] = MatchEncoder()
                sent.clear()
            view, options = samples[k]
            seat, length = view.header.seat, len(view.header.history)
            offset = min(sent.get(seat, 0), length) if deltas else 0
            encoders[0].decide_request("m", seat, k, view, options, 1000, 5000, offset)
            sent[seat] = length
            i += 1

        return encode

    def decode() -> None:
        nonlocal i
        msg = pb.DecideRequest.FromString(encoded[i % len(encoded)])
        codec.view_from_proto(msg.view)
        codec.options_from_proto(msg.options)
        i += 1

    def decode_session(requests: list[bytes], read: bool = False) -> Callable[[], None]:
        """What the bot runtime does: one ViewDecoder per seat, `requests` in game order
        (whole histories, or deltas put together by the decoder, whose events are built
        only when read); `read`: read each view's whole history."""
        decoders: dict[int, ViewDecoder] = {}

        def decode() -> None:
            nonlocal i
            k = i % len(requests)
            if k == 0:
                decoders.clear()
            msg = pb.DecideRequest.FromString(requests[k])
            decoder = decoders.setdefault(msg.seat, ViewDecoder())
            view = decoder.decode(msg.view, msg.history_offset)
            if read:
                view.header.history[-1:]  # builds every event not built yet
            codec.options_from_proto(msg.options)
            i += 1

        return decode

    events = sum(len(v.header.history) for v, _ in samples) / len(samples)
    size = sum(map(len, encoded)) / len(encoded)
    i = 0
    whole = per_call_us(encode_match(deltas=False))
    i = 0
    delta = per_call_us(encode_match(deltas=True))
    i = 0
    dec = per_call_us(decode)
    i = 0
    ses = dd = ddr = "     - "
    if len(samples) > 1:
        ses = f"{per_call_us(decode_session(encoded)):>6.1f} us"
        i = 0
        dd = f"{per_call_us(decode_session(deltas_encoded)):>6.1f} us"
        i = 0
        ddr = f"{per_call_us(decode_session(deltas_encoded, read=True)):>6.1f} us"
    print(
        f"{label:<22} {len(samples):>5} views {events:>5.0f} events {size:>6.0f} B  "
        f"encode whole {whole:>6.1f} us  deltas {delta:>6.1f} us  "
        f"decode {dec:>6.1f} us  session decode {ses}  deltas {dd} (history read {ddr})"
    )


def main() -> None:
    print("DecideRequest per decision (view + options), mean over the views shown in a game")
    for preset in sorted(PRESETS):
        players = min(4, PRESETS[preset].max_players)
        measure(f"{preset} ({players}p)", game_views(preset, players, seed=1))
    measure("synthetic 600 events", [synthetic_late_view()])


if __name__ == "__main__":
    main()
