"""Every worked example of the 6 nimmt! rulebook and of its variant summary (docs/rules.md,
"6 nimmt!"), as explicit positions.

The TIPS figures of the rulebook are not in its text; the rows used here are the smallest ones
consistent with what the text says about them.
"""

from collections.abc import Sequence

import pytest

from sdk.game import DecisionKind, EventKind, Option, OptionKind, RulesError, Side
from sdk.game.cards import HEADS
from sdk.game.sixnimmt import SixNimmtState


def play_turn(state: SixNimmtState, cards: Sequence[int]) -> None:
    """Seat i picks cards[i] face down."""
    for seat, card in enumerate(cards):
        assert state.decision_kind(seat) == DecisionKind.PICK_CARD
        state.apply(seat, Option(OptionKind.CARD, card))


def rows_of(state: SixNimmtState) -> list[list[int]]:
    return [list(r) for r in state.view(-1).rows]


def test_fig1_to_fig4_the_three_plays_of_the_rulebook() -> None:
    # Four players; their cards for the three plays of the rulebook, pages 3 to 5.
    state = SixNimmtState.from_position(
        "6nimmt:rounds=1",
        hands=[[14, 21, 3], [15, 26, 9], [44, 30, 68], [61, 36, 93]],
        rows=[[12], [37], [43], [58]],
    )
    # 1st play: 14 and 15 go next to the 12, 44 next to 43 (least difference), 61 on 58.
    play_turn(state, [14, 15, 44, 61])
    assert rows_of(state) == [[12, 14, 15], [37], [43, 44], [58, 61]]
    assert state.scores() == [0, 0, 0, 0]

    # 2nd play: 21 and 26 fill row 1; the 30 is its 6th card and takes the five cards;
    # the 36 goes next to the 30 in the new row.
    play_turn(state, [21, 26, 30, 36])
    assert rows_of(state) == [[30, 36], [37], [43, 44], [58, 61]]
    assert state.piles[2] == [12, 14, 15, 21, 26]
    assert state.scores() == [0, 0, sum(HEADS[c] for c in (12, 14, 15, 21, 26)), 0]

    # 3rd play: 3 fits nowhere; its player chooses row 2 (the 37) after seeing every card.
    play_turn(state, [3, 9, 68, 93])
    assert state.pending() == (0,)
    assert state.decision_kind(0) == DecisionKind.TAKE_ROW
    view = state.view(0)
    assert view.pending_card == 3
    assert view.revealed == ((0, 3), (1, 9), (2, 68), (3, 93))
    assert state.legal_options(0) == [Option(OptionKind.ROW, row=r) for r in range(4)]
    state.apply(0, Option(OptionKind.ROW, row=1))
    # The 9 goes after the 3 in the new row 2.
    assert rows_of(state) == [[30, 36], [3, 9], [43, 44], [58, 61, 68, 93]]
    assert state.scores() == [1, 0, 6, 0]
    assert state.is_terminal()


def test_the_low_card_3_takes_the_chosen_row_and_the_9_follows_it() -> None:
    state = SixNimmtState.from_position(
        "6nimmt:rounds=1",
        hands=[[3], [9], [68], [93]],
        rows=[[30, 36], [37], [43, 44], [58, 61]],
    )
    play_turn(state, [3, 9, 68, 93])
    assert state.pending() == (0,)
    state.apply(0, Option(OptionKind.ROW, row=1))
    assert rows_of(state) == [[30, 36], [3, 9], [43, 44], [58, 61, 68, 93]]
    assert state.scores() == [HEADS[37], 0, 0, 0]
    takes = [e for e in state.history if e.kind == EventKind.TAKE]
    assert [(e.seat, e.row, e.cards) for e in takes] == [(0, 1, (37,))]
    assert state.is_terminal()


def test_the_full_row_21_26_30_36() -> None:
    state = SixNimmtState.from_position(
        "6nimmt:rounds=1",
        hands=[[21], [26], [30], [36]],
        rows=[[12, 14, 15], [37], [43, 44], [58, 61]],
    )
    play_turn(state, [21, 26, 30, 36])
    assert rows_of(state) == [[30, 36], [37], [43, 44], [58, 61]]
    assert state.scores() == [0, 0, 1 + 1 + 2 + 1 + 1, 0]


def test_tips_example_1_the_45_goes_next_to_42_not_41_and_takes_five() -> None:
    row4 = [33, 35, 38, 40, 42]
    state = SixNimmtState.from_position(
        "6nimmt:rounds=1", hands=[[45], [90]], rows=[[5], [20], [30, 41], row4]
    )
    play_turn(state, [45, 90])
    assert rows_of(state) == [[5], [20], [30, 41], [45, 90]]
    assert state.piles[0] == row4
    assert state.scores() == [sum(HEADS[c] for c in row4), 0]


def test_tips_example_2_the_29_empties_row_1_so_the_62_takes_the_4th_row() -> None:
    row4 = [31, 45, 50, 57, 60]
    state = SixNimmtState.from_position(
        "6nimmt:rounds=1", hands=[[29], [62]], rows=[[61], [70], [80], row4]
    )
    play_turn(state, [29, 62])
    assert state.decision_kind(0) == DecisionKind.TAKE_ROW
    state.apply(0, Option(OptionKind.ROW, row=0))  # row 1 has the fewest heads
    assert rows_of(state) == [[29], [70], [80], [62]]
    assert state.piles == [[61], row4]
    assert state.scores() == [1, sum(HEADS[c] for c in row4)]


