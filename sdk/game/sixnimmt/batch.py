"""Vectorised random playouts of 6 nimmt! family games (numpy), for Monte Carlo bots.

:func:`simulate_random` plays K independent random continuations of one state at once and
returns the final scores, shape (K, players). It starts anywhere: mid-draft (Logic),
mid-turn with some face-down picks made, or mid-resolution with a row or place choice
pending. It plays the current round and then further rounds until the game ends, as the
variant's options say (``rounds=N``, ``end=over66`` or ``end=reach66``); later rounds are
dealt at random (drafted at random in Logic). :func:`simulate_view` does the same from a
seat's view, sampling the hidden cards anew for each of the K games (K determinizations).

Only what the scores need is tracked: per row its first card, last card, length and heads.
Random play is drawn as keys (see :class:`Draws`): a seat plays its hand cards in
ascending key order, which is a uniformly random pick each turn, and a Logic drafter takes
the pool card with the lowest draft key. A row or place choice takes option
``floor(u * len(options))`` of the canonical list for a uniform ``u``. The reference
engine, driven by the same keys and ``u`` (tests/sdk/test_sixnimmt_batch.py), plays the
very same games.

This is a speed tool for bots built on the rules, not part of them: the rules
(the rest of sdk.game) import nothing but the standard library; numpy, a dependency of
the project since the Monte Carlo example bot plays out here, is imported by this module
alone.
"""

from __future__ import annotations

import random
from typing import Protocol

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:  # an install without it: the rules still work
    raise ImportError(
        "sdk.game.sixnimmt.batch needs numpy, a dependency of bullring: pip install numpy"
    ) from missing

from sdk.game.cards import HEADS
from sdk.game.sixnimmt import HAND_SIZE, ROW_CAPACITY, ROWS, Phase, SixNimmtState, from_view
from sdk.game.views import SixNimmtView

