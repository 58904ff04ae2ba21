"""The replay viewer's data for one match: the stored replay itself, no simulation.

A replay (referee/replay.py, format 2 or 3) is already what the viewer needs, compact: the
decisions (options as number arrays), the shared histories, and a snapshot of the table
after every decision (referee/snapshots.py: the referee's view plus each seat's own fields,
delta-encoded). So the data file is the replay's stored JSON text, wrapped in a call::

    Bullring.replayLoaded({...the replay...});

and a build only decompresses and writes it. The viewer's JavaScript draws the referee's
table from a snapshot, and a seat's table from the same snapshot showing only what that
seat's own view held at that step (``referee.snapshots.seat_view``: its own hand and own
fields, everything public, every hand only where hands are public). A finished match's
whole record is public in the published site; a seat's mode is a faithful rendering of
what that seat could see, not a secret.

A replay in another form (version 1, recorded before snapshots existed) is re-simulated
once to make its snapshots, and written in the same shape: ``match_id``, ``variant``,
``bots``, ``decisions`` (``seat``, ``kind``, ``choice``, ``options``, ``ms``, ``fault``)
and ``snapshots``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from referee.replay import option_from_json, option_to_replay, snapshot_deltas

READY_PREFIXES = (
    b'{"format":"bullring-replay","version":2,',
    b'{"format":"bullring-replay","version":3,',
)
"""How a replay with snapshots (format 2 or 3) as the referee stores it begins: viewer data
as it is (version 3 differs only in the events of its histories, which the viewer does not
read)."""


def viewer_data(replay: Mapping[str, Any]) -> dict[str, Any]:
    """The viewer's data for a replay of any version (see the module docstring)."""
    return {
        "match_id": str(replay["match_id"]),
        "variant": str(replay["variant"]),
        "bots": list(replay["bots"]),
        "decisions": [
            {
                "seat": d["seat"],
                "kind": d["kind"],
                "choice": d["choice"],
                "options": [option_to_replay(option_from_json(o)) for o in d["options"]],
                "ms": d.get("ms", 0.0),
                "fault": d.get("fault"),
            }
            for d in replay["decisions"]
        ],
        "snapshots": snapshot_deltas(replay),
    }


def viewer_script(replay_text: bytes) -> bytes:
    """The match's data file from the replay's stored JSON text."""
    if replay_text.startswith(READY_PREFIXES):
        payload = replay_text
    else:
        data = viewer_data(json.loads(replay_text))
        payload = json.dumps(data, separators=(",", ":")).encode()
    return b"Bullring.replayLoaded(" + payload + b");\n"
