"""The game API states everything: explicit positions in one form for every family, the end
of every round, every turn's end, the specials a row held, the referee's whole table, and
views that share the history instead of copying it."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable

import pytest

from sdk.game import (
    PRESETS,
    EventKind,
    GameState,
    Option,
    OptionKind,
    Position,
    RulesError,
    Special,
    from_position,
    new_game,
)
from sdk.game.cards import HEADS
from sdk.game.elevennimmt import ElevenNimmtState
from sdk.game.history import History
from sdk.game.hornochsen import HornochsenState
from sdk.game.sixnimmt import SixNimmtState
from sdk.game.xnimmt import XNimmtState


def play_until(state: GameState, done: Callable[[GameState], bool], seed: int = 0) -> None:
    """Random legal choices until `done(state)` holds."""
    rng = random.Random(seed)
    while not done(state):
        seat = state.pending()[0]
        options = state.legal_options(seat)
        state.apply(seat, options[rng.randrange(len(options))])


# ----- explicit positions ---------------------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_position_rebuilds_the_table_in_card_locations_terms(preset: str) -> None:
    state = new_game(preset, PRESETS[preset].min_players + 1, 3)
    position = state.position()
    assert position.places == state.card_locations()
    again = from_position(position)
    assert again.card_locations() == state.card_locations()
    assert again.pending() == state.pending()
    assert again.playout(random.Random(5)) == state.clone().playout(random.Random(5))


def test_the_11_nimmt_deck_is_listed_top_card_first_as_from_position_takes_it() -> None:
    state = ElevenNimmtState.from_position(
        hands=[[50], [60]], piles=[[40]], deck=[7, 8, 9], starter=0
    )
    assert state.card_locations()["deck"] == [7, 8, 9]
    state.apply(0, Option(OptionKind.ROW, row=0))  # take the pile: 7 and 8 start new piles
    assert [pile[0] for pile in state.piles] == [7, 8]
    assert state.card_locations()["deck"] == [9]


def test_every_family_starts_a_position_with_round_start() -> None:
    six = SixNimmtState.from_position("6nimmt", [[1, 2], [3, 4]], [[10], [20, 21], [30], [40]])
    x = XNimmtState.from_position([[1], [2]], [[10], [20], [30]], x_piles=[[5], []])
    eleven = ElevenNimmtState.from_position(hands=[[50], [60]], piles=[[40, 41]], deck=[7])
    horn = HornochsenState.from_position(hands=[[50], [60]], rows=[[40, 41], [70]])
    for state in (six, x, eleven, horn):
        assert state.history[0].kind == EventKind.ROUND_START
    assert six.history[0].cards == (10, 20, 30, 40)
    assert [e.kind for e in x.history] == [EventKind.ROUND_START, EventKind.X_PILE]
    assert [(e.kind, e.card) for e in horn.history[1:]] == [(EventKind.PLACE, 41)]


def test_a_bad_position_is_refused_with_a_clear_message() -> None:
    places = {"hand 0": [1], "hand 1": [2], "pile 0": [40]}
    with pytest.raises(RulesError, match="'row 0' is not a place of this game"):
        from_position(Position("11nimmt", {**places, "row 0": [3]}))
    with pytest.raises(RulesError, match=r"hand 0 \.\. hand n-1"):
        from_position(Position("11nimmt", {"hand 0": [1], "hand 2": [2], "pile 0": [40]}))
    with pytest.raises(RulesError, match="unused cards must be exactly"):
        from_position(Position("11nimmt", {**places, "unused": [5]}))
    with pytest.raises(RulesError, match="unknown variant"):
        from_position(Position("7nimmt", places))
    state = new_game("xnimmt", 2, 1)
    state.apply(0, state.legal_options(0)[0])
    with pytest.raises(RulesError, match="start of a turn"):
        state.position()


# ----- rounds and turns -----------------------------------------------------------------


def test_the_end_of_a_round_is_readable_after_the_next_deal() -> None:
    state = new_game("6nimmt", 4, 9, {"rounds": "2"})
    assert state.round_ends() == ()
    play_until(state, lambda s: s.view(-1).header.round == 2)
    (end,) = state.round_ends()
    last = [e for e in state.history if e.kind == EventKind.ROUND_END][-1]
    assert end.round == 1 and end.scores == last.cards
    assert all(not end.places[f"hand {seat}"] for seat in range(4))
    assert sum(len(end.places[f"row {r}"]) for r in range(4)) >= 4
    assert end.places != {k: tuple(v) for k, v in state.card_locations().items()}
    play_until(state, lambda s: s.is_terminal())
    assert [e.round for e in state.round_ends()] == [1, 2]
    assert list(state.round_ends()[-1].totals) == state.scores()


def test_an_11_nimmt_round_end_keeps_the_hands_that_scored() -> None:
    state = new_game("11nimmt", 3, 4)
    play_until(state, lambda s: s.view(-1).header.round == 2)
    (end,) = state.round_ends()
    assert end.scores == tuple(sum(HEADS[c] for c in end.places[f"hand {s}"]) for s in range(3))
    assert end.totals == end.scores  # the first round


def test_every_11_nimmt_turn_ends_with_end_turn_even_when_it_ends_by_itself() -> None:
    state = ElevenNimmtState.from_position(hands=[[41, 42], [60, 70]], piles=[[40]], deck=[])
    state.apply(0, Option(OptionKind.PLAY, 41, 0))  # no bull card: one card, the turn is over
    assert state.history[-1].kind == EventKind.END_TURN and state.history[-1].seat == 0
    assert state.pending() == (1,)


# ----- Hornochsen! specials and the referee's view ---------------------------------------


def test_collect_names_the_specials_and_the_referee_sees_every_special() -> None:
    state = HornochsenState.from_position(
        hands=[[37, 39, 42, 70], [2, 3]],
        rows=[[10], [31, 35], [60]],
        row_specials=[[], [Special.X2], []],
    )
    for card in (37, 39, 42):
        state.apply(0, Option(OptionKind.PLAY, card))
    (collect,) = [e for e in state.history if e.kind == EventKind.COLLECT]
    assert collect.specials == (Special.X2,)
    referee = state.view(-1)
    assert referee.all_specials == ((Special.X2, Special.PLUS5), (Special.X2, Special.PLUS5))
    assert referee.all_piles == ((31, 35, 37, 39, 42), ())
    assert referee.all_pile_specials == ((Special.X2,), ())
    seat = state.view(1)
    assert seat.all_specials == seat.all_piles == seat.all_pile_specials == ()


def test_hornochsen_ends_with_round_end_holding_the_final_scores() -> None:
    state = new_game("hornochsen", 3, 2)
    state.playout(random.Random(2))
    assert state.history[-1].kind == EventKind.ROUND_END
    assert list(state.history[-1].cards) == state.scores()


def test_the_referee_sees_every_x_pile() -> None:
    state = new_game("xnimmt", 3, 6)
    assert isinstance(state, XNimmtState)
    play_until(state, lambda _: any(state.x_piles) or state.is_terminal())
    assert any(state.x_piles)
    assert state.view(-1).all_x_piles == tuple(tuple(p) for p in state.x_piles)
    assert state.view(0).all_x_piles == ()


# ----- views share the history ----------------------------------------------------------


def test_views_share_the_history_and_never_change() -> None:
    state = new_game("6nimmt", 3, 1, {"rounds": "1"})
    first = state.view(0).header.history
    play_until(state, lambda s: len(s.history) > len(first) + 5)
    later = state.view(1).header.history
    assert isinstance(first, History) and isinstance(later, History)
    assert later.shares(first)  # one event log, no copy
    assert len(first) < len(later) and later[: len(first)] == first
    assert tuple(first) == tuple(state.history[: len(first)])  # still what it was
    assert first == tuple(first) and tuple(first) == first and hash(first) == hash(tuple(first))
    assert list(reversed(later)) == list(reversed(tuple(later)))
    assert later[-1] is state.history[len(later) - 1]
    assert pickle.loads(pickle.dumps(later)) == later
    with pytest.raises(IndexError):
        later[len(later)]
