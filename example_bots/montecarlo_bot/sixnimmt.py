"""6 nimmt! family playouts for the Monte Carlo bot: vectorised (numpy), many at once.

Each decision's options are played out in batches of games on the batch simulator's rows
(:mod:`sdk.game.sixnimmt.batch`), every game with its own determinization of the hidden
hands. Every seat plays a greedy policy: it avoids the card that would surely take a row
(a row's 6th card, or a card below every row, which costs the cheapest row), prefers
small gaps to a short row's end, with some noise so that the playouts differ; a row to
take is always the cheapest. The seat deciding plays the option under test first.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

import numpy as np

from sdk import DecisionKind, Option, SixNimmtView
from sdk.game.sixnimmt import ROW_CAPACITY, ROWS, Phase, SixNimmtState, from_view
from sdk.game.sixnimmt.batch import Batch, FloatArray, IntArray, RandomDraws, determinized_hands
from sdk.montecarlo import BatchSimulation

_FAR = 1 << 20
NOISE = 1.0  # policy noise: a uniform draw in [0, NOISE) heads is added to each card's cost
GAP_WEIGHT = 0.02  # heads per card of gap to the row's end, times the row's fullness
NOWHERE_EXTRA = 0.5  # a card below every row also gives up the choice of the row to start
RULES_NOISE = 0.2  # rules-like policy: uniform noise in [0, RULES_NOISE) heads per card
MEAN_CARD_HEADS = 171 / 104  # as the rule-based bot counts the cards that fill a row


class GreedyDraws(RandomDraws):
    """Row choices in the batch take the cheapest row (a place tie stays random)."""

    batch: Batch | None = None

    def choice(self, games: IntArray) -> FloatArray:
        batch = self.batch
        if batch is None:
            return super().choice(games)
        cheapest = batch.heads[games].argmin(axis=1)
        # Row options come in row order: option floor(u * 4) is row `cheapest`.
        u: FloatArray = (cheapest + 0.5) / ROWS
        return u


def landing(last: IntArray, first: IntArray | None, cards: IntArray) -> tuple[IntArray, IntArray]:
    """Where each of `cards` (k, ...) would go on game k's rows: (row, distance to the
    nearest place), distance `_FAR` when below every row. `first` (k, ROWS) is given
    when cards may go to a row's left end (Professional); ties go to the lower row."""
    tail = (slice(None), slice(None)) + (None,) * (cards.ndim - 1)
    gap = np.full(cards.shape, _FAR, dtype=np.int64)
    row = np.zeros(cards.shape, dtype=np.int64)
    for r in range(ROWS):
        right = cards - last[tail][:, r]
        distance = np.where(right > 0, right, _FAR)
        if first is not None:
            left = first[tail][:, r] - cards
            distance = np.minimum(distance, np.where(left > 0, left, _FAR))
        nearer = distance < gap
        gap = np.where(nearer, distance, gap)
        row[nearer] = r
    return row, gap


def greedy_picks(
    batch: Batch, games: IntArray, hands: IntArray, rng: np.random.Generator
) -> IntArray:
    """The hand slot (len(games), n) each seat plays now; a 0 in `hands` is no card."""
    k = len(games)
    length = batch.length[games]
    heads = batch.heads[games]
    first = batch.first[games] if batch.rules.professional else None
    row, gap = landing(batch.last[games], first, hands)  # (k, n, H)
    # Per row: what a card landing there costs for sure (6th card) and its risk per gap.
    sure = np.where(length >= ROW_CAPACITY, heads, 0).ravel()
    risk = (GAP_WEIGHT / ROW_CAPACITY * length * heads).ravel()
    flat = row + ROWS * np.arange(k)[:, None, None]
    cost = sure[flat] + risk[flat] * gap
    cheapest = heads.min(axis=1)[:, None, None] + NOWHERE_EXTRA
    cost = np.where(gap >= _FAR, cheapest, cost) + rng.random(cost.shape) * NOISE
    cost[hands == 0] = np.inf
    slots: IntArray = cost.argmin(axis=2)
    return slots


