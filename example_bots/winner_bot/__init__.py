"""The winner bot: the Monte Carlo bot playing 6 nimmt! to win (see bot.py)."""
