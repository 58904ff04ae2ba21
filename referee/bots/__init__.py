"""Bots as the referee sees them: manifests, sandboxed processes, their output, and the
conversation with each one over gRPC.

Layers, top first: :mod:`~referee.bots.preflight` (is every bot ready for a match by hand?)
> :mod:`~referee.bots.client` (Hello, StartMatch, Decide, EndMatch) >
:mod:`~referee.bots.transport` (how a seat's requests travel) and
:mod:`~referee.bots.output` (a bot's output, live) > :mod:`~referee.bots.process` (start,
limit, wait until serving, kill; the pool) > :mod:`~referee.bots.log` (captured output),
:mod:`~referee.bots.manifest` (bot.toml) and :mod:`~referee.bots.grpc_tuning`.
"""