def rules_like_picks(
    batch: Batch, games: IntArray, hands: IntArray, rng: np.random.Generator
) -> IntArray:
    """The rule-based bot's pick (:func:`example_bots.rules_bot.sixnimmt.pick_cost`),
    vectorised.

    A card that lands on a row costs the chance that exactly the cards it needs to become
    the 6th land there first, times the row's heads: the other seats each play one card,
    one below ours that lands on the same row with the share of such cards among the
    others' hands (here the playout's own deal: every seat sees the true pool of the
    others' cards). A card below every row costs the cheapest row and a half. Noise of
    `RULES_NOISE` heads keeps the playouts apart."""
    k, n, _ = hands.shape
    last = batch.last[games]
    first = batch.first[games] if batch.rules.professional else None
    length = batch.length[games]
    heads = batch.heads[games]
    highest = batch.rules.highest
    row, gap = landing(last, first, hands)  # (k, n, H)
    # held[g, s, c]: seat s holds card c; others[g, s, c]: another seat does.
    held = np.zeros((k, n, highest + 1), dtype=np.int64)
    np.put_along_axis(held, hands, 1, axis=2)
    held[:, :, 0] = 0
    others = held.sum(axis=1, keepdims=True) - held
    pool = np.maximum(others.sum(axis=2, keepdims=True), 1)
    at = np.arange(k)[:, None, None]
    below_card = np.maximum(hands - 1, 0)
    if first is None:
        # Row ends only: the cards below ours that land on its row lie above the row's end.
        up_to = others.cumsum(axis=2)
        before = np.take_along_axis(up_to, below_card, axis=2)
        before -= np.take_along_axis(up_to, last[at, row], axis=2)
    else:
        values = np.tile(np.arange(highest + 1, dtype=np.int64), (k, 1))
        value_row, value_gap = landing(last, first, values)  # (k, highest + 1)
        value_row[value_gap >= _FAR] = ROWS  # no row: never counted
        # below[g, s, r, c]: the others' cards up to c that land on row r.
        on_row = value_row[:, None, :] == np.arange(ROWS)[None, :, None]
        below = (others[:, :, None, :] * on_row[:, None, :, :]).cumsum(axis=3)
        before = below[at, np.arange(n)[None, :, None], row, below_card]
    share = np.clip(before / pool, 0.0, 1.0)
    need = ROW_CAPACITY - length[at, row]
    trials = n - 1
    ways = np.array([math.comb(trials, j) if j <= trials else 0 for j in range(ROW_CAPACITY + 1)])
    exponent = np.clip(trials - need, 0, None)
    risk = ways[need] * share**need * (1.0 - share) ** exponent
    cost = risk * (heads[at, row] + need * MEAN_CARD_HEADS) + 0.001 * gap
    cheapest = heads.min(axis=1)[:, None, None] + 0.5
    cost = np.where(gap >= _FAR, cheapest, cost) + rng.random(cost.shape) * RULES_NOISE
    cost[hands == 0] = np.inf
    slots: IntArray = cost.argmin(axis=2)
    return slots


Picker = Callable[[Batch, IntArray, IntArray, np.random.Generator], IntArray]
Dealer = Callable[[int, np.random.Generator], IntArray]
"""(games, generator) -> every seat's hand in that many determinized worlds (games, n, H),
as :func:`~sdk.game.sixnimmt.batch.determinized_hands` deals them; a simulation's `deal`
replaces the uniform deal with one from a belief over the hidden hands."""
PICKERS: dict[str, Picker] = {"greedy": greedy_picks, "rules": rules_like_picks}


def dealt_hands(
    deal: Dealer | None,
    state: SixNimmtState,
    seat: int,
    games: int,
    generator: np.random.Generator,
    public: bool,
) -> IntArray:
    """Every seat's hand in `games` worlds from `state`: by `deal`, or uniformly from the
    cards `seat` has not seen (:func:`~sdk.game.sixnimmt.batch.determinized_hands`)."""
    if deal is None:
        return determinized_hands(state, seat, games, generator, public)
    return deal(games, generator)


def picker_maker(policy: str | Callable[[IntArray], Picker]) -> Callable[[IntArray], Picker]:
    """The playouts' policy for a batch's determinized hands (k, n, H): a named one
    (:data:`PICKERS`; an unknown name is refused at once) or a maker of a stateful one."""
    if not isinstance(policy, str):
        return policy
    if policy not in PICKERS:
        raise ValueError(f"no playout policy {policy!r}; one of {', '.join(PICKERS)}")
    picker = PICKERS[policy]
    return lambda hands: picker


def play_out(
    state: SixNimmtState,
    k: int,
    hands: IntArray,
    seat: int,
    first_card: int | IntArray,
    generator: np.random.Generator,
    picks: Picker = greedy_picks,
) -> IntArray:
    """Play `state` to the end in `k` games with the greedy policy; final scores (k, n).

    `hands` (k, n, H) are every seat's hands per game (determinizations; unused while
    drafting); `first_card`, if not 0, is `seat`'s pick this turn: one card for every
    game, or one per game (k,). A pending row or place choice and a draft in progress
    are resolved first (a draft at random).
    """
    draws = GreedyDraws(generator)
    batch = Batch(state, k, draws)
    draws.batch = batch
    if state.phase == Phase.OVER:
        return batch.scores
    games = np.arange(k)
    round_number = state.round
    if state.phase == Phase.DRAFT:
        pool = np.tile(np.array(state.pool, dtype=np.int64), (k, 1))
        current = batch.draft(games, round_number, pool, state.hands, state.drafter)
    else:
        current = hands.copy()
    for card, who, _ in state.queue:
        batch.place(games, np.full(k, card), np.full(k, who))
    forced = np.broadcast_to(np.asarray(first_card, dtype=np.int64), (k,))
    pending = bool(forced.any())
    while True:
        for _ in range(current.shape[2]):
            slots = picks(batch, games, current, generator)
            if pending:
                slots[:, seat] = (current[:, seat] == forced[:, None]).argmax(axis=1)
                pending = False
            played = np.take_along_axis(current, slots[:, :, None], axis=2)
            np.put_along_axis(current, slots[:, :, None], 0, axis=2)
            batch.play_turns(games, played)
        games = batch.round_over(games, round_number)
        if not len(games):
            return batch.scores
        round_number += 1
        current = batch.new_round(games, round_number)


