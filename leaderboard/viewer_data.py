"""The replay viewer's data for one match: only what the viewer shows, made from the
stored replay without simulating the game (docs/leaderboard.md has its JSON Schema).

A replay (referee/replay/files.py, format 2 or later) holds the decisions with every option
offered, the seats' histories, and a snapshot of the table after every decision
(referee/replay/snapshots.py). The viewer draws the table from the snapshots and says what each
decision chose, so it keeps (as JSON; the match page holds this JSON deflated and
base64-encoded in a data block, ``<script type="application/octet-stream"
id="replay-data">eNq...</script>``, see :func:`packed_data`)::

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
target]``, trailing defaults left off). Snapshots are delta-encoded as in the replay (each
holds the fields that changed; deflate makes a repeated hand cost almost nothing). Fields
the viewer never draws (``hand_sizes``: the hands give it; 11 nimmt!'s
``turn_start_tops``) are left out, and so are the histories, which the viewer never reads.
A replay recorded before snapshots existed is re-simulated once to make them.

:func:`viewer_data` is the definition: the match's digest (referee/replay/digest.py),
plus the log links. A league's store keeps each match's digest, made when it was played,
so the build copies it; for a match stored without one (a store from before digests) the
build makes the same JSON text from the stored replay's text without parsing it all
(viewer_text.py), and parses in full only a replay that is not in the referee's shape.

A finished match's whole record is public in the published site; a seat's view in the
viewer is a faithful rendering of what that seat could see, not a secret.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Mapping
from typing import Any

from leaderboard.viewer_text import viewer_json
from referee.decompress import inflate
from referee.limits import MAX_REPLAY_BYTES, json_items_problem
from referee.replay.digest import DROPPED_FIELDS, digest, digest_text, family_of

__all__ = [
    "DROPPED_FIELDS",
    "family_of",
    "packed_data",
    "packed_from_digest",
    "page_data",
    "unpack",
    "viewer_data",
]

Json = Any

_PAGE_DATA = re.compile(
    r'<script type="application/octet-stream" id="replay-data">([A-Za-z0-9+/=]*)</script>'
)


def _without_histories(text: bytes) -> bytes:
    """The replay's JSON text with its histories left out, before parsing (they are most
    of it, and the viewer never reads them): the referee writes ``"histories"`` right
    before ``"setup_faults"``. The text as it is when that shape is not found."""
    start = text.find(b',"histories":')
    end = text.find(b',"setup_faults":', start) if start > 0 else -1
    if start < 0 or end < 0:
        return text
    return text[:start] + text[end:]


def viewer_data(
    replay: Mapping[str, Json], logs: Mapping[int, str] | None = None
) -> dict[str, Json]:
    """The viewer's data of a replay of any version (see the module docstring); `logs`
    names the bot log tail file of each seat the league kept one for."""
    data = digest(replay)
    if logs:
        data["logs"] = _log_links(logs)
    return data


def _log_links(logs: Mapping[int, str]) -> dict[str, str]:
    return {str(seat): name for seat, name in sorted(logs.items())}


def packed_from_digest(packed: bytes, logs: Mapping[int, str] | None = None) -> str:
    """The viewer's data as a match page holds it, from the match's digest as the store
    keeps it (zlib-compressed JSON): copied as it is, unless there are log links to add."""
    if not logs:
        return base64.b64encode(packed).decode("ascii")
    data: dict[str, Json] = json.loads(inflate(packed, MAX_REPLAY_BYTES))
    data["logs"] = _log_links(logs)
    return _packed(digest_text(data))


def _packed(text: str) -> str:
    return base64.b64encode(zlib.compress(text.encode(), 6)).decode("ascii")


def packed_data(replay_text: bytes, logs: Mapping[int, str] | None = None) -> str:
    """The viewer's data of the replay's stored JSON text as its match page holds it: JSON,
    deflated (zlib) and base64-encoded (the browser inflates it with its own
    DecompressionStream)."""
    text = viewer_json(replay_text.decode(), logs)
    if text is None:  # not in the shape the referee writes: parse it all (not a bomb)
        lean = _without_histories(replay_text)
        problem = json_items_problem(lean)
        if problem is not None:
            raise ValueError(f"the replay holds {problem}")
        data = viewer_data(json.loads(lean), logs)
        text = digest_text(data)
    return _packed(text)


def unpack(packed: str) -> dict[str, Json]:
    """The viewer's data from its packed form (:func:`packed_data`)."""
    data: dict[str, Json] = json.loads(zlib.decompress(base64.b64decode(packed)))
    return data


def page_data(html: str) -> dict[str, Json]:
    """The viewer's data a match page holds (what the browser reads from it)."""
    found = _PAGE_DATA.search(html)
    if found is None:
        raise ValueError("no replay viewer data in the page")
    return unpack(found.group(1))
