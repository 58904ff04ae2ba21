"""A finished match's digest: what a replay viewer draws, made when the match is played.

A replay holds every option offered at every decision and each seat's whole history; a
viewer needs little of that. The digest keeps, as compact JSON::

    {
      "schema": "bullring.viewer/1", "match_id": ..., "variant": ..., "family": ...,
      "players": ["name@version", ...],
      "kinds": ["PICK_CARD", ...],          # decision kinds, by number
      "decisions": [[seat, kind, option, ms, options_offered], ...]
                   # + a 6th item {"fault": {...}, "auto": true} when there is one
      "snapshots": [{...the deal...}, {...changes after decision 1...}, ...],
      "setup_faults": [...]                 # only when there were any
    }

``option`` is the chosen option as the replay stores options (``[kind, card, row, side,
target]``, trailing defaults left off). Snapshots are delta-encoded as in the replay;
fields the viewer never draws (:data:`DROPPED_FIELDS`) are left out.

The league's worker makes it from the replay it has in hand (:func:`packed_digest`) and
the store keeps it beside the replay, so publishing a league copies it rather than
reading every replay again. It is the site's replay viewer data (docs/leaderboard.md
has its JSON Schema; the leaderboard adds the links to the bot log tails it publishes).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from referee.replay.model import Replay
from referee.replay.resimulate import snapshot_deltas
from referee.replay.shape import MAX_PLAYERS
from referee.replay.values import option_from_json, option_to_replay
from sdk.game import PRESETS

Json = Any

DIGEST_SCHEMA_ID = "bullring.viewer/1"

DROPPED_FIELDS = frozenset({"hand_sizes", "turn_start_tops"})
"""Snapshot fields the viewer never draws (the hands give the sizes)."""

HTML_IN_JSON = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})
"""``<``, ``>`` and ``&`` as JSON escapes (``\\u003c``), for JSON text a page or a browser
reads: only strings hold them (a bot's text, a fault's detail), so the values are the same
and no HTML parser ever meets a tag in it."""


def family_of(variant: str) -> str:
    """The game family of a variant id ("6nimmt-pro:rounds=2" -> "6nimmt")."""
    preset = PRESETS.get(variant.partition(":")[0])
    return preset.family if preset else ""


def _option(option: Json) -> list[int]:
    if type(option) is list:  # as replays since format 2 store options: numbers
        return option
    return option_to_replay(option_from_json(option))


def decision_row(record: Mapping[str, Json], kinds: dict[str, int]) -> list[Json]:
    """A decision of the replay as the digest's row ``[seat, kind, option, ms, options
    offered]`` (+ ``{fault, auto}`` when there is one); `kinds` numbers the kinds in order
    of appearance (and gains the new ones)."""
    kind = str(record.get("kind"))
    options = record["options"]
    kind_number = kinds.get(kind)
    if kind_number is None:
        kind_number = kinds[kind] = len(kinds)
    row: list[Json] = [
        int(record["seat"]),
        kind_number,
        _option(options[int(record["choice"])]),
        round(float(record.get("ms", 0.0)), 1),
        len(options),
    ]
    fault, auto = record.get("fault"), record.get("auto")
    if fault or auto:
        extra: dict[str, Json] = {}
        if fault:
            extra["fault"] = dict(fault)
        if auto:
            extra["auto"] = True
        row.append(extra)
    return row


def lean_snapshots(deltas: Sequence[Mapping[str, Json]]) -> list[dict[str, Json]]:
    """The replay's snapshots without the dropped fields (each still holds only the fields
    that changed)."""
    return [{n: v for n, v in change.items() if n not in DROPPED_FIELDS} for change in deltas]


def _snapshots(replay: Mapping[str, Json]) -> list[dict[str, Json]]:
    """The replay's snapshots as stored; a replay recorded before they were (version 1)
    is read as a :class:`Replay` (its histories, which the digest never reads and may
    have been left out, as empty) and re-simulated to make them."""
    stored = replay.get("snapshots")
    if stored is not None:
        return list(stored)
    players = replay.get("players")
    seats = players if isinstance(players, int) and 0 < players <= MAX_PLAYERS else 0
    empty: list[Json] = [[] for _ in range(seats)]  # a bad count is left to from_json
    return snapshot_deltas(Replay.from_json({"histories": empty, **replay}))


def digest(replay: Mapping[str, Json]) -> dict[str, Json]:
    """The digest of a replay of any version, given as its JSON object."""
    kinds: dict[str, int] = {}
    decisions = [decision_row(d, kinds) for d in replay["decisions"]]
    data: dict[str, Json] = {
        "schema": DIGEST_SCHEMA_ID,
        "match_id": str(replay["match_id"]),
        "variant": str(replay["variant"]),
        "family": family_of(str(replay["variant"])),
        "players": [f"{b['name']}@{b['version']}" for b in replay["bots"]],
        "kinds": list(kinds),
        "decisions": decisions,
        "snapshots": lean_snapshots(_snapshots(replay)),
    }
    setup_faults = replay.get("setup_faults") or []
    if setup_faults:
        data["setup_faults"] = list(setup_faults)
    return data


def digest_text(data: Mapping[str, Json]) -> str:
    """A digest (or the viewer data made from one) as compact JSON text, HTML's special
    characters escaped (HTML_IN_JSON)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).translate(HTML_IN_JSON)


def packed_digest(replay: Mapping[str, Json]) -> bytes:
    """The digest of a replay (its JSON object) as the store keeps it: compact JSON,
    zlib-compressed."""
    return zlib.compress(digest_text(digest(replay)).encode(), 6)
