"""The published 6 nimmt! baselines, as ordinary SDK bots, for benchmarks/strength.py.

Implemented from their published description (issue 17, "The best published 6 nimmt!
strategies were ported onto the SDK"), quoted in each module:

- :mod:`benchmarks.opponents.greedy`: "the card with the lowest immediate cost, and the
  cheapest row on a forced take";
- :mod:`benchmarks.opponents.montecarlo`: ``mc:N``, "N sampled worlds; every card tried
  on each; every seat greedy; lowest margin over the table".

They play the 6 nimmt! family only (every preset: 6nimmt, -tactics, -logic, -pro).
"""

from benchmarks.opponents.greedy import GreedyBot, greedy_choice, immediate_cost
from benchmarks.opponents.montecarlo import MonteCarloOpponent, mc_bot

__all__ = ["GreedyBot", "MonteCarloOpponent", "greedy_choice", "immediate_cost", "mc_bot"]
