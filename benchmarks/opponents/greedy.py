"""The published greedy 6 nimmt! bot, from its published description (issue 17):

    "The published greedy: the card with the lowest immediate cost, and the cheapest row
    on a forced take."

The immediate cost of a card is what it takes if it were played alone on today's rows:
the heads of the row it lands on when it would be that row's 6th card, the cheapest row
when it is below every row (a forced take), else nothing. The description names no tie
rule: ties go to the first option in canonical order (the lowest card, the lowest row).
Professional (cards go to either end of a row): a card lands at the nearest end; of two
tied places it costs the cheaper, and a choice of tied places takes the cheaper. The
description says nothing of Logic's draft: the greedy bot drafts the card with the fewest heads (the
lowest on ties), a choice of ours, not the published bot's.
"""

from __future__ import annotations

from collections.abc import Sequence

from sdk.bot import Bot
from sdk.game.cards import HEADS
from sdk.game.core import DecisionKind, Option
from sdk.game.variants import PRESETS
from sdk.game.views import SixNimmtView, View
from sdk.match import DecisionClock

ROW_CAPACITY = 5  # the card that would be a row's 6th takes the row
SIXNIMMT_PRESETS = tuple(name for name, preset in PRESETS.items() if preset.family == "6nimmt")

Rows = Sequence[Sequence[int]]


def row_heads(row: Sequence[int]) -> int:
    """A row's bull heads."""
    return sum(HEADS[card] for card in row)


def nearest_rows(card: int, rows: Rows, both_ends: bool) -> list[int]:
    """The rows of the nearest places for `card` (a row end it may go to, the nearest
    one; with `both_ends`, Professional, up to two tied places), empty when it is below
    every row and fits no left end: a forced take."""
    best = 1 << 30
    found: list[int] = []
    for index, row in enumerate(rows):
        ends = [card - row[-1]] + ([row[0] - card] if both_ends else [])
        for distance in ends:
            if 0 < distance < best:
                best, found = distance, [index]
            elif distance == best:
                found.append(index)
    return found


def immediate_cost(card: int, rows: Rows, both_ends: bool = False) -> int:
    """The heads `card` takes if it were played alone now: a full row's heads when it is
    the 6th card, the cheapest row's when it fits nowhere, else 0 (of two tied places,
    Professional, the cheaper)."""
    targets = nearest_rows(card, rows, both_ends)
    if not targets:
        return min(row_heads(row) for row in rows)
    return min(row_heads(rows[r]) if len(rows[r]) >= ROW_CAPACITY else 0 for r in targets)


def greedy_choice(view: SixNimmtView, options: Sequence[Option]) -> Option:
    """The greedy choice for any 6 nimmt! family decision (first option on ties)."""
    kind = view.header.decision
    rows = view.rows
    if kind == DecisionKind.PICK_CARD:
        both_ends = view.header.options.get("placement") == "both"
        return min(options, key=lambda o: immediate_cost(o.card, rows, both_ends))
    if kind == DecisionKind.TAKE_ROW:
        return min(options, key=lambda o: row_heads(rows[o.row]))
    if kind == DecisionKind.CHOOSE_PLACE:
        full = [len(row) >= ROW_CAPACITY for row in rows]
        return min(options, key=lambda o: row_heads(rows[o.row]) if full[o.row] else 0)
    if kind == DecisionKind.DRAFT_CARD:
        return min(options, key=lambda o: HEADS[o.card])
    return options[0]


class GreedyBot(Bot):
    """The published greedy baseline (see the module docstring)."""

    name = "greedy"
    version = "1.0"
    author = "Bullring benchmarks (published description)"
    variants = SIXNIMMT_PRESETS

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> Option:
        if not isinstance(view, SixNimmtView):
            raise TypeError(f"greedy plays the 6 nimmt! family only, not {view.header.variant}")
        return greedy_choice(view, options)
