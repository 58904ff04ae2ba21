"""Bullring referee: matches, bot processes, clocks, faults, replays, leagues, CLI."""
