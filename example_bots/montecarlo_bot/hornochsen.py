"""Hornochsen! playouts for the Monte Carlo bot: vectorised (numpy), many games at once.

Every game of a batch starts from the bot's view with its own sample of the other hands'
bull cards (the specials in each hand are public: every seat is dealt one of each kind and
the history shows what was played). The option under test is applied first; then every
seat, the bot included, plays each step as the rule-based bot would
(:mod:`example_bots.rules_bot.hornochsen`, the same values and the same choice among
equal values), to the end of the game, and is scored by the bot's utility (its margin
over the others' mean, or its share of the win).

The rows keep their places in the arrays: a collected row is marked dead, not removed, so
row ``r`` of the view is slot ``r`` throughout. One step of every unfinished game is
played per loop (finished games leave the arrays), so a batch takes as many loops as its
longest game has steps.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields

import numpy as np
import numpy.typing as npt

from example_bots.montecarlo_bot.sixnimmt import value
from example_bots.rules_bot.hornochsen import (
    DUMP_HAND,
    DUMP_ROW_COST,
    FEED_COST,
    FEED_SHARE,
    HOLD_COST,
    IDLE_COST,
    MAX_STEPS,
    POISON_SHARE,
    ROW_FULL,
    SPECIAL_LEFT_COST,
)
from sdk import HornochsenView, Option, OptionKind, Special
from sdk.game import HORNOCHSEN_POINTS
from sdk.game.hornochsen import DECK, public_table
from sdk.montecarlo import JointSimulation

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]

POINTS: IntArray = np.array(HORNOCHSEN_POINTS, dtype=np.int64)
_NO_CARD = 1 << 20  # above every card: "no collector" when looking for the lowest card
_END_KEY = float(1 << 30)  # END_TURN comes after every other option
_GAME_SPAN = 1 << 8  # per game of a sorted search: above every card


def pile_value(points: IntArray, plus5: IntArray, x2: IntArray) -> IntArray:
    """(points + 5 per +5) x 2 per x2, element by element."""
    value: IntArray = (points + 5 * plus5) << x2
    return value


@dataclass
class Table:
    """A batch of Hornochsen! games: `g` games, `n` seats, `r` row places, `h` hand slots.

    Hand slots hold bull cards, 0 where empty; the rows keep their places (`alive`)."""

    end: IntArray  # (g, r) the last card of each row
    length: IntArray  # (g, r) bull cards in each row
    points: IntArray  # (g, r) the rows' bull points (green - red heads)
    row_x2: BoolArray  # (g, r)
    row_plus5: BoolArray  # (g, r)
    alive: BoolArray  # (g, r) the row is still on the table
    hand: IntArray  # (g, n, h)
    hand_x2: BoolArray  # (g, n)
    hand_plus5: BoolArray  # (g, n)
    pile_points: IntArray  # (g, n)
    pile_x2: IntArray  # (g, n)
    pile_plus5: IntArray  # (g, n)
    turn: IntArray  # (g,)
    steps: IntArray  # (g,) steps already taken this turn
    over: BoolArray  # (g,)

    def select(self, games: BoolArray) -> Table:
        """The games where `games` (g,) is set, as a table of their own."""
        return Table(**{f.name: getattr(self, f.name)[games] for f in fields(self)})

    def repeat(self, times: int) -> Table:
        """`times` copies of the batch, one after the other (copy c holds games
        c * g ... c * g + g - 1)."""
        arrays = {f.name: np.concatenate([getattr(self, f.name)] * times) for f in fields(self)}
        return Table(**arrays)

    @property
    def rows(self) -> int:
        return int(self.end.shape[1])

    @property
    def slots(self) -> int:
        return int(self.hand.shape[2])

    def scores(self) -> IntArray:
        """Final scores (g, n): the piles' values, minus 10 per special left in hand."""
        held = self.hand_x2.astype(np.int64) + self.hand_plus5.astype(np.int64)
        scores: IntArray = (
            pile_value(self.pile_points, self.pile_plus5, self.pile_x2) - SPECIAL_LEFT_COST * held
        )
        return scores


