"""Run the random bot as a gRPC server: ``python -m example_bots.random_bot``."""

from example_bots.random_bot.bot import RandomBot
from sdk import run

if __name__ == "__main__":
    run(RandomBot)
