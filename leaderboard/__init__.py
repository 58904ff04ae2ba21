"""Bullring leaderboard: the static site built from a league store."""