def deal(view: HornochsenView, games: int, rng: np.random.Generator) -> Table:
    """`games` games consistent with `view`, each with its own sample of the hidden hands
    (none in the referee's view, seat -1, which shows every hand)."""
    header = view.header
    seat, players = header.seat, header.players
    _, _, piles, pile_specials, in_hand = public_table(header.history, players)
    known = [list(h) for h in view.all_hands] or [[] for _ in range(players)]
    if seat >= 0:
        in_hand[seat] = [Special(k) for k in view.specials]
        known[seat] = list(view.hand)
    rows = view.rows
    seen = {c for row in rows for c in row.cards} | {c for pile in piles for c in pile}
    seen.update(c for cards in known for c in cards)
    pool = np.array([c for c in DECK if c not in seen], dtype=np.int64)
    slots = max(max(view.hand_sizes), 1)
    hand = np.zeros((games, players, slots), dtype=np.int64)
    order = rng.random((games, len(pool))).argsort(axis=1)
    taken = 0
    for other, size in enumerate(view.hand_sizes):
        cards = known[other]
        hand[:, other, : len(cards)] = cards
        missing = size - len(cards)
        if missing:
            hand[:, other, len(cards) : size] = pool[order[:, taken : taken + missing]]
            taken += missing

    def ints(values: Sequence[int]) -> IntArray:
        return np.tile(np.array(values, dtype=np.int64), (games, 1))

    def flags(values: Sequence[bool]) -> BoolArray:
        return np.tile(np.array(values, dtype=np.bool_), (games, 1))

    return Table(
        end=ints([row.cards[-1] for row in rows]),
        length=ints([len(row.cards) for row in rows]),
        points=ints([sum(HORNOCHSEN_POINTS[c] for c in row.cards) for row in rows]),
        row_x2=flags([row.x2 for row in rows]),
        row_plus5=flags([row.plus5 for row in rows]),
        alive=np.ones((games, len(rows)), dtype=np.bool_),
        hand=hand,
        hand_x2=flags([Special.X2 in held for held in in_hand]),
        hand_plus5=flags([Special.PLUS5 in held for held in in_hand]),
        pile_points=ints([sum(HORNOCHSEN_POINTS[c] for c in p) for p in piles]),
        pile_x2=ints([list(s).count(Special.X2) for s in pile_specials]),
        pile_plus5=ints([list(s).count(Special.PLUS5) for s in pile_specials]),
        turn=np.full(games, header.to_move[0] if header.to_move else 0, dtype=np.int64),
        steps=np.full(games, view.steps_this_turn, dtype=np.int64),
        over=np.full(games, not header.to_move, dtype=np.bool_),
    )


def action_of(option: Option, table: Table, hand: Sequence[int]) -> int:
    """The batch action of a view's option: a hand slot, a special on a row, or the end."""
    if option.kind == OptionKind.PLAY:
        return list(hand).index(option.card)
    if option.kind == OptionKind.SPECIAL:
        offset = 0 if option.card == Special.X2 else table.rows
        return table.slots + offset + option.row
    return table.slots + 2 * table.rows


def targets(table: Table, cards: IntArray) -> IntArray:
    """The row each of `cards` (g, h) goes to: the highest end below it, else the highest
    end (meaningless where no row is left). One sorted search for all games: each game's
    ends are sorted and offset into a range of its own."""
    games, rows = len(cards), table.rows
    ends = np.where(table.alive, table.end, 0)  # a dead row: below every card
    order = ends.argsort(axis=1)
    game = np.arange(games, dtype=np.int64)[:, None]
    offset = game * _GAME_SPAN
    flat = (np.take_along_axis(ends, order, axis=1) + offset).ravel()
    found = np.searchsorted(flat, (cards + offset).ravel()).reshape(cards.shape)
    below = found - game * rows  # ends (dead or alive) below each card
    dead = rows - table.alive.sum(axis=1, keepdims=True)
    place = np.where(below > dead, below - 1, rows - 1)
    row: IntArray = np.take_along_axis(order, place, axis=1)
    return row


def _at(array: IntArray, rows: IntArray) -> IntArray:
    """`array` (g, r) at per-game, per-slot rows (g, h)."""
    return np.take_along_axis(array, rows, axis=1)


def _any_row(rows: BoolArray) -> BoolArray:
    """(g, 1): whether any of each game's rows (g, r) is set."""
    found: BoolArray = np.any(rows, axis=1, keepdims=True)
    return found


