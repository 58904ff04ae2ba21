"""benchmarks/champion_models.py: the picks it records are the player's, and each model's
figures are that model's (a player that is a model is predicted every time)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest

from benchmarks.champion_models import (
    TEMPERATURES,
    log_likelihood,
    network_figures,
    picker_card,
    player_class,
    recorded_games,
    search_share,
)
from benchmarks.strength import MC64
from example_bots.champion_bot.bot import ChampionBot, shipped_net
from example_bots.champion_bot.net import initial
from example_bots.montecarlo_bot.sixnimmt import PICKERS
from example_bots.rules_bot.bot import RulesBot
from sdk import DecisionClock, Option, View


class RawChampion(ChampionBot):
    """The shipped network's most likely card (no search)."""

    def __init__(self) -> None:
        super().__init__(search=False)


def test_a_network_predicts_its_own_raw_policy_every_time() -> None:
    net = shipped_net()
    assert net is not None
    picks = recorded_games(RawChampion, 2, 11, 1000)
    assert len(picks) == 2 * 4 * 9  # 9 picks with a choice a seat a game (the 10th is forced)
    share, means = network_figures(net, picks)
    assert share == 1.0
    # Sharper policies give their own argmax more probability.
    assert means == sorted(means, reverse=True) and len(means) == len(TEMPERATURES)
    uniform = sum(-math.log(len(pick.options)) for pick in picks) / len(picks)
    assert all(uniform < mean < 0 for mean in means)
    other, _ = network_figures(initial(3, (16,), (8,)), picks)
    assert other < 0.8  # an untrained network does not
    # With no time to search, the bot plays its network's most likely card: every one.
    assert search_share(picks[:12], 1) == 1.0


class HighestCard(RulesBot):
    """Always its highest card: a player no heuristic here plays."""

    def decide(self, view: View, options: Sequence[Option], clock: DecisionClock) -> Option:
        cards = [option.card for option in options]
        if all(card is not None for card in cards):
            return options[cards.index(max(c for c in cards if c is not None))]
        return super().decide(view, options, clock)


def test_the_recorded_picks_are_the_players_and_the_heuristics_cards_their_own() -> None:
    picks = recorded_games(HighestCard, 1, 3, 1000)
    assert picks and all(
        pick.options[pick.played].card == max(o.card for o in pick.options if o.card)
        for pick in picks
    )
    net = shipped_net()
    assert net is not None
    # No time to search: the bot's choice is its network's, whoever played.
    assert search_share(picks, 1) == network_figures(net, picks)[0] < 1.0
    for pick in picks[:6]:
        for picker in PICKERS.values():
            card = picker_card(pick, picker, 0)
            assert card in pick.view.hand
            assert card == picker_card(pick, picker, 0)  # seeded


def test_the_log_likelihood_is_smoothed_and_tempered() -> None:
    logits = np.array([2.0, 0.0, -1.0])
    p = np.exp(logits) / np.exp(logits).sum()
    assert log_likelihood(logits, 0, 1.0) == pytest.approx(math.log(0.97 * p[0] + 0.01))
    assert log_likelihood(np.array([50.0, 0.0]), 1, 1.0) == pytest.approx(math.log(0.015))
    assert log_likelihood(logits, 0, 0.5) > log_likelihood(logits, 0, 2.0)


def test_players_are_named_as_the_strength_benchmark_names_them() -> None:
    assert player_class("mc:64") is MC64
    assert player_class("rules_bot") is RulesBot
    with pytest.raises(ValueError, match="--player: no bot 'nobody'"):
        player_class("nobody")
