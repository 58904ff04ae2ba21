"""11 nimmt! (docs/rules.md): the rulebook's worked examples, bad inputs, hidden information."""

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
)
from sdk.game import elevennimmt as eleven
from sdk.game.cards import HEADS
from sdk.game.elevennimmt import (
    ElevenNimmtState,
    distance,
    from_view,
    next_starter,
    playable,
    round_points,
)
from sdk.testing import run_cheap_games, run_deep_games

END = Option(OptionKind.END_TURN)


def play(card: int, pile: int) -> Option:
    return Option(OptionKind.PLAY, card, pile)


def take(pile: int) -> Option:
    return Option(OptionKind.ROW, row=pile)


def plays_of(state: ElevenNimmtState, seat: int) -> list[tuple[int, int]]:
    return [(o.card, o.row) for o in state.legal_options(seat) if o.kind == OptionKind.PLAY]


def test_98_then_5_is_a_distance_of_7_and_96_accepts_97_to_6() -> None:
    assert distance(5, 98) == 7 and playable(5, 98)
    assert [c for c in range(1, 101) if playable(c, 96)] == [1, 2, 3, 4, 5, 6, 97, 98, 99, 100]
    everything = [c for c in range(1, 101) if c not in (96, 50)]
    state = ElevenNimmtState.from_position(hands=[everything, [50]], piles=[[96]], deck=[])
    assert [c for c, _ in plays_of(state, 0)] == [1, 2, 3, 4, 5, 6, 97, 98, 99, 100]


def walkthrough() -> ElevenNimmtState:
    return ElevenNimmtState.from_position(
        hands=[[36, 60, 92], [46, 61, 98], [5, 70, 71], [88, 40, 45]],
        piles=[[31]],
        deck=[23, 87, 19, 78, 1, 2],
    )


def test_game_in_progress_walkthrough() -> None:
    state = walkthrough()
    assert plays_of(state, 0) == [(36, 0)]  # 32..41 fit the 31
    state.apply(0, play(36, 0))
    assert state.pending() == (1,)  # no bull card: one card, then the turn ends
    assert plays_of(state, 1) == [(46, 0)]  # 37..46
    state.apply(1, play(46, 0))
    # The third player has nothing in 47..56: they must take the pile (3 cards: a bull card).
    assert state.legal_options(2) == [take(0)]
    state.apply(2, take(0))
    assert state.hands[2] == [5, 31, 36, 46, 70, 71]
    assert state.bulls[2] == 1 and state.supply == 9
    assert state.view(0).pile_tops == (23, 87)
    # 88, 92, 98 and 5 all go on the 87.
    state.apply(3, play(88, 1))
    state.apply(0, play(92, 1))
    state.apply(1, play(98, 1))
    state.apply(2, play(5, 1))  # a bull card, but no other card fits: the turn ends
    assert state.pending() == (3,)
    assert state.piles == [[23], [87, 88, 92, 98, 5]]
    # The next player cannot play: they take the 23 pile (1 card: no bull card).
    assert state.legal_options(3) == [take(0), take(1)]
    state.apply(3, take(0))
    assert state.bulls == [0, 0, 1, 0]
    assert state.view(0).pile_tops == (5, 19, 78)
    new_piles = [e.card for e in state.history if e.kind == EventKind.NEW_PILE]
    assert new_piles == [23, 87, 19, 78]


def test_bull_card_plays_several_cards_within_the_window_of_the_start_top() -> None:
    state = ElevenNimmtState.from_position(
        hands=[[20, 34, 38, 43, 44], [90]], piles=[[33]], deck=[1, 2], bulls=[1, 0]
    )
    assert plays_of(state, 0) == [(34, 0), (38, 0), (43, 0)]  # 34..43 on the 33
    state.apply(0, play(43, 0))
    assert state.legal_options(0) == [play(34, 0), play(38, 0), END]  # the window stays
    state.apply(0, play(34, 0))
    assert state.view(1).pile_tops == (43,)  # stacked in ascending order, highest on top
    state.apply(0, play(38, 0))  # nothing more fits: the turn ends
    assert state.pending() == (1,)
    assert state.piles == [[33, 34, 38, 43]]


def test_wrapping_window_stacks_in_window_order() -> None:
    state = ElevenNimmtState.from_position(
        hands=[[3, 97, 99, 60], [50]], piles=[[95]], deck=[1, 2], bulls=[1, 0]
    )
    for card in (3, 99, 97):
        state.apply(0, play(card, 0))
    assert state.piles == [[95, 97, 99, 3]]
    assert eleven.public_piles(state.history, 2)[0] == state.piles