def rules_values(table: Table) -> tuple[FloatArray, IntArray]:
    """The rule-based bot's value of every action of the seat to move in each game (g, a),
    -inf where illegal, and the row of each card in its hand (g, h)."""
    games, rows = len(table.turn), table.rows
    game = np.arange(games)
    seat = table.turn
    cards = table.hand[game, seat]  # (g, h)
    row = targets(table, cards)
    row_x2 = table.row_x2.astype(np.int64)
    row_plus5 = table.row_plus5.astype(np.int64)
    card_points = POINTS[cards]
    own_points = table.pile_points[game, seat][:, None]
    own_x2 = table.pile_x2[game, seat][:, None]
    own_plus5 = table.pile_plus5[game, seat][:, None]

    # Bull cards: a row's 5th collects it (worth the change in our score), its 4th feeds
    # the next player (worth minus most of what the row would give them).
    length = _at(table.length, row)
    points = _at(table.points, row) + card_points
    x2_at, plus5_at = _at(row_x2, row), _at(row_plus5, row)
    now = pile_value(own_points, own_plus5, own_x2)
    gain = pile_value(own_points + points, own_plus5 + plus5_at, own_x2 + x2_at) - now
    worth = pile_value(points, plus5_at, x2_at)
    feed = -FEED_SHARE * np.maximum(worth, 0) + POISON_SHARE * np.maximum(-worth, 0) - FEED_COST
    play = np.where(
        length + 1 == ROW_FULL, gain, np.where(length + 2 == ROW_FULL, feed, -IDLE_COST)
    )
    live = table.alive
    play = np.where((cards > 0) & _any_row(live), play, -np.inf)

    # Specials: on a row a hand card collects now (the lowest such card), with a step to
    # spare, worth what they add to that collection; else held while the hand is large,
    # else dumped where they help the next collector least.
    collector = np.full((games, rows), _NO_CARD, dtype=np.int64)  # the lowest card per row
    held = cards > 0
    np.minimum.at(
        collector, (np.broadcast_to(game[:, None], cards.shape)[held], row[held]), cards[held]
    )
    collectable = (collector < _NO_CARD) & (table.length + 1 == ROW_FULL)
    collectable &= (table.steps <= MAX_STEPS - 2)[:, None]
    collector_points = POINTS[np.where(collector < _NO_CARD, collector, 0)]
    with_row = own_points + table.points + collector_points
    plus5_then, x2_then = own_plus5 + row_plus5, own_x2 + row_x2
    plain = pile_value(with_row, plus5_then, x2_then)
    extra_x2 = pile_value(with_row, plus5_then, x2_then + 1) - plain
    extra_plus5 = pile_value(with_row, plus5_then + 1, x2_then) - plain
    holding = ((cards > 0).sum(axis=1) > DUMP_HAND)[:, None]
    dump = SPECIAL_LEFT_COST - DUMP_ROW_COST * table.length
    dump_x2 = np.where(holding, -HOLD_COST, dump - pile_value(table.points, row_plus5, row_x2))
    dump_plus5 = np.where(holding, -HOLD_COST, dump - 5.0)
    x2 = np.where(collectable, extra_x2, dump_x2)
    plus5 = np.where(collectable, extra_plus5, dump_plus5)
    x2 = np.where(live & ~table.row_x2 & table.hand_x2[game, seat][:, None], x2, -np.inf)
    plus5 = np.where(
        live & ~table.row_plus5 & table.hand_plus5[game, seat][:, None], plus5, -np.inf
    )
    end = np.where(table.steps > 0, 0.0, -np.inf)[:, None]
    values = np.concatenate([play, x2, plus5, end], axis=1).astype(np.float64)
    return values, row


def option_keys(table: Table) -> FloatArray:
    """The engine's order of the options (g, a), lowest first: by card, a special's card
    being its kind (X2 = 1, PLUS5 = 2), a bull card before the specials of its number,
    specials by row, END_TURN last. The rule-based bot takes the first of equal values."""
    games = len(table.turn)
    cards = table.hand[np.arange(games), table.turn].astype(np.float64)
    rows = np.arange(table.rows, dtype=np.float64)
    x2 = np.broadcast_to(Special.X2 * 1000.0 + 1 + rows, (games, table.rows))
    plus5 = np.broadcast_to(Special.PLUS5 * 1000.0 + 1 + rows, (games, table.rows))
    end = np.full((games, 1), _END_KEY)
    return np.concatenate([cards * 1000.0, x2, plus5, end], axis=1)


def rules_actions(table: Table) -> tuple[IntArray, IntArray]:
    """The rule-based bot's action in each game, and the rows of the hand's cards."""
    values, row = rules_values(table)
    best = values.max(axis=1, keepdims=True)
    keys = np.where(values == best, option_keys(table), np.inf)
    actions: IntArray = keys.argmin(axis=1)
    return actions, row


def can_play(table: Table, games: IntArray) -> BoolArray:
    """(k, n): the seat has a bull card and a row is left, or a special some row takes."""
    live = table.alive[games]
    bull = (table.hand[games] > 0).any(axis=2) & _any_row(live)
    x2_fits = _any_row(live & ~table.row_x2[games])
    plus5_fits = _any_row(live & ~table.row_plus5[games])
    result: BoolArray = (
        bull | (table.hand_x2[games] & x2_fits) | (table.hand_plus5[games] & plus5_fits)
    )
    return result


