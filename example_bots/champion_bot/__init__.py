"""The champion bot: a policy-and-value network trained by expert iteration, searching
at play time (see README.md, bot.py and train.py)."""