__all__ = [
    "HEADS_NP",
    "Batch",
    "Draws",
    "FloatArray",
    "IntArray",
    "RandomDraws",
    "determinized_hands",
    "simulate",
    "simulate_random",
    "simulate_view",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

HEADS_NP: IntArray = np.array(HEADS, dtype=np.int64)
_FAR = 1 << 20  # a distance larger than any real one: "no place"


class Draws(Protocol):
    """Where a batch's random choices come from. `games` are indices into the batch."""

    def play_keys(self, games: IntArray, round_number: int) -> FloatArray:
        """(len(games), highest + 1): each seat plays its cards in ascending key order."""
        ...

    def draft_keys(self, games: IntArray, round_number: int) -> FloatArray:
        """(len(games), highest + 1): a drafter takes the pool card with the lowest key."""
        ...

    def choice(self, games: IntArray) -> FloatArray:
        """One uniform u in [0, 1) per game that must choose a row or place now."""
        ...

    def deal(self, games: IntArray, round_number: int, highest: int) -> IntArray:
        """(len(games), highest): a shuffled deck of a new round (seat i gets cards
        [10i, 10i+10), the next 4 start the rows; Logic lays out the first 10n+4)."""
        ...


class RandomDraws:
    """Draws from a numpy random generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def play_keys(self, games: IntArray, round_number: int) -> FloatArray:
        return self.rng.random((len(games), HEADS_NP.size))

    def draft_keys(self, games: IntArray, round_number: int) -> FloatArray:
        return self.rng.random((len(games), HEADS_NP.size))

    def choice(self, games: IntArray) -> FloatArray:
        return self.rng.random(len(games))

    def deal(self, games: IntArray, round_number: int, highest: int) -> IntArray:
        decks = np.tile(np.arange(1, highest + 1, dtype=np.int64), (len(games), 1))
        return self.rng.permuted(decks, axis=1)


class Batch:
    """K games in lockstep: rows as (first, last, length, heads) arrays, scores."""

    def __init__(self, state: SixNimmtState, k: int, draws: Draws) -> None:
        rules = state.rules
        self.rules = rules
        self.n = rules.players
        self.draws = draws
        self.scores: IntArray = np.tile(np.array(state.scores(), dtype=np.int64), (k, 1))
        self.first: IntArray = np.zeros((k, ROWS), dtype=np.int64)
        self.last: IntArray = np.zeros((k, ROWS), dtype=np.int64)
        self.length: IntArray = np.zeros((k, ROWS), dtype=np.int64)
        self.heads: IntArray = np.zeros((k, ROWS), dtype=np.int64)
        if all(state.rows):
            rows = state.rows
            self.first[:] = [r[0] for r in rows]
            self.last[:] = [r[-1] for r in rows]
            self.length[:] = [len(r) for r in rows]
            self.heads[:] = [sum(HEADS[c] for c in r) for r in rows]

    def lay_rows(self, games: IntArray, starters: IntArray) -> None:
        """New rows in these games, one starting card each: starters (len, 4)."""
        self.first[games] = starters
        self.last[games] = starters
        self.length[games] = 1
        self.heads[games] = HEADS_NP[starters]

    def place(self, games: IntArray, cards: IntArray, seats: IntArray) -> None:
        """Place one card in each of these games (the next card of its turn)."""
        at = np.arange(len(games))
        first, last = self.first[games], self.last[games]
        right_distance = cards[:, None] - last
        right_distance[right_distance <= 0] = _FAR
        row_right = right_distance.argmin(1)
        best_right = right_distance[at, row_right]
        if self.rules.professional:
            left_distance = first - cards[:, None]
            left_distance[left_distance <= 0] = _FAR
            row_left = left_distance.argmin(1)
            best_left = left_distance[at, row_left]
            to_right = best_right < best_left
            nowhere = (best_right == _FAR) & (best_left == _FAR)
            tie = (best_right == best_left) & ~nowhere
            if tie.any():
                # Two options in canonical order: the place on the lower row first.
                second = self.draws.choice(games[tie]) >= 0.5
                to_right[tie] = np.where(row_right[tie] < row_left[tie], ~second, second)
            row = np.where(to_right, row_right, row_left)
        else:
            to_right = np.ones(len(games), dtype=bool)
            nowhere = best_right == _FAR
            row = row_right
        if nowhere.any():
            row[nowhere] = (self.draws.choice(games[nowhere]) * ROWS).astype(np.int64)
            to_right[nowhere] = True
        length = self.length[games, row]
        take = nowhere | (length >= ROW_CAPACITY)
        card_heads = HEADS_NP[cards]
        heads = self.heads[games, row]
        if take.any():
            self.scores[games[take], seats[take]] += heads[take]
        self.heads[games, row] = np.where(take, card_heads, heads + card_heads)
        self.length[games, row] = np.where(take, 1, length + 1)
        self.last[games, row] = np.where(take | to_right, cards, self.last[games, row])
        self.first[games, row] = np.where(take | ~to_right, cards, self.first[games, row])

    def play_turns(self, games: IntArray, sequence: IntArray) -> None:
        """Play whole turns: sequence (len, n, T) holds each seat's cards in play order."""
        for t in range(sequence.shape[2]):
            cards = sequence[:, :, t]
            order = cards.argsort(axis=1)
            ordered = np.take_along_axis(cards, order, axis=1)
            for j in range(self.n):
                self.place(games, ordered[:, j], order[:, j])

    def play_order(
        self, games: IntArray, round_number: int, hands: IntArray, picks: list[int]
    ) -> IntArray:
        """Each seat's hand (len, n, H) in its random play order; made picks come first."""
        keys = self.draws.play_keys(games, round_number)
        hand_keys = np.take_along_axis(keys, hands.reshape(len(games), -1), axis=1)
        hand_keys = hand_keys.reshape(hands.shape)
        for seat, card in enumerate(picks):
            if card:
                hand_keys[:, seat][hands[:, seat] == card] = -1.0
        return np.take_along_axis(hands, hand_keys.argsort(axis=2), axis=2)

    def draft(
        self,
        games: IntArray,
        round_number: int,
        pool: IntArray,
        hands: list[list[int]],
        drafter: int,
    ) -> IntArray:
        """Finish a random draft: pool (len, m) face up, `hands` drafted so far (the same in
        every game), `drafter` next. Lays the rows; returns the hands (len, n, 10)."""
        k, m = pool.shape
        keys = self.draws.draft_keys(games, round_number)
        taken_in_order = np.take_along_axis(pool, np.take_along_axis(keys, pool, 1).argsort(1), 1)
        full = np.zeros((k, self.n, HAND_SIZE), dtype=np.int64)
        filled = [len(h) for h in hands]
        for seat, hand in enumerate(hands):
            full[:, seat, : len(hand)] = hand
        for slot in range(m - ROWS):
            seat = (drafter + slot) % self.n
            full[:, seat, filled[seat]] = taken_in_order[:, slot]
            filled[seat] += 1
        self.lay_rows(games, np.sort(taken_in_order[:, m - ROWS :], axis=1))
        return full

    def new_round(self, games: IntArray, round_number: int) -> IntArray:
        """Deal (or draft) a new round in these games; returns the hands (len, n, 10)."""
        n = self.n
        dealt = n * HAND_SIZE
        deck = self.draws.deal(games, round_number, self.rules.highest)
        if self.rules.draft:
            first_drafter = (round_number - 1) % n
            return self.draft(games, round_number, deck[:, : dealt + ROWS], [[]] * n, first_drafter)
        self.lay_rows(games, deck[:, dealt : dealt + ROWS])
        return deck[:, :dealt].reshape(len(games), n, HAND_SIZE)

    def round_over(self, games: IntArray, round_number: int) -> IntArray:
        """The games among `games` that go on after this round."""
        rules = self.rules
        if rules.rounds:
            return games if round_number < rules.rounds else games[:0]
        going_on: IntArray = games[self.scores[games].max(axis=1) < rules.end_at]
        return going_on


def simulate(
    state: SixNimmtState, n_games: int, draws: Draws, hands: IntArray | None = None
) -> IntArray:
    """Play `n_games` random continuations of `state`; final scores (n_games, players).

    `hands` (n_games, players, H), if given, replaces the hands of the state in each game
    (determinizations); the rest of the position is the state's.
    """
    batch = Batch(state, n_games, draws)
    if state.phase == Phase.OVER:
        return batch.scores
    games = np.arange(n_games)
    round_number = state.round
    picks = list(state.picks)
    if state.phase == Phase.DRAFT:
        pool = np.tile(np.array(state.pool, dtype=np.int64), (n_games, 1))
        current = batch.draft(games, round_number, pool, state.hands, state.drafter)
    elif hands is not None:
        current = hands.astype(np.int64)
    else:
        current = np.tile(np.array(state.hands, dtype=np.int64), (n_games, 1, 1))
    for card, seat, _ in state.queue:  # this turn's revealed cards still to resolve
        batch.place(games, np.full(n_games, card), np.full(n_games, seat))
    while True:
        if current.shape[2]:
            batch.play_turns(games, batch.play_order(games, round_number, current, picks))
        games = batch.round_over(games, round_number)
        if not len(games):
            return batch.scores
        round_number += 1
        picks = []
        current = batch.new_round(games, round_number)


def simulate_random(
    state: SixNimmtState, n_games: int, rng: np.random.Generator | int | None = None
) -> IntArray:
    """`n_games` random playouts of `state` at once; final scores (n_games, players)."""
    return simulate(state, n_games, RandomDraws(np.random.default_rng(rng)))


def determinized_hands(
    base: SixNimmtState,
    seat: int,
    n_games: int,
    generator: np.random.Generator,
    public: bool = False,
) -> IntArray:
    """Every seat's hand in `n_games` determinizations of `base` (n_games, players, H):
    `seat`'s own hand as it is, the others dealt anew in each game from the cards `base`
    holds in them or unused; with `public` hands (Logic), or in a draft, as they are."""
    hands = np.tile(np.array(base.hands, dtype=np.int64), (n_games, 1, 1))
    hidden_seats = [] if public else [s for s in range(base.players) if s != seat]
    if hidden_seats and base.phase != Phase.DRAFT:
        hidden = [c for s in hidden_seats for c in base.hands[s]] + base.unused
        shuffled = generator.permuted(
            np.tile(np.array(hidden, dtype=np.int64), (n_games, 1)), axis=1
        )
        size = len(base.hands[hidden_seats[0]])
        for i, s in enumerate(hidden_seats):
            hands[:, s, :] = shuffled[:, i * size : (i + 1) * size]
    return hands


def simulate_view(
    view: SixNimmtView, n_games: int, rng: np.random.Generator | int | None = None
) -> IntArray:
    """`n_games` random playouts from a seat's view, each with its own determinization
    (hidden hands sampled uniformly from the cards the seat has not seen)."""
    generator = np.random.default_rng(rng)
    base = from_view(view, random.Random(int(generator.integers(1 << 62))))
    draws = RandomDraws(generator)
    if base.phase == Phase.DRAFT:
        return simulate(base, n_games, draws)
    hands = determinized_hands(base, view.header.seat, n_games, generator, bool(view.all_hands))
    return simulate(base, n_games, draws, hands)
