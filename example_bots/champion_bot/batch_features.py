"""The network's features for many card picks at once, from the batch simulator's arrays.

:mod:`example_bots.champion_bot.features` reads one seat's view; the search's playouts
need the same numbers for every seat of every game at every turn, which one view at a
time would make thousands of times too slow. :func:`encode_picks` computes them from
arrays (rows, hands, the cards each seat has not seen, the heads taken) for a whole batch
in a few numpy operations. It covers what a playout meets: card picks in ``6nimmt``
(cards go to a row's end; no row choice is pending, no card is revealed yet this turn).
``tests/example_bots/test_champion_batch_features.py`` holds it equal to
:func:`~example_bots.champion_bot.features.encode` on positions of real games.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import numpy.typing as npt

from example_bots.champion_bot.features import (
    BUCKET_WIDTH,
    BUCKETS,
    MAX_PLAYERS,
    OPTION_FEATURES,
    OPTION_SIZE,
    ROW_CAPACITY,
    ROWS,
    STATE_FEATURES,
    STATE_SIZE,
)
from sdk.game.sixnimmt.batch import HEADS_NP, IntArray

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

_ROWS_AT = STATE_FEATURES.index("row 0 (by last card): last card")
_ROUND_AT = STATE_FEATURES.index("own heads this round / 10")
_TOTAL_AT = STATE_FEATURES.index("own total / 66")
_HAND_AT = STATE_FEATURES.index("hand cards 1-8 / 4")
_UNSEEN_AT = STATE_FEATURES.index("unseen cards 1-8 / 8")
_UNSEEN_COUNT_AT = STATE_FEATURES.index("unseen cards / highest card")
_PICK_AT = STATE_FEATURES.index("decision: pick a card")
_CARD_AT = OPTION_FEATURES.index("card: distance to its place / highest card")


def _others(values: IntArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per seat, the others' mean, fewest and most of `values` (k, n)."""
    n = values.shape[1]
    own_seat = np.eye(n, dtype=bool)[None, :, :]  # [g, seat, other]
    spread = np.broadcast_to(values[:, None, :], (*values.shape, n)).astype(np.float64)
    mean = (values.sum(axis=1, keepdims=True) - values) / (n - 1)
    fewest = np.where(own_seat, np.inf, spread).min(axis=2)
    most = np.where(own_seat, -np.inf, spread).max(axis=2)
    return mean, fewest, most


def _chance_at_least(need: IntArray, trials: int, share: FloatArray) -> FloatArray:
    """P(X >= need) for X ~ Binomial(trials, share), elementwise (need >= 1)."""
    j = np.arange(trials + 1)
    ways = np.array([math.comb(trials, i) for i in j], dtype=np.float64)
    p = share[..., None]
    pmf = ways * p**j * (1.0 - p) ** (trials - j)
    tail = np.concatenate([np.cumsum(pmf[..., ::-1], axis=-1)[..., ::-1], 0.0 * pmf[..., :1]], -1)
    chance: FloatArray = np.take_along_axis(tail, np.clip(need, 0, trials + 1)[..., None], axis=-1)[
        ..., 0
    ]
    return chance


@functools.cache
def _chance_table(trials: int, highest: int) -> FloatArray:
    """:func:`_chance_at_least` for every share ``between / pool`` a playout can meet:
    indexed ``[pool, between, need]`` (0 <= between <= pool <= highest, need up to
    ROW_CAPACITY; a pool of 0 is a share of 0). Read-only."""
    pool = np.arange(highest + 1)[:, None]
    between = np.arange(highest + 1)[None, :]
    possible = (pool > 0) & (between <= pool)
    share = np.divide(between, pool, out=np.zeros((highest + 1, highest + 1)), where=possible)
    need = np.arange(ROW_CAPACITY + 1)
    grid = np.broadcast_to(share[:, :, None], (*share.shape, len(need)))
    table = _chance_at_least(np.broadcast_to(need, grid.shape), trials, np.ascontiguousarray(grid))
    table.setflags(write=False)
    return table


