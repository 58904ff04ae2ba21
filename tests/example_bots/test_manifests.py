"""Each Python example bot's manifest names the bot its code says it is: the league keys
ratings by the manifest's name and version, the bot's Hello by the class's."""

from __future__ import annotations

from pathlib import Path

import pytest

from example_bots.champion_bot.bot import ChampionBot
from example_bots.learned_bot.bot import LearnedBot
from example_bots.montecarlo_bot.bot import MonteCarloBot
from example_bots.openspiel_ismcts_bot.bot import OpenSpielISMCTSBot
from example_bots.random_bot.bot import RandomBot
from example_bots.rules_bot.bot import RulesBot
from example_bots.winner_bot.bot import WinnerBot
from referee.bots.manifest import load_manifest
from sdk.bot import Bot

EXAMPLES = Path(__file__).resolve().parents[2] / "example_bots"


@pytest.mark.parametrize(
    "bot",
    [RandomBot, RulesBot, MonteCarloBot, WinnerBot, ChampionBot, LearnedBot, OpenSpielISMCTSBot],
    ids=lambda b: b.name,
)
def test_manifest_and_class_agree_on_name_and_version(bot: type[Bot]) -> None:
    spec = load_manifest(EXAMPLES / bot.name / "bot.toml")
    assert (spec.name, spec.version) == (bot.name, bot.version)
