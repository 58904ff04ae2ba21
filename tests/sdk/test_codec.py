"""The codec converts every game-model value to its message and back exactly."""

from __future__ import annotations

import random

import pytest

from sdk.game import (
    PRESETS,
    DecisionKind,
    ElevenNimmtView,
    Event,
    EventKind,
    HornochsenRow,
    HornochsenView,
    Option,
    OptionKind,
    Side,
    SixNimmtView,
    View,
    ViewHeader,
    XNimmtView,
    new_game,
)
from sdk.match import MatchInfo, MatchOutcome
from sdk.protocol.bullring.v1 import bot_pb2 as pb
from sdk.wire import codec


def random_header(rng: random.Random, variant: str, seat: int = 1) -> ViewHeader:
    """A header with every field set, history holding every event kind."""
    players = rng.randint(2, 6)
    history = tuple(
        Event(
            kind=kind,
            seat=rng.randint(-1, players - 1),
            card=rng.randint(0, 104),
            row=rng.randint(-1, 4),
            side=rng.choice(list(Side)),
            target=rng.randint(-1, players - 1),
            cards=tuple(rng.randint(-30, 104) for _ in range(rng.randint(0, 6))),
            round=rng.randint(0, 9),
            specials=tuple(rng.randint(1, 2) for _ in range(rng.randint(0, 3))),
        )
        for kind in rng.sample(list(EventKind), len(EventKind))
    )
    return ViewHeader(
        variant=variant,
        options={"deck": "full", "rounds": str(rng.randint(1, 9))},
        players=players,
        seat=seat,
        round=rng.randint(1, 9),
        scores=tuple(rng.randint(-50, 90) for _ in range(players)),
        to_move=tuple(sorted(rng.sample(range(players), rng.randint(0, players)))),
        decision=rng.choice([None, *DecisionKind]),
        history=history,
    )


def cards(rng: random.Random, most: int = 8) -> tuple[int, ...]:
    return tuple(rng.randint(1, 104) for _ in range(rng.randint(0, most)))


def groups(rng: random.Random, count: int) -> tuple[tuple[int, ...], ...]:
    return tuple(cards(rng) for _ in range(count))


def random_views(seed: int) -> list[View]:
    """One hand-built view of each family, every field holding a non-default value."""
    rng = random.Random(seed)
    n = 4
    six = SixNimmtView(
        header=random_header(rng, "6nimmt-logic"),
        hand=cards(rng),
        rows=groups(rng, 4),
        hand_sizes=tuple(rng.randint(0, 10) for _ in range(n)),
        round_penalties=tuple(rng.randint(0, 30) for _ in range(n)),
        highest_card=rng.choice([104, 44, 64]),
        picked=tuple(rng.random() < 0.5 for _ in range(n)),
        revealed=tuple((s, rng.randint(1, 104)) for s in range(n)),
        pending_card=rng.randint(0, 104),
        draft_pool=cards(rng),
        public_hands=rng.random() < 0.5,
        all_hands=groups(rng, n),
    )
    x = XNimmtView(
        header=random_header(rng, "xnimmt", seat=-1),
        hand=cards(rng),
        rows=groups(rng, 3),
        capacities=(3, 4, 5),
        hand_sizes=tuple(rng.randint(0, 10) for _ in range(n)),
        x_rows=groups(rng, n),
        x_pile_sizes=tuple(rng.randint(0, 10) for _ in range(n)),
        own_x_pile=cards(rng),
        picked=tuple(rng.random() < 0.5 for _ in range(n)),
        revealed=tuple((s, rng.randint(1, 104)) for s in range(n)),
        pending_card=rng.randint(0, 104),
        taken=cards(rng),
        all_hands=groups(rng, n),
        all_x_piles=groups(rng, n),
    )
    eleven = ElevenNimmtView(
        header=random_header(rng, "11nimmt"),
        hand=cards(rng),
        pile_tops=cards(rng),
        hand_sizes=tuple(rng.randint(0, 10) for _ in range(n)),
        bulls=tuple(rng.randint(0, 10) for _ in range(n)),
        supply=rng.randint(0, 40),
        deck_size=rng.randint(0, 100),
        starter=rng.randint(0, n - 1),
        turn_plays=tuple((rng.randint(0, 110), rng.randint(0, 5)) for _ in range(3)),
        turn_start_tops=cards(rng),
        all_hands=groups(rng, n),
    )
    horn = HornochsenView(
        header=random_header(rng, "hornochsen"),
        hand=cards(rng),
        specials=(1, 2),
        rows=tuple(
            HornochsenRow(cards(rng), rng.random() < 0.5, rng.random() < 0.5) for _ in range(4)
        ),
        hand_sizes=tuple(rng.randint(0, 10) for _ in range(n)),
        special_counts=tuple(rng.randint(0, 2) for _ in range(n)),
        pile_sizes=tuple(rng.randint(0, 30) for _ in range(n)),
        own_pile=cards(rng),
        own_pile_specials=(2,),
        steps_this_turn=rng.randint(0, 3),
        all_hands=groups(rng, n),
        all_specials=tuple(tuple(rng.randint(1, 2) for _ in range(s)) for s in range(n)),
        all_piles=groups(rng, n),
        all_pile_specials=tuple(tuple(rng.randint(1, 2) for _ in range(s)) for s in range(n)),
    )
    return [six, x, eleven, horn]


