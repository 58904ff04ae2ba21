"""The champion's belief over the other seats' hidden hands, from the cards they have
played.

A determinized search deals the hidden hands uniformly from the cards the seat has not
seen. But the other seats' plays so far this round say something about what they hold: a
player who keeps a card it would have liked to play probably does not hold it. A world's
likelihood is, per other seat and turn of the round, the network's probability of the card
the seat played, from the position the seat saw then (its hand then is its hand now plus
the cards it has played since), at a `temperature` (the network at temperature 2 predicts
the play of every kind of opponent best: the champion README's "How well the playouts'
models predict the players"). The :class:`Belief` deals the search's playouts from it
(importance resampling), in place of the uniform deal.

The round's public history gives each turn's start: the rows, the heads each seat had
taken this round, and the card each seat revealed (:func:`round_turns`). Only card picks
are weighed; a row choice says little about a hand.

The bot's ``belief_temperature`` turns it on. It is off in the shipped bot: its deals hold
more of the real cards than the uniform deal's (1.6 times as many at the 7th turn, barely
more at the 3rd: ``python -m benchmarks.champion_belief``), and the bot played no better
with it against M11 (the README's "Measured").
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from example_bots.champion_bot.batch_features import FloatArray, encode_picks
from example_bots.champion_bot.features import ROWS
from example_bots.champion_bot.net import Net
from sdk import EventKind, SixNimmtView, seen_cards
from sdk.game.sixnimmt import from_view
from sdk.game.sixnimmt.batch import HEADS_NP, IntArray, determinized_hands

BELIEF_WORLDS = 256  # uniform deals a decision weighs: each other seat's candidate hands
BELIEF_TEMPERATURE = 2.0  # the network's temperature as the model of the other seats
BELIEF_SPREAD = 0.1  # the least effective share of its candidates a seat's weights keep


@dataclass(frozen=True)
class RoundTurns:
    """The round's turns so far (J of them, the current one included once every card of
    it is revealed), as the public history shows them: at each turn's start the rows' last
    card, length and heads (J, ROWS) and each seat's heads this round (J, n); the card each
    seat revealed in it (J, n)."""

    last: IntArray
    length: IntArray
    heads: IntArray
    round_heads: IntArray
    played: IntArray

    def __len__(self) -> int:
        return len(self.played)


def round_turns(view: SixNimmtView) -> RoundTurns:
    """The turns of `view`'s round so far, replayed from its public history."""
    n = view.header.players
    rows: list[list[int]] = [[] for _ in range(ROWS)]
    taken = np.zeros(n, dtype=np.int64)
    starts: list[tuple[list[list[int]], IntArray]] = []
    played: list[IntArray] = []
    revealing = False
    for event in view.header.history:
        if event.round != view.header.round:
            continue
        if event.kind == EventKind.ROUND_START:
            rows = [[card] for card in event.cards]
        elif event.kind == EventKind.REVEAL:
            if not revealing:  # a turn's first reveal: the position the seats picked from
                starts.append(([list(row) for row in rows], taken.copy()))
                played.append(np.zeros(n, dtype=np.int64))
                revealing = True
            played[-1][event.seat] = event.card
        elif event.kind == EventKind.PLACE:
            revealing = False
            rows[event.row].append(event.card)
        elif event.kind == EventKind.TAKE:
            revealing = False
            rows[event.row] = [card for card in rows[event.row] if card not in event.cards]
            taken[event.seat] += int(HEADS_NP[list(event.cards)].sum())
    complete = [i for i, cards in enumerate(played) if (cards > 0).all()]
    size = len(complete)
    last = np.zeros((size, ROWS), dtype=np.int64)
    length = np.zeros((size, ROWS), dtype=np.int64)
    heads = np.zeros((size, ROWS), dtype=np.int64)
    for j, turn in enumerate(complete):
        for r, row in enumerate(starts[turn][0]):
            last[j, r] = row[-1] if row else 0
            length[j, r] = len(row)
            heads[j, r] = int(HEADS_NP[row].sum()) if row else 0
    round_heads = np.array([starts[t][1] for t in complete], dtype=np.int64).reshape(size, n)
    cards = np.array([played[t] for t in complete], dtype=np.int64).reshape(size, n)
    return RoundTurns(last, length, heads, round_heads, cards)


def play_log_likelihood(
    net: Net, view: SixNimmtView, hands: IntArray, temperature: float = BELIEF_TEMPERATURE
) -> FloatArray:
    """Per world of `hands` (worlds, n, H: every seat's hand now, as
    :func:`~sdk.game.sixnimmt.batch.determinized_hands` deals them), the log-probability
    of every other seat's card picks this round under the network's policy at
    `temperature`, had the seat held that world's hand (0 before any turn)."""
    return np.asarray(seat_log_likelihood(net, view, hands, temperature).sum(axis=1))


