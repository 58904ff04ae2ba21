"""The replay viewer's data for one match: the stored replay, made compact, no simulation.

A replay (referee/replay.py) records the table after every decision as a snapshot
(referee/snapshots.py): the referee's view plus each seat's own fields, delta-encoded. The
builder passes them through as they are, with the decisions in short arrays; the viewer's
JavaScript draws the referee's table from a snapshot, and a seat's table from the same
snapshot showing only what that seat's own view holds at that step (its own hand and own
fields, everything public, public hands in Logic; never an opponent's hand or face-down
pick). A replay recorded before snapshots existed is re-simulated once to make them.

The data file is ``Bullring.replayLoaded(data)`` with::

    {"id": match id, "variant": preset, "family": "6nimmt" | "xnimmt" | "11nimmt" | ...,
     "players": ["name@version", ...],
     "decisions": [[seat, kind, choice, [[kind, card, row, side, target], ...], ms,
                    fault or null, auto], ...],
     "snapshots": [the deal in full, then what changed after each decision, ...]}

Option kinds and sides are numbers (sdk/game/core.py's OptionKind, Side).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from referee.replay import snapshot_deltas
from sdk.game import PRESETS, OptionKind, Side

_KIND = {kind.name: int(kind) for kind in OptionKind}
_SIDE = {side.name: int(side) for side in Side}


def _option(data: Mapping[str, Any]) -> list[int]:
    return [
        _KIND[data["kind"]],
        data.get("card", 0),
        data.get("row", -1),
        _SIDE[data["side"]] if "side" in data else 0,
        data.get("target", -1),
    ]


def _decision(data: Mapping[str, Any]) -> list[Any]:
    fault = data.get("fault")
    return [
        data["seat"],
        data["kind"],
        data["choice"],
        [_option(o) for o in data["options"]],
        data.get("ms", 0.0),
        {"kind": fault["kind"], "detail": fault.get("detail", "")} if fault else None,
        1 if data.get("auto") else 0,
    ]


def _bot_key(bot: Any) -> str:
    if isinstance(bot, Mapping):
        return f"{bot.get('name', '?')}@{bot.get('version', '0')}"
    return str(bot)


def viewer_data(replay: Mapping[str, Any]) -> dict[str, Any]:
    """The viewer's data for `replay` (see the module docstring)."""
    variant = str(replay["variant"])
    preset = PRESETS.get(variant)
    return {
        "id": str(replay["match_id"]),
        "variant": variant,
        "family": preset.family if preset else variant,
        "players": [_bot_key(b) for b in replay["bots"]],
        "decisions": [_decision(d) for d in replay["decisions"]],
        "snapshots": snapshot_deltas(replay),
    }


def viewer_script(replay: Mapping[str, Any]) -> str:
    """The match's data file: a script that hands the data to the viewer."""
    payload = json.dumps(viewer_data(replay), separators=(",", ":"), ensure_ascii=False)
    return f"Bullring.replayLoaded({payload});\n"
