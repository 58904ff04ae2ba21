"""The random example bot (see bot.py)."""
