"""One match between bots: the game loop and the clocks.

Layers, top first: :mod:`~referee.match.runner` (deal, set up every seat, ask each bot in
turn, apply, record) > :mod:`~referee.match.encoder` (Decide requests written straight to
the wire, reusing what earlier requests encoded) > :mod:`~referee.match.wire` (the fields
that change at every decision, in protobuf's wire format).
"""
