"""Rules for 6 nimmt! and its Tactics, Logic and Professional variants.

Picks: for each hand card, estimate the bull heads it costs this turn: the chance that
the other players' cards land on its row first and make ours the 6th card (from the
cards still unseen, or from their known hands in Logic), or the cheapest row when the card
is below every row. Play the cheapest card, preferring the smallest gap on ties.
Row choice: the row with the fewest heads. Professional ties: the shorter row.
"""

from __future__ import annotations

from collections.abc import Sequence

from example_bots.rules_bot.common import count_distribution
from sdk import DecisionKind, Option, Side, SixNimmtView, seen_cards
from sdk.game import HEADS

ROW_LIMIT = 5  # a row's 6th card takes it
MEAN_CARD_HEADS = 171 / 104

Rows = Sequence[Sequence[int]]


def row_heads(row: Sequence[int]) -> int:
    return sum(HEADS[c] for c in row)


def landing(card: int, rows: Rows, both_ends: bool) -> tuple[int, Side, int] | None:
    """(row, side, distance) where `card` goes; None when it has no place (takes a row).

    With both ends (Professional) the nearest place wins; a tie goes to the first found.
    """
    best: tuple[int, Side, int] | None = None
    for index, row in enumerate(rows):
        if card > row[-1] and (best is None or card - row[-1] < best[2]):
            best = (index, Side.RIGHT, card - row[-1])
        if both_ends and card < row[0] and (best is None or row[0] - card < best[2]):
            best = (index, Side.LEFT, row[0] - card)
    return best


def unseen_cards(view: SixNimmtView) -> list[int]:
    """Cards that may be in another player's hand (or unused, in the full deck)."""
    seen = seen_cards(view)
    return [c for c in range(1, view.highest_card + 1) if c not in seen]


def opponent_hands(view: SixNimmtView) -> list[list[int]]:
    """Each opponent's possible cards: their hand when hands are public, else every unseen
    card (the same pool for all)."""
    me = view.header.seat
    if view.public_hands and view.all_hands:
        return [list(h) for seat, h in enumerate(view.all_hands) if seat != me and h]
    pool = unseen_cards(view)
    count = sum(1 for seat, size in enumerate(view.hand_sizes) if seat != me and size > 0)
    return [pool] * count


def pick_cost(
    card: int, rows: Rows, hands: list[list[int]], both_ends: bool, capacity: Sequence[int]
) -> float:
    """Expected heads `card` costs this turn, plus a tiny preference for small gaps.

    `hands` holds each opponent's possible cards; `capacity[r]` is the card count that makes
    row r's next card take it (5 in 6 nimmt!).
    """
    place = landing(card, rows, both_ends)
    if place is None:
        return min(row_heads(r) for r in rows) + 0.5
    target, _, distance = place
    row = rows[target]
    # Each opponent's chance to play a card that lands on our row before ours does.
    chances = []
    for hand in hands:
        if not hand:
            continue
        before = 0
        for other in hand:
            if other < card:
                spot = landing(other, rows, both_ends)
                if spot is not None and spot[0] == target:
                    before += 1
        chances.append(before / len(hand))
    dist = count_distribution(chances)
    need = capacity[target] - len(row)  # cards ahead of ours that make ours the taker
    risk = dist[need] if need < len(dist) else 0.0
    cost = risk * (row_heads(row) + need * MEAN_CARD_HEADS)
    return cost + 0.001 * distance


def ranked(view: SixNimmtView, options: Sequence[Option]) -> list[Option]:
    """`options` in the rule-based bot's order of preference for any 6 nimmt! decision,
    its choice first (equal options keep their canonical order)."""
    kind = view.header.decision
    rows = view.rows
    both_ends = view.header.options.get("placement") == "both"
    if kind == DecisionKind.PICK_CARD:
        hands = opponent_hands(view)
        limits = [ROW_LIMIT] * len(rows)
        return sorted(options, key=lambda o: pick_cost(o.card, rows, hands, both_ends, limits))
    if kind == DecisionKind.TAKE_ROW:
        return sorted(options, key=lambda o: (row_heads(rows[o.row]), -len(rows[o.row])))
    if kind == DecisionKind.CHOOSE_PLACE:
        return sorted(
            options,
            key=lambda o: row_heads(rows[o.row]) if len(rows[o.row]) >= ROW_LIMIT else 0,
        )
    if kind == DecisionKind.DRAFT_CARD:
        middle = (view.highest_card + 1) / 2
        return sorted(options, key=lambda o: (HEADS[o.card], abs(o.card - middle)))
    return list(options)


def choose(view: SixNimmtView, options: Sequence[Option]) -> Option:
    """The rule-based choice for any 6 nimmt! decision."""
    return ranked(view, options)[0]
