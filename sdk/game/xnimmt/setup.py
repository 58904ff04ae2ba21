"""X nimmt!'s table and variant: the deck, the rows' capacities, the phases of a turn,
where a card goes, a round's score; the name and presets."""

from __future__ import annotations

import enum
from collections.abc import Sequence

from sdk.game.cards import HEADS
from sdk.game.core import Option, OptionKind
from sdk.game.family import Catalog, Preset

NAME = "xnimmt"

CATALOG = Catalog(
    name=NAME,
    title="X nimmt!",
    options=(),
    presets=(Preset("xnimmt", NAME, {}, 2, 4, "X nimmt!"),),
)
"""The X nimmt! variants (one preset, no options; the family: ``xnimmt.FAMILY``)."""


DECK = range(1, 101)


CAPACITIES = (3, 4, 5)


HAND_SIZE = 8


ROUNDS = 2


CARD_OPTIONS = tuple(Option(OptionKind.CARD, card) for card in range(DECK.stop))


ROW_OPTIONS = [Option(OptionKind.ROW, row=row) for row in range(len(CAPACITIES))]


class Phase(enum.Enum):
    PICK = "pick"  # seats choose their cards face down
    RESOLVE = "resolve"  # transient: revealed cards are being placed
    TAKE_ROW = "take_row"  # the lowest card fits no row: its player chooses a row
    X_ROW_CARD = "x_row_card"  # a taker chooses which taken card goes to the X row
    OVER = "over"


def row_for(card: int, rows: Sequence[Sequence[int]]) -> int:
    """The row a card goes to: the one whose last card is the highest below it; -1: none.

    Shared by every "least difference onto row ends" placement of this module.
    """
    best, best_last = -1, 0
    for index, row in enumerate(rows):
        last = row[-1]
        if best_last < last < card:
            best, best_last = index, last
    return best


def round_score(hand: Sequence[int], x_pile: Sequence[int]) -> int:
    """Points of one round: heads in hand x1, heads in the X pile x2, X row free."""
    return sum(HEADS[c] for c in hand) + 2 * sum(HEADS[c] for c in x_pile)
