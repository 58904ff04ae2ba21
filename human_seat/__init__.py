"""The human seat: a person plays a seat of a match, in a terminal or in the browser.

``bullring play ... --bot human`` starts ``python -m human_seat`` beside the match: a
bot server like any other (:mod:`sdk.runtime`), whose bot asks a person. The referee
talks to it over gRPC as an endpoint, so the person sees only the seat's view and every
choice goes through the engine.

Layers, top first: ``__main__`` (the process) > ``terminal``, ``web`` (where the person is
asked) > ``bot`` (the Bot that asks a desk) > ``table`` (the seat's table as plain data).
"""
