"""Run the Monte Carlo bot as a gRPC server: ``python -m example_bots.montecarlo_bot``."""

from example_bots.montecarlo_bot.bot import MonteCarloBot
from sdk import run

if __name__ == "__main__":
    run(MonteCarloBot)
