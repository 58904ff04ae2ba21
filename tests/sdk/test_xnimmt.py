"""X nimmt! (docs/rules.md): the rulebook's worked examples, bad inputs, hidden information."""

from __future__ import annotations

import random

import pytest

from sdk.game import (
    DecisionKind,
    EventKind,
    GameState,
    Option,
    OptionKind,
    RulesError,
    new_game,
    xnimmt,
)
from sdk.game.cards import HEADS
from sdk.game.xnimmt import XNimmtState, from_view, round_score
from sdk.testing import run_cheap_games, run_deep_games


def card(value: int) -> Option:
    return Option(OptionKind.CARD, value)


def take_row(row: int) -> Option:
    return Option(OptionKind.ROW, row=row)


def play_turn(state: XNimmtState, picks: dict[int, int]) -> None:
    for seat, value in picks.items():
        state.apply(seat, card(value))


def test_example_1_cards_go_to_the_least_difference() -> None:
    # 18 and 22 go into the middle row, 60 into the bottom row.
    state = XNimmtState.from_position(
        hands=[[18, 1], [22, 2], [60, 3]], rows=[[25], [10], [41, 52]]
    )
    play_turn(state, {0: 18, 1: 22, 2: 60})
    assert state.rows == [[25], [10, 18, 22], [41, 52, 60]]
    assert state.pending() == (0, 1, 2)  # next turn's picks


def example_2_state() -> XNimmtState:
    return XNimmtState.from_position(
        hands=[[59, 43, 7], [81, 66, 8], [94, 89, 9]],
        rows=[[84], [30, 41, 50], [70, 75]],
    )


def test_example_2_and_4_the_fourth_card_takes_the_middle_row() -> None:
    state = example_2_state()
    play_turn(state, {0: 59, 1: 81, 2: 94})
    # 59 fills the 4-row: its player takes the three cards and chooses the X-row card.
    assert state.pending() == (0,)
    assert state.decision_kind(0) == DecisionKind.X_ROW_CARD
    assert state.legal_options(0) == [card(30), card(41), card(50)]
    assert state.rows[1] == [59]
    assert state.view(1).taken == (30, 41, 50)
    state.apply(0, card(41))  # example 4: one card to the X row, the other two to hand
    assert state.x_rows[0] == [41]
    assert state.hands[0] == [7, 30, 43, 50]
    assert state.rows == [[84, 94], [59], [70, 75, 81]]
    assert state.pending() == (0, 1, 2)


def test_example_3_a_too_low_card_takes_a_row_of_its_players_choice() -> None:
    state = example_2_state()
    play_turn(state, {0: 59, 1: 81, 2: 94})
    state.apply(0, card(41))
    play_turn(state, {0: 43, 1: 66, 2: 89})
    assert state.pending() == (0,)
    assert state.decision_kind(0) == DecisionKind.TAKE_ROW
    assert state.legal_options(0) == [take_row(0), take_row(1), take_row(2)]
    assert state.view(2).pending_card == 43
    assert state.view(2).revealed == ((1, 66), (2, 89))
    state.apply(0, take_row(1))  # the middle row holds only the 59
    # One card taken: it goes to the X row, nothing to the hand.
    assert state.x_rows[0] == [41, 59]
    assert state.hands[0] == [7, 30, 50]
    assert state.rows == [[84, 94], [43, 66], [70, 75, 81, 89]]


def test_example_5_a_lower_card_moves_the_x_row_to_the_x_pile() -> None:
    state = XNimmtState.from_position(
        hands=[[25, 1], [99, 2]], rows=[[10, 20], [30], [45]], x_rows=[[40, 60], []]
    )
    play_turn(state, {0: 25, 1: 99})
    # 25 is the third card of the 3-row: it takes 10 and 20, both lower than 60.
    assert state.legal_options(0) == [card(10), card(20)]
    state.apply(0, card(20))
    assert state.x_piles[0] == [40, 60]
    assert state.x_rows[0] == [20]
    assert state.hands[0] == [1, 10]
    # In the rules' order: the X row goes to the X pile, 20 starts the X row, then 25 starts
    # the row it took (then 99 is placed).
    kinds = [e.kind for e in state.history[-5:-1]]
    assert kinds == [EventKind.TAKE, EventKind.X_PILE, EventKind.X_ROW, EventKind.PLACE]
    assert state.history[-2].card == 25
    assert state.view(1).x_pile_sizes == (2, 0)
    assert state.view(1).own_x_pile == ()
    assert state.view(0).own_x_pile == (40, 60)


