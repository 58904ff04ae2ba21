"""The OpenSpiel IS-MCTS example bot (see bot.py)."""
