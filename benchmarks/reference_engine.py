"""A plain list-based 6 nimmt! round with random play: the yardstick ``benchmarks.engine``
prints beside the project's engine.

Written from the rules (docs/rules.md, "6 nimmt!") and nothing else: no views, no history,
no checks, no variants; hands and rows are lists, a card's heads a table look-up. It is what
a careful hand-written simulator costs in pure Python, so the project's figures can be read
against it on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from sdk.game.cards import HEADS

ROWS = 4
ROW_CAPACITY = 5
HAND_SIZE = 10
DECK = 104


def play_round(players: int, rng: random.Random, draw: Callable[[], float]) -> list[int]:
    """One dealt round of `players` seats, every choice uniformly random; the heads each
    seat took."""
    deck = list(range(1, DECK + 1))
    rng.shuffle(deck)
    hands = [deck[s * HAND_SIZE : (s + 1) * HAND_SIZE] for s in range(players)]
    dealt = players * HAND_SIZE
    rows = [[card] for card in deck[dealt : dealt + ROWS]]
    heads = [0] * players
    for _ in range(HAND_SIZE):
        picks = []
        for seat in range(players):
            hand = hands[seat]
            picks.append((hand.pop(int(draw() * len(hand))), seat))
        picks.sort()
        for card, seat in picks:
            best = -1
            best_last = 0
            for r in range(ROWS):
                last = rows[r][-1]
                if best_last < last < card:
                    best, best_last = r, last
            if best < 0:  # below every row: a random row is taken
                best = int(draw() * ROWS)
                heads[seat] += sum(HEADS[c] for c in rows[best])
                rows[best] = [card]
            elif len(rows[best]) == ROW_CAPACITY:
                heads[seat] += sum(HEADS[c] for c in rows[best])
                rows[best] = [card]
            else:
                rows[best].append(card)
    return heads
