"""The ``bullring`` command line: the root app, above ``referee`` and ``leaderboard``.

Nothing imports this package; it imports the sub-apps of the packages below it
(docs/architecture.md).
"""