def test_example_6_round_score_is_hand_plus_twice_the_x_pile() -> None:
    hand, x_pile, x_row = [10, 15], [55, 25], [66]
    assert sum(HEADS[c] for c in hand) == 5 and sum(HEADS[c] for c in x_pile) == 9
    assert round_score(hand, x_pile) == 23
    # Played out: seat 1 plays its last card, the round (the second) ends, the game is over.
    state = XNimmtState.from_position(
        hands=[[*hand, 3], [99]],
        rows=[[2], [30], [40]],
        x_rows=[x_row, []],
        x_piles=[x_pile, []],
        totals=[7, 0],
        round_number=2,
    )
    play_turn(state, {0: 3, 1: 99})
    assert state.is_terminal()
    assert state.scores() == [7 + 23, 0]
    assert state.history[-1].kind == EventKind.ROUND_END
    assert state.history[-1].cards == (23, 0)
    assert state.ranks() == [2, 1]


def test_the_round_ends_when_a_hand_is_empty_after_the_turn_only() -> None:
    # Seat 0 plays its last card but takes a row: taken cards refill its hand, play goes on.
    state = XNimmtState.from_position(hands=[[1], [50, 51]], rows=[[10, 11], [20], [30]])
    play_turn(state, {0: 1, 1: 50})
    state.apply(0, take_row(0))  # takes 10, 11: one to the X row, one to the hand
    state.apply(0, card(11))
    assert state.hands[0] == [10]
    assert state.round == 1 and state.pending() == (0, 1)


def test_two_rounds_then_the_game_ends() -> None:
    state = new_game("xnimmt", 3, seed=5)
    assert isinstance(state, XNimmtState)
    state.playout(random.Random(1))
    ends = [e for e in state.history if e.kind == EventKind.ROUND_END]
    assert [e.round for e in ends] == [1, 2]
    assert state.scores() == [a + b for a, b in zip(ends[0].cards, ends[1].cards, strict=True)]


def test_deal() -> None:
    state = new_game("xnimmt", 4, seed=3)
    assert isinstance(state, XNimmtState)
    view = state.view(2)
    assert len(view.hand) == 8 and view.hand_sizes == (8, 8, 8, 8)
    assert view.capacities == (3, 4, 5) and all(len(r) == 1 for r in view.rows)
    assert state.pending() == (0, 1, 2, 3)
    assert new_game("xnimmt", 4, seed=3).view(-1) == state.view(-1)
    assert new_game("xnimmt", 4, seed=4).view(-1) != state.view(-1)


# ----- bad inputs -----------------------------------------------------------------------


def test_bad_inputs_are_refused_with_clear_messages() -> None:
    state = example_2_state()
    with pytest.raises(RulesError, match="cannot card 5"):
        state.apply(0, card(5))
    with pytest.raises(RulesError, match="seat 7 does not exist"):
        state.view(7)
    state.apply(0, card(59))
    with pytest.raises(RulesError, match="seat 0 has no decision pending"):
        state.apply(0, card(43))
    with pytest.raises(RulesError, match="cannot take row 1"):
        state.apply(1, take_row(0))
    with pytest.raises(RulesError, match="row 2 must hold 1 to 3"):
        XNimmtState.from_position(hands=[[1], [2]], rows=[[10], [20, 21, 22, 23], [30]])
    with pytest.raises(RulesError, match="not in the deck"):
        XNimmtState.from_position(hands=[[101], [2]], rows=[[10], [20], [30]])
    with pytest.raises(RulesError, match="2 to 4 players"):
        XNimmtState.from_position(hands=[[1]], rows=[[10], [20], [30]])
    with pytest.raises(RulesError, match="is both in"):
        XNimmtState.from_position(hands=[[1], [2]], rows=[[10], [20], [40]], x_rows=[[40], []])
    with pytest.raises(RulesError, match="no options"):
        xnimmt.new_game("xnimmt", {"rounds": "3"}, 2, 0)
    with pytest.raises(RulesError, match="2 to 4 players"):
        new_game("xnimmt", 5, 0)


