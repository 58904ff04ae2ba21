"""Rules for 11 nimmt!.

Play whenever possible (every card played is a card that cannot count against us), the
heaviest card first, on the pile where it fits most snugly; with bull cards, keep playing
while cards fit. When a take is forced, take the pile that costs the fewest heads as far
as the public history tells, counting a bull card (3 or more cards) as a bonus.
"""

from __future__ import annotations

from collections.abc import Sequence

from sdk import DecisionKind, ElevenNimmtView, EventKind, Option, OptionKind
from sdk.game import HEADS

WINDOW = 10
BULL_BONUS = 4.0  # what a bull card (several plays per turn) is worth, in heads


def gap(card: int, top: int) -> int:
    """How far above `top` the card lies, on the 1..100 circle."""
    return (card - top) % 100


def pile_contents(view: ElevenNimmtView) -> list[list[int]]:
    """Each pile's cards as the public history of this round tells them (best effort:
    the list's last card is the top; a pile whose start was not seen holds its top only)."""
    piles: list[list[int]] = []
    for event in view.header.history:
        if event.round != view.header.round:
            continue
        if event.kind == EventKind.ROUND_START:
            piles = [[c] for c in event.cards]
        elif event.kind == EventKind.NEW_PILE:
            while len(piles) <= event.row:
                piles.append([])
            piles[event.row] = [event.card]
        elif event.kind == EventKind.PLACE and 0 <= event.row < len(piles):
            piles[event.row].append(event.card)
        elif event.kind == EventKind.TAKE and 0 <= event.row < len(piles):
            piles[event.row] = []
    tops = view.pile_tops
    result = [list(p) for p in piles[: len(tops)]]
    while len(result) < len(tops):
        result.append([])
    for index, top in enumerate(tops):
        if not result[index] or result[index][-1] != top:
            result[index] = [top]
    return result


def take_cost(pile: Sequence[int]) -> float:
    heads = sum(HEADS[c] for c in pile)
    return heads - (BULL_BONUS if len(pile) >= 3 else 0.0)


def choose(view: ElevenNimmtView, options: Sequence[Option]) -> Option:
    """The rule-based choice for any 11 nimmt! decision."""
    kind = view.header.decision
    if kind == DecisionKind.STEAL_BULL:
        return options[0]
    plays = [o for o in options if o.kind == OptionKind.PLAY]
    if plays:
        tops = view.turn_start_tops or view.pile_tops
        return max(
            plays,
            key=lambda o: (
                HEADS[o.card] * 100 - (gap(o.card, tops[o.row]) if 0 <= o.row < len(tops) else 0)
            ),
        )
    ends = [o for o in options if o.kind == OptionKind.END_TURN]
    if ends:
        return ends[0]
    takes = [o for o in options if o.kind == OptionKind.ROW]
    if takes:
        piles = pile_contents(view)
        return min(
            takes,
            key=lambda o: take_cost(piles[o.row]) if 0 <= o.row < len(piles) else 0.0,
        )
    return options[0]