def simulation(
    view: SixNimmtView,
    options: Sequence[Option],
    rng: random.Random,
    utility: str,
    policy: str | Callable[[IntArray], Picker] = "greedy",
    deal: Dealer | None = None,
) -> BatchSimulation:
    """A batch simulation of `options` from `view` for :func:`sdk.montecarlo.evaluate_batched`.

    `utility` is "own", "margin", "lead" or "win" (see :func:`value`); `policy` the playout
    policy of every seat, "greedy" (:func:`greedy_picks`) or "rules"
    (:func:`rules_like_picks`), or a function that makes the policy for a batch of
    playouts from its determinized hands (k, n, H), for a policy that keeps state.
    `deal` deals the hidden hands (:data:`Dealer`; default: uniformly from the unseen cards).
    """
    pickers = picker_maker(policy)
    seat = view.header.seat
    kind = view.header.decision
    base = from_view(view, rng)
    public = bool(view.all_hands)
    starts: list[tuple[SixNimmtState, int]] = []
    for option in options:
        if kind == DecisionKind.PICK_CARD:
            starts.append((base, option.card))
        else:
            after = base.clone()
            after.apply(seat, option)
            starts.append((after, 0))

    def simulate(index: int, games: int, seed: int) -> tuple[float, int]:
        generator = np.random.default_rng(seed)
        state, first_card = starts[index]
        if state.phase == Phase.DRAFT:  # the hands come from the rest of the draft
            hands = np.zeros((games, state.players, 0), dtype=np.int64)
        else:
            hands = dealt_hands(deal, state, seat, games, generator, public)
        picks = pickers(hands)
        played = play_out(state, games, hands, seat, first_card, generator, picks)
        scores = played.astype(np.float64)
        return float(value(scores, seat, utility).sum()), games

    return simulate


PickSimulation = Callable[[Sequence[int], int, int], FloatArray]
"""(option indices, deals, seed) -> value[option][deal]: the options played out on the
same `deals` determinized deals (drawn from the seed), all in one batch."""


def pick_simulation(
    view: SixNimmtView,
    options: Sequence[Option],
    rng: random.Random,
    utility: str,
    policy: str | Callable[[IntArray], Picker] = "greedy",
    deal: Dealer | None = None,
) -> PickSimulation:
    """For a card pick in the pick phase: like :func:`simulation`, but one call plays
    several options, each on the same deals (common random numbers), in one batch of
    options x deals games, so the batch's fixed cost per turn is paid once. The value is
    per option and deal, for paired comparisons.
    `deal` deals the hidden hands, as in :func:`simulation`.
    """
    pickers = picker_maker(policy)
    if view.header.decision != DecisionKind.PICK_CARD:
        raise ValueError(f"pick_simulation plays card picks, not {view.header.decision}")
    seat = view.header.seat
    base = from_view(view, rng)
    if base.phase != Phase.PICK:
        raise ValueError(f"pick_simulation plays the pick phase, not {base.phase}")
    public = bool(view.all_hands)
    cards = np.array([option.card for option in options], dtype=np.int64)

    def simulate(indices: Sequence[int], deals: int, seed: int) -> FloatArray:
        generator = np.random.default_rng(seed)
        hands = dealt_hands(deal, base, seat, deals, generator, public)
        m = len(indices)
        every = np.tile(hands, (m, 1, 1))  # option-major: option i's deal d is i * deals + d
        first = np.repeat(cards[list(indices)], deals)
        picks = pickers(every)
        played = play_out(base, m * deals, every, seat, first, generator, picks)
        values: FloatArray = value(played.astype(np.float64), seat, utility).reshape(m, deals)
        return values

    return simulate


UTILITIES = ("own", "margin", "lead", "win")  # what value() can score a game by


def value(scores: FloatArray, seat: int, utility: str) -> FloatArray:
    """Per game, how good final `scores` (games, n) are for `seat` (higher is better).

    "own": minus own heads; "margin": minus own heads against the others' mean; "lead":
    minus own heads against the best other seat's (positive only for a win); "win": the
    share of the win (fewest heads, ties shared), with the margin / 1000 to break ties.
    """
    if utility not in UTILITIES:
        raise ValueError(f"no utility {utility!r}; one of {', '.join(UTILITIES)}")
    own: FloatArray = scores[:, seat]
    if utility == "own" or scores.shape[1] < 2:
        return -own
    if utility == "lead":
        best_other: FloatArray = np.delete(scores, seat, axis=1).min(axis=1)
        return best_other - own
    margin: FloatArray = (scores.sum(axis=1) - own) / (scores.shape[1] - 1) - own
    if utility == "margin":
        return margin
    low = scores.min(axis=1)
    share: FloatArray = np.where(own == low, 1.0 / (scores == low[:, None]).sum(axis=1), 0.0)
    return share + margin / 1000
