"""The winner bot: the Monte Carlo bot playing 6 nimmt! for its margin over the table."""

from __future__ import annotations

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