def next_turn(table: Table, games: IntArray) -> None:
    """Pass the turn in `games` to the next seat clockwise that can play; none: game over."""
    if not len(games):
        return
    players = table.hand.shape[1]
    order = (table.turn[games][:, None] + 1 + np.arange(players)) % players  # (k, n)
    able = np.take_along_axis(can_play(table, games), order, axis=1)
    table.turn[games] = order[np.arange(len(games)), able.argmax(axis=1)]
    table.steps[games] = 0
    table.over[games] |= ~able.any(axis=1)


def apply(table: Table, actions: IntArray, rows: IntArray) -> None:
    """Apply one legal action (g,) in each game (`rows`: the rows of the hand's cards)."""
    slots, count = table.slots, table.rows
    games = np.arange(len(actions))
    seat = table.turn
    ending = actions == slots + 2 * count
    play = actions < slots
    g, s, slot = games[play], seat[play], actions[play]
    card = table.hand[g, s, slot]
    row = rows[g, slot]
    table.hand[g, s, slot] = 0
    table.length[g, row] += 1
    table.end[g, row] = card
    table.points[g, row] += POINTS[card]
    full = table.length[g, row] >= ROW_FULL
    g, s, row = g[full], s[full], row[full]
    table.pile_points[g, s] += table.points[g, row]
    table.pile_x2[g, s] += table.row_x2[g, row]
    table.pile_plus5[g, s] += table.row_plus5[g, row]
    table.alive[g, row] = False
    x2 = (actions >= slots) & (actions < slots + count)
    table.row_x2[games[x2], actions[x2] - slots] = True
    table.hand_x2[games[x2], seat[x2]] = False
    plus5 = (actions >= slots + count) & ~ending
    table.row_plus5[games[plus5], actions[plus5] - slots - count] = True
    table.hand_plus5[games[plus5], seat[plus5]] = False

    stepped = games[~ending]
    table.steps[stepped] += 1
    no_bull_left = ~(table.hand[stepped] > 0).any(axis=(1, 2))
    table.over[stepped[no_bull_left]] = True
    going = stepped[~no_bull_left]
    mover = table.turn[going]
    stuck = ~can_play(table, going)[np.arange(len(going)), mover]
    done = (table.steps[going] >= MAX_STEPS) | stuck
    next_turn(table, np.concatenate([games[ending], going[done]]))


def play_out(
    table: Table,
    first: IntArray | None = None,
    stop_at: float = math.inf,
    clock: Callable[[], float] = time.monotonic,
) -> IntArray | None:
    """Play every game to its end, every seat as the rule-based bot; `first` (g,) is the
    action to take first in every game instead. Returns the final scores (g, n), or None
    if `stop_at` (a time on `clock`) comes first.

    Finished games leave the table (which is consumed), so that every step works on
    whole arrays of games still playing."""
    scores = np.zeros(table.pile_points.shape, dtype=np.int64)
    ids = np.arange(len(table.turn))  # the games still playing, by their place in `scores`
    pending = first
    while True:
        if clock() >= stop_at:
            return None
        over = table.over
        if over.any():
            scores[ids[over]] = table.select(over).scores()
            playing = ~over
            if not playing.any():
                return scores
            table, ids = table.select(playing), ids[playing]
            pending = pending[playing] if pending is not None else None
        actions, rows = rules_actions(table)
        if pending is not None:
            actions, pending = pending, None
        apply(table, actions, rows)


def joint_simulation(
    view: HornochsenView,
    options: Sequence[Option],
    utility: str = "margin",
    clock: Callable[[], float] = time.monotonic,
) -> JointSimulation:
    """A joint simulation of `options` from `view` for :func:`sdk.montecarlo.evaluate_jointly`:
    each call samples its deals, plays every option out on each to the end of the game and
    returns the bot's utility per option and deal. `utility` as
    :func:`example_bots.montecarlo_bot.sixnimmt.value`: "margin", our points against the
    others' mean; "win", the share of the win (the margin / 1000 breaking ties). `clock`
    is what `stop_at` is read against (the decision's ``DecisionClock.timer``)."""
    seat = view.header.seat

    def simulate(deals: int, seed: int, stop_at: float) -> list[list[float]] | None:
        table = deal(view, deals, np.random.default_rng(seed)).repeat(len(options))
        first = np.repeat([action_of(o, table, view.hand) for o in options], deals)
        scores = play_out(table, first.astype(np.int64), stop_at, clock)
        if scores is None:
            return None
        utilities = value(-scores.astype(np.float64), seat, utility)
        rows: list[list[float]] = utilities.reshape(len(options), deals).tolist()
        return rows

    return simulate