def seat_log_likelihood(
    net: Net, view: SixNimmtView, hands: IntArray, temperature: float = BELIEF_TEMPERATURE
) -> FloatArray:
    """:func:`play_log_likelihood` per seat (worlds, n; 0 for the viewing seat). A seat's
    term depends on its own hand alone: what it saw at each turn is public but for its
    hand (the cards it had not seen are all the others, the same in every world)."""
    turns = round_turns(view)
    worlds, n, size = hands.shape
    count = len(turns)
    if count == 0:
        return np.zeros((worlds, n))
    seat = view.header.seat
    highest = view.highest_card
    # Each seat's hand at turn j: its hand now and the cards it played at turns j.. (the
    # slots' order does not matter to the network).
    later = np.zeros((count, n, count), dtype=np.int64)
    for j in range(count):
        later[j, :, : count - j] = turns.played[j:].T
    then = np.concatenate(
        [
            np.broadcast_to(hands[:, None], (worlds, count, n, size)),
            np.broadcast_to(later[None], (worlds, count, n, count)),
        ],
        axis=3,
    ).reshape(worlds * count, n, size + count)
    # The cards no seat held nor saw this round: in every turn, the world's unused ones.
    undealt = np.ones((worlds, highest + 1), dtype=bool)
    undealt[:, 0] = False
    undealt[:, sorted(seen_cards(view) | set(turns.played.ravel().tolist()))] = False
    np.put_along_axis(undealt, hands.reshape(worlds, -1), False, axis=1)
    round_start = np.array(view.header.scores) - np.array(view.round_penalties)
    others = np.ones((worlds * count, n), dtype=bool)
    others[:, seat] = False
    tile = (worlds, 1)
    state, options = encode_picks(
        np.tile(turns.last, tile),
        np.tile(turns.length, tile),
        np.tile(turns.heads, tile),
        then,
        np.repeat(undealt, count, axis=0),
        np.tile(turns.round_heads, tile),
        np.tile(turns.round_heads + round_start, tile),
        highest=highest,
        one_round=view.header.options.get("rounds") == "1",
        seats=others,
    )
    logits = net.pick_logits(state, options).astype(np.float64) / temperature
    held = then[others]  # (P, slots): the encoded seats, in row-major order
    logits[held == 0] = -np.inf
    top = logits.max(axis=1, keepdims=True)
    log_policy = logits - top - np.log(np.exp(logits - top).sum(axis=1, keepdims=True))
    chosen = np.tile(turns.played, tile)[others].reshape(-1, 1)
    picked = np.take_along_axis(log_policy, (held == chosen).argmax(axis=1)[:, None], axis=1)
    per_seat = np.zeros((worlds, n))
    per_seat[:, np.arange(n) != seat] = picked.reshape(worlds, count, n - 1).sum(axis=1)
    return per_seat


class Belief:
    """A dealer for the search's playouts: each other seat's hidden hand drawn by how
    likely its plays this round make it.

    `worlds` uniform deals from `view` (seeded by `rng`) give each other seat `worlds`
    candidate hands, weighed by its term of :func:`seat_log_likelihood` (a seat's term
    depends on its own hand alone). A call deals `games` worlds with the playouts'
    generator: one hand per other seat, each drawn by its weights, drawn again while two
    of them share a card (at most `redraws` times; then the candidate world of the first
    seat's draw is dealt whole).

    Weighing whole worlds by the product of every seat's terms would leave a few hundred
    worlds one or two that hold all the weight by the middle of a round (an effective
    sample size of 1.4 of 256 after six turns, in a test position), and the search would
    play every deal in a world that is most likely wrong; one seat's terms spread over
    tens of hands. Where even they gather, a seat's log-likelihood is scaled down
    (tempered, by the largest factor up to 1 that does it) until its weights' effective
    sample size is at least `spread` of the worlds.
    """

    def __init__(
        self,
        net: Net,
        view: SixNimmtView,
        rng: random.Random,
        *,
        worlds: int = BELIEF_WORLDS,
        temperature: float = BELIEF_TEMPERATURE,
        spread: float = BELIEF_SPREAD,
        redraws: int = 8,
    ) -> None:
        base = from_view(view, rng)
        generator = np.random.default_rng(rng.getrandbits(63))
        self.seat = view.header.seat
        self.hands = determinized_hands(base, self.seat, worlds, generator)
        self.others = [s for s in range(view.header.players) if s != self.seat]
        per_seat = seat_log_likelihood(net, view, self.hands, temperature)
        self.tempering = [_tempering(per_seat[:, s], spread * worlds) for s in self.others]
        self.weights = np.stack(
            [_weights(per_seat[:, s], t) for s, t in zip(self.others, self.tempering, strict=True)]
        )  # (others, worlds)
        self.redraws = redraws

    def effective_worlds(self) -> list[float]:
        """Each other seat's effective number of candidate hands."""
        return [_effective(weights) for weights in self.weights]

    def __call__(self, games: int, generator: np.random.Generator) -> IntArray:
        dealt: IntArray = np.repeat(self.hands[:1], games, axis=0)
        missing = np.arange(games)
        count = len(self.hands)
        for _ in range(self.redraws):
            picks = np.stack(
                [generator.choice(count, size=len(missing), p=w) for w in self.weights], axis=1
            )  # (missing, others)
            for i, s in enumerate(self.others):
                dealt[missing, s] = self.hands[picks[:, i], s]
            cards = np.sort(dealt[missing][:, self.others].reshape(len(missing), -1), axis=1)
            clash = ((cards[:, 1:] == cards[:, :-1]) & (cards[:, 1:] > 0)).any(axis=1)
            missing = missing[clash]
            if not len(missing):
                return dealt
        dealt[missing] = self.hands[picks[clash, 0]]
        return dealt


def _weights(log_likelihood: FloatArray, factor: float) -> FloatArray:
    scaled = factor * (log_likelihood - log_likelihood.max())
    weights: FloatArray = np.exp(scaled)
    normalised: FloatArray = weights / weights.sum()
    return normalised


def _effective(weights: FloatArray) -> float:
    return float(1.0 / np.square(weights).sum())


def _tempering(log_likelihood: FloatArray, least: float, steps: int = 30) -> float:
    """The largest factor in [0, 1] on `log_likelihood` whose weights keep an effective
    sample size of at least `least` (bisection: the size falls as the factor grows)."""
    if _effective(_weights(log_likelihood, 1.0)) >= least:
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(steps):
        middle = (low + high) / 2
        if _effective(_weights(log_likelihood, middle)) >= least:
            low = middle
        else:
            high = middle
    return low
