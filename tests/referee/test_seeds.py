"""Seeds from one place (sdk/seeding.py): play_local reproduces a refereed match choice
for choice, and replays recorded before keyed seeds still load and re-simulate."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from example_bots.random_bot.bot import RandomBot
from referee.bots.manifest import load_manifest
from referee.bots.process import BotPool
from referee.match.runner import play_match
from referee.replay import files as replay
from referee.replay.model import Replay, StoredOption
from referee.replay.resimulate import resimulate, snapshot_deltas
from referee.replay.values import option_to_replay
from referee.spec import MatchSpec
from sdk import play_local
from sdk.game import PRESETS
from sdk.seeding import match_seeds
from tests.referee.helpers import RANDOM_BOT, ROOMY_CLOCK

OLD_REPLAYS = Path(__file__).parent / "fixtures" / "pre_keyed_seeds"
SHORT = {"6nimmt": {"rounds": "1"}}
KEY = random.Random("reproduce").randbytes(32)


@pytest.fixture(scope="module")
def pool() -> Iterator[BotPool]:
    bots = BotPool()
    try:
        yield bots
    finally:
        asyncio.run(bots.close())


def refereed_choices(result_replay: Replay) -> list[tuple[int, StoredOption]]:
    return [(d.seat, d.options[d.choice]) for d in result_replay.decisions]


@pytest.mark.parametrize("league", ["repro", None])
@pytest.mark.parametrize("variant", list(PRESETS))
def test_play_local_reproduces_a_refereed_match_choice_for_choice(
    variant: str, league: str | None, pool: BotPool
) -> None:
    """The random example bot seeds itself from seed_hint: in a refereed match (real
    processes) and in play_local with the same key, league and match seed, it must make
    every choice the same (without a league: the public local key on both sides)."""
    players = max(3, PRESETS[variant].min_players)
    options = dict(SHORT.get(PRESETS[variant].family, {}))
    seed, match_id = 4242, "repro-000017"
    seeds = match_seeds(KEY, league, seed, players) if league else None
    bot = load_manifest(RANDOM_BOT)
    spec = MatchSpec(match_id, variant, options, seed, (bot,) * players, ROOMY_CLOCK, seeds)
    result = asyncio.run(play_match(spec, pool))
    assert result.faults == ()
    bots = [RandomBot] * players
    if league:
        local = play_local(variant, bots, seed, options, match_id=match_id, key=KEY, league=league)
    else:  # as `bullring play --seed` deals
        local = play_local(variant, bots, seed, options, match_id=match_id)
    assert local.deal_seed == spec.deal_seed == result.recorded_replay().deal_seed
    assert [(d.seat, option_to_replay(d.option)) for d in local.decisions] == (
        refereed_choices(result.recorded_replay())
    )
    assert local.scores == result.scores and local.ranks == result.ranks


@pytest.mark.parametrize("name", ["6nimmt", "11nimmt", "hornochsen"])
def test_a_replay_recorded_before_keyed_seeds_loads_and_re_simulates(name: str) -> None:
    data = replay.load(OLD_REPLAYS / f"{name}.json.gz")
    assert data.deal_seed is None  # dealt from `seed`, as every replay was then
    assert "deal_seed" not in data.to_json()
    assert resimulate(data) == data.final_result().scores
    assert len(snapshot_deltas(data)) == len(data.decisions) + 1
