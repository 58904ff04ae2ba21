"""The Gymnasium environment (sdk.envs.gymnasium) with example bots at the other seats.

    from example_bots.gym_env import env

    game = env("hornochsen", players=4, seat=0)     # three rule-based bots
    observation, info = game.reset(seed=1)

Needs the rl extra (``pip install -e '.[rl]'``).
"""

from __future__ import annotations

from collections.abc import Sequence

from example_bots.rules_bot.bot import RulesBot
from sdk import BotFactory
from sdk.envs.gymnasium import BullringEnv

DEFAULT_OPPONENTS: tuple[BotFactory, ...] = (RulesBot,)


def env(
    variant: str = "6nimmt:rounds=1",
    players: int = 4,
    seat: int = 0,
    opponents: Sequence[BotFactory] = DEFAULT_OPPONENTS,
    render_mode: str | None = None,
) -> BullringEnv:
    """A single-agent environment of `variant`; the other seats play `opponents` (the
    rule-based example bot by default)."""
    return BullringEnv(variant, players, seat, opponents, render_mode)
