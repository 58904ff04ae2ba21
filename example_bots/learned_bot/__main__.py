"""Run the learned bot as a gRPC server: ``python -m example_bots.learned_bot``."""

from example_bots.learned_bot.bot import LearnedBot
from sdk import run

if __name__ == "__main__":
    run(LearnedBot)
