"""A spying bot records every request it gets: over many seeded matches of every variant,
it only ever receives its own seat's view (exactly the engine's view for that seat), never
an opponent's hidden card, the deck or the unused cards."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from referee.faults import FaultKind
from referee.replay.resimulate import new_state, steps
from referee.replay.values import option_from_json
from referee.spec import MatchSpec
from sdk.game import Event, EventKind, GameState
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire import codec
from tests.referee.helpers import ROOMY_CLOCK, bot_named, run_spied, spy_records

SEEDS = range(4)
LONG_GAME_SEEDS = range(2)  # 11 nimmt! and Hornochsen! games are several times longer
VARIANTS = {  # preset -> (players, options)
    "6nimmt": (4, {"rounds": "1"}),
    "6nimmt-tactics": (3, {"rounds": "1"}),
    "6nimmt-logic": (3, {"rounds": "1"}),
    "6nimmt-pro": (3, {"rounds": "1"}),
    "xnimmt": (3, {}),
    "11nimmt": (3, {}),
    "hornochsen": (3, {}),
}
# View fields that hold card numbers (pairs: the card's position in each pair).
CARD_FIELDS = {
    "hand",
    "rows",
    "pile_tops",
    "x_rows",
    "own_x_pile",
    "pending_card",
    "draft_pool",
    "taken",
    "turn_start_tops",
    "own_pile",
    "all_hands",
    "cards",
}
PAIR_FIELDS = {"revealed": 1, "turn_plays": 0}
NON_CARD_EVENTS = {EventKind.ROUND_END, EventKind.SPECIAL, EventKind.BULL}


def read_requests(folder: Path) -> dict[tuple[int, int], pb.DecideRequest]:
    """Every Decide request the spies got, by (seat, the seat's decision index), each
    with its whole history (history deltas put together as the receiving bot would)."""
    return whole({(r.seat, r.decision_index): r for r in read_raw(folder)})


def whole(
    decide: dict[tuple[int, int], pb.DecideRequest],
) -> dict[tuple[int, int], pb.DecideRequest]:
    """The requests with history deltas expanded, each seat's in decision order."""
    history: dict[int, list[pb.Event]] = {}
    for key in sorted(decide):
        request = decide[key]
        known = history.setdefault(request.seat, [])
        assert request.history_offset <= len(known), "offset beyond what the seat was sent"
        del known[request.history_offset :]
        known.extend(request.view.header.history)
        del request.view.header.history[:]
        request.view.header.history.extend(known)
        request.history_offset = 0
    return decide


def card_values(value: object, name: str = "") -> Iterator[int]:
    """Card numbers in a view's non-history fields."""
    if name in PAIR_FIELDS:
        for pair in value:  # type: ignore[attr-defined]
            yield pair[PAIR_FIELDS[name]]
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name != "header":
                yield from card_values(getattr(value, f.name), f.name)
    elif isinstance(value, tuple):
        for item in value:
            yield from card_values(item, name)
    elif isinstance(value, int) and name in CARD_FIELDS and value > 0:
        yield value


def history_cards(history: Sequence[Event]) -> set[int]:
    seen: set[int] = set()
    for event in history:
        if event.kind not in NON_CARD_EVENTS:
            seen.update(c for c in (event.card, *event.cards) if c > 0)
    return seen


def check_request(state: GameState, seat: int, request: pb.DecideRequest) -> None:
    expected = state.view(seat)
    received = codec.view_from_proto(request.view)
    assert received == expected, "the referee sent something other than the seat's view"
    assert list(codec.options_from_proto(request.options)) == state.legal_options(seat)
    assert received.header.seat == seat
    places: Mapping[str, list[int]] = state.card_locations()
    never_public = set(places.get("deck", [])) | set(places.get("unused", []))
    public_hands = bool(getattr(received, "public_hands", False))
    if not public_hands:
        assert getattr(received, "all_hands", ()) == ()
    assert set(received.hand) <= set(places[f"hand {seat}"])
    shown = set(card_values(received))
    history = history_cards(received.header.history)
    # Cards now in the deck or set aside may have been public before (a round's discards).
    assert not (shown - history) & never_public, "deck or unused cards were sent"
    if not public_hands:
        others = {c for s in range(state.players) if s != seat for c in places[f"hand {s}"]}
        leaked = (shown & others) - history
        assert not leaked, f"opponents' hidden cards sent: {sorted(leaked)}"


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_spy_only_ever_sees_its_own_view(variant: str, tmp_path: Path) -> None:
    seeds = LONG_GAME_SEEDS if variant in ("11nimmt", "hornochsen") else SEEDS
    assert spy_checks(variant, seeds, tmp_path, deltas=False) > 0


@pytest.mark.parametrize("variant", ["6nimmt", "hornochsen"])
def test_history_deltas_put_together_give_the_seats_view(variant: str, tmp_path: Path) -> None:
    """A bot that asks for history deltas gets only new events, and those (after the
    events it already had) make exactly its view; later requests do send deltas."""
    assert spy_checks(variant, LONG_GAME_SEEDS, tmp_path, deltas=True) > 0
    offsets = [r.history_offset for r in read_raw(tmp_path / "seed0")]
    assert max(offsets) > 0 and offsets.count(0) <= VARIANTS[variant][0]


@pytest.mark.parametrize("transport", ["call", "stream"])
def test_history_deltas_resend_what_a_failed_call_carried(transport: str, tmp_path: Path) -> None:
    """After a Decide that failed, the next request of the seat starts from the same offset
    (the bot may not have the failed call's events); after an answered one, from the end
    of what that one carried. The histories put together still make the seat's views.
    On a decision stream, a failure ends the stream and the next decision opens another."""
    stream = transport == "stream"
    checked = spy_checks("6nimmt", range(1), tmp_path, deltas=True, fail_every=4, stream=stream)
    assert checked > 0
    for file in (tmp_path / "seed0").glob("*.bin"):
        kinds = [kind for kind, _ in spy_records(file)]
        failures = kinds.count(3) // 4
        if stream:
            assert 2 <= kinds.count(5) <= 1 + failures  # reopened after a failure
        else:
            assert kinds.count(5) == 0
    by_seat: dict[int, list[pb.DecideRequest]] = {}
    for request in sorted(read_raw(tmp_path / "seed0"), key=lambda r: r.decision_index):
        by_seat.setdefault(request.seat, []).append(request)
    resent = 0
    for requests in by_seat.values():
        for i, (sent, following) in enumerate(itertools.pairwise(requests)):
            if (i + 1) % 4 == 0:  # the spy's every 4th Decide failed
                assert following.history_offset == sent.history_offset
                resent += 1
            else:
                carried = sent.history_offset + len(sent.view.header.history)
                assert following.history_offset == carried
    assert resent > 0


def read_raw(folder: Path) -> list[pb.DecideRequest]:
    return [
        pb.DecideRequest.FromString(request)
        for file in folder.glob("*.bin")
        for kind, request in spy_records(file)
        if kind == 3
    ]


def spy_checks(
    variant: str,
    seeds: range,
    tmp_path: Path,
    deltas: bool,
    fail_every: int = 0,
    stream: bool = False,
) -> int:
    """Play seeded matches between spies; check every request; the number checked. With
    `fail_every`, the spies' failures must be the only faults; with `stream`, the spies
    offer decision streams."""
    players, options = VARIANTS[variant]
    checked = 0
    for seed in seeds:
        folder = tmp_path / f"seed{seed}"
        folder.mkdir()
        env = {
            "SPY_DIR": str(folder),
            "SPY_DELTAS": "1" if deltas else "0",
            "SPY_FAIL_EVERY": str(fail_every),
            "BAD_BOT_STREAM": "1" if stream else "0",
        }
        spy = dataclasses.replace(bot_named("spy"), env=env)
        spec = MatchSpec(f"spy-{seed}", variant, options, seed, (spy,) * players, ROOMY_CLOCK)
        result = run_spied(spec, folder)
        assert all(f.kind == FaultKind.PROTOCOL for f in result.faults)
        assert len(result.faults) > 0 if fail_every else result.faults == ()
        requests = read_requests(folder)
        data = result.recorded_replay()
        state = new_state(data)
        asked = [0] * players
        for group in steps(data):
            for record in group:
                seat = record.seat
                if record.auto:  # forfeited: not asked
                    continue
                check_request(state, seat, requests.pop((seat, asked[seat])))
                asked[seat] += 1
                checked += 1
            for record in group:
                option = option_from_json(record.options[record.choice])
                state.apply(record.seat, option)
        assert requests == {}, "requests the replay does not account for"
    return checked
