"""The winner bot: the Monte Carlo bot playing 6 nimmt! for its margin over the table."""

from __future__ import annotations

import random
import time

from example_bots.montecarlo_bot.bot import MonteCarloBot
from example_bots.rules_bot.bot import RulesBot
from example_bots.rules_bot.sixnimmt import choose as rules_choice
from example_bots.winner_bot.bot import WinnerBot
from sdk.bot import Bot
from sdk.game.variants import PRESETS, new_game
from sdk.game.views import SixNimmtView
from sdk.local import play_local
from sdk.match import DecisionClock, MatchInfo

SIXNIMMT = sorted(name for name, preset in PRESETS.items() if preset.family == "6nimmt")


def started(bot: MonteCarloBot, variant: str) -> MonteCarloBot:
    bot.start_match(MatchInfo("m", variant, {}, seat=0, players=4, seed_hint=1))
    return bot


def test_6nimmt_is_played_for_the_margin_and_the_rest_as_the_monte_carlo_bot_plays() -> None:
    assert WinnerBot.sixnimmt_goals["6nimmt"] == "margin"
    assert MonteCarloBot.sixnimmt_goals.get("6nimmt", "own") == "own"
    for variant in SIXNIMMT:
        winner, mc = started(WinnerBot(), variant), started(MonteCarloBot(), variant)
        assert winner.playout_policy == mc.playout_policy
        if variant != "6nimmt":
            assert winner.sixnimmt_goals.get(variant) == mc.sixnimmt_goals.get(variant)


def test_the_other_families_are_played_as_the_monte_carlo_bot_plays_them() -> None:
    for variant in ("xnimmt", "11nimmt", "hornochsen"):
        winner, mc = started(WinnerBot(), variant), started(MonteCarloBot(), variant)
        assert (winner.utility, winner.family) == (mc.utility, mc.family)


def test_it_plays_a_game_legally_in_time() -> None:
    bots: list[type[Bot]] = [WinnerBot, RulesBot, RulesBot, RulesBot]
    result = play_local("6nimmt:rounds=1", bots, seed=5, decision_ms=100, clock=True)
    assert result.state.is_terminal()
    assert result.faults == (0, 0, 0, 0)


def test_a_search_with_no_time_left_plays_the_rule_based_choice() -> None:
    # Options are sampled in the rule-based bot's order: with the deadline already past,
    # none is sampled and the first, the rule-based bot's choice, is played (the Monte
    # Carlo bot would play its first option, the lowest card). Seeded deals; every
    # decision of seat 0 until the games end.
    compared = differs = 0
    for seed in range(4):
        state = new_game("6nimmt", 4, seed, {"rounds": "1"})
        bot = started(WinnerBot(), "6nimmt")
        rng = random.Random(seed)
        while not state.is_terminal():
            for seat in state.pending():
                options = state.legal_options(seat)
                if seat == 0 and len(options) > 1:
                    view = state.view(0)
                    assert isinstance(view, SixNimmtView)
                    expired = DecisionClock(1, 0, received=time.monotonic() - 1.0)
                    chosen = bot.decide(view, options, expired)
                    assert chosen == rules_choice(view, options)
                    compared += 1
                    differs += chosen != options[0]
                state.apply(seat, rng.choice(options))
    assert compared >= 30 and differs >= 5  # not merely the lowest card
