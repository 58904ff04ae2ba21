"""Bullring referee: matches, bot processes, clocks, faults, replays, leagues, CLI."""

from referee import grpc_tuning

grpc_tuning.apply()  # before any referee module imports grpc (see referee/grpc_tuning.py)
