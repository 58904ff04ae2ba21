"""The viewer's data file: only what the viewer shows (no histories, no option lists),
small, valid against its schema, and the same table at every step as the stored replay;
an older replay is re-simulated into the same data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from leaderboard import paths
from leaderboard.jsondata import VIEWER_SCHEMA
from leaderboard.viewer_data import DROPPED_FIELDS, read_script, viewer_script
from referee.league.store import LeagueStore
from referee.replay import option_from_json, option_to_json, option_to_replay
from referee.snapshots import expand

MAX_DATA_BYTES = 10_000  # issue: at most 10 kB of replay data per match


def as_version_1(replay: dict[str, Any]) -> dict[str, Any]:
    """The replay as the referee recorded it before snapshots: no snapshots, dict options."""
    old = {k: v for k, v in replay.items() if k != "snapshots"}
    old["version"] = 1
    old["decisions"] = [
        {**d, "options": [option_to_json(option_from_json(o)) for o in d["options"]]}
        for d in replay["decisions"]
    ]
    return old


def expand_patched(snapshots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The viewer's expansion (bullring.js `expand`), in Python: an object value patches
    the previous list item by item."""
    full: list[dict[str, Any]] = []
    for k, change in enumerate(snapshots):
        if k == 0:
            full.append(dict(change))
            continue
        nxt = dict(full[-1])
        for key, value in change.items():
            if isinstance(value, dict):
                items = list(nxt[key])
                for index, item in value.items():
                    items[int(index)] = item
                nxt[key] = items
            else:
                nxt[key] = value
        full.append(nxt)
    return full


def check_against(data: dict[str, Any], replay: dict[str, Any]) -> None:
    jsonschema.validate(data, VIEWER_SCHEMA)
    assert data["match_id"] == replay["match_id"] and data["variant"] == replay["variant"]
    assert data["players"] == [f"{b['name']}@{b['version']}" for b in replay["bots"]]
    assert len(data["decisions"]) == len(replay["decisions"])
    for row, record in zip(data["decisions"], replay["decisions"], strict=True):
        chosen = option_to_replay(option_from_json(record["options"][record["choice"]]))
        assert row[0] == record["seat"] and data["kinds"][row[1]] == record["kind"]
        assert row[2] == chosen and row[4] == len(record["options"])
        assert (row[5].get("fault") if len(row) > 5 else None) == record.get("fault")
    tables = [
        {k: v for k, v in snap.items() if k not in DROPPED_FIELDS}
        for snap in expand(replay["snapshots"])
    ]
    assert expand_patched(data["snapshots"]) == tables
    assert "histories" not in data


def test_every_data_file_is_lean_valid_and_the_replays_table(
    site_dir: Path, store_path: Path
) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        matches = store.matches(status="finished")
        for match in matches:
            replay = store.replay(match.match_id)
            assert replay is not None
            script = (site_dir / paths.replay_script(match.match_id)).read_bytes()
            assert len(script) <= MAX_DATA_BYTES, (match.variant, len(script))
            check_against(read_script(script), replay)


def test_an_old_replay_is_re_simulated_into_the_same_data(store_path: Path) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        for match in store.matches(status="finished")[::5]:
            replay = store.replay(match.match_id)
            assert replay is not None
            new = read_script(viewer_script(json.dumps(replay).encode()))
            old = read_script(viewer_script(json.dumps(as_version_1(replay)).encode()))
            assert old == new
            check_against(old, replay)


def test_log_tails_are_named_in_the_data(store_path: Path) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        match = store.matches(status="finished")[0]
        text = store.replay_text(match.match_id)
    assert text is not None
    data = read_script(viewer_script(text, {1: "m.seat1.log.txt"}))
    jsonschema.validate(data, VIEWER_SCHEMA)
    assert data["logs"] == {"1": "m.seat1.log.txt"}
    assert "logs" not in read_script(viewer_script(text))
