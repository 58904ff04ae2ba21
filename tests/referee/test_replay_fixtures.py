"""Replays recorded by earlier versions of Bullring (tests/fixtures/replays, recorded with
`bullring play ... --replay-out` before the game API's events changed) still re-simulate
to the result they record, and the leaderboard's replay viewer still reads them.

Recorded with the example bots (rules_bot and random_bot alternating by seat), seed 11,
no clock: X nimmt! (3 players), 11 nimmt! (3), Hornochsen! (4), 6 nimmt! Professional and
Logic (rounds=1; 4 and 3 players).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from leaderboard.viewer_data import viewer_data
from referee.replay import files as replay
from referee.replay.model import Replay
from referee.replay.resimulate import resimulate
from referee.replay.snapshots import expand
from referee.replay.values import option_from_json, option_to_replay
from sdk.game import new_game

FIXTURES = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "replays").glob("*.gz"))


def test_there_are_fixtures_of_every_family() -> None:
    variants = {replay.load(path).variant for path in FIXTURES}
    assert {"xnimmt", "11nimmt", "hornochsen", "6nimmt-pro", "6nimmt-logic"} <= variants


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name.split(".")[0])
def test_an_old_replay_resimulates_to_its_recorded_result(path: Path) -> None:
    data = replay.load(path)
    result = data.final_result()
    assert resimulate(data) == result.scores
    # The same choices through a fresh engine, by the SDK alone: the same end.
    seed = data.seed if data.deal_seed is None else data.deal_seed  # older: seed
    state = new_game(data.variant, data.players, seed, data.options)
    for record in data.decisions:
        options = [option_to_replay(o) for o in state.legal_options(record.seat)]
        assert options == record.options
        state.apply(record.seat, option_from_json(options[record.choice]))
    assert state.is_terminal()
    assert state.scores() == result.scores
    assert state.ranks() == result.ranks


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name.split(".")[0])
def test_an_old_replay_reads_back_to_the_same_json(path: Path) -> None:
    """The typed replay loses nothing: written out, it is the file's JSON, field for
    field, and it reads back to the same value."""
    raw = json.loads(gzip.decompress(path.read_bytes()))
    data = replay.load(path)
    assert data.to_json() == raw
    assert Replay.from_json(data.to_json()) == data


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name.split(".")[0])
def test_the_viewer_reads_an_old_replay(path: Path) -> None:
    data = replay.load(path)
    shown = viewer_data(data.to_json())
    assert len(shown["decisions"]) == len(data.decisions)
    tables = expand(shown["snapshots"])
    assert len(tables) == len(data.decisions) + 1
    assert tables[-1]["scores"] == data.final_result().scores
