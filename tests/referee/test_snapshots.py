"""Table snapshots (referee/replay/snapshots.py): every seat's view is exactly derivable from them,
and replays hold and check them."""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

import pytest

from referee.bots.manifest import load_manifest
from referee.match.runner import run_match
from referee.replay.model import VERSION, Replay, ReplayError
from referee.replay.resimulate import resimulate, snapshot_deltas
from referee.replay.snapshots import (
    SnapshotRecorder,
    delta,
    expand,
    seat_view,
    snapshot,
    view_fields,
)
from referee.spec import MatchSpec
from sdk.game import PRESETS, new_game
from tests.referee.helpers import RANDOM_BOT, ROOMY_CLOCK

PLAYERS = {"6nimmt": 4, "6nimmt-logic": 3, "6nimmt-pro": 3, "xnimmt": 3}


@pytest.mark.parametrize("variant", list(PRESETS))
def test_every_seat_view_is_the_seat_view_of_the_snapshot(variant: str) -> None:
    preset = PRESETS[variant]
    for seed in range(3):
        players = max(preset.min_players, PLAYERS.get(variant, 3))
        state = new_game(
            variant, players, seed, {"rounds": "1"} if preset.family == "6nimmt" else {}
        )
        rng = random.Random(seed)
        recorder = SnapshotRecorder()
        recorder.record(state)
        steps = 0
        while not state.is_terminal():
            snap = snapshot(state)
            for seat in range(players):
                assert seat_view(snap, seat) == view_fields(state.view(seat)), (seed, steps, seat)
            for seat in state.pending():
                options = state.legal_options(seat)
                state.apply(seat, options[rng.randrange(len(options))])
                recorder.record(state)
                steps += 1
        assert expand(recorder.deltas)[-1] == snapshot(state)
        assert len(recorder.deltas) == steps + 1


@pytest.mark.parametrize("variant", list(PRESETS))
def test_the_recorder_keeps_the_delta_of_every_two_snapshots(variant: str) -> None:
    """The recorder skips fields whose engine value did not change: its deltas are still
    exactly delta(previous snapshot, next snapshot), key order included."""
    preset = PRESETS[variant]
    for seed in range(4):
        players = preset.min_players + seed % (preset.max_players - preset.min_players + 1)
        options = {"rounds": "2"} if preset.family == "6nimmt" else {}
        state = new_game(variant, players, 100 + seed, options)
        rng = random.Random(seed)
        recorder = SnapshotRecorder()
        recorder.record(state)
        snaps = [snapshot(state)]
        while not state.is_terminal():
            for seat in state.pending():
                legal = state.legal_options(seat)
                state.apply(seat, legal[rng.randrange(len(legal))])
                recorder.record(state)
                snaps.append(snapshot(state))
        expected = [snaps[0]] + [delta(a, b) for a, b in itertools.pairwise(snaps)]
        assert [list(d.items()) for d in recorder.deltas] == [list(d.items()) for d in expected]
        assert recorder.last == snaps[-1]


def test_a_seat_view_never_holds_an_opponents_hand() -> None:
    state = new_game("6nimmt", 4, 5, {"rounds": "1"})
    view = seat_view(snapshot(state), 2)
    assert view["hand"] == list(state.view(2).hand)
    assert view["all_hands"] == []


def test_resimulate_checks_the_snapshots_and_old_replays_get_them() -> None:
    bots = (load_manifest(RANDOM_BOT),) * 4  # a real match: bot processes over gRPC
    result = run_match(MatchSpec("s", "6nimmt", {"rounds": "1"}, 9, bots, ROOMY_CLOCK))
    data: dict[str, Any] = result.recorded_replay().to_json()
    assert data["version"] == VERSION and "view" not in data["decisions"][0]
    assert resimulate(Replay.from_json(data)) == list(result.scores)
    assert data["histories"][1:] == [0, 0, 0]  # public history: stored once, shared
    assert "side" not in data["histories"][0][0]  # events hold no default fields
    tampered = copy.deepcopy(data)
    tampered["histories"][0][-1]["seat"] = 9
    with pytest.raises(ReplayError, match="history"):
        resimulate(Replay.from_json(tampered))
    tampered = copy.deepcopy(data)
    tampered["snapshots"][3]["scores"] = [7, 7, 7, 7]
    with pytest.raises(ReplayError, match="decision 2: the recorded table snapshot"):
        resimulate(Replay.from_json(tampered))
    old = {k: v for k, v in data.items() if k != "snapshots"}
    with pytest.raises(ReplayError, match="no table snapshots"):
        Replay.from_json(old)  # read once, at the edge: refused there
    old["version"] = 1  # a replay recorded before snapshots: re-simulated to make them
    assert snapshot_deltas(Replay.from_json(old)) == data["snapshots"]
