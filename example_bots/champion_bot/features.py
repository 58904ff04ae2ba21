"""What the champion's network reads: a seat's view and its options as numbers.

Only the seat's view (:class:`sdk.SixNimmtView`) and the public SDK are read, so the bot
and the training pipeline see exactly what a bot over gRPC sees. Two parts:

- :func:`state_features` (:data:`STATE_FEATURES`, one vector per decision): the table
  (rows sorted by their last card), the scores, the seat's hand and the unseen cards as
  histograms, the decision's kind, the player count.
- :func:`option_features` (:data:`OPTION_FEATURES`, one row per legal option): for a card,
  where it would land and what that row holds, how many unseen cards could land there
  first, and the chance that enough of them do to make it the row's 6th card; for a row
  to take, its heads and length against the cheapest row.

Everything is scaled to about [0, 1]. :func:`encode` gives both for one decision.
:mod:`example_bots.champion_bot.batch_features` computes the same numbers for the card
picks of whole batches of playouts; a change here must be made there too (its test holds
the two equal).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from sdk import DecisionKind, Option, OptionKind, SixNimmtView, seen_cards
from sdk.game import HEADS

Array = npt.NDArray[np.float64]

MAX_PLAYERS = 10
ROWS = 4
ROW_CAPACITY = 5
BUCKETS = 13  # hand and unseen-card histograms: cards 1..104 in buckets of 8
BUCKET_WIDTH = 8
MAX_OPTIONS = 10  # a hand of 10 cards; a row to take is one of 4

STATE_FEATURES: tuple[str, ...] = (
    *(f"players = {n}" for n in range(2, MAX_PLAYERS + 1)),
    "players / 10",
    "hand size / 10",
    "decision: pick a card",
    "decision: take a row",
    *(
        f"row {r} (by last card): {what}"
        for r in range(ROWS)
        for what in ("last card", "length", "heads")
    ),
    "own heads this round / 10",
    "others' mean heads this round / 10",
    "others' fewest heads this round / 10",
    "others' most heads this round / 10",
    "own heads - others' fewest / 10",
    "own total / 66",
    "others' highest total / 66",
    "one-round format",
    *(f"hand cards {BUCKET_WIDTH * b + 1}-{BUCKET_WIDTH * (b + 1)} / 4" for b in range(BUCKETS)),
    *(f"unseen cards {BUCKET_WIDTH * b + 1}-{BUCKET_WIDTH * (b + 1)} / 8" for b in range(BUCKETS)),
    "unseen cards / highest card",
    "pending card / highest card",
    "cards still to place this turn / players",
)
OPTION_FEATURES: tuple[str, ...] = (
    "card: bias",
    "card: value / highest card",
    "card: heads / 7",
    "card: rank in the hand / 10",
    "card: below every row",
    "card: below every row x cheapest row's heads / 10",
    "card: distance to its place / highest card",
    "card: its row's length / 5",
    "card: its row's heads / 10",
    "card: 6th card (takes the row)",
    "card: 6th card x row heads / 10",
    "card: unseen cards that land first / 10",
    "card: expected others' cards landing first / free slots",
    "card: chance the others fill the row first",
    "card: that chance x (row heads + card heads) / 10",
    "card: own cards that land first / 10",
    "row: bias",
    "row: heads / 10",
    "row: length / 5",
    "row: is the cheapest",
    "row: heads above the cheapest / 10",
    "row: last card / highest card",
)
STATE_SIZE = len(STATE_FEATURES)
OPTION_SIZE = len(OPTION_FEATURES)
_ROW0 = OPTION_FEATURES.index("row: bias")
_HEADS = np.array(HEADS, dtype=np.float64)


def _row_heads(row: Sequence[int]) -> int:
    return sum(HEADS[c] for c in row)


def unseen_cards(view: SixNimmtView) -> list[int]:
    """The cards in play this round that the seat has not seen (other hands or unused)."""
    seen = seen_cards(view)
    return [c for c in range(1, view.highest_card + 1) if c not in seen]


def state_features(view: SixNimmtView, unseen: Sequence[int] | None = None) -> Array:
    """The decision's state vector (:data:`STATE_FEATURES`)."""
    header = view.header
    seat, n = header.seat, header.players
    highest = float(view.highest_card)
    unseen = unseen_cards(view) if unseen is None else unseen
    out = np.zeros(STATE_SIZE)
    i = 0
    if 2 <= n <= MAX_PLAYERS:
        out[n - 2] = 1.0
    i = MAX_PLAYERS - 1
    out[i] = n / 10
    out[i + 1] = len(view.hand) / 10
    out[i + 2] = float(header.decision == DecisionKind.PICK_CARD)
    out[i + 3] = float(header.decision == DecisionKind.TAKE_ROW)
    i += 4
    rows = sorted((r for r in view.rows if r), key=lambda r: r[-1])
    for row in rows[:ROWS]:
        out[i : i + 3] = (row[-1] / highest, len(row) / ROW_CAPACITY, _row_heads(row) / 10)
        i += 3
    i = MAX_PLAYERS + 3 + 3 * ROWS
    penalties = view.round_penalties
    own = penalties[seat] if 0 <= seat < len(penalties) else 0
    others = [p for s, p in enumerate(penalties) if s != seat] or [0]
    out[i : i + 5] = (
        own / 10,
        sum(others) / len(others) / 10,
        min(others) / 10,
        max(others) / 10,
        (own - min(others)) / 10,
    )
    i += 5
    totals = header.scores
    own_total = totals[seat] if 0 <= seat < len(totals) else 0
    other_totals = [t for s, t in enumerate(totals) if s != seat] or [0]
    out[i : i + 3] = (
        own_total / 66,
        max(other_totals) / 66,
        float(header.options.get("rounds") == "1"),
    )
    i += 3
    for card in view.hand:
        out[i + min((card - 1) // BUCKET_WIDTH, BUCKETS - 1)] += 1 / 4
    i += BUCKETS
    for card in unseen:
        out[i + min((card - 1) // BUCKET_WIDTH, BUCKETS - 1)] += 1 / 8
    i += BUCKETS
    out[i] = len(unseen) / highest
    out[i + 1] = view.pending_card / highest
    out[i + 2] = len(view.revealed) / n
    return out


def _chance_at_least(k: int, trials: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(trials, p)."""
    if k <= 0:
        return 1.0
    if k > trials or p <= 0.0:
        return 0.0
    return sum(math.comb(trials, j) * p**j * (1 - p) ** (trials - j) for j in range(k, trials + 1))


def option_features(
    view: SixNimmtView, options: Sequence[Option], unseen: Sequence[int] | None = None
) -> Array:
    """One row per option (:data:`OPTION_FEATURES`): card picks and rows to take."""
    highest = float(view.highest_card)
    unseen = sorted(unseen_cards(view) if unseen is None else unseen)
    rows = [r for r in view.rows if r]
    heads = [_row_heads(r) for r in view.rows]
    cheapest = min((heads[r] for r, row in enumerate(view.rows) if row), default=0)
    hand = sorted(view.hand)
    opponents = max(view.header.players - 1, 0)
    unseen_arr = np.array(unseen, dtype=np.int64)
    hand_arr = np.array(hand, dtype=np.int64)
    out = np.zeros((len(options), OPTION_SIZE))
    for i, option in enumerate(options):
        f = out[i]
        if option.kind == OptionKind.ROW:
            r = option.row
            row = view.rows[r] if 0 <= r < len(view.rows) else ()
            h = heads[r] if 0 <= r < len(heads) else 0
            f[_ROW0 : _ROW0 + 6] = (
                1.0,
                h / 10,
                len(row) / ROW_CAPACITY,
                float(h == cheapest),
                (h - cheapest) / 10,
                (row[-1] if row else 0) / highest,
            )
            continue
        card = option.card
        f[0] = 1.0
        f[1] = card / highest
        f[2] = _HEADS[card] / 7
        f[3] = (hand.index(card) if card in hand else 0) / 10
        below = [row for row in rows if row[-1] < card]
        if not below:
            f[4] = 1.0
            f[5] = cheapest / 10
            continue
        target = max(below, key=lambda row: row[-1])
        last = target[-1]
        length = len(target)
        row_heads = _row_heads(target)
        between = int(((unseen_arr > last) & (unseen_arr < card)).sum())
        own_between = int(((hand_arr > last) & (hand_arr < card)).sum())
        free = ROW_CAPACITY - length
        share = between / len(unseen) if unseen else 0.0
        expected = share * opponents
        chance = 1.0 if free <= 0 else _chance_at_least(free, opponents, share)
        f[6] = (card - last) / highest
        f[7] = length / ROW_CAPACITY
        f[8] = row_heads / 10
        f[9] = float(free <= 0)
        f[10] = row_heads / 10 if free <= 0 else 0.0
        f[11] = between / 10
        f[12] = expected / free if free > 0 else 1.0
        f[13] = chance
        f[14] = chance * (row_heads + _HEADS[card]) / 10
        f[15] = own_between / 10
    return out


def encode(view: SixNimmtView, options: Sequence[Option]) -> tuple[Array, Array]:
    """The state vector and the options' rows of one decision."""
    unseen = unseen_cards(view)
    return state_features(view, unseen), option_features(view, options, unseen)
