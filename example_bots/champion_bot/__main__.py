"""Run the champion bot as a gRPC server: ``python -m example_bots.champion_bot``."""

from example_bots.champion_bot.bot import ChampionBot
from sdk import run

if __name__ == "__main__":
    run(ChampionBot)