@functools.cache
def _bucket_of(highest: int) -> IntArray:
    """Each card's histogram bucket (index 0, no card: BUCKETS, in none). Read-only."""
    bucket = np.minimum((np.arange(highest + 1) - 1) // BUCKET_WIDTH, BUCKETS - 1)
    bucket[0] = BUCKETS
    bucket.setflags(write=False)
    return bucket


@functools.cache
def _bucket_matrix(highest: int) -> IntArray:
    """(highest + 1, BUCKETS): 1 where a card falls in a bucket. Read-only."""
    matrix: IntArray = (_bucket_of(highest)[:, None] == np.arange(BUCKETS)).astype(np.int64)
    matrix.setflags(write=False)
    return matrix


def _bucket_counts(cards: IntArray, highest: int) -> IntArray:
    """Per row of `cards` (..., m; 0 for no card), how many fall in each histogram bucket
    (..., BUCKETS)."""
    counts: IntArray = (_bucket_of(highest)[cards][..., None] == np.arange(BUCKETS)).sum(axis=-2)
    return counts


def encode_picks(
    last: IntArray,
    length: IntArray,
    heads: IntArray,
    hands: IntArray,
    undealt: BoolArray,
    round_heads: IntArray,
    totals: IntArray,
    *,
    highest: int,
    one_round: bool,
    seats: BoolArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Every seat's state vector (k, n, STATE_SIZE) and its hand slots' option rows
    (k, n, H, OPTION_SIZE), all zero for an empty slot, for a card pick. With `seats`
    (k, n), only the marked seats', in row-major order: (P, STATE_SIZE) and
    (P, H, OPTION_SIZE) for P marked seats (a playout's seats that a heuristic plays need
    no features).

    Per game: the rows' `last` card, `length` and `heads` (k, ROWS), and the round's cards
    that no seat holds and no seat has seen (`undealt`, k, highest + 1, index 0 unused);
    per seat: its hand (k, n, H, 0 for no card), its heads this round and its total (k, n).
    A seat has not seen the undealt cards and the other seats' hands: every count of its
    unseen cards is one over the undealt and all hands, less its own hand.
    """
    k, n, h = hands.shape
    scale = float(highest)
    if seats is None:
        game, seat = (a.ravel() for a in np.indices((k, n)))
    else:
        game, seat = np.nonzero(seats)
    cards = hands[game, seat]  # (P, H): the hand of each seat encoded
    own_count = (cards > 0).sum(axis=1)
    state = np.zeros((len(game), STATE_SIZE))
    if 2 <= n <= MAX_PLAYERS:
        state[:, n - 2] = 1.0
    state[:, MAX_PLAYERS - 1] = n / 10
    state[:, MAX_PLAYERS] = own_count / 10
    state[:, _PICK_AT] = 1.0
    order = np.argsort(last, axis=1)
    by_last = [np.take_along_axis(a, order, axis=1) for a in (last, length, heads)]
    table = np.stack(
        [by_last[0] / scale, by_last[1] / ROW_CAPACITY, by_last[2] / 10], axis=2
    ).reshape(k, 3 * ROWS)
    state[:, _ROWS_AT : _ROWS_AT + 3 * ROWS] = table[game]
    mean, fewest, most = (values[game, seat] for values in _others(round_heads))
    own_round = round_heads[game, seat]
    state[:, _ROUND_AT] = own_round / 10
    state[:, _ROUND_AT + 1] = mean / 10
    state[:, _ROUND_AT + 2] = fewest / 10
    state[:, _ROUND_AT + 3] = most / 10
    state[:, _ROUND_AT + 4] = (own_round - fewest) / 10
    state[:, _TOTAL_AT] = totals[game, seat] / 66
    state[:, _TOTAL_AT + 1] = _others(totals)[2][game, seat] / 66
    state[:, _TOTAL_AT + 2] = float(one_round)
    # The pool: per game, the cards some seat has not seen (undealt or in a hand).
    pool_cards = undealt.copy()
    np.put_along_axis(pool_cards, hands.reshape(k, n * h), True, axis=1)
    pool_cards[:, 0] = False
    own_buckets = _bucket_counts(cards, highest)
    pool_buckets = pool_cards.astype(np.int64) @ _bucket_matrix(highest)
    state[:, _HAND_AT : _HAND_AT + BUCKETS] = own_buckets / 4
    state[:, _UNSEEN_AT : _UNSEEN_AT + BUCKETS] = (pool_buckets[game] - own_buckets) / 8
    unseen_count = pool_cards.sum(axis=1)[game] - own_count  # (P,)
    state[:, _UNSEEN_COUNT_AT] = unseen_count / scale
    options = _option_rows(
        cards,
        last[game],
        length[game],
        heads[game],
        pool_cards.cumsum(axis=1)[game],
        unseen_count,
        players=n,
        highest=highest,
    )
    if seats is None:
        return state.reshape(k, n, STATE_SIZE), options.reshape(k, n, h, OPTION_SIZE)
    return state, options


def _option_rows(
    cards: IntArray,
    last: IntArray,
    length: IntArray,
    heads: IntArray,
    pool_upto: IntArray,
    unseen_count: IntArray,
    *,
    players: int,
    highest: int,
) -> FloatArray:
    """The option rows (P, H, OPTION_SIZE) of P seats' hand slots (`cards`, P x H, 0 for
    no card): per seat its game's rows (P, ROWS), the running count of its game's pool
    (`pool_upto`, P x highest + 1) and how many cards it has not seen."""
    p, h = cards.shape
    scale = float(highest)
    held = cards > 0
    options = np.zeros((p, h, OPTION_SIZE))
    options[..., 0] = 1.0
    options[..., 1] = cards / scale
    options[..., 2] = HEADS_NP[cards] / 7
    rank = ((cards[:, None, :] < cards[..., None]) & held[:, None, :]).sum(axis=2)
    options[..., 3] = rank / 10
    row_last = last[:, None, :]
    below = row_last < cards[..., None]  # (P, H, ROWS): rows the card would follow
    lands = np.asarray(below.any(axis=2), dtype=bool)
    target = np.where(below, row_last, -1).argmax(axis=2)
    pair = np.arange(p)[:, None]
    target_last = last[pair, target]
    target_length = length[pair, target]
    target_heads = heads[pair, target]
    cheapest = heads.min(axis=1)[:, None]
    options[..., 4] = ~lands
    options[..., 5] = np.where(lands, 0.0, cheapest / 10)
    # Per slot, the cards above its row's end and below the card: the seat's own, and
    # those it has not seen (the pool's less its own).
    own_between = (
        (cards[:, None, :] > target_last[..., None]) & (cards[:, None, :] < cards[..., None])
    ).sum(axis=2)
    pool_between = pool_upto[pair, np.maximum(cards - 1, 0)] - pool_upto[pair, target_last]
    between = np.where(lands, pool_between - own_between, 0)
    free = ROW_CAPACITY - target_length
    full = free <= 0
    pool = np.broadcast_to(unseen_count[:, None], between.shape)
    share = np.divide(between, pool, out=np.zeros(between.shape), where=pool > 0)
    opponents = max(players - 1, 0)
    chance_of = _chance_table(opponents, highest)
    chance = np.where(full, 1.0, chance_of[pool, between, np.clip(free, 0, ROW_CAPACITY)])
    with np.errstate(divide="ignore", invalid="ignore"):
        expected_per_slot = np.where(full, 1.0, share * opponents / np.maximum(free, 1))
    landing = np.stack(
        [
            (cards - target_last) / scale,
            target_length / ROW_CAPACITY,
            target_heads / 10,
            full,
            np.where(full, target_heads / 10, 0.0),
            between / 10,
            expected_per_slot,
            chance,
            chance * (target_heads + HEADS_NP[cards]) / 10,
            own_between / 10,
        ],
        axis=2,
    )
    options[..., _CARD_AT : _CARD_AT + landing.shape[2]] = np.where(lands[..., None], landing, 0.0)
    options[~held] = 0.0
    return options
