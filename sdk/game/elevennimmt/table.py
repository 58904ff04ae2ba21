"""11 nimmt!'s table: its constants, shared options, the window rule and pile helpers (pure
functions on cards and piles), and the phases of a turn."""

from __future__ import annotations

import enum
from collections.abc import Sequence

from sdk.game.cards import HEADS
from sdk.game.core import Option, OptionKind

DECK = range(1, 101)
HAND_SIZE = 10
BULL_CARDS = 10
WINDOW = 10  # a card fits a pile when it is 1..10 above the top, counting 100 -> 1
BULL_PILE = 3  # taking a pile of at least this many cards earns a bull card
END_TURN = Option(OptionKind.END_TURN)
MAX_PILES = len(DECK)  # every pile holds a card of its own (a dealt game has at most 41)
PILE_BITS = 7  # a play's key: card << PILE_BITS | pile; keys sort as (card, pile) do
PILE_MASK = (1 << PILE_BITS) - 1
ROW_OPTIONS = [Option(OptionKind.ROW, row=p) for p in range(MAX_PILES)]
STEAL_OPTIONS = [Option(OptionKind.STEAL, target=t) for t in range(7)]


class PlayOptions(dict[int, Option]):
    """PLAY options by key (card << PILE_BITS | pile), made on first use and then shared
    (options are immutable)."""

    def __missing__(self, key: int) -> Option:
        option = Option(OptionKind.PLAY, key >> PILE_BITS, key & PILE_MASK)
        self[key] = option
        return option


PLAY_OPTIONS = PlayOptions()


def distance(card: int, top: int) -> int:
    """How far `card` is above `top`, going round from 100 to 1 (98 -> 5 is 7)."""
    return (card - top) % len(DECK)


def playable(card: int, top: int) -> bool:
    """Whether `card` may be played on a pile whose top is `top`."""
    return 1 <= (card - top) % 100 <= WINDOW


def stack(pile: list[int], card: int, new_cards: int, base_top: int) -> None:
    """Put `card` on `pile`, keeping this turn's `new_cards` cards in ascending window order
    from `base_top` (the pile's top when the turn began), the highest on top. The pile's
    last `new_cards` cards are in that order already (as stack leaves them)."""
    place = len(pile)
    far = (card - base_top) % len(DECK)
    while new_cards and (pile[place - 1] - base_top) % len(DECK) > far:
        place -= 1
        new_cards -= 1
    pile.insert(place, card)


REACH = [sum(1 << top for top in DECK if playable(card, top)) for card in range(101)]
"""REACH[card]: the pile tops `card` may be played on, as a bit set (bit t: top t)."""
WINDOW_MASKS = [sum(1 << card for card in DECK if playable(card, top)) for top in range(101)]
"""WINDOW_MASKS[top]: the cards that fit a pile with that top, as a bit set (bit c: card c)."""
BITS = tuple(1 << card for card in range(101))

# Spread sets count and find the legal plays of a hand in a few integer operations. A spread
# set gives each card c the ten bits 10c .. 10c + 9 (WINDOW bits), one for each distance d =
# 1 .. 10 (bit 10c + d - 1). TOP_SPREAD[top] sets, for each card the top lets be played
# (top + d, counting 100 -> 1), the bit of its distance; CARD_SPREAD[card] sets all ten bits
# of the card. So (the tops' spread & the hand's spread) has one bit for each legal (card,
# top) pair, and its bit_count() is the number of plays.
TOP_SPREAD = (
    0,
    *(
        sum(1 << (WINDOW * ((top + d - 1) % len(DECK) + 1) + d - 1) for d in range(1, WINDOW + 1))
        for top in DECK
    ),
)
CARD_SPREAD = tuple(((1 << WINDOW) - 1) << (WINDOW * card) for card in range(101))


def spread_of(cards: Sequence[int], spreads: Sequence[int]) -> int:
    """The spread set of `cards` (spreads is TOP_SPREAD for tops, CARD_SPREAD for a hand)."""
    total = 0
    for card in cards:
        total |= spreads[card]
    return total


class TopsOf(dict[int, tuple[int, ...]]):
    """TOPS_OF[tops]: the cards of the bit set `tops` (bit t: top t), ascending. Made on
    first use and then kept: the keys used are sets within one card's window (REACH[card]
    & open tops), at most 100 * 2**WINDOW of them."""

    def __missing__(self, tops: int) -> tuple[int, ...]:
        found: list[int] = []
        rest = tops
        while rest:
            low = rest & -rest
            found.append(low.bit_length() - 1)
            rest ^= low
        self[tops] = result = tuple(found)
        return result


TOPS_OF = TopsOf({0: ()})


def piles_of(fits: int, tops: list[int]) -> list[int]:
    """The piles (ascending) whose tops (listed in `tops`, distinct) are in the bit set
    `fits`."""
    piles: list[int] = []
    while fits:
        low = fits & -fits
        piles.append(tops.index(low.bit_length() - 1))
        fits ^= low
    piles.sort()
    return piles


def round_points(hand: Sequence[int]) -> int:
    """Penalty points of a hand at the end of a round: its heads."""
    return sum(HEADS[c] for c in hand)


def next_starter(totals: Sequence[int], previous: int) -> int:
    """The seat with the fewest points; ties: the first going clockwise after `previous`,
    `previous` itself checked last."""
    players = len(totals)
    order = [(previous + k) % players for k in range(1, players + 1)]
    fewest = min(totals)
    return next(seat for seat in order if totals[seat] == fewest)


class Phase(enum.Enum):
    PLAY = "play"
    STEAL = "steal"
    OVER = "over"


def steal_targets(bulls: Sequence[int], seat: int) -> list[int]:
    """The other seats holding the most bull cards (none when nobody else has one)."""
    most = max((b for s, b in enumerate(bulls) if s != seat), default=0)
    if not most:
        return []
    return [s for s, b in enumerate(bulls) if s != seat and b == most]
