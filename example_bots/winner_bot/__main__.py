"""Run the winner bot as a gRPC server: ``python -m example_bots.winner_bot``."""

from example_bots.winner_bot.bot import WinnerBot
from sdk import run

if __name__ == "__main__":
    run(WinnerBot)
