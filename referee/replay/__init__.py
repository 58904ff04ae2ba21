"""Replays: a match's self-contained record, which re-simulates exactly.

Layers, top first: :mod:`~referee.replay.digest` (what a viewer draws) >
:mod:`~referee.replay.resimulate` (every recorded choice through a fresh engine, checked) >
:mod:`~referee.replay.record` (recording a match as it is played) >
:mod:`~referee.replay.result` (a match's result with its replay),
:mod:`~referee.replay.values` (game values as JSON) and :mod:`~referee.replay.files`
(reading and writing replay files) > :mod:`~referee.replay.model` (the replay as a typed
value) > :mod:`~referee.replay.shape` (a file's fields checked before use) and
:mod:`~referee.replay.snapshots` (the whole table after each decision).
"""