def professional_8_and_9() -> SixNimmtState:
    """Seed 003: row 1 = 2 3 4 5 6, row 2 = 10 15; A (seat 0) plays 9, B (seat 1) plays 8."""
    state = SixNimmtState.from_position(
        "6nimmt-pro:rounds=1", hands=[[9], [8]], rows=[[2, 3, 4, 5, 6], [10, 15], [50], [70]]
    )
    play_turn(state, [9, 8])
    assert state.pending() == (1,)
    assert state.decision_kind(1) == DecisionKind.CHOOSE_PLACE
    assert state.legal_options(1) == [
        Option(OptionKind.PLACE, row=0, side=Side.RIGHT),
        Option(OptionKind.PLACE, row=1, side=Side.LEFT),
    ]
    assert state.view(1).pending_card == 8
    return state


def test_professional_8_left_of_10_makes_the_9_take_row_1() -> None:
    state = professional_8_and_9()
    state.apply(1, Option(OptionKind.PLACE, row=1, side=Side.LEFT))
    assert rows_of(state) == [[9], [8, 10, 15], [50], [70]]
    assert state.piles == [[2, 3, 4, 5, 6], []]
    assert state.scores() == [6, 0]
    places = [e for e in state.history if e.kind == EventKind.PLACE]
    assert [(e.card, e.row, e.side) for e in places] == [(8, 1, Side.LEFT), (9, 0, Side.RIGHT)]


@pytest.mark.parametrize("side", [Side.RIGHT, Side.LEFT])
def test_professional_8_right_of_6_takes_row_1_and_the_9_is_tied_again(side: Side) -> None:
    state = professional_8_and_9()
    state.apply(1, Option(OptionKind.PLACE, row=0, side=Side.RIGHT))
    assert state.scores() == [0, 6]
    # Now the 9 is as near to the 8 (right end of row 1) as to the 10 (left of row 2).
    assert rows_of(state) == [[8], [10, 15], [50], [70]]
    assert state.legal_options(0) == [
        Option(OptionKind.PLACE, row=0, side=Side.RIGHT),
        Option(OptionKind.PLACE, row=1, side=Side.LEFT),
    ]
    state.apply(0, Option(OptionKind.PLACE, row=0 if side == Side.RIGHT else 1, side=side))
    expected = [[8, 9], [10, 15]] if side == Side.RIGHT else [[8], [9, 10, 15]]
    assert rows_of(state) == [*expected, [50], [70]]
    assert state.scores() == [0, 6]


def test_professional_card_with_no_place_takes_a_chosen_row() -> None:
    # 40 is above every first card (10, 20, 30, 35) and below every last card.
    state = SixNimmtState.from_position(
        "6nimmt-pro:rounds=1", hands=[[40], [1]], rows=[[10, 50], [20, 60], [30, 70], [35, 80]]
    )
    play_turn(state, [40, 1])
    # The 1 goes left of the 10 first; then the 40 has no place.
    assert state.decision_kind(0) == DecisionKind.TAKE_ROW
    state.apply(0, Option(OptionKind.ROW, row=2))
    assert rows_of(state) == [[1, 10, 50], [20, 60], [40], [35, 80]]
    assert state.scores() == [3 + 3, 0]


def test_professional_sixth_card_at_the_left_end_takes_the_row() -> None:
    state = SixNimmtState.from_position(
        "6nimmt-pro:rounds=1", hands=[[9], [99]], rows=[[10, 11, 12, 13, 14], [40], [50], [60]]
    )
    play_turn(state, [9, 99])
    assert rows_of(state) == [[9], [40], [50], [60, 99]]
    assert state.scores() == [3 + 5 + 1 + 1 + 1, 0]


def test_wrong_choices_are_refused_with_clear_messages() -> None:
    state = SixNimmtState.from_position(
        "6nimmt:rounds=1", hands=[[3, 50], [9, 60]], rows=[[30], [37], [43], [58]]
    )
    with pytest.raises(RulesError, match="card 4 is not a legal PICK_CARD option for seat 0"):
        state.apply(0, Option(OptionKind.CARD, 4))
    with pytest.raises(RulesError, match="not a legal"):
        state.apply(0, Option(OptionKind.ROW, row=1))
    state.apply(0, Option(OptionKind.CARD, 3))
    with pytest.raises(RulesError, match="seat 0 has no decision pending"):
        state.apply(0, Option(OptionKind.CARD, 50))
    with pytest.raises(RulesError, match="seat 5 has no decision pending"):
        state.apply(5, Option(OptionKind.CARD, 9))
    state.apply(1, Option(OptionKind.CARD, 9))
    assert state.pending() == (0,)
    with pytest.raises(RulesError, match=r"seat 1 has no decision pending \(pending: seat 0\)"):
        state.apply(1, Option(OptionKind.ROW, row=0))
    with pytest.raises(RulesError, match="take row 5 is not a legal TAKE_ROW option"):
        state.apply(0, Option(OptionKind.ROW, row=4))


@pytest.mark.parametrize(
    ("hands", "rows", "message"),
    [
        ([[3], [3]], [[1], [2], [4], [5]], "more than once"),
        ([[3], [105]], [[1], [2], [4], [5]], "outside"),
        ([[3], [6, 7]], [[1], [2], [4], [5]], "same number"),
        ([[3], [6]], [[1], [2], [4]], "4 rows"),
        ([[3], [6]], [[2, 1], [8], [4], [5]], "must ascend"),
        ([[3], [6]], [[1], [2], [4], [5, 8, 9, 10, 11, 12]], "1 to 5 cards"),
    ],
)
def test_bad_positions_are_refused(
    hands: list[list[int]], rows: list[list[int]], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        SixNimmtState.from_position("6nimmt", hands=hands, rows=rows)
