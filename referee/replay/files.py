"""Replay files: a match's self-contained JSON record, which re-simulates exactly, read
and written (gzip-compressed or not) under a cap on its size.

Format (``format = "bullring-replay"``, ``version = 3``; see docs/referee.md)::

    {format, version, match_id, variant, options, seed, deal_seed, players,
     bots: [{name, version}...], clock: {...},
     decisions: [{n, seat, kind, history_len, options, choice, ms, fault, auto}...],
                                           # options: [[kind, card, row, side, target]...]
     histories: [[event...] or k per seat],  # each seat's final public history
     snapshots: [the table at the deal, what changed after decision 1, ...],
     setup_faults: [fault...],
     result: {scores, ranks, faults, forfeited}}

``snapshots`` (referee/replay/snapshots.py) hold the whole table at every step: the referee's view
plus each seat's own fields, so every view a seat was sent is in the replay once
(:func:`referee.replay.snapshots.seat_view` of the snapshot at the start of the decision's engine
step), and replay viewers need no engine. The history a seat saw is
``histories[seat][:history_len]`` (histories only grow), which keeps replays linear in the
match length; an event holds only its fields that differ from their default, and a seat
whose history is the same as seat k's holds the number k. Version 1 replays (still read)
kept each decision's ``view`` instead of snapshots, full events and options as dicts;
:func:`snapshot_deltas` re-simulates those to make snapshots. :func:`resimulate`
replays every choice through a fresh engine and checks every snapshot, view, history,
option list and the result (a replay older than version 3 holds the events of older
engines: its histories are not compared; :data:`EVENTS_VERSION`).

The replay is a typed value in memory, :class:`Replay` (referee/replay/model.py), read
and checked once at the edge (:func:`load`, :meth:`Replay.from_json`). The jobs are split:
referee/replay/values.py (game-model values as the replay stores them),
referee/replay/record.py (:class:`ReplayBuilder`), referee/replay/resimulate.py
(:func:`resimulate`, :func:`verify`, :func:`steps`, :func:`snapshot_deltas`).

``seed`` is the match seed, ``deal_seed`` the seed the engine dealt from (derived from the
league's secret key and ``seed``, see sdk/seeding.py; never the key). A replay recorded
before deal seeds were derived has no ``deal_seed``: it was dealt from ``seed``.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from referee.decompress import GZIP_MAGIC, inflate, size_text
from referee.limits import MAX_REPLAY_BYTES, json_items_problem
from referee.replay.model import Replay, ReplayError


def save(replay: Replay, path: str | Path) -> None:
    """Write a replay as JSON (gzip-compressed when the name ends in .gz)."""
    text = json.dumps(replay.to_json(), separators=(",", ":"))
    file = Path(path)
    if len(text) > MAX_REPLAY_BYTES:  # it could not be read back
        raise ReplayError(f"{file}: the replay is larger than {size_text(MAX_REPLAY_BYTES)}")
    if file.suffix == ".gz":
        file.write_bytes(gzip.compress(text.encode()))
    else:
        file.write_text(text, encoding="utf-8")


def load(path: str | Path) -> Replay:
    """Read a replay written by :func:`save` (ReplayError if it is not one, or if it is
    larger than MAX_REPLAY_BYTES, compressed or not: decompression stops at the cap; or
    if it holds more than MAX_REPLAY_ITEMS values: it is not parsed)."""
    file = Path(path)
    try:
        with file.open("rb") as stream:
            raw = stream.read(MAX_REPLAY_BYTES + 1)
        if len(raw) > MAX_REPLAY_BYTES:
            raise ReplayError(f"{file}: larger than {size_text(MAX_REPLAY_BYTES)} (the cap)")
        if raw[:2] == GZIP_MAGIC:
            raw = inflate(raw, MAX_REPLAY_BYTES, gzip=True)
        problem = json_items_problem(raw)  # a JSON bomb: too many values to parse
        if problem is not None:
            raise ReplayError(f"{file}: {problem}")
        data = json.loads(raw)
    except ReplayError:
        raise
    except (OSError, ValueError, RecursionError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        if isinstance(exc, RecursionError):
            reason = "nested too deeply"
        raise ReplayError(f"{file}: cannot read replay: {reason}") from None
    return Replay.from_json(data, str(file))
