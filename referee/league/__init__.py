"""Leagues: league files, formats, the SQLite store, TrueSkill ratings and executors.

See docs/leagues.md (league files) and docs/store.md (the store's schema and read API).

Layers, top first: :mod:`~referee.league.status` and :mod:`~referee.league.replays` (what
the commands read of a league) > :mod:`~referee.league.runner` (a league run) >
:mod:`~referee.league.executors` and :mod:`~referee.league.keyfile` >
:mod:`~referee.league.store` (with :mod:`~referee.league.store_reads` and
:mod:`~referee.league.store_rows` below it), :mod:`~referee.league.local_pool` and
:mod:`~referee.league.run_lock` > :mod:`~referee.league.formats` and
:mod:`~referee.league.ratings` > :mod:`~referee.league.config` (the league file).
"""
