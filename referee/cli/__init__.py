"""The referee's commands (``bullring play``, ``replay``, ``debug``, ``league``, ``bot``):
typer commands over the library below them; only the CLI imports these modules.

Layers, top first: :mod:`~referee.cli.bot` (``bot submit``, with ``bot check`` under it) >
one module per command (:mod:`~referee.cli.check`, :mod:`~referee.cli.debug`,
:mod:`~referee.cli.league`, :mod:`~referee.cli.play`, :mod:`~referee.cli.replay`) > what
they share (:mod:`~referee.cli.options`, :mod:`~referee.cli.output`,
:mod:`~referee.cli.progress`, :mod:`~referee.cli.trace`,
:mod:`~referee.cli.replay_browser`) > :mod:`~referee.cli.errors` (one-line user errors).
"""
