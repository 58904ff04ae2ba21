"""The Monte Carlo bot's Hornochsen! playouts (vectorised): the batch plays exactly the
games the engine plays with a rule-based bot in every seat, from the start or from any
option of a position; its deals are consistent with the seat's view."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from example_bots.montecarlo_bot.hornochsen import (
    Table,
    action_of,
    apply,
    deal,
    joint_simulation,
    play_out,
    rules_actions,
)
from example_bots.rules_bot.hornochsen import choose
from sdk.game.cards import HORNOCHSEN_POINTS
from sdk.game.core import Option, OptionKind, Special
from sdk.game.hornochsen import HornochsenState, new_game


def rules_game(state: HornochsenState) -> list[int]:
    """Play `state` to the end with the rule-based bot in every seat."""
    while not state.is_terminal():
        seat = state.pending()[0]
        state.apply(seat, choose(state.view(seat), state.legal_options(seat)))
    return state.scores()


def slot_of(option: Option, table: Table, seat: int) -> int:
    """The batch action of an engine option in game 0, whose dead rows keep their slots."""
    if option.kind != OptionKind.SPECIAL:
        return action_of(option, table, table.hand[0, seat].tolist())
    live = np.flatnonzero(table.alive[0])
    offset = 0 if option.card == Special.X2 else table.rows
    return table.slots + offset + int(live[option.row])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_each_step_is_the_rule_based_bots_choice(players: int) -> None:
    for seed in range(6):
        state = new_game("hornochsen", {}, players, seed)
        table = deal(state.view(-1), 1, np.random.default_rng(0))  # every hand as dealt
        while not state.is_terminal():
            seat = state.pending()[0]
            assert int(table.turn[0]) == seat and not table.over[0]
            chosen = choose(state.view(seat), state.legal_options(seat))
            actions, rows = rules_actions(table)
            assert int(actions[0]) == slot_of(chosen, table, seat), (seed, chosen)
            apply(table, actions, rows)
            state.apply(seat, chosen)
        assert table.over[0]
        assert table.scores()[0].tolist() == state.scores()


def test_a_whole_batch_scores_as_the_engine_from_every_option_of_a_position() -> None:
    state = new_game("hornochsen", {}, 4, 11)
    # Into the game: a row collected (fewer rows than dealt) and a special still to play.
    while len(state.rows) == 12 or not state.specials[state.pending()[0]]:
        seat = state.pending()[0]
        state.apply(seat, choose(state.view(seat), state.legal_options(seat)))
    seat = state.pending()[0]
    view = state.view(-1)
    options = state.legal_options(seat)
    assert any(o.kind == OptionKind.SPECIAL for o in options)
    table = deal(view, 1, np.random.default_rng(0)).repeat(len(options))
    first = np.array([action_of(o, table, state.hands[seat]) for o in options])
    scores = play_out(table, first)
    assert scores is not None
    for index, option in enumerate(options):
        after = state.clone()
        after.apply(seat, option)
        assert scores[index].tolist() == rules_game(after), option


def test_deals_keep_what_the_seat_sees_and_sample_the_rest() -> None:
    state = new_game("hornochsen", {}, 4, 5)
    for _ in range(9):
        seat = state.pending()[0]
        state.apply(seat, choose(state.view(seat), state.legal_options(seat)))
    seat = state.pending()[0]
    view = state.view(seat)
    table = deal(view, 200, np.random.default_rng(1))
    visible = {c for row in state.rows for c in row} | {c for p in state.piles for c in p}
    assert (table.hand[:, seat, : len(view.hand)] == np.array(view.hand)).all()
    for game in range(200):
        cards = [c for s in range(4) for c in table.hand[game, s].tolist() if c]
        assert len(cards) == len(set(cards)) == sum(view.hand_sizes)
        assert not visible & set(cards)
        for other in range(4):
            assert np.count_nonzero(table.hand[game, other]) == view.hand_sizes[other]
            held = [Special(k) for k in state.specials[other]]
            assert bool(table.hand_x2[game, other]) == (Special.X2 in held)
            assert bool(table.hand_plus5[game, other]) == (Special.PLUS5 in held)
    others = [s for s in range(4) if s != seat and view.hand_sizes[s]]
    samples = {tuple(sorted(table.hand[g, others[0]].tolist())) for g in range(200)}
    assert len(samples) > 150  # the hidden hands differ from game to game
    assert (table.end == [row[-1] for row in state.rows]).all()
    piles = [sum(HORNOCHSEN_POINTS[c] for c in pile) for pile in state.piles]
    assert (table.pile_points == piles).all()


def test_joint_simulation_plays_every_option_on_the_same_deals() -> None:
    state = HornochsenState.from_position(
        [[17, 62, 90], [1, 2, 3], [4, 5, 6], [7, 8, 9]],
        [[12, 13, 14, 16], [61], [81]],
    )
    view = state.view(0)
    collect, feed = Option(OptionKind.PLAY, 17), Option(OptionKind.PLAY, 62)
    simulate = joint_simulation(view, [collect, feed, collect])
    utilities = simulate(32, 7, math.inf)
    assert utilities is not None
    assert len(utilities) == 3 and all(len(u) == 32 for u in utilities)
    assert utilities[0] == utilities[2]  # the same option on the same deals
    assert utilities[0] != utilities[1]
    assert simulate(32, 7, math.inf) == utilities  # a batch seed gives the same deals


def test_a_batch_gives_up_at_its_stop_time() -> None:
    state = new_game("hornochsen", {}, 6, 2)
    simulate = joint_simulation(state.view(0), state.legal_options(0))
    assert simulate(64, 1, time.monotonic()) is None  # the time is up before the first step
    table = deal(state.view(-1), 8, np.random.default_rng(0))
    assert play_out(table, stop_at=time.monotonic() - 1) is None
