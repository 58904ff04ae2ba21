"""Hornochsen! (docs/rules.md): the rulebook's worked examples, bad inputs, hidden information."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sdk.game import (
    DecisionKind,
    EventKind,
    GameState,
    Option,
    OptionKind,
    RulesError,
    Special,
    new_game,
)
from sdk.game import hornochsen as horn
from sdk.game.cards import HORNOCHSEN_POINTS
from sdk.game.hornochsen import HornochsenState, from_view, row_for, score
from sdk.testing import run_cheap_games, run_deep_games

END = Option(OptionKind.END_TURN)
X2, PLUS5 = Special.X2, Special.PLUS5


def play(card: int) -> Option:
    return Option(OptionKind.PLAY, card)


def special(kind: Special, row: int) -> Option:
    return Option(OptionKind.SPECIAL, int(kind), row)


def ends(state: HornochsenState) -> list[int]:
    return [row[-1] for row in state.rows]


def test_example_1_a_card_goes_above_the_nearest_lower_end() -> None:
    state = HornochsenState.from_position(
        hands=[[35, 50, 60, 1], [2, 3]],
        rows=[[20, 23], [40, 43], [45, 49], [51, 55], [71], [90, 94]],
    )
    state.apply(0, play(35))
    state.apply(0, play(50))
    state.apply(0, play(60))
    assert state.rows[0] == [20, 23, 35]
    assert state.rows[2] == [45, 49, 50]
    assert state.rows[3] == [51, 55, 60]
    assert state.pending() == (1,)  # three cards: the turn is over


def test_example_2_below_every_end_goes_on_the_highest_end() -> None:
    state = HornochsenState.from_position(
        hands=[[4, 5, 87], [2, 3]], rows=[[10, 12], [30], [60, 71], [80, 94]]
    )
    state.apply(0, play(5))
    assert state.rows[3] == [80, 94, 5]
    state.apply(0, play(87))
    assert state.rows[2] == [60, 71, 87]
    state.apply(0, play(4))
    assert state.rows[2] == [60, 71, 87, 4]
    assert row_for(5, [23, 43, 94]) == 2 and row_for(99, [23, 43, 94]) == 2


def test_example_3_the_fifth_card_collects_the_row_with_its_specials() -> None:
    state = HornochsenState.from_position(
        hands=[[37, 39, 42, 70], [2, 3]],
        rows=[[10], [31, 35], [60]],
        row_specials=[[], [X2], []],
    )
    for card in (37, 39, 42):
        state.apply(0, play(card))
    assert state.piles[0] == [31, 35, 37, 39, 42]
    assert state.pile_specials[0] == [X2]
    assert state.rows == [[10], [60]]
    collect = [e for e in state.history if e.kind == EventKind.COLLECT]
    assert [(e.seat, e.row, e.cards) for e in collect] == [(0, 1, (31, 35, 37, 39, 42))]
    view = state.view(1)
    assert view.pile_sizes == (6, 0) and view.own_pile == ()
    assert state.view(0).own_pile_specials == (X2,)


def test_example_4_scoring() -> None:
    pile = [1, 2, 3, 4, 6, 10]  # 5 green heads, 3 red
    assert sum(p for c in pile if (p := HORNOCHSEN_POINTS[c]) > 0) == 5
    assert sum(p for c in pile if (p := HORNOCHSEN_POINTS[c]) < 0) == -3
    assert score(pile, [X2, PLUS5], [PLUS5]) == (5 - 3 + 5) * 2 - 10 == 4
    # Played out: the last bull card in any hand ends the game; the +5 stays in hand.
    state = HornochsenState.from_position(
        hands=[[98], []],
        rows=[[50]],
        specials=[[PLUS5], []],
        piles=[pile, []],
        pile_specials=[[X2, PLUS5], []],
    )
    assert state.scores() == [14, 0]  # the hand penalty counts once the game is over
    state.apply(0, play(98))
    assert state.is_terminal() and state.pending() == ()
    assert state.scores() == [4, 0]
    assert state.ranks() == [1, 2]


def test_turn_steps_specials_and_ending_the_turn() -> None:
    state = HornochsenState.from_position(
        hands=[[30, 31], [40]], rows=[[10], [20]], row_specials=[[X2], []]
    )
    # At least one card: no END_TURN before the first step; an x2 only fits row 2.
    assert state.legal_options(0) == [
        special(X2, 1),
        special(PLUS5, 0),
        special(PLUS5, 1),
        play(30),
        play(31),
    ]
    assert state.decision_kind(0) == DecisionKind.PLAY_STEP
    state.apply(0, special(PLUS5, 0))
    assert state.legal_options(0)[-1] == END and state.view(1).steps_this_turn == 1
    state.apply(0, END)
    assert state.pending() == (1,)


def test_a_seat_with_only_unplayable_specials_is_skipped() -> None:
    state = HornochsenState.from_position(
        hands=[[30], [], [40]],
        rows=[[10]],
        row_specials=[[X2, PLUS5]],
        specials=[[], [X2], [PLUS5]],
    )
    state.apply(0, play(30))
    assert state.pending() == (2,)  # seat 1 holds an x2 that no row can take


def test_deal_by_player_count() -> None:
    for players, (hand, table) in horn.DEAL.items():
        state = new_game("hornochsen", players, seed=players)
        assert isinstance(state, HornochsenState)
        view = state.view(0)
        assert view.hand_sizes == (hand,) * players and len(view.rows) == table
        assert [r.cards[0] for r in view.rows] == sorted(r.cards[0] for r in view.rows)
        assert view.specials == (X2, PLUS5) and state.pending() == (0,)


# ----- bad inputs -----------------------------------------------------------------------


def test_bad_inputs_are_refused_with_clear_messages() -> None:
    state = HornochsenState.from_position(
        hands=[[30, 31], [40]], rows=[[10], [20]], row_specials=[[X2], []]
    )
    with pytest.raises(RulesError, match="cannot play X2 on row 1"):
        state.apply(0, special(X2, 0))
    with pytest.raises(RulesError, match="cannot end turn"):
        state.apply(0, END)
    with pytest.raises(RulesError, match="cannot play 40"):
        state.apply(0, play(40))
    with pytest.raises(RulesError, match="seat 1 has no decision pending"):
        state.apply(1, play(40))
    with pytest.raises(RulesError, match="1 to 4 bull cards"):
        HornochsenState.from_position(hands=[[1], [2]], rows=[[3, 4, 5, 6, 7]])
    with pytest.raises(RulesError, match="at most one special of each kind"):
        HornochsenState.from_position(hands=[[1], [2]], rows=[[3]], row_specials=[[X2, X2]])
    with pytest.raises(RulesError, match="not in the deck"):
        HornochsenState.from_position(hands=[[99], [2]], rows=[[3]])
    with pytest.raises(RulesError, match="2 to 6 players"):
        new_game("hornochsen", 7, 0)
    with pytest.raises(RulesError, match="no options"):
        horn.new_game("hornochsen", {"x": "1"}, 3, 0)


# ----- hidden information ---------------------------------------------------------------


def test_collected_cards_and_played_specials_are_known_from_history() -> None:
    state = new_game("hornochsen", 3, seed=11)
    assert isinstance(state, HornochsenState)
    rng = random.Random(3)
    while not any(state.piles) or len(state.history) < 30:
        seat = state.pending()[0]
        options = state.legal_options(seat)
        state.apply(seat, options[rng.randrange(len(options))])
    view = state.view(0)
    for seed in range(10):
        sampled = from_view(view, random.Random(seed))
        assert sampled.view(0) == view
        assert sampled.piles == state.piles and sampled.specials == state.specials


# ----- seeded random games --------------------------------------------------------------

RANDOM_GAMES = 10_000
"""Seeded random games (at least 10,000, spread over every player count)."""
PARTS = 4
"""The cheap games run as this many tests, so that xdist spreads them out."""


def check_final(state: GameState) -> None:
    assert isinstance(state, HornochsenState)
    assert not any(state.hands)
    assert state.scores() == [
        score(state.piles[s], state.pile_specials[s], state.specials[s])
        for s in range(state.players)
    ]
    specials = Counter(k for cards in state.special_locations().values() for k in cards)
    assert specials == {X2: 6, PLUS5: 6}
    assert all(len(p) % 5 == 0 for p in state.piles)
    hand, table = horn.DEAL[state.players]
    assert sum(map(len, state.piles)) + sum(map(len, state.rows)) == state.players * hand + table


def check_hidden(game_state: GameState, seat: int, rng: random.Random) -> None:
    state = game_state
    assert isinstance(state, HornochsenState)
    view = state.view(seat)
    assert view.hand == tuple(state.hands[seat]) and view.specials == tuple(state.specials[seat])
    assert [r.cards for r in view.rows] == [tuple(r) for r in state.rows]
    assert view.own_pile == tuple(state.piles[seat])
    assert view.hand_sizes == tuple(map(len, state.hands))
    specials = Counter(k for cards in state.special_locations().values() for k in cards)
    assert specials == {X2: 6, PLUS5: 6}
    opponents = [s for s in range(state.players) if s != seat and state.hands[s]]
    if not opponents or not state.unused:
        return
    other = state.clone()
    opponent = rng.choice(opponents)
    hand = other.hands[opponent]
    i, j = rng.randrange(len(hand)), rng.randrange(len(other.unused))
    hand[i], other.unused[j] = other.unused[j], hand[i]
    hand.sort()
    other.unused.sort()
    assert other.view(seat) == view, "a hidden card changed the seat's view"
    assert other.view(opponent) != state.view(opponent)


@pytest.mark.parametrize("part", range(PARTS))
def test_random_games_conserve_cards_and_score_right(part: int) -> None:
    played = run_cheap_games("hornochsen", 2, 6, RANDOM_GAMES, check_final, part=part, parts=PARTS)
    assert played == RANDOM_GAMES // PARTS


def test_random_games_checked_at_every_decision() -> None:
    assert run_deep_games("hornochsen", 2, 6, 30, check_hidden) > 1000
