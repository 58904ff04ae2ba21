"""The champion's race (:func:`example_bots.champion_bot.search.race`) and the joint
playouts it stands on (:func:`example_bots.montecarlo_bot.sixnimmt.pick_simulation`):
one batch plays several options on the same deals, each option's games the same as when
played alone; options clearly behind the leader leave the race; the clock is kept."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from example_bots.champion_bot.bot import ChampionBot, shipped_net
from example_bots.champion_bot.net import Net, initial
from example_bots.champion_bot.playouts import net_playouts
from example_bots.champion_bot.search import RACE_MIN_DEALS, race
from example_bots.montecarlo_bot.sixnimmt import pick_simulation, simulation
from example_bots.rules_bot.bot import RulesBot
from sdk import DecisionKind, SixNimmtView, play_local
from sdk.bot import Bot
from sdk.game.sixnimmt import SixNimmtState, new_game

TAKE_ROW = DecisionKind.TAKE_ROW


def the_net() -> Net:
    return shipped_net() or initial(1)


def opening(players: int, seed: int) -> tuple[SixNimmtView, list]:  # type: ignore[type-arg]
    state = new_game("6nimmt", {"rounds": "1"}, players, seed)
    view = state.view(0)
    assert isinstance(view, SixNimmtView)
    return view, list(state.legal_options(0))


@pytest.mark.parametrize("players", [2, 4, 10])
def test_a_joint_batch_plays_each_option_as_it_would_alone(players: int) -> None:
    net = the_net()
    view, options = opening(players, 40 + players)
    chosen = [0, 3, len(options) - 1]
    joint = pick_simulation(view, options, random.Random(2), "margin", net_playouts(net, view))
    values = joint(chosen, 6, 77)
    assert values.shape == (3, 6)
    alone = simulation(view, options, random.Random(2), "margin", net_playouts(net, view))
    for row, index in zip(values, chosen, strict=True):
        total, games = alone(index, 6, 77)
        assert games == 6 and float(row.sum()) == pytest.approx(total, abs=1e-9)
    # The options are other games on the same deals: not all alike.
    assert len({tuple(row) for row in values}) > 1


def test_the_joint_batch_plays_card_picks_only() -> None:
    state = new_game("6nimmt", {"rounds": "1"}, 4, 3)
    rng = random.Random(0)

    def choosing() -> list[int]:
        return [s for s in state.pending() if state.view(s).header.decision == TAKE_ROW]

    while not choosing():
        for seat in state.pending():
            state.apply(seat, min(state.legal_options(seat), key=lambda o: o.card))
    seat = choosing()[0]
    view = state.view(seat)
    assert isinstance(view, SixNimmtView) and isinstance(state, SixNimmtState)
    with pytest.raises(ValueError, match="card picks"):
        pick_simulation(view, state.legal_options(seat), rng, "margin")
    pick_view, options = opening(4, 3)
    with pytest.raises(ValueError, match="grredy"):
        pick_simulation(pick_view, options, rng, "margin", "grredy")


def test_the_race_drops_the_options_behind_and_answers_the_best_left() -> None:
    net = the_net()
    view, options = opening(4, 11)
    prior = np.full(len(options), 1 / len(options))
    result = race(view, options, prior, random.Random(1), deals=8, rounds=12,
                  policy=net_playouts(net, view))  # fmt: skip
    again = race(view, options, prior, random.Random(1), deals=8, rounds=12,
                 policy=net_playouts(net, view))  # fmt: skip
    assert np.array_equal(result.visits, again.visits) and np.array_equal(result.q, again.q)
    most = result.visits.max()
    left = [i for i in range(len(options)) if result.visits[i] == most]
    dropped = [i for i in range(len(options)) if result.visits[i] < most]
    assert dropped, "after 12 rounds some option is clearly behind"
    assert result.visits.min() >= RACE_MIN_DEALS  # nothing dropped before then
    assert result.best in left and result.q[result.best] == max(result.q[i] for i in left)
    assert all(result.q[i] < result.q[result.best] for i in dropped)
    # The rounds stay about as large as the first: the fewer left, the more deals each.
    assert most > 12 * 8


def test_the_race_keeps_its_clock() -> None:
    view, options = opening(4, 12)
    prior = np.zeros(len(options))
    prior[2] = 1.0
    # A stop already past: nothing is played, the prior's favourite is the answer.
    late = race(view, options, prior, random.Random(1), stop=0.0, timer=time.monotonic)
    assert late.visits.sum() == 0 and late.best == 2
    # No round starts that the longest so far says would end after the stop: readings
    # before and after each round, the first taking 4 s and the second 4 s.
    readings = iter([0.0, 4.0, 5.0, 9.0, 9.5, 13.5, 14.0, 18.0])
    timed = race(view, options, prior, random.Random(1), deals=2, stop=10.0,
                 timer=lambda: next(readings))  # fmt: skip
    assert timed.visits.tolist() == [4.0] * len(options)


@pytest.mark.parametrize("players", [3, 10])
def test_the_bot_racing_plays_legally_within_its_clock(players: int) -> None:
    champion = ChampionBot(the_net())
    champion.racing = True
    bots: list[Bot] = [champion] + [RulesBot() for _ in range(players - 1)]
    result = play_local("6nimmt:rounds=1", bots, seed=players, decision_ms=500, clock=True)
    assert champion.own and result.state.is_terminal()
    assert result.faults == (0,) * players
