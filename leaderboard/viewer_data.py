"""The replay viewer's data for one match: only what the viewer shows, made from the
stored replay without simulating the game (docs/leaderboard.md has its JSON Schema).

A replay (referee/replay.py, format 2 or later) holds the decisions with every option
offered, the seats' histories, and a snapshot of the table after every decision
(referee/snapshots.py). The viewer draws the table from the snapshots and says what each
decision chose, so it keeps (as JSON; the data file holds this JSON deflated and
base64-encoded, ``Bullring.replayLoaded("eNq...")``, see :func:`viewer_script`)::

    {
      "schema": "bullring.viewer/1", "match_id": ..., "variant": ..., "family": ...,
      "players": ["name@version", ...],
      "kinds": ["PICK_CARD", ...],          # decision kinds, by number
      "decisions": [[seat, kind, option, ms, options_offered], ...]
                   # + a 6th item {"fault": {...}, "auto": true} when there is one
      "snapshots": [{...the deal...}, {...changes after decision 1...}, ...],
      "logs": {"seat": "file name"}         # bot log tails the league kept, when it did
    }

``option`` is the chosen option as the replay stores options (``[kind, card, row, side,
target]``, trailing defaults left off). Snapshots are delta-encoded as in the replay, and
more finely: a changed list of lists (every hand, the rows) is written as ``{index:
new item}`` for the items that changed, where that is shorter. Fields the viewer never
draws (``hand_sizes``: the hands give it; 11 nimmt!'s ``turn_start_tops``) are left out,
and so are the histories, which the viewer never reads. A replay recorded before
snapshots existed is re-simulated once to make them.

A finished match's whole record is public in the published site; a seat's view in the
viewer is a faithful rendering of what that seat could see, not a secret.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from leaderboard.jsondata import VIEWER_SCHEMA_ID
from referee.replay import Replay, option_from_json, option_to_replay, snapshot_deltas
from referee.replay_shape import MAX_PLAYERS
from sdk.game import PRESETS

DROPPED_FIELDS = frozenset({"hand_sizes", "turn_start_tops"})
"""Snapshot fields the viewer never draws."""

Json = Any


def family_of(variant: str) -> str:
    """The game family of a variant id ("6nimmt-pro:rounds=2" -> "6nimmt")."""
    preset = PRESETS.get(variant.partition(":")[0])
    return preset.family if preset else ""


def _option(option: Json) -> list[int]:
    if type(option) is list:  # as replays since format 2 store options: numbers
        return option
    return option_to_replay(option_from_json(option))


def _list_patch(old: Json, new: Json) -> Json:
    """`new`, or ``{index: item}`` of the items of a list of lists that changed when at
    most half of them did (the viewer patches the previous list with it)."""
    if (
        type(old) is list
        and type(new) is list
        and len(old) == len(new) > 1
        and type(new[0]) is list
    ):
        patch = {str(i): b for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b}
        if 2 * len(patch) <= len(new):
            return patch
    return new


def lean_snapshots(deltas: Sequence[Mapping[str, Json]]) -> list[dict[str, Json]]:
    """The replay's snapshots without the dropped fields, with changed lists of lists
    written as patches."""
    current: dict[str, Json] = {}
    out: list[dict[str, Json]] = []
    for k, change in enumerate(deltas):
        if k == 0:
            current = {n: v for n, v in change.items() if n not in DROPPED_FIELDS}
            out.append(dict(current))
            continue
        lean: dict[str, Json] = {}
        for name, value in change.items():
            if name in DROPPED_FIELDS:
                continue
            old = current.get(name)
            if old == value:
                continue
            # only a list of lists (hands, rows) may be written as a patch
            if type(value) is list and value and type(value[0]) is list:
                lean[name] = _list_patch(old, value)
            else:
                lean[name] = value
            current[name] = value
        out.append(lean)
    return out


def _without_histories(text: bytes) -> bytes:
    """The replay's JSON text with its histories left out, before parsing (they are most
    of it, and the viewer never reads them): the referee writes ``"histories"`` right
    before ``"setup_faults"``. The text as it is when that shape is not found."""
    start = text.find(b',"histories":')
    end = text.find(b',"setup_faults":', start) if start > 0 else -1
    if start < 0 or end < 0:
        return text
    return text[:start] + text[end:]


def _decision(record: Mapping[str, Json], kinds: dict[str, int]) -> list[Json]:
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


def viewer_data(
    replay: Mapping[str, Json], logs: Mapping[int, str] | None = None
) -> dict[str, Json]:
    """The viewer's data of a replay of any version (see the module docstring); `logs`
    names the bot log tail file of each seat the league kept one for."""
    kinds: dict[str, int] = {}
    decisions = [_decision(d, kinds) for d in replay["decisions"]]
    data: dict[str, Json] = {
        "schema": VIEWER_SCHEMA_ID,
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
    if logs:
        data["logs"] = {str(seat): name for seat, name in sorted(logs.items())}
    return data


def _snapshots(replay: Mapping[str, Json]) -> list[dict[str, Json]]:
    """The replay's snapshots as stored; a replay recorded before they were (version 1)
    is read as a :class:`Replay` (its histories, which the viewer never reads and may
    have been left out, as empty) and re-simulated to make them."""
    stored = replay.get("snapshots")
    if stored is not None:
        return list(stored)
    players = replay.get("players")
    seats = players if isinstance(players, int) and 0 < players <= MAX_PLAYERS else 0
    empty: list[Json] = [[] for _ in range(seats)]  # a bad count is left to from_json
    return snapshot_deltas(Replay.from_json({"histories": empty, **replay}))


def viewer_script(replay_text: bytes, logs: Mapping[int, str] | None = None) -> bytes:
    """The match's data file from the replay's stored JSON text: the viewer's data as JSON,
    deflated (zlib) and base64-encoded, in a call the page's script answers (the browser
    inflates it with its own DecompressionStream)."""
    data = viewer_data(json.loads(_without_histories(replay_text)), logs)
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    packed = base64.b64encode(zlib.compress(payload, 6))
    return b'Bullring.replayLoaded("' + packed + b'");\n'


def read_script(script: bytes) -> dict[str, Json]:
    """The viewer's data held by a data file (what the browser reads from it)."""
    prefix, suffix = b'Bullring.replayLoaded("', b'");\n'
    if not (script.startswith(prefix) and script.endswith(suffix)):
        raise ValueError("not a replay viewer data file")
    data: dict[str, Json] = json.loads(
        zlib.decompress(base64.b64decode(script[len(prefix) : -len(suffix)]))
    )
    return data
