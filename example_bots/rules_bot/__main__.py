"""Run the rule-based bot as a gRPC server: ``python -m example_bots.rules_bot``."""

from example_bots.rules_bot.bot import RulesBot
from sdk import run

if __name__ == "__main__":
    run(RulesBot)
