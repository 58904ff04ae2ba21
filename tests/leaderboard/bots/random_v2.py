"""The random example bot under a newer version number: its 1.0 becomes a retired version
in the site tests' league."""

from example_bots.random_bot.bot import RandomBot
from sdk.runtime import run


class RandomBotV2(RandomBot):
    version = "1.1"


if __name__ == "__main__":
    run(RandomBotV2)
