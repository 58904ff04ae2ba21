"""Serve the OpenSpiel IS-MCTS bot: ``python -m example_bots.openspiel_ismcts_bot``."""

from example_bots.openspiel_ismcts_bot.bot import OpenSpielISMCTSBot
from sdk import run

if __name__ == "__main__":
    run(OpenSpielISMCTSBot)