def test_b_bull_cards_allow_b_piles() -> None:
    hands = [[12, 13, 22, 23, 32], [90]]
    piles = [[10], [20], [30]]
    one = ElevenNimmtState.from_position(hands=hands, piles=piles, deck=[], bulls=[1, 0])
    one.apply(0, play(12, 0))
    assert plays_of(one, 0) == [(13, 0)]
    two = ElevenNimmtState.from_position(hands=hands, piles=piles, deck=[], bulls=[2, 0])
    two.apply(0, play(12, 0))
    two.apply(0, play(22, 1))
    assert plays_of(two, 0) == [(13, 0), (23, 1)]  # the 30 pile is a third pile
    two.apply(0, END)
    assert two.pending() == (1,)


def test_empty_supply_steals_and_a_tie_is_the_takers_choice() -> None:
    state = ElevenNimmtState.from_position(
        hands=[[50], [60], [70], [80]],
        piles=[[1, 2, 3]],
        deck=[10, 11, 12],
        bulls=[0, 4, 4, 2],
    )
    state.supply = 0
    state.apply(0, take(0))
    assert state.decision_kind(0) == DecisionKind.STEAL_BULL
    assert state.legal_options(0) == [
        Option(OptionKind.STEAL, target=1),
        Option(OptionKind.STEAL, target=2),
    ]
    view = state.view(0)
    assert from_view(view, random.Random(1)).legal_options(0) == state.legal_options(0)
    state.apply(0, Option(OptionKind.STEAL, target=2))
    assert state.bulls == [1, 4, 3, 2]
    assert state.pending() == (1,)


def test_a_take_that_finds_fewer_than_two_deck_cards_ends_the_round() -> None:
    state = ElevenNimmtState.from_position(
        hands=[[50, 55], [60, 66]], piles=[[1]], deck=[10], totals=[4, 0], round_number=1
    )
    state.apply(0, take(0))
    assert [e.card for e in state.history if e.kind == EventKind.NEW_PILE] == [10]
    end = next(e for e in state.history if e.kind == EventKind.ROUND_END)
    assert end.cards == (round_points([1, 50, 55]), HEADS[60] + HEADS[66]) == (1 + 3 + 7, 3 + 5)
    assert state.totals == [4 + 11, 8]
    assert state.round == 2 and state.starter == 1  # fewest points starts


def test_an_empty_hand_at_the_end_of_a_turn_ends_the_round_and_the_game() -> None:
    state = ElevenNimmtState.from_position(
        hands=[[5], [55, 60]], piles=[[1]], deck=[10, 11], round_number=2
    )
    state.apply(0, play(5, 0))
    assert state.is_terminal()
    assert state.scores() == [0, 10]
    assert state.ranks() == [1, 2]


def test_starter_rule() -> None:
    assert next_starter([5, 3, 3, 8], previous=1) == 2
    assert next_starter([5, 3, 3, 8], previous=2) == 1
    assert next_starter([5, 3, 3, 8], previous=0) == 1
    assert next_starter([0, 0], previous=0) == 1


def test_a_whole_game_has_as_many_rounds_as_players() -> None:
    state = new_game("11nimmt", 3, seed=2)
    assert isinstance(state, ElevenNimmtState)
    view = state.view(0)
    assert len(view.hand) == 10 and view.deck_size == 100 - 30 - 1 and view.supply == 10
    state.playout(random.Random(2))
    ends = [e for e in state.history if e.kind == EventKind.ROUND_END]
    assert [e.round for e in ends] == [1, 2, 3]


# ----- bad inputs -----------------------------------------------------------------------


def test_bad_inputs_are_refused_with_clear_messages() -> None:
    state = walkthrough()
    with pytest.raises(RulesError, match="cannot play 60 on pile 1"):
        state.apply(0, play(60, 0))
    with pytest.raises(RulesError, match="seat 1 has no decision pending; waiting for: 0"):
        state.apply(1, play(46, 0))
    with pytest.raises(RulesError, match="cannot end turn"):
        state.apply(0, END)
    with pytest.raises(RulesError, match="cannot take row 5"):
        state.apply(0, take(4))
    with pytest.raises(RulesError, match="is both in"):
        ElevenNimmtState.from_position(hands=[[1], [2]], piles=[[1]], deck=[])
    with pytest.raises(RulesError, match="at least one pile"):
        ElevenNimmtState.from_position(hands=[[1], [2]], piles=[], deck=[])
    with pytest.raises(RulesError, match="2 to 7 players"):
        new_game("11nimmt", 8, 0)
    with pytest.raises(RulesError, match="no options"):
        eleven.new_game("11nimmt", {"rounds": "1"}, 3, 0)


