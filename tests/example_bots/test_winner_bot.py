"""The winner bot: the Monte Carlo bot playing every 6 nimmt! preset to win."""

from __future__ import annotations

import pytest

from example_bots.montecarlo_bot.bot import MonteCarloBot
from example_bots.rules_bot.bot import RulesBot
from example_bots.winner_bot.bot import WinnerBot
from sdk.bot import Bot
from sdk.game.variants import PRESETS
from sdk.local import play_local
from sdk.match import MatchInfo

SIXNIMMT = sorted(name for name, preset in PRESETS.items() if preset.family == "6nimmt")


def started(bot: MonteCarloBot, variant: str) -> MonteCarloBot:
    bot.start_match(MatchInfo("m", variant, {}, seat=0, players=4, seed_hint=1))
    return bot


@pytest.mark.parametrize("variant", SIXNIMMT)
def test_every_6nimmt_preset_is_played_to_win_with_rule_based_opponents(variant: str) -> None:
    bot = started(WinnerBot(), variant)
    assert bot.playout_policy == "rules"
    assert bot.sixnimmt_goals[variant] == "win"


def test_the_other_families_are_played_as_the_monte_carlo_bot_plays_them() -> None:
    for variant in ("xnimmt", "11nimmt", "hornochsen"):
        winner, mc = started(WinnerBot(), variant), started(MonteCarloBot(), variant)
        assert (winner.utility, winner.family) == (mc.utility, mc.family)


def test_it_plays_a_game_legally_in_time() -> None:
    bots: list[type[Bot]] = [WinnerBot, RulesBot, RulesBot, RulesBot]
    result = play_local("6nimmt:rounds=1", bots, seed=5, decision_ms=100, clock=True)
    assert result.state.is_terminal()
    assert result.faults == (0, 0, 0, 0)
