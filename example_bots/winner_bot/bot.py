"""The winner bot: the Monte Carlo bot (example_bots/montecarlo_bot), but in every preset
of the 6 nimmt! family it plays to win the game, not to take few heads.

A 4-player game is won by taking fewer heads than everyone else. The Monte Carlo bot
minimises its own heads in 6 nimmt! and 6nimmt-logic: against three ``mc:64`` bots it
took far fewer heads than they did but did not win clearly more than its share
(issue 17). The winner bot, in every 6 nimmt! preset:

- scores each playout by its share of the win (1 for the fewest heads, 1/k for a first
  place shared by k seats, else 0), the margin over the others' mean / 1000 breaking
  ties (:func:`example_bots.montecarlo_bot.sixnimmt.value`, "win");
- models every seat of a playout as the rule-based bot (the chance that a row fills
  before its card lands, vectorised: ``rules_like_picks``), a better player than the
  greedy policy, so a playout's winner is a better guess of the real one.

Everything else (the vectorised playouts, common random numbers, 75% of the deadline, the
other families) is the Monte Carlo bot's.
"""

from __future__ import annotations

from example_bots.montecarlo_bot.bot import MonteCarloBot
from sdk.game.variants import PRESETS

SIXNIMMT_PRESETS = frozenset(name for name, p in PRESETS.items() if p.family == "6nimmt")


class WinnerBot(MonteCarloBot):
    """The Monte Carlo bot, playing every 6 nimmt! preset to win."""

    name = "winner_bot"
    version = "1.0"
    rules_playouts = SIXNIMMT_PRESETS
    sixnimmt_goals = dict.fromkeys(SIXNIMMT_PRESETS, "win")