# ----- hidden information ---------------------------------------------------------------


def test_cards_beneath_the_tops_and_taken_cards_are_known_from_history() -> None:
    state = walkthrough()
    for seat, option in ((0, play(36, 0)), (1, play(46, 0)), (2, take(0)), (3, play(88, 1))):
        state.apply(seat, option)
    view = state.view(0)
    assert view.pile_tops == (23, 88) and view.hand == (60, 92)
    for seed in range(20):
        sampled = from_view(view, random.Random(seed))
        assert sampled.view(0) == view
        assert sampled.piles == [[23], [87, 88]]
        assert {31, 36, 46} <= set(sampled.hands[2])


# ----- seeded random games --------------------------------------------------------------

RANDOM_GAMES = 10_000
"""Seeded random games (at least 10,000, spread over every player count)."""
PARTS = 4
"""The cheap games run as this many tests, so that xdist spreads them out."""


def check_final(state: GameState) -> None:
    assert isinstance(state, ElevenNimmtState)
    ends = [e for e in state.history if e.kind == EventKind.ROUND_END]
    assert len(ends) == state.players
    assert ends[-1].cards == tuple(round_points(h) for h in state.hands)
    assert state.scores() == [sum(e.cards[s] for e in ends) for s in range(state.players)]
    assert sum(state.bulls) + state.supply == 10
    piles, _ = eleven.public_piles([e for e in state.history if e.round == state.round], 7)
    assert piles == state.piles


def check_hidden(game_state: GameState, seat: int, rng: random.Random) -> None:
    state = game_state
    assert isinstance(state, ElevenNimmtState)
    view = state.view(seat)
    assert view.hand == tuple(state.hands[seat])
    assert view.pile_tops == tuple(p[-1] for p in state.piles)
    assert view.hand_sizes == tuple(map(len, state.hands))
    assert view.bulls == tuple(state.bulls) and view.deck_size == len(state.deck)
    opponents = [s for s in range(state.players) if s != seat and state.hands[s]]
    if not opponents or not state.deck:
        return
    # Swap a card of an opponent's hand with a deck card, then shuffle the deck.
    other = state.clone()
    opponent = rng.choice(opponents)
    hand = other.hands[opponent]
    i, j = rng.randrange(len(hand)), rng.randrange(len(other.deck))
    hand[i], other.deck[j] = other.deck[j], hand[i]
    hand.sort()
    rng.shuffle(other.deck)
    assert other.view(seat) == view, "a hidden card changed the seat's view"
    assert other.view(opponent) != state.view(opponent)


@pytest.mark.parametrize("part", range(PARTS))
def test_random_games_conserve_cards_and_score_right(part: int) -> None:
    # ~270 decisions a game: one game in 20 also goes through the (slower) generic harness.
    played = run_cheap_games(
        "11nimmt", 2, 7, RANDOM_GAMES, check_final, part=part, parts=PARTS, harness_every=20
    )
    assert played == RANDOM_GAMES // PARTS


def test_random_games_checked_at_every_decision() -> None:
    assert run_deep_games("11nimmt", 2, 7, 8, check_hidden) > 1000


def test_the_written_out_clone_matches_the_general_clone_slot_by_slot() -> None:
    """ElevenNimmtState.clone copies its slots by name: every slot must be there, copied
    (COPY_LISTS, COPY_NESTED) or shared as GameState.clone would, and nothing is left in
    the instance dict."""
    rng = random.Random(11)
    copied = {*ElevenNimmtState.COPY_LISTS, *ElevenNimmtState.COPY_NESTED}
    for seed in range(6):
        state = new_game("11nimmt", 3 + seed % 4, seed)
        for _ in range(rng.randrange(120)):
            seats = state.pending()
            if not seats:
                break
            options = state.legal_options(seats[0])
            state.apply(seats[0], options[rng.randrange(len(options))])
        fast, general = state.clone(), GameState.clone(state)
        for name in ElevenNimmtState.__slots__:
            value = getattr(fast, name)
            assert value == getattr(general, name), name
            assert (value is getattr(state, name)) == (name not in copied), name
        for name in ElevenNimmtState.COPY_NESTED:
            for mine, theirs in zip(getattr(fast, name), getattr(state, name), strict=True):
                assert mine == theirs and mine is not theirs, name
        assert vars(state) == {} and vars(fast) == {}
        for seat in state.pending():
            assert fast.legal_options(seat) == state.legal_options(seat)