# ----- hidden information ---------------------------------------------------------------


def test_a_view_hides_opponent_hands_and_x_piles() -> None:
    state = example_2_state()
    play_turn(state, {0: 59, 1: 81, 2: 94})
    state.apply(0, card(41))
    view = state.view(1)
    assert view.hand == (8, 66) and view.all_hands == ()
    assert view.x_rows == ((41,), (), ())
    # Changing a card seat 1 cannot see (seat 2's hand against an unused card): same view.
    other = state.clone()
    other.hands[2] = [2, 89]
    other.unused = [9 if c == 2 else c for c in other.unused]
    assert other.view(1) == view
    assert other.view(2) != state.view(2)
    # The taken cards that went to seat 0's hand are public: a determinization keeps them.
    for seed in range(20):
        sampled = from_view(view, random.Random(seed))
        assert sampled.view(1) == view
        assert {30, 50} <= set(sampled.hands[0])


def test_a_picked_card_stays_hidden_until_all_have_picked() -> None:
    state = example_2_state()
    state.apply(0, card(59))
    view = state.view(1)
    assert view.picked == (True, False, False)
    assert view.revealed == () and 59 in state.view(0).hand
    other = state.clone()
    other.picks[0] = 43
    assert other.view(1) == view


# ----- seeded random games --------------------------------------------------------------

RANDOM_GAMES = 10_000
"""Seeded random games (at least 10,000, spread over every player count)."""
PARTS = 4
"""The cheap games run as this many tests, so that xdist spreads them out."""


def check_final(state: GameState) -> None:
    assert isinstance(state, XNimmtState)
    ends = [e for e in state.history if e.kind == EventKind.ROUND_END]
    assert len(ends) == 2
    assert ends[-1].cards == tuple(
        round_score(state.hands[s], state.x_piles[s]) for s in range(state.players)
    )
    assert state.scores() == [sum(e.cards[s] for e in ends) for s in range(state.players)]
    assert sum(HEADS[c] for cards in state.card_locations().values() for c in cards) == sum(
        HEADS[1:101]
    )
    for index, row in enumerate(state.rows):
        assert row == sorted(row) and len(row) < (3, 4, 5)[index]
    assert all(x_row == sorted(x_row) for x_row in state.x_rows)


def check_hidden(game_state: GameState, seat: int, rng: random.Random) -> None:
    state = game_state
    assert isinstance(state, XNimmtState)
    view = state.view(seat)
    assert view.hand == tuple(state.hands[seat])
    assert view.rows == tuple(map(tuple, state.rows))
    assert view.x_rows == tuple(map(tuple, state.x_rows))
    assert view.own_x_pile == tuple(state.x_piles[seat])
    assert view.hand_sizes == tuple(map(len, state.hands))
    opponents = [s for s in range(state.players) if s != seat and state.hands[s]]
    if not opponents or not state.unused:
        return
    other = state.clone()
    opponent = rng.choice(opponents)
    hand = other.hands[opponent]
    old, new = rng.choice(hand), rng.choice(other.unused)
    other.unused[other.unused.index(new)] = old
    hand[hand.index(old)] = new
    hand.sort()
    if other.picks[opponent] == old:
        other.picks[opponent] = new
    assert other.view(seat) == view, "a hidden card changed the seat's view"
    assert other.view(opponent) != state.view(opponent)


@pytest.mark.parametrize("part", range(PARTS))
def test_random_games_conserve_cards_and_score_right(part: int) -> None:
    played = run_cheap_games("xnimmt", 2, 4, RANDOM_GAMES, check_final, part=part, parts=PARTS)
    assert played == RANDOM_GAMES // PARTS


def test_random_games_checked_at_every_decision() -> None:
    assert run_deep_games("xnimmt", 2, 4, 100, check_hidden) > 1000
