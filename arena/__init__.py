"""The arena: a server that takes bot uploads from authors with their own tokens, checks
them in the sandbox off the request path, and registers those that pass in its league
(docs/arena.md). It sits above ``referee`` and ``leaderboard``.

Layers, top first: ``cli`` (the commands; only the CLI imports it) > ``server``,
``client`` (the HTTP API and its client) > ``checker`` (the check queue) > ``uploads``
(unpacking under caps), ``db`` (authors, tokens, uploads) > ``config`` (the arena file).
"""
