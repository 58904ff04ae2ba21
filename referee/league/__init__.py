"""Leagues: league files, formats, the SQLite store, TrueSkill ratings and executors.

See docs/leagues.md (league files) and docs/store.md (the store's schema and read API).
"""
