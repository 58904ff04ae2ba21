"""The viewer's data file: a format-2 replay as it is stored; an older replay re-simulated
into the same shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from leaderboard.viewer_data import viewer_script
from referee.league.store import LeagueStore
from referee.replay import option_from_json, option_to_json


def payload(script: bytes) -> dict[str, Any]:
    assert script.startswith(b"Bullring.replayLoaded(") and script.endswith(b");\n")
    data: dict[str, Any] = json.loads(script[len(b"Bullring.replayLoaded(") : -3])
    return data


def as_version_1(replay: dict[str, Any]) -> dict[str, Any]:
    """The replay as the referee recorded it before snapshots: no snapshots, dict options."""
    old = {k: v for k, v in replay.items() if k != "snapshots"}
    old["version"] = 1
    old["decisions"] = [
        {**d, "options": [option_to_json(option_from_json(o)) for o in d["options"]]}
        for d in replay["decisions"]
    ]
    return old


def test_a_stored_replay_is_the_data_as_it_is(store_path: Path) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        match = store.matches(status="finished")[0]
        text = store.replay_text(match.match_id)
        replay = store.replay(match.match_id)
    assert text is not None and replay is not None
    assert payload(viewer_script(text)) == replay


def test_an_old_replay_is_re_simulated_into_the_same_data(store_path: Path) -> None:
    with LeagueStore.open_readonly(store_path) as store:
        for match in store.matches(status="finished")[::5]:
            replay = store.replay(match.match_id)
            assert replay is not None
            new = payload(viewer_script(json.dumps(replay).encode()))  # not as stored
            old = payload(viewer_script(json.dumps(as_version_1(replay)).encode()))
            assert old["snapshots"] == new["snapshots"] == replay["snapshots"]
            fields = ("seat", "kind", "choice", "options", "ms", "fault")
            assert [{k: d[k] for k in fields} for d in old["decisions"]] == [
                {k: d[k] for k in fields} for d in replay["decisions"]
            ]
            assert (old["bots"], old["variant"]) == (replay["bots"], replay["variant"])
