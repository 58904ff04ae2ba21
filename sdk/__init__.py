"""Bullring SDK: the game model and the bot runtime."""
