"""Playout policies of the Monte Carlo bot for the families played by the generic path.

They read the engine state directly (building a view per step would be 25-50x slower) and
reuse the rule-based bot's valuations where those are pure functions. Each adds a little
uniform noise to its values so that the playouts of one option differ.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from example_bots.rules_bot import hornochsen as hornochsen_rules
from example_bots.rules_bot.hornochsen import MAX_STEPS, ROW_FULL, SPECIAL_LEFT_COST, pile_value
from example_bots.rules_bot.sixnimmt import row_heads
from example_bots.rules_bot.xnimmt import SHED_WEIGHT, x_row_cost
from sdk.game import hornochsen, xnimmt
from sdk.game.cards import HEADS, HORNOCHSEN_POINTS
from sdk.game.core import GameState, Option, OptionKind, Special
from sdk.game.views import HornochsenView
from sdk.montecarlo import Evaluation

NOISE = 0.5  # a uniform draw in [0, NOISE) is added to each option's value (or cost)
FEED_SHARE = 0.8  # of a row's worth that making it 4 cards long hands to the next player
NOWHERE_EXTRA = 1.0  # X nimmt!: a card below every row also costs the choice of its turn
GAP_RISK = 0.05  # X nimmt!: heads per card of gap, times the row's fullness and heads


def play_first(
    state: GameState, seat: int, options: Sequence[Option], rng: random.Random
) -> Option:
    """11 nimmt!: a random card play when there is one (taking a pile only when no card
    fits), and keep playing while the turn allows; random playouts take piles at any time
    and make rounds that real players never play."""
    plays = [o for o in options if o.kind == OptionKind.PLAY]
    return rng.choice(plays) if plays else options[rng.randrange(len(options))]


def _points(cards: Sequence[int]) -> int:
    return sum(HORNOCHSEN_POINTS[c] for c in cards)


def hornochsen_greedy(
    state: GameState, seat: int, options: Sequence[Option], rng: random.Random
) -> Option:
    """Hornochsen!: the rule-based bot's step values on the engine state. A card that
    collects a row is worth the change in our score; one that makes a row 4 cards long
    costs most of what the row would give the next player; a special goes on a row we
    collect this turn when that helps, or is dumped near the end rather than cost 10."""
    assert isinstance(state, hornochsen.HornochsenState)
    rows, row_specials, hand = state.rows, state.row_specials, state.hands[seat]
    own = state.pile_specials[seat]
    points, plus5, x2 = _points(state.piles[seat]), own.count(Special.PLUS5), own.count(Special.X2)
    now = pile_value(points, plus5, x2)
    ends = [r[-1] for r in rows]
    target = {card: hornochsen.row_for(card, ends) for card in hand}  # the costly part
    collector: dict[int, int] = {}  # row -> a hand card that collects it now
    for card, row in target.items():
        if len(rows[row]) + 1 == ROW_FULL:
            collector.setdefault(row, card)

    def gain(row: int, card: int, more_plus5: int = 0, more_x2: int = 0) -> int:
        specials = row_specials[row]
        after = pile_value(
            points + _points(rows[row]) + HORNOCHSEN_POINTS[card],
            plus5 + specials.count(Special.PLUS5) + more_plus5,
            x2 + specials.count(Special.X2) + more_x2,
        )
        return after - now

    def value(option: Option) -> float:
        if option.kind == OptionKind.END_TURN:
            return 0.0
        if option.kind == OptionKind.PLAY:
            row = target[option.card]
            size = len(rows[row]) + 1
            if size == ROW_FULL:
                return float(gain(row, option.card))
            if size + 1 == ROW_FULL:
                specials = row_specials[row]
                worth = pile_value(
                    _points(rows[row]) + HORNOCHSEN_POINTS[option.card],
                    specials.count(Special.PLUS5),
                    specials.count(Special.X2),
                )
                return -FEED_SHARE * max(worth, 0) + 0.1 * max(-worth, 0) - 0.3
            return -0.1
        is_plus5 = option.card == Special.PLUS5
        card = collector.get(option.row)
        if card is not None and MAX_STEPS - state.steps >= 2:
            with_special = gain(option.row, card, int(is_plus5), int(not is_plus5))
            if with_special > 0:  # only a row worth collecting (unlike the rule-based bot)
                return float(with_special - max(gain(option.row, card), 0))
        if len(hand) > 2:
            return -1.0
        specials = row_specials[option.row]
        worth = pile_value(
            _points(rows[option.row]), specials.count(Special.PLUS5), specials.count(Special.X2)
        )
        harm = 5.0 if is_plus5 else float(worth)
        return SPECIAL_LEFT_COST - harm - 0.5 * len(rows[option.row])

    return max(options, key=lambda o: value(o) + rng.random() * NOISE)


def _take_cost(row: Sequence[int]) -> float:
    """X nimmt!: heads a taken row costs once its heaviest card is parked in the X row."""
    return float(row_heads(row) - max(HEADS[c] for c in row))


def xnimmt_greedy(
    state: GameState, seat: int, options: Sequence[Option], rng: random.Random
) -> Option:
    """X nimmt!: avoid taking rows (a row's last place, or a card below every row, which
    takes the cheapest row), prefer small gaps to short rows, shed heavy cards; take the
    cheapest row; park the card that costs least (the rule-based bot's X row rule)."""
    assert isinstance(state, xnimmt.XNimmtState)
    rows = state.rows
    phase = state.phase
    if phase is xnimmt.Phase.TAKE_ROW:
        return min(options, key=lambda o: _take_cost(rows[o.row]) + rng.random() * NOISE)
    if phase is xnimmt.Phase.X_ROW_CARD:
        x_row, taken = state.x_rows[seat], state.taken
        return min(options, key=lambda o: x_row_cost(o.card, x_row, taken))
    nowhere = min(_take_cost(r) for r in rows) + NOWHERE_EXTRA

    def cost(card: int) -> float:
        row = xnimmt.row_for(card, rows)
        if row < 0:
            value = nowhere
        else:
            cards, capacity = rows[row], xnimmt.CAPACITIES[row]
            if len(cards) + 1 == capacity:
                value = _take_cost(cards)
            else:
                fullness = (len(cards) + 1) / capacity
                value = GAP_RISK * fullness * row_heads(cards) * (card - cards[-1])
        return value - SHED_WEIGHT * HEADS[card] + rng.random() * NOISE

    return min(options, key=lambda o: cost(o.card))


def hornochsen_next_turn(state: GameState, seat: int) -> bool:
    """Hornochsen!: the playout horizon, `seat`'s next turn (every other seat has moved)."""
    assert isinstance(state, hornochsen.HornochsenState)
    return state.turn == seat and state.steps == 0


def hornochsen_candidates(
    view: HornochsenView, options: Sequence[Option], keep: int
) -> list[Option]:
    """Hornochsen!: the rule-based bot's `keep` favourite options, its own choice first.
    The rule-based step values are a strong prior; sampling only its few best options gives
    each many more playouts than sampling all of them (a special's worth lies past a short
    playout's horizon, so the rule-based values also decide which specials get sampled)."""
    return [option for option, _ in hornochsen_rules.ranked(view, options)[:keep]]


def confident_choice(evaluation: Evaluation, z: float) -> Option:
    """The first option (the prior's choice) unless a later one beats it on the shared
    deals by more than `z` standard errors of the paired difference: then the one with the
    largest such gain. Without paired figures (fewer than 2 deals, or none at all from
    :func:`sdk.montecarlo.evaluate_batched`) the first option stands. (Taking the best
    sample among options the prior values alike lost: 20% wins against 25-31%.)"""
    options, gains, stderrs = evaluation.options, evaluation.gains, evaluation.gain_stderrs
    if len(gains) != len(options) or evaluation.deals < 2:
        return options[0]
    best = 0
    for index in range(1, len(options)):
        gain, stderr = gains[index], stderrs[index]
        if stderr > 0 and gain > z * stderr and gain > gains[best]:
            best = index
    return options[best]
