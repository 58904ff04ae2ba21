"""Bullring referee: matches, bot processes, clocks, faults, replays, leagues, CLI.

Sub-packages in one-way layers, top first (docs/architecture.md; tests/test_architecture.py
holds the code to them): :mod:`referee.cli` > :mod:`referee.check` > :mod:`referee.league`
> :mod:`referee.match` > :mod:`referee.bots` and :mod:`referee.replay` >
:mod:`referee.sandbox` > :mod:`referee.limits` and :mod:`referee.decompress` >
:mod:`referee.spec` and :mod:`referee.faults`.
"""

from referee.bots import grpc_tuning

grpc_tuning.apply()  # before any referee module imports grpc (see referee/bots/grpc_tuning.py)
