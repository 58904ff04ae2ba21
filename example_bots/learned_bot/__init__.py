"""The learned example bot: a linear policy trained by self-play (see bot.py, train.py)."""