def wire_round_trip(view: View) -> View:
    """Encode, serialize, parse and decode: what really happens between the processes."""
    data = codec.view_to_proto(view).SerializeToString()
    return codec.view_from_proto(pb.View.FromString(data))


@pytest.mark.parametrize("seed", range(25))
def test_hand_built_views_of_every_family_round_trip(seed: int) -> None:
    for view in random_views(seed):
        back = wire_round_trip(view)
        assert back == view
        assert type(back) is type(view)
        assert all(type(e.kind) is EventKind for e in back.header.history)


def test_empty_view_and_no_pending_decision_round_trip() -> None:
    header = ViewHeader("6nimmt", {}, 2, 0, 1, (0, 0), (), None, ())
    view = SixNimmtView(header, (), (), (), (), 104, (), (), 0, (), False, ())
    assert wire_round_trip(view) == view
    assert codec.view_to_proto(view).header.decision == pb.DECISION_KIND_UNSPECIFIED


def test_the_message_names_the_view_family() -> None:
    games = [codec.view_to_proto(v).WhichOneof("game") for v in random_views(7)]
    assert games == ["six_nimmt", "x_nimmt", "eleven_nimmt", "hornochsen"]


def test_event_kind_numbers_match_the_protocol_names() -> None:
    renamed = {"PLACE": "PLACE_CARD", "SPECIAL": "SPECIAL_CARD", "END_TURN": "TURN_END"}
    for kind in EventKind:
        assert pb.EventKind.Value(renamed.get(kind.name, kind.name)) == int(kind)
    for dkind in DecisionKind:
        assert pb.DecisionKind.Value(dkind.name) == int(dkind)
    for okind in OptionKind:
        assert pb.OptionKind.Value(okind.name) == int(okind)


def test_every_option_shape_round_trips() -> None:
    options = [
        Option(OptionKind.CARD, 55),
        Option(OptionKind.ROW, row=3),
        Option(OptionKind.PLACE, 17, 2, Side.LEFT),
        Option(OptionKind.PLAY, 9, -1),
        Option(OptionKind.SPECIAL, 2, 1),
        Option(OptionKind.END_TURN),
        Option(OptionKind.STEAL, target=4),
    ]
    msgs = codec.options_to_proto(options)
    back = codec.options_from_proto(pb.Option.FromString(m.SerializeToString()) for m in msgs)
    assert back == options
    assert all(type(o.kind) is OptionKind and type(o.side) is Side for o in back)


def test_unknown_enum_numbers_are_refused() -> None:
    with pytest.raises(codec.CodecError):
        codec.option_from_proto(pb.Option(kind=pb.OPTION_KIND_UNSPECIFIED))
    with pytest.raises(codec.CodecError):
        codec.event_from_proto(pb.Event(kind=pb.EVENT_KIND_UNSPECIFIED))
    with pytest.raises(codec.CodecError, match="no game"):
        codec.view_from_proto(pb.View())


def test_match_info_and_outcome_round_trip() -> None:
    info = MatchInfo(
        match_id="m-7",
        variant="6nimmt-pro",
        options={"placement": "both", "end": "over66"},
        seat=2,
        players=3,
        player_names=("a", "b", "c"),
        decision_ms=900,
        time_bank_ms=4000,
        setup_ms=9000,
        seed_hint=2**63 + 5,
    )
    assert codec.match_info_from_proto(codec.match_info_to_proto(info)) == info
    outcome = MatchOutcome(scores=(12, -3, 40), ranks=(2, 1, 3), faults=2, forfeited=True)
    msg = codec.outcome_to_proto("m-7", 2, outcome)
    assert (msg.match_id, msg.seat) == ("m-7", 2)
    assert codec.outcome_from_proto(msg) == outcome


def test_decide_request_carries_view_options_and_clock() -> None:
    view = random_views(3)[0]
    options = [Option(OptionKind.CARD, c) for c in sorted(view.hand)]
    msg = codec.decide_request("m", 1, 5, view, options, 800, 3000)
    assert codec.view_from_proto(msg.view) == view
    assert codec.options_from_proto(msg.options) == options
    assert (msg.seat, msg.decision_index, msg.deadline_ms, msg.time_bank_ms) == (1, 5, 800, 3000)
    assert msg.kind == (view.header.decision or 0)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_views_from_real_seeded_games_round_trip(preset: str) -> None:
    players = min(4, PRESETS[preset].max_players)
    state = new_game(preset, players, seed=11)
    rng = random.Random(11)
    checked = 0
    while not state.is_terminal():
        for seat in state.pending():
            view = state.view(seat)
            assert isinstance(view, SixNimmtView | XNimmtView | ElevenNimmtView | HornochsenView)
            assert wire_round_trip(view) == view
            options = state.legal_options(seat)
            assert codec.options_from_proto(codec.options_to_proto(options)) == options
            checked += 1
            state.apply(seat, options[rng.randrange(len(options))])
    everything = state.view(-1)
    assert isinstance(everything, SixNimmtView | XNimmtView | ElevenNimmtView | HornochsenView)
    assert wire_round_trip(everything) == everything
    assert checked > 0
